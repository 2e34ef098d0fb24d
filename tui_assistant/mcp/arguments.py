"""The MCP tools' arguments as types: the server validates each call against them and
gives clients their descriptions in the input schema."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from tui_assistant.core.checks.citations import MAX_ANSWER_CHARS
from tui_assistant.core.service import MAX_QUESTION_CHARS

MAX_LIMIT = 10
DEFAULT_LIMIT = 5
MAX_GAPS = 100
DEFAULT_GAPS = 20

Question = Annotated[
    str,
    Field(
        strict=True,
        min_length=1,
        max_length=MAX_QUESTION_CHARS,
        description=f"a question in plain words, 1 to {MAX_QUESTION_CHARS:,} characters",
    ),
]
Limit = Annotated[
    int,
    Field(strict=True, ge=1, le=MAX_LIMIT, description=f"how many passages, 1 to {MAX_LIMIT}"),
]
GapLimit = Annotated[
    int,
    Field(strict=True, ge=1, le=MAX_GAPS, description=f"how many groups, 1 to {MAX_GAPS}"),
]
Answer = Annotated[
    str,
    Field(
        strict=True,
        max_length=MAX_ANSWER_CHARS,
        description="the draft answer, citing [source:ID] after what each passage backs and "
        f"quoting passages in double quotes; at most {MAX_ANSWER_CHARS:,} characters",
    ),
]
PassageId = Annotated[
    str | None, Field(strict=True, description="a passage id, as `search` returns them")
]
SourcePath = Annotated[
    str | None,
    Field(
        strict=True,
        description="a document's source_path, as `search` returns them "
        "(relative to the library's parent folder); with line and end_line",
    ),
]
LineNumber = Annotated[int | None, Field(strict=True, ge=1, description="1-based, inclusive")]
LibraryName = Annotated[
    str | None,
    Field(
        strict=True,
        max_length=100,
        description="the name of one library to search or read (as `status` lists them); "
        "every library when omitted",
    ),
]
