"""The library report: documents and passages counted by the kind their file name
says, skipped files grouped by reason (hidden names included), notices apart from
skips, the vectors' state, and readable lines that no file name can break."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.core.documents.test_pdf import boiler_manual
from tests.helpers import library_of, memory_library, write_lesson
from tests.helpers.messy_library import EXPECTED_REASONS
from tests.helpers.pdf_files import pdf_bytes
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import FileProblem, Library
from tui_assistant.core.library.report import (
    SKIP_REASONS,
    KeptVectors,
    LibraryReport,
    StoreFacts,
    VectorFacts,
    build_report,
)
from tui_assistant.core.library.report_records import LibraryRecord
from tui_assistant.core.library.report_text import SHOWN_PER_REASON, format_report, human_size
from tui_assistant.store.folder import MAX_BYTES

STORE = StoreFacts("/data/libraries/notes-0123.sqlite3", 2_400_000)
OFF = VectorFacts(None, reason="TUI_ASSISTANT_RETRIEVAL is ranked")


def passage(path: str, number: int = 0) -> Passage:
    return Passage(f"p{number}-{path}", f"Title {number}", "text", f"notes/{path}", 1, 3)


def library(
    paths: list[str], problems: tuple[FileProblem, ...] = (), hidden: tuple[str, ...] = ()
) -> Library:
    base = library_of([passage(path, number) for number, path in enumerate(paths)])
    return Library(
        Path("notes"),
        base.passages,
        base.documents,
        base.index,
        lambda number: "text",
        problems,
        hidden=hidden,
    )


def report_of(lib: Library, vectors: VectorFacts = OFF) -> LibraryReport:
    return build_report(lib, "ranked", STORE, vectors)


def json_of(report: LibraryReport) -> dict[str, Any]:
    """The report as `library --json` prints it."""
    return LibraryRecord.of(report).model_dump(mode="json")


def test_documents_and_passages_are_counted_by_kind_with_every_kind_always_there() -> None:
    lib = library(["a.md", "b.md", "c.rst", "d.rst.txt", "e.txt"])

    data = json_of(report_of(lib))

    assert data["documents"] == {
        "total": 5,
        "by_kind": {"md": 2, "rst": 2, "txt": 1, "html": 0, "pdf": 0, "man": 0, "py": 0},
    }
    assert data["passages"] == {
        "total": 5,
        "by_kind": {"md": 2, "rst": 2, "txt": 1, "html": 0, "pdf": 0, "man": 0, "py": 0},
    }
    only_markdown = json_of(report_of(library(["a.md"])))
    assert only_markdown["documents"] == {
        "total": 1,
        "by_kind": {"md": 1, "rst": 0, "txt": 0, "html": 0, "pdf": 0, "man": 0, "py": 0},
    }


def test_passages_of_a_document_with_several_count_for_its_kind(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "guide.md").write_text(
        "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n## Use\n\nAsk.\n"
    )
    write_lesson(folder, "pasta", "Pasta", "Salt the water.")

    data = json_of(report_of(memory_library(folder)))

    assert data["documents"]["by_kind"]["md"] == 2
    assert data["passages"] == {
        "total": 4,
        "by_kind": {"md": 4, "rst": 0, "txt": 0, "html": 0, "pdf": 0, "man": 0, "py": 0},
    }


def test_every_skip_of_a_real_folder_is_grouped_by_its_reason(messy: Path) -> None:
    (messy / "big.md").write_bytes(b"# Big\n\n" + b"a" * MAX_BYTES["md"])
    (messy / "link.md").symlink_to(messy / "pasta-water.md")
    (messy / ".git").mkdir()
    (messy / ".git" / "HEAD.md").write_text("# Not read\n\ntext\n")
    (messy / "sub" / ".draft.md").write_text("# Draft\n\ntext\n")
    (messy / "locked.pdf").write_bytes(pdf_bytes(boiler_manual(user_password="secret")))
    (messy / "scan.pdf").write_bytes(pdf_bytes(boiler_manual(scanned_pages={0, 1, 2})))
    (messy / "sub" / "cut.pdf").write_bytes(pdf_bytes(boiler_manual())[:900])
    (messy / "again.md").write_text("```{include} pasta-water.md\n```\n")

    data = json_of(report_of(memory_library(messy)))

    skipped = data["skipped"]
    assert isinstance(skipped, dict)
    assert skipped["by_reason"] == {
        "too_big": 1,
        "not_utf8": 1,
        "binary": 2,
        "symlink": 1,
        # The messy folder's `.md`, the `.git` folder (not looked into) and a draft.
        "hidden": 3,
        "empty": 2,
        "no_text": 1,
        "includes_only": 1,
        "built_site": 0,
        "index_page": 0,
        "encrypted": 1,
        "no_text_layer": 1,
        "broken_pdf": 1,
        "source_only": 0,
        "not_regular": 1,
        "unreadable": 0,
        "other": 0,
    }
    files = {file["path"]: file["reason"] for file in skipped["files"]}
    assert files[".git/"] == "hidden" and files["sub/.draft.md"] == "hidden"
    assert "HEAD.md" not in " ".join(files)
    assert files["big.md"] == "too_big" and files["link.md"] == "symlink"
    assert files["again.md"] == "includes_only"  # it only includes pasta-water.md
    assert (files["locked.pdf"], files["scan.pdf"], files["sub/cut.pdf"]) == (
        "encrypted",
        "no_text_layer",
        "broken_pdf",
    )
    assert {name: files[name] for name in EXPECTED_REASONS} == {
        "title-only.md": "no_text",
        "empty.md": "empty",
        "blank.md": "empty",
        "latin1.md": "not_utf8",
        "binary.md": "binary",
        "nul\nbyte.md": "binary",
        "pipe.md": "not_regular",
    }
    assert skipped["total"] == len(skipped["files"]) == 16


def test_an_id_collision_is_a_notice_not_a_skip() -> None:
    notice = FileProblem("a-b.md", "id a-b is taken, so its id is a-b-2", skipped=False)
    report = report_of(library(["a_b.md", "a-b.md"], problems=(notice,)))

    data = json_of(report)

    assert data["skipped"]["total"] == 0
    assert data["notices"] == [{"path": "a-b.md", "message": notice.reason}]
    assert f"notice: {notice}" in format_report(report).splitlines()


def test_the_vectors_state_is_off_complete_or_incomplete() -> None:
    lib = library(["a.md", "b.md", "c.md"])

    off = json_of(report_of(lib))["vectors"]
    incomplete = json_of(report_of(lib, VectorFacts("minilm@1234", embedded=2)))["vectors"]
    complete = json_of(report_of(lib, VectorFacts("minilm@1234", embedded=3)))["vectors"]

    assert off == {
        "state": "off",
        "reason": "TUI_ASSISTANT_RETRIEVAL is ranked",
        "model": None,
        "source": None,
        "problem": None,
        "embedded": 0,
        "total": 3,
        "kept": [],
    }
    assert incomplete == {
        "state": "incomplete",
        "reason": None,
        "model": "minilm@1234",
        "source": None,
        "problem": None,
        "embedded": 2,
        "total": 3,
        "kept": [],
    }
    assert complete["state"] == "complete"


def test_a_server_problem_and_the_vectors_kept_of_other_models_are_lines_of_the_report() -> None:
    lib = library(["a.md", "b.md", "c.md"])
    facts = VectorFacts(
        "nomic-embed-text",
        embedded=1,
        source="server 127.0.0.1:11434",
        problem="the embedding server at 127.0.0.1:11434 cannot be reached (connection refused)",
        kept=(KeptVectors("all-MiniLM-L6-v2@53aa51172d142c89", 384, 3),),
    )
    report = report_of(lib, facts)

    lines = format_report(report).splitlines()

    assert "vectors: nomic-embed-text (server 127.0.0.1:11434): 1/3 passages embedded" in lines
    assert (
        "embedding: the embedding server at 127.0.0.1:11434 cannot be reached"
        " (connection refused)" in lines
    )
    assert "kept: all-MiniLM-L6-v2@53aa51172d142c89 (384 dimensions): 3/3 passages" in lines
    vectors = json_of(report)["vectors"]
    assert vectors["problem"] == facts.problem
    assert vectors["kept"] == [
        {"model": "all-MiniLM-L6-v2@53aa51172d142c89", "dimensions": 384, "embedded": 3}
    ]


def test_the_json_keys_are_the_same_for_any_library() -> None:
    empty_ish = json_of(report_of(library(["a.md"])))
    busy = json_of(
        report_of(
            library(
                ["a.md", "b.rst", "c.txt"],
                problems=(FileProblem("x.md", "not UTF-8"),),
                hidden=(".git/",),
            ),
            VectorFacts("m@1", embedded=1),
        )
    )

    def keys(value: object) -> object:
        if isinstance(value, dict):
            return {key: keys(inner) for key, inner in value.items()}
        return None

    assert keys(empty_ish) == keys(busy)
    assert list(empty_ish) == [
        "name",
        "library",
        "retrieval",
        "documents",
        "passages",
        "skipped",
        "notices",
        "store",
        "vectors",
        "package",
        "version",
        "origin",
    ]
    assert empty_ish["store"] == {"path": STORE.path, "bytes": STORE.size}


def test_the_readable_report_says_it_all_on_lines_no_file_name_can_break() -> None:
    hostile = "evil\n\x1b]0;owned\x07name.md"
    report = report_of(
        library(
            ["a.md", "b.md", "c.rst"],
            problems=(FileProblem(hostile, "binary file (contains NUL bytes)"),),
            hidden=(".obsidian/",),
        ),
        VectorFacts("minilm@1234", embedded=2),
    )

    lines = format_report(report).splitlines()

    assert lines[:4] == [
        "library: notes (notes)",
        "documents: 3 (md 2, rst 1)",
        "passages: 3 (md 2, rst 1)",
        "skipped: 2 files",
    ]
    assert "  binary: 1" in lines
    assert "    evil\\x0a\\x1b]0;owned\\x07name.md" in lines
    assert f"  {SKIP_REASONS['hidden']}: 1" in lines and "    .obsidian/" in lines
    assert "store: /data/libraries/notes-0123.sqlite3 (2.4 MB)" in lines
    assert "vectors: minilm@1234: 2/3 passages embedded" in lines
    assert "\x1b" not in "\n".join(lines)


def test_a_long_list_of_skips_is_cut_in_the_readable_report_but_not_in_json() -> None:
    many = tuple(f".hidden-{number:02}.md" for number in range(SHOWN_PER_REASON + 5))
    report = report_of(library(["a.md"], hidden=many))

    lines = format_report(report).splitlines()

    assert "    .hidden-00.md" in lines
    assert f"    .hidden-{SHOWN_PER_REASON:02}.md" not in lines
    assert "    … and 5 more (--json lists all)" in lines
    assert len(json_of(report)["skipped"]["files"]) == len(many)


def test_a_store_never_written_and_vectors_off_say_why() -> None:
    report = build_report(library(["a.md"]), "ranked", StoreFacts("/ro/x.sqlite3", 0), OFF)

    lines = format_report(report).splitlines()

    assert "store: /ro/x.sqlite3 (not written: indexed in memory)" in lines
    assert "vectors: off (TUI_ASSISTANT_RETRIEVAL is ranked)" in lines
    assert "skipped: none" in lines


def test_sizes_read_as_a_file_manager_shows_them() -> None:
    assert human_size(0) == "0 bytes"
    assert human_size(1) == "1 byte"
    assert human_size(999) == "999 bytes"
    assert human_size(45_056) == "45.1 kB"
    assert human_size(5_300_000) == "5.3 MB"
    assert human_size(12_000_000_000) == "12.0 GB"


def test_a_symlinked_folder_is_a_skip_too(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    write_lesson(folder, "pasta", "Pasta", "Salt the water.")
    os.symlink(tmp_path, folder / "outside")

    data = json_of(report_of(memory_library(folder)))

    assert data["skipped"]["files"] == [
        {"path": "outside", "reason": "symlink", "detail": "is a symlink (not followed)"}
    ]
