"""The index across a built site's pages: Sphinx's `genindex.html`, DocBook's
`bookindex.html` and texinfo's index nodes give their terms to the passages their links
point to, and are never passages."""

from __future__ import annotations

from pathlib import Path

from tui_assistant.core.library.built_site import (
    anchor_lines,
    index_links,
    index_targets,
    is_index_page,
)
from tui_assistant.core.library.library import PassageInfo, with_site_index_terms
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library

GENINDEX = """<html><body><div role="main">
<table class="indextable genindextable"><tr><td><ul>
<li><a href="api.html#mail.send">send() (in module mail)</a></li>
<li><a href="usage.html#index-0">pip</a>, <a href="usage.html#index-1">[1]</a></li>
<li>cache
  <ul><li><a href="usage.html#index-1">wheel</a></li></ul></li>
<li>receive()
  <ul><li><a href="api.html#mail.receive">(in module mail)</a></li></ul></li>
<li><a href="https://example.org/#x">elsewhere</a></li>
</ul></td></tr></table>
</div></body></html>
"""

TEXINFO_INDEX = """<table class="cp-entries-printindex">
<tr><td><a href="Rules.html#index-tabs">tab character</a></td>
<td><a href="Rules.html#Rules">Rules</a></td></tr>
</table>
"""


def test_sphinx_genindex_entries_are_read_with_their_terms() -> None:
    assert index_links(GENINDEX) == [
        ("send()", "api.html#mail.send"),
        ("pip", "usage.html#index-0"),
        ("pip", "usage.html#index-1"),
        ("wheel", "usage.html#index-1"),
        ("receive()", "api.html#mail.receive"),
        ("elsewhere", "https://example.org/#x"),
    ]


def test_a_texinfo_index_row_gives_its_first_link_only() -> None:
    assert index_links(TEXINFO_INDEX) == [("tab character", "Rules.html#index-tabs")]


DOCBOOK_INDEX = """<html><body>
<div class="navheader"><a href="biblio.html">Prev</a></div>
<div class="index" id="BOOKINDEX"><h1 class="title">Index</h1>
<div class="index"><p><a href="#indexdiv-T">T</a></p><div class="indexdiv"><h3>T</h3><dl>
<dt>transaction ID, <a href="vacuum.html#WRAP">Preventing Wraparound</a></dt>
<dd><dl><dt>wraparound, <a href="vacuum.html#WRAP">Preventing Wraparound</a>,
<a href="wal.html">WAL</a></dt></dl></dd>
<dt>TRUNCATE, <a href="sql-truncate.html">TRUNCATE</a></dt>
</dl></div></div></div></body></html>
"""


def test_a_docbook_index_entry_is_its_words_under_the_entry_it_is_a_sub_entry_of() -> None:
    assert index_links(DOCBOOK_INDEX) == [
        ("transaction ID", "vacuum.html#WRAP"),
        ("transaction ID wraparound", "vacuum.html#WRAP"),
        ("transaction ID wraparound", "wal.html"),
        ("TRUNCATE", "sql-truncate.html"),
    ]


def test_index_pages_are_told_by_their_names() -> None:
    assert is_index_page("bookindex.html")
    assert is_index_page("genindex.html") and is_index_page("genindex-A.html")
    assert is_index_page("Concept-Index.html") and is_index_page("Index.html")
    assert not is_index_page("index.html") and not is_index_page("Indexing.html")


def test_links_resolve_to_the_line_of_their_anchor_on_their_page() -> None:
    anchors = {
        "docs/usage.html": anchor_lines('<h1 id="usage">Usage</h1>\n<p>\n<span id="index-0">'),
        "docs/api.html": {"mail.send": 7},
    }
    targets = index_targets("docs/genindex.html", index_links(GENINDEX), anchors)
    assert targets == [("send()", "docs/api.html", 7), ("pip", "docs/usage.html", 3)]


def info(document: str, title: str, line: int, end_line: int) -> PassageInfo:
    return PassageInfo(f"{document}#{line}", title, document, line, end_line, document)


def test_terms_go_to_the_passage_holding_the_line_of_that_page() -> None:
    infos = [
        info("usage.html", "Usage", 1, 10),
        info("usage.html", "Usage › Caching", 12, 20),
        info("api.html", "API", 1, 30),
    ]
    targets = [
        ("wheel", "usage.html", 15),
        ("pip", "usage.html", 11),
        ("caching", "usage.html", 13),
    ]
    result = with_site_index_terms(infos, targets)
    # `caching` is said by the title already; `pip` points just above the section.
    assert [item.index_terms for item in result] == [(), ("wheel", "pip"), ()]


def test_a_built_site_s_genindex_gives_its_terms_and_is_no_document(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "objects.inv").write_bytes(b"")
    filler = " ".join(["Words about the tool that say nothing in particular."] * 6)
    (site / "usage.html").write_text(
        '<html><head><title>Usage</title></head><body><div role="main">\n'
        f"<h1>Usage</h1>\n<p>{filler}</p>\n"
        f'<h2 id="caching">Caching</h2>\n<p><span id="index-1"></span>{filler}</p>\n'
        "</div></body></html>\n",
        encoding="utf-8",
    )
    (site / "genindex.html").write_text(GENINDEX, encoding="utf-8")

    library = open_library(site, None, stem)

    assert [passage.id for passage in library] == ["usage", "usage#caching"]
    caching = library.get("usage#caching")
    assert caching is not None and caching.index_terms == ("pip", "wheel")
