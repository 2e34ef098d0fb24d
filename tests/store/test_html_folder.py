"""HTML pages and built sites in a library folder: what is read, what is skipped and why,
and the size limit of each kind."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from tests.helpers import memory_library
from tui_assistant.core.documents.html import INDEX_PAGE
from tui_assistant.core.library.built_site import BUILT_SITE, skipped_in_site
from tui_assistant.core.library.library import Library
from tui_assistant.core.library.report import StoreFacts, VectorFacts, build_report, skip_reason
from tui_assistant.core.library.report_text import format_report
from tui_assistant.core.words import stem
from tui_assistant.store.folder import MAX_BYTES, MIB, read_document_text
from tui_assistant.store.index_store import open_library

STORE = StoreFacts(None, 0)
OFF = VectorFacts(None, reason="TUI_ASSISTANT_RETRIEVAL is ranked")
PAGE = """\
<html><head><title>{title} &mdash; Widget 1.0 documentation</title></head>
<body><div class="body" role="main">
<h1>{title}<a class="headerlink" href="#t">¶</a></h1>
<p>{words}</p>
</div></body></html>
"""


def page(title: str, words: str) -> str:
    return PAGE.format(title=title, words=words)


def sphinx_site(folder: Path) -> Path:
    html = folder / "html"
    (html / "_sources").mkdir(parents=True)
    (html / "_static").mkdir()
    (html / "_modules").mkdir()
    (html / "index.html").write_text(page("Widget", "Widget turns cranks into gears."))
    (html / "install.html").write_text(page("Installing", "Install the widget with pip."))
    (html / "_sources" / "install.rst.txt").write_text("Installing\n==========\n\nWith pip.\n")
    (html / "_sources" / "index.rst.txt").write_text("Widget\n======\n\nTurns cranks.\n")
    (html / "_static" / "notes.txt").write_text("a file the theme ships\n")
    (html / "_modules" / "widget.html").write_text(page("widget", "def crank(): pass"))
    (html / "genindex.html").write_text(page("Index", "crank() (in module widget)"))
    (html / "genindex-C.html").write_text(page("Index", "crank() (in module widget)"))
    (html / "search.html").write_text(page("Search", "Please activate JavaScript."))
    (html / "py-modindex.html").write_text(page("Python Module Index", "widget"))
    (html / "objects.inv").write_bytes(b"# Sphinx inventory version 2\n")
    return html


def reasons(library: Library) -> dict[str, str]:
    return {problem.path: problem.reason for problem in library.problems}


def test_a_built_sphinx_site_is_read_once_as_its_pages(tmp_path: Path) -> None:
    sphinx_site(tmp_path / "docs")

    library = memory_library(tmp_path / "docs")

    assert [(d.path, d.title) for d in library.documents] == [
        ("html/index.html", "Widget"),
        ("html/install.html", "Installing"),
    ]
    install = library.get("html/install")
    assert install is not None and install.text == "Install the widget with pip."
    assert (install.source_path, install.line, install.end_line) == ("docs/html/install.html", 3, 4)
    # One line says what the site holds besides its pages.
    assert reasons(library) == {
        "html/": f"{BUILT_SITE}: _modules/, _sources/, _static/, genindex*.html (2), search.html,"
        " py-modindex.html"
    }
    assert skip_reason(reasons(library)["html/"]) == "built_site"


def test_a_site_that_has_only_its_sources_is_read_from_them(tmp_path: Path) -> None:
    html = sphinx_site(tmp_path / "docs")
    for built in html.glob("*.html"):
        built.unlink()

    library = memory_library(tmp_path / "docs")

    assert [d.path for d in library.documents] == [
        "html/_modules/widget.html",
        "html/_sources/index.rst.txt",
        "html/_sources/install.rst.txt",
        "html/_static/notes.txt",
    ]


def test_without_html_documents_a_site_is_read_from_its_sources(tmp_path: Path) -> None:
    sphinx_site(tmp_path / "docs")

    library = open_library(tmp_path / "docs", None, stem, kinds=("md", "rst", "txt"))

    assert [d.path for d in library.documents] == [
        "html/_sources/index.rst.txt",
        "html/_sources/install.rst.txt",
        "html/_static/notes.txt",
    ]
    assert library.problems == ()


def test_a_built_mkdocs_site_skips_its_search_assets_and_404_page() -> None:
    entries = {
        "index.html": False,
        "404.html": False,
        "search": True,
        "assets": True,
        "sitemap.xml": False,
        "user-guide": True,
    }
    skipped = skipped_in_site(entries, ("md", "html"))
    assert skipped is not None
    assert skipped.names == {"404.html", "search", "assets"}
    assert skipped.reason == f"{BUILT_SITE}: assets/, search/, 404.html"
    # A folder of pages that is no built site keeps every page.
    assert skipped_in_site({"index.html": False, "search": True}, ("html",)) is None
    assert skipped_in_site({"404.html": False, "search.html": False}, ("html",)) is None
    assert skipped_in_site(entries, ("md",)) is None


def test_a_built_sphinx_site_skips_its_404_page() -> None:
    entries = {"index.html": False, "404.html": False, "objects.inv": False, "search.html": False}

    skipped = skipped_in_site(entries, ("html",))

    assert skipped is not None
    assert skipped.names == {"404.html", "search.html"}
    assert skipped.reason == f"{BUILT_SITE}: search.html, 404.html"


def test_an_index_page_of_links_is_skipped_with_why(tmp_path: Path) -> None:
    folder = tmp_path / "manual"
    folder.mkdir()
    links = "".join(f'<li><a href="n{n}.html">Node {n}</a></li>\n' for n in range(30))
    (folder / "Concept-Index.html").write_text(f"<h1>Concept Index</h1><ul>\n{links}</ul>")
    (folder / "Overview.html").write_text("<h1>Overview</h1>\n<p>The manual starts here.</p>\n")

    library = memory_library(folder)

    assert [d.path for d in library.documents] == ["Overview.html"]
    assert reasons(library) == {"Concept-Index.html": INDEX_PAGE}
    assert skip_reason(INDEX_PAGE) == "index_page"


def test_each_kind_has_its_own_size_limit(tmp_path: Path) -> None:
    assert MAX_BYTES["html"] == 20 * MIB and MAX_BYTES["md"] == MIB
    assert MAX_BYTES["pdf"] == 200 * MIB
    folder = tmp_path / "docs"
    folder.mkdir()
    words = "<p>" + "gear crank widget " * 20 + "</p>\n"
    body = words * (3 * MIB // len(words))
    (folder / "big.html").write_text(f"<title>Big page</title>\n{body}")
    (folder / "big.md").write_text(f"# Big page\n\n{body}")

    library = memory_library(folder)

    assert [d.path for d in library.documents] == ["big.html"]
    assert reasons(library) == {"big.md": "larger than 1 MiB"}


def test_a_50_mb_html_file_is_skipped_with_one_line_without_being_read(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "good.html").write_text("<h1>Good</h1><p>Readable words.</p>")
    with (folder / "huge.html").open("wb") as huge:
        huge.write(b"<h1>Huge</h1>")
        huge.truncate(50 * 1000 * 1000)  # sparse: 50 MB on paper

    tracemalloc.start()
    try:
        library = memory_library(folder)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert [d.path for d in library.documents] == ["good.html"]
    assert reasons(library) == {"huge.html": "larger than 20 MiB"}
    assert peak < 5 * MIB


def test_bad_pages_are_skipped_with_their_reason_and_nothing_else_is_lost(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "good.htm").write_text("<h1>Good</h1><p>Readable words.</p>")
    (folder / "nul.html").write_bytes(b"<h1>Bin</h1><p>a\x00b</p>")
    (folder / "latin.html").write_bytes("<h1>Caf\xe9</h1><p>menu</p>".encode("latin-1"))
    (folder / "declared.html").write_bytes(
        b'<meta charset="windows-1252"><h1>Caf\xe9</h1><p>menu \x93du jour\x94</p>'
    )
    (folder / "scripts.html").write_text(
        "<script>fetch('http://evil.example/')</script><iframe src='http://x'></iframe>"
    )

    library = memory_library(folder)

    assert [d.path for d in library.documents] == ["declared.html", "good.htm"]
    declared = library.get("declared")
    assert declared is not None and declared.text == "menu \u201cdu jour\u201d"
    assert reasons(library) == {
        "latin.html": "not UTF-8 and declares no charset",
        "nul.html": "binary file (contains NUL bytes)",
        "scripts.html": "has no text in its main content",
    }


def test_the_text_of_an_html_file_is_read_in_the_charset_it_declares(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_bytes(b'<meta charset="iso-8859-1">\n<p>Caf\xe9</p>\n')
    assert read_document_text(tmp_path, "page.html") == '<meta charset="iso-8859-1">\n<p>Café</p>\n'
    (tmp_path / "other.html").write_bytes(b"<p>Caf\xe9</p>")
    assert read_document_text(tmp_path, "other.html") is None


def test_the_readable_report_says_what_a_site_folder_holds(tmp_path: Path) -> None:
    html = sphinx_site(tmp_path / "docs")
    (html / "py-modindex.html").unlink()
    (html / "evil\x1b[31m-modindex.html").write_text(page("Evil", "x"))

    report = build_report(memory_library(tmp_path / "docs"), "ranked", STORE, OFF)
    lines = format_report(report).split("\n")

    assert "  part of a built site, not a page: 1" in lines
    assert (
        "    html/ (_modules/, _sources/, _static/, genindex*.html (2), search.html,"
        " evil\\x1b[31m-modindex.html)"
    ) in lines
    assert not any("\x1b" in line for line in lines)
