"""The disk side of the library: which files are documents, which are skipped and why,
document ids, and the in-memory `Library` view."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.helpers import library_of
from tests.helpers.properties import PROPERTY, any_text
from tui_assistant.core.display_text import clean_display_text
from tui_assistant.core.documents.markdown_inline import plain_inline
from tui_assistant.core.documents.passage import Document, Passage
from tui_assistant.core.library.library import (
    INCLUDES_ONLY,
    FileProblem,
    document_ids,
    parse_document,
    printable_file_name,
    warning_lines,
)
from tui_assistant.errors import LibraryError
from tui_assistant.store.folder import MAX_BYTES, list_library, read_document


def write(folder: Path, relative: str, text: str = "# Title\n\nSome text.\n") -> Path:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def listed(folder: Path) -> list[str]:
    return [stamp.path for stamp in list_library(folder).files]


def problems(folder: Path) -> dict[str, str]:
    return {problem.path: problem.reason for problem in list_library(folder).problems}


# -- list_library -----------------------------------------------------------------


def test_markdown_files_at_any_depth_are_listed_sorted(tmp_path: Path) -> None:
    for relative in ["b.md", "a.md", "x/y/z/deep.md", "x/mid.md"]:
        write(tmp_path, relative)
    assert listed(tmp_path) == ["a.md", "b.md", "x/mid.md", "x/y/z/deep.md"]
    assert list_library(tmp_path).problems == ()


def test_stamps_carry_size_and_mtime(tmp_path: Path) -> None:
    path = write(tmp_path, "a.md", "12345")
    os.utime(path, ns=(1_000_000_000, 2_000_000_123))
    (stamp,) = list_library(tmp_path).files
    assert (stamp.path, stamp.size, stamp.mtime_ns) == ("a.md", 5, 2_000_000_123)


def test_other_files_are_ignored_silently(tmp_path: Path) -> None:
    write(tmp_path, "keep.md")
    for name in ["image.png", "README.MD", "md", "x.md.bak", "sub/data.json", "a.rst.bak"]:
        write(tmp_path, name)
    assert listed(tmp_path) == ["keep.md"]
    assert problems(tmp_path) == {}


def test_rst_and_txt_files_are_documents_too(tmp_path: Path) -> None:
    for name in ["a.md", "b.rst", "c.rst.txt", "d.txt", "e.json"]:
        write(tmp_path, name)
    assert listed(tmp_path) == ["a.md", "b.rst", "c.rst.txt", "d.txt"]


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        (("md",), ["a.md"]),
        (("rst",), ["b.rst", "c.rst.txt"]),  # a Sphinx source copy is rst, not txt
        (("txt",), ["d.txt"]),
        (("md", "txt"), ["a.md", "d.txt"]),
    ],
)
def test_only_the_kinds_asked_for_are_listed(
    tmp_path: Path, kinds: tuple[str, ...], expected: list[str]
) -> None:
    for name in ["a.md", "b.rst", "c.rst.txt", "d.txt"]:
        write(tmp_path, name)
    (tmp_path / "link.txt").symlink_to(tmp_path / "d.txt")
    listing = list_library(tmp_path, kinds)
    assert [stamp.path for stamp in listing.files] == expected
    # A symlink is reported only when it is named like a document of those kinds.
    assert [p.path for p in listing.problems] == (["link.txt"] if "txt" in kinds else [])


def test_names_starting_with_a_dot_are_skipped_files_and_folders(tmp_path: Path) -> None:
    write(tmp_path, "visible.md")
    write(tmp_path, ".hidden.md")
    write(tmp_path, ".git/inside.md")
    write(tmp_path, "sub/.draft.md")
    write(tmp_path, "sub/.cache/deep/x.md")
    assert listed(tmp_path) == ["visible.md"]
    assert problems(tmp_path) == {}


def test_a_folder_named_like_a_document_is_walked(tmp_path: Path) -> None:
    write(tmp_path, "notes.md/inner.md")
    assert listed(tmp_path) == ["notes.md/inner.md"]


def test_a_folder_symlink_is_reported_and_not_walked(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, "secret.md")
    library = tmp_path / "lib"
    write(library, "real.md")
    (library / "linked").symlink_to(outside, target_is_directory=True)
    (library / "loop").symlink_to(library, target_is_directory=True)
    assert listed(library) == ["real.md"]
    assert problems(library) == {
        "linked": "is a symlink (not followed)",
        "loop": "is a symlink (not followed)",
    }


def test_a_symlink_to_another_kind_of_file_is_ignored(tmp_path: Path) -> None:
    write(tmp_path, "real.md")
    write(tmp_path, "data.json")
    (tmp_path / "alias.json").symlink_to(tmp_path / "data.json")
    assert listed(tmp_path) == ["real.md"]
    assert problems(tmp_path) == {}


def test_a_fifo_named_like_a_document_is_reported_without_hanging(tmp_path: Path) -> None:
    write(tmp_path, "real.md")
    os.mkfifo(tmp_path / "pipe.md")
    assert listed(tmp_path) == ["real.md"]
    assert problems(tmp_path) == {"pipe.md": "is not a regular file"}
    # Reading it directly does not block either.
    assert read_document(tmp_path, "pipe.md") == "is not a regular file"


def test_a_file_name_that_is_not_utf8_is_reported_not_a_crash(tmp_path: Path) -> None:
    write(tmp_path, "good.md")
    bad = os.path.join(os.fsencode(tmp_path), b"caf\xe9.md")
    with open(bad, "wb") as handle:
        handle.write(b"# Cafe\n\ntext\n")
    assert listed(tmp_path) == ["good.md"]
    (problem,) = list_library(tmp_path).problems
    assert problem.reason == "has a name that is not UTF-8"
    assert str(problem) == "skipped file caf\\xe9.md: has a name that is not UTF-8"


def test_a_folder_name_that_is_not_utf8_is_reported_for_its_documents(tmp_path: Path) -> None:
    folder = os.path.join(os.fsencode(tmp_path), b"dir\xff")
    os.mkdir(folder)
    with open(os.path.join(folder, b"x.md"), "wb") as handle:
        handle.write(b"# X\n\ntext\n")
    write(tmp_path, "good.md")
    assert listed(tmp_path) == ["good.md"]
    (problem,) = list_library(tmp_path).problems
    assert "\\xff" in str(problem)
    assert "x.md" in str(problem)


def test_a_missing_folder_is_a_library_error(tmp_path: Path) -> None:
    with pytest.raises(LibraryError, match="does not exist"):
        list_library(tmp_path / "nope")


def test_a_file_instead_of_a_folder_is_a_library_error(tmp_path: Path) -> None:
    path = write(tmp_path, "file.md")
    with pytest.raises(LibraryError, match="is not a folder"):
        list_library(path)


def test_printable_file_name_escapes_what_could_drive_a_terminal() -> None:
    assert printable_file_name("a\nb\x1b[31m\u202e.md") == "a\\x0ab\\x1b[31m\\u202e.md"
    assert printable_file_name("back\\slash.md") == "back\\\\slash.md"
    assert printable_file_name("Café.md") == "Café.md"


# -- read_document ----------------------------------------------------------------


def write_bytes(folder: Path, relative: str, data: bytes) -> None:
    (folder / relative).write_bytes(data)


def test_a_good_document_is_split(tmp_path: Path) -> None:
    write(tmp_path, "eggs.md", "# Eggs\n\nBoil six minutes.\n\n## Peeling\n\nUse cold water.\n")
    document = read_document(tmp_path, "eggs.md")
    assert isinstance(document, Document)
    assert document.title == "Eggs"
    assert [d.text for d in document.passages] == ["Boil six minutes.", "Use cold water."]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"# T\n\n" + b"x" * MAX_BYTES["md"], "larger than 1 MiB"),
        (b"# Caf\xe9\n\nlatin-1 text\n", "not UTF-8"),
        (b"# Title\n\nbinary\x00data\n", "binary file (contains NUL bytes)"),
        (b"", "empty"),
        (b"  \n\n\t\n", "empty"),
        (b"# Only\n\n## Headings\n### Here\n", "has no text (headings only)"),
    ],
    ids=["too large", "not utf8", "nul bytes", "empty", "blank", "headings only"],
)
def test_a_bad_document_is_skipped_with_a_reason(tmp_path: Path, data: bytes, reason: str) -> None:
    write_bytes(tmp_path, "bad.md", data)
    assert read_document(tmp_path, "bad.md") == reason
    assert str(FileProblem("bad.md", reason)) == f"skipped file bad.md: {reason}"


def test_reading_a_symlink_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "real.md")
    (tmp_path / "link.md").symlink_to(tmp_path / "real.md")
    reason = read_document(tmp_path, "link.md")
    assert isinstance(reason, str)
    assert reason.startswith("cannot be read")


def test_a_file_that_vanished_is_a_reason_not_a_crash(tmp_path: Path) -> None:
    assert read_document(tmp_path, "gone.md") == "cannot be read (No such file or directory)"


# -- document ids -----------------------------------------------------------------


def test_document_ids_follow_the_paths() -> None:
    ids, notices = document_ids(["Pasta Water.md", "api/child_process.md", "pasta-water-2.md"])
    assert ids == {
        "Pasta Water.md": "pasta-water",
        "api/child_process.md": "api/child-process",
        "pasta-water-2.md": "pasta-water-2",
    }
    assert notices == []


def test_a_later_colliding_path_gets_a_number_and_a_notice_not_a_skip() -> None:
    ids, notices = document_ids(["Pasta Water.md", "pasta-water.md", "pasta_water.md"])
    assert ids == {
        "Pasta Water.md": "pasta-water",
        "pasta-water.md": "pasta-water-2",
        "pasta_water.md": "pasta-water-3",
    }
    assert [(n.path, n.skipped) for n in notices] == [
        ("pasta-water.md", False),
        ("pasta_water.md", False),
    ]
    assert (
        str(notices[0])
        == "file pasta-water.md: id pasta-water is taken, so its id is pasta-water-2"
    )


def test_a_numbered_id_never_takes_an_existing_one() -> None:
    ids, _ = document_ids(["A.md", "a-2.md", "a.md"])
    assert len(set(ids.values())) == 3
    assert ids["a-2.md"] == "a-2"


@pytest.mark.parametrize(
    "change",
    [
        ["m/new.md"],  # a file added between others
        ["0-first.md"],  # a file added before all others
        ["zz/last.md", "zz/other.md"],
    ],
)
def test_ids_of_other_documents_stay_the_same_when_a_file_is_added(change: list[str]) -> None:
    paths = ["a.md", "b/c.md", "Guide.md", "m/z.md", "notes/Intro.md"]
    before, _ = document_ids(sorted(paths))
    after, _ = document_ids(sorted(paths + change))
    assert {path: after[path] for path in paths} == before


def test_ids_stay_the_same_when_a_file_is_removed() -> None:
    paths = ["a.md", "b/c.md", "Guide.md", "m/z.md"]
    before, _ = document_ids(sorted(paths))
    after, _ = document_ids(sorted(p for p in paths if p != "b/c.md"))
    assert after == {path: before[path] for path in paths if path != "b/c.md"}


# -- the in-memory Library ----------------------------------------------------------


def sample_passages() -> list[Passage]:
    return [
        Passage(
            "pasta-water", "Pasta water", "Salt the water well.", "lessons/pasta-water.md", 1, 5
        ),
        Passage("eggs#boil", "Eggs › Boil", "Six minutes for soft.", "lessons/eggs.md", 7, 9),
        Passage("knives/care", "Knife care", "Hone before use.", "lessons/knives/care.md", 1, 3),
    ]


def test_from_passages_keeps_order_ids_and_texts() -> None:
    library = library_of(sample_passages())
    assert len(library) == 3
    assert [info.id for info in library] == ["pasta-water", "eggs#boil", "knives/care"]
    assert library.passage(1) == sample_passages()[1]
    assert [d.path for d in library.documents] == ["pasta-water.md", "eggs.md", "knives/care.md"]
    assert library.problems == ()


def test_get_finds_a_passage_by_id_and_none_for_an_unknown_id() -> None:
    library = library_of(sample_passages())
    found = library.get("knives/care")
    assert found is not None
    assert (found.title, found.text, found.line, found.end_line) == (
        "Knife care",
        "Hone before use.",
        1,
        3,
    )
    assert library.get("knives") is None
    assert library.get("") is None
    assert library.number_of("eggs#boil") == 1


def test_passage_out_of_range_is_an_index_error() -> None:
    library = library_of(sample_passages())
    with pytest.raises(IndexError):
        library.passage(3)


def test_from_passages_indexes_titles_and_texts() -> None:
    library = library_of(sample_passages(), key=str)
    assert list(library.index.body("salt").numbers) == [0]
    assert list(library.index.title("knife").numbers) == [2]
    assert list(library.index.body("knife").numbers) == []


# -- parse_document, for any bytes --------------------------------------------------


@PROPERTY
@given(st.binary(max_size=400))
def test_parser_takes_any_bytes(data: bytes) -> None:
    result = parse_document("lesson.md", data)

    if isinstance(result, str):
        assert result.strip()
        assert "\n" not in result


@st.composite
def lesson_files(draw: st.DrawFn) -> str:
    """Markdown-ish files: arbitrary lines, often with a heading somewhere."""
    line = st.one_of(
        any_text.map(lambda text: text.replace("\n", " ")),
        any_text.map(lambda text: "# " + text.replace("\n", " ")),
        any_text.map(lambda text: "## " + text.replace("\n", " ")),
        st.sampled_from(["", "#", "# ", "#title", "  # indented", "\ufeff# bom", "### deep"]),
    )
    separator = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    prefix = draw(st.sampled_from(["", "\ufeff"]))
    return prefix + separator.join(draw(st.lists(line, max_size=8)))


MYST_NO_TEXT = re.compile(r"^ {0,3}(%|\([^()\s]+\)=\s*$|\+\+\+)")
# An ATX heading's opening hashes, and a closing run of them only after a space:
# "## 0#" is the heading "0#" (CommonMark).
ATX_MARKS = re.compile(r"^\s*#+\s*|(?:\s+#+)?\s*$")


def one_visible_line(title: str) -> bool:
    return (
        title == title.strip()
        and len(title.splitlines()) == 1
        and bool(clean_display_text(title).strip())
    )


@PROPERTY
@given(lesson_files())
@example("## 0#\n0")  # a heading whose last character is a hash
def test_parsed_passages_have_one_line_titles_and_their_own_lines_as_text(content: str) -> None:
    data = content.encode("utf-8", errors="surrogatepass")

    result = parse_document("lesson.md", data)

    if isinstance(result, str):
        return
    assert one_visible_line(result.title)
    # A byte-order mark is not text; lines end at \n, \r\n or \r, as editors count them.
    lines = re.split(r"\r\n|\r|\n", content.removeprefix("\ufeff"))
    # The title comes from the file: a "# " heading in it (as plain text), else the file name.
    assert result.title == "lesson" or any(
        line.lstrip(" ").startswith("#")
        and result.title in " ".join(clean_display_text(plain_inline(line)).split())
        for line in lines
    )
    assert result.passages
    previous_end = 0
    for passage in result.passages:
        assert one_visible_line(passage.title)
        assert passage.title.startswith(result.title)
        assert passage.text and passage.text == passage.text.strip()
        # Passages follow each other in the file without overlapping ...
        assert previous_end < passage.line <= passage.end_line <= len(lines)
        previous_end = passage.end_line
        # ... and a passage's text is its lines, less the heading line that starts it
        # (a document's only passage opens with its heading's words when the title does
        # not say them).
        # A line of only whitespace (a form feed, say) is a blank line of text, and so is
        # a MyST line that is no text (a `% comment`, a `(label)=`, a `+++` block break).
        span = [
            "" if not line.strip() or MYST_NO_TEXT.match(line) else line
            for line in lines[passage.line - 1 : passage.end_line]
        ]
        own = "\n".join(span[1:]).strip()
        heading = " ".join(clean_display_text(plain_inline(ATX_MARKS.sub("", span[0]))).split())
        assert passage.text in ("\n".join(span).strip(), own) or (
            len(result.passages) == 1
            and passage.text.startswith(heading + "\n")
            and passage.text.endswith(own)
        )


def test_documents_that_only_include_others_are_one_warning_naming_them() -> None:
    problems = [
        FileProblem("a.rst", INCLUDES_ONLY),
        FileProblem("big.md", "larger than 1 MiB"),
        FileProblem("b.rst", INCLUDES_ONLY),
        FileProblem("c.rst", INCLUDES_ONLY),
        FileProblem("d.rst", INCLUDES_ONLY),
    ]
    assert warning_lines(problems) == [
        "skipped 4 files that only include other documents, each read as its own:"
        " a.rst, b.rst, c.rst and 1 more",
        "skipped file big.md: larger than 1 MiB",
    ]


def test_one_document_that_only_includes_others_is_warned_of_as_any_skipped_file() -> None:
    problem = FileProblem("a.rst", INCLUDES_ONLY)
    assert warning_lines([problem]) == [str(problem)]
