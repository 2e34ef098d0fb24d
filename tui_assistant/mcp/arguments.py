"""The arguments several MCP tools take, as types: the server validates each call
against them and gives clients their descriptions in the input schema. An argument of
one tool only is typed in that tool's module."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from tui_assistant.core.service import MAX_QUESTION_CHARS

Question = Annotated[
    str,
    Field(
        strict=True,
        min_length=1,
        max_length=MAX_QUESTION_CHARS,
        description=f"a question in plain words, 1 to {MAX_QUESTION_CHARS:,} characters",
    ),
]
LibraryName = Annotated[
    str | None,
    Field(
        strict=True,
        max_length=100,
        description="the name of one library to search or read (as `status` lists them); "
        "every library when omitted",
    ),
]
