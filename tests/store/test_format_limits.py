"""Each format's size limit comes from its record: a file of any format one byte over
its format's limit is skipped unread, with a one-line warning naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import memory_library
from tui_assistant.core.documents.formats import DOCUMENT_KINDS, FORMATS, DocumentFormat
from tui_assistant.core.library.library import warning_lines
from tui_assistant.core.words import stem
from tui_assistant.store.folder import MIB, read_document
from tui_assistant.store.index_store import open_library


@pytest.mark.parametrize("format", FORMATS, ids=lambda format: format.name)
def test_a_file_over_its_formats_limit_is_skipped_with_a_warning(
    tmp_path: Path, format: DocumentFormat
) -> None:
    (tmp_path / "kept.md").write_text("# Kept\n\nThe radiators are bled.\n", encoding="utf-8")
    name = f"huge{format.suffixes[0]}"
    with (tmp_path / name).open("wb") as huge:
        huge.truncate(format.max_bytes + 1)  # sparse: no disk used
    reason = f"larger than {format.max_bytes // MIB} MiB"

    assert read_document(tmp_path, name) == reason
    library = open_library(tmp_path, None, stem, kinds=DOCUMENT_KINDS)
    assert f"skipped file {name}: {reason}" in warning_lines(library.problems)
    assert [info.document for info in library] == ["kept.md"]


def test_a_file_at_its_limit_is_read(tmp_path: Path) -> None:
    text = b"# Notes\n\n" + b"word " * ((MIB - 9) // 5)
    (tmp_path / "notes.md").write_bytes(text.ljust(MIB, b" "))

    assert {info.document for info in memory_library(tmp_path)} == {"notes.md"}
