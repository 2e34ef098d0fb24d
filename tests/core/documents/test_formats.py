"""The one list of document formats: every format in it is read from a small sample of
its own, found by its file name (the longest suffix deciding), and named as the
settings name it; a format module left out of the list is caught here."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from tests.helpers.pdf_files import PdfSpec, lines, pdf_bytes
from tui_assistant.core.documents import formats
from tui_assistant.core.documents.formats import (
    DEFAULT_DOCUMENT_KINDS,
    DOCUMENT_KINDS,
    FALLBACK,
    FORMATS,
    DocumentFormat,
    document_id,
    document_kind,
    file_title,
    format_of,
)
from tui_assistant.core.documents.formats.record import MIB
from tui_assistant.core.documents.passage import Document
from tui_assistant.core.library.library import parse_document

# A small document of each format, as its file holds it. A new format needs one here.
SAMPLES: dict[str, bytes] = {
    "md": b"# Boiler\n\nBleed the radiators once a year.\n\n## Pressure\n\nKeep it near 1.5 bar.\n",
    "rst": b"Boiler\n======\n\nBleed the radiators once a year.\n\nPressure\n--------\n\nKeep it near 1.5 bar.\n",
    "txt": b"Boiler\n\nBleed the radiators once a year.\n\nKeep the pressure near 1.5 bar.\n",
    "html": (
        b"<html><head><title>Boiler</title></head><body><main><h1>Boiler</h1>"
        b"<p>Bleed the radiators once a year.</p><h2>Pressure</h2>"
        b"<p>Keep it near 1.5 bar.</p></main></body></html>"
    ),
    "pdf": pdf_bytes(
        PdfSpec(pages=[lines("Bleed the radiators once a year."), lines("Keep it near 1.5 bar.")])
    ),
    "py": b'"""Boiler controls."""\n\n\ndef bleed(radiator):\n    """Open the radiator valve until water comes."""\n',
    "man": (
        b'.TH BOILER 8 "2024" "Home" "House Manual"\n.SH NAME\nboiler \\- heat the house\n'
        b".SH DESCRIPTION\nBleed the radiators once a year.\n.SS Pressure\nKeep it near 1.5 bar.\n"
    ),
}


def test_the_formats_are_the_document_types_users_name_in_their_order() -> None:
    assert DOCUMENT_KINDS == ("md", "rst", "txt", "html", "pdf", "man", "py")
    assert DEFAULT_DOCUMENT_KINDS == ("md", "rst", "txt", "html", "pdf", "man")
    assert FALLBACK is format_of("notes.md")
    assert len({format.name for format in FORMATS}) == len(FORMATS)


def test_no_two_formats_claim_one_suffix() -> None:
    suffixes = [suffix for format in FORMATS for suffix in format.suffixes]
    assert len(set(suffixes)) == len(suffixes)


def test_every_format_module_is_in_the_list() -> None:
    modules = [
        info.name
        for info in pkgutil.iter_modules(formats.__path__)
        if info.name != "record" and not info.name.startswith("_")
    ]
    assert modules, "no format modules found"
    for name in modules:
        module = importlib.import_module(f"{formats.__name__}.{name}")
        assert isinstance(module.FORMAT, DocumentFormat), name
        assert module.FORMAT in FORMATS, f"formats/{name}.py is not in FORMATS"


@pytest.mark.parametrize("format", FORMATS, ids=lambda format: format.name)
def test_every_format_reads_a_sample_of_its_own(format: DocumentFormat) -> None:
    assert format.name in SAMPLES, f"no sample of {format.name} in this test"
    for suffix in format.suffixes:
        path = f"guide/boiler{suffix}"
        assert format_of(path) is format

        document = parse_document(path, SAMPLES[format.name])

        assert isinstance(document, Document), document
        assert document.passages
        assert any("radiator" in draft.text for draft in document.passages)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("notes.rst.txt", "rst"),
        ("notes.txt", "txt"),
        ("a/b/notes.rst", "rst"),
        ("page.htm", "html"),
        ("page.html", "html"),
        ("manual.pdf", "pdf"),
        ("cart.py", "py"),
        ("notes.md", "md"),
        ("man/git-add.1", "man"),
        ("man1/ls.1.gz", "man"),
        ("man3/File::Spec.3pm.gz", "man"),
        ("docs/tool.man", "man"),
        # Suffixes match as written: upper-case names are not documents.
        ("PAGE.HTM", None),
        ("NOTES.MD", None),
        ("notes", None),
        ("notes.markdown", None),
        ("notes.txt.bak", None),
    ],
)
def test_the_longest_suffix_decides_the_format(name: str, kind: str | None) -> None:
    assert document_kind(name) == kind
    format = format_of(name)
    assert (format.name if format else None) == kind


def test_ids_and_titles_leave_out_the_whole_suffix() -> None:
    assert document_id("guide/Install Notes.rst.txt") == "guide/install-notes"
    assert document_id("api/child_process.md") == "api/child-process"
    assert document_id("site/page.htm") == "site/page"
    assert document_id("notes.bak") == "notes-bak"
    assert file_title("guide/Install Notes.rst.txt") == "Install Notes"
    assert file_title("guide/notes.inc") == "notes.inc"


def test_a_document_without_a_title_of_its_own_is_titled_by_its_name() -> None:
    document = parse_document("guide/boiler.rst.txt", b"Bleed the radiators once a year.\n")
    assert isinstance(document, Document)
    assert document.title == "boiler"


def test_the_size_limits_are_the_formats_own() -> None:
    limits = {format.name: format.max_bytes for format in FORMATS}
    assert limits == {
        "md": MIB,
        "rst": MIB,
        "txt": MIB,
        "html": 20 * MIB,
        "pdf": 200 * MIB,
        "py": MIB,
        "man": 4 * MIB,
    }


def test_a_format_must_be_read_either_as_text_or_as_pages() -> None:
    with pytest.raises(ValueError, match="document format adoc: give decode and split"):
        DocumentFormat(name="adoc", suffixes=(".adoc",), max_bytes=MIB)
    with pytest.raises(ValueError, match="suffixes must start with"):
        DocumentFormat(
            name="adoc",
            suffixes=("adoc",),
            max_bytes=MIB,
            decode=bytes.decode,
            split=lambda path, text, title: Document(title=title, passages=()),
        )


def test_only_pdf_is_read_as_pages() -> None:
    assert [format.name for format in FORMATS if format.reads_pages] == ["pdf"]
