"""HTML pages as documents: main content, headings, titles, lines, charsets."""

from __future__ import annotations

import pytest

from tui_assistant.core.checks.quotes import find_quote
from tui_assistant.core.documents.html import (
    INDEX_PAGE,
    decode_html,
    html_passages,
    page_title,
    split_html,
)
from tui_assistant.core.documents.passage import Document, Passage, file_lines
from tui_assistant.core.library.library import parse_document
from tui_assistant.errors import NotText

SPHINX_PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Installing &mdash; Widget 1.2 documentation</title>
  <script>var secret = "never text";</script>
  <style>body { color: red }</style>
</head>
<body>
  <div class="related" role="navigation" aria-label="related navigation">
    <ul><li><a href="genindex.html">index</a></li><li><a href="next.html">next</a></li></ul>
  </div>
  <div class="document">
    <div class="body" role="main">
  <section id="installing">
<h1>Installing<a class="headerlink" href="#installing" title="Link to this heading">¶</a></h1>
<p>Widget runs on Python 3.9 and later.
Install it with pip.</p>
<section id="from-source">
<h2>From source<a class="headerlink" href="#from-source">¶</a></h2>
<p>Clone the repository &amp; run the build:</p>
<div class="highlight-console notranslate"><div class="highlight"><pre><span></span>$ git clone https://example.org/widget
$ cd widget
    make install
</pre></div>
</div>
<h4>A minor heading</h4>
<p>Then the widget is ready.</p>
</section>
</section>
    </div>
    <div class="sphinxsidebar" role="navigation">
      <h3>Navigation</h3>
      <form class="search"><input type="text" name="q" /></form>
      <p>Sidebar words</p>
    </div>
  </div>
  <div class="footer">&copy; 2024, Widget team. Built with Sphinx.</div>
</body>
</html>
"""


def passages(path: str, text: str) -> list[Passage]:
    document = split_html(path, text)
    return [draft.passage("doc", path) for draft in document.passages]


def test_a_sphinx_page_is_its_main_content_split_at_its_headings() -> None:
    document = split_html("install.html", SPHINX_PAGE)

    assert document.title == "Installing"
    assert [(p.title, p.anchor, p.line, p.end_line) for p in document.passages] == [
        ("Installing", "", 16, 18),
        ("Installing › From source", "from-source", 20, 24),
        # Every heading level is a section: an `<h4>` too.
        ("Installing › From source › A minor heading", "a-minor-heading", 27, 28),
    ]
    first, second, third = document.passages
    assert first.text == "Widget runs on Python 3.9 and later.\nInstall it with pip."
    # Code stays as written, each line on its own line, its indentation kept.
    assert "$ git clone https://example.org/widget\n$ cd widget\n    make install" in second.text
    assert second.text.startswith("Clone the repository & run the build:")
    assert second.text.endswith("make install")
    assert third.text == "Then the widget is ready."
    everything = " ".join(p.text + p.title for p in document.passages)
    for never in ("secret", "color", "index", "next", "Sidebar", "Navigation", "Built", "¶"):
        assert never not in everything


def test_each_line_of_a_passage_is_the_text_on_that_line_of_the_file() -> None:
    lines = file_lines(SPHINX_PAGE)
    for passage in passages("install.html", SPHINX_PAGE):
        text_lines = passage.text.split("\n")
        first = passage.end_line - len(text_lines) + 1
        for number, shown in enumerate(text_lines, start=first):
            assert shown.strip() == "" or shown.split()[0] in lines[number - 1], (number, shown)


def test_a_quote_is_found_in_the_text_a_reader_sees_and_placed_on_its_source_lines() -> None:
    second = passages("install.html", SPHINX_PAGE)[1]
    # `&amp;` is `&` on the page, and the quote's words stand on line 21.
    quote = find_quote("Clone the repository & run the build", second)
    assert quote is not None and (quote.line, quote.end_line) == (21, 21)
    code = find_quote("cd widget make install", second)
    assert code is not None and (code.line, code.end_line) == (23, 24)
    first = passages("install.html", SPHINX_PAGE)[0]
    across = find_quote("and later. Install it", first)
    assert across is not None and (across.line, across.end_line) == (17, 18)
    assert find_quote("Sidebar words", second) is None


def test_without_a_marked_main_content_the_body_is_read_without_its_furniture() -> None:
    page = (
        "<html><head><title>Lua 5.1 Reference Manual</title></head><body>\n"
        "<nav><a href='/'>Home</a></nav><header>Site banner</header>\n"
        "<h1>1 - Introduction</h1>\n"
        "<p>Lua is an extension language.</p>\n"
        "<h2>2.1 - Lexical Conventions</h2>\n"
        "<p>Names can be any string of letters.</p>\n"
        "<iframe src='https://example.org/ad'>Ad words</iframe><object data='x.swf'>Flash</object>\n"
        "<footer>Last update: today</footer>\n"
        "</body></html>\n"
    )
    document = split_html("manual.html", page)
    assert document.title == "Lua 5.1 Reference Manual"
    assert [(p.title, p.text) for p in document.passages] == [
        ("Lua 5.1 Reference Manual › 1 - Introduction", "Lua is an extension language."),
        (
            "Lua 5.1 Reference Manual › 1 - Introduction › 2.1 - Lexical Conventions",
            "Names can be any string of letters.",
        ),
    ]


def test_mkdocs_and_wiki_furniture_is_not_text() -> None:
    page = (
        "<html><head><title>Configuration - MkDocs</title></head><body>\n"
        '<div class="navbar"><a href="#">MkDocs</a><a href="search.html">Search</a></div>\n'
        '<div class="col-md-3"><div class="bs-sidebar hidden-print" role="complementary">'
        "<ul><li>Contents</li></ul></div></div>\n"
        '<div class="col-md-9" role="main">\n'
        '<a href="edit/config.md" class="edit-this-page">Edit on GitHub</a>\n'
        '<ul class="breadcrumb"><li>Docs</li><li>Configuration</li></ul>\n'
        '<h1 id="configuration">Configuration</h1>\n'
        "<p>Guide to all available settings.</p>\n"
        '<span class="mw-editsection">[edit]</span>\n'
        '<div hidden>Hidden words</div><div style="display: none">Invisible</div>\n'
        "<p>site_name is required.</p>\n"
        "</div>\n"
        '<footer class="col-md-12"><p>Documentation built with MkDocs.</p></footer>\n'
        "</body></html>\n"
    )
    document = split_html("config.html", page)
    assert document.title == "Configuration"
    [only] = document.passages
    assert only.text == "Guide to all available settings.\n\n\nsite_name is required."
    assert (only.line, only.end_line) == (7, 11)


@pytest.mark.parametrize(
    ("title", "heading", "expected"),
    [
        ("Installing — Widget 1.2 documentation", "Installing", "Installing"),
        ("Installing — Widget 1.2 documentation", None, "Installing"),
        ("Configuration - MkDocs", "Configuration", "Configuration"),
        ("Basic Usage - bidict", "Basic Usage", "Basic Usage"),
        ("Plugins - MkDocs", "MkDocs Plugins", "MkDocs Plugins"),
        ("Getting Started - MkDocs", "Getting Started with MkDocs", "Getting Started with MkDocs"),
        ("Themes - MkDocs", "Something else", "Themes - MkDocs"),
        ("Frequently asked questions | Acme Docs", "FAQ", "Frequently asked questions"),
        ("Python - a gentle introduction", "Welcome", "Python - a gentle introduction"),
        ("Lua 5.1 Reference Manual", "1 - Introduction", "Lua 5.1 Reference Manual"),
        (" - bidict", "Index", ""),
        ("structlog 22.3.0 documentation", "structlog", "structlog"),
        ("Widget documentation", "Installing", "Widget documentation"),
        ("  Many   spaces  ", None, "Many spaces"),
    ],
)
def test_the_page_title_loses_the_site_suffix_only(
    title: str, heading: str | None, expected: str
) -> None:
    assert page_title(title, heading) == expected


def test_no_title_falls_back_to_the_first_heading_then_the_file_name() -> None:
    heading_only = split_html("guide/page.html", "<h2>Getting started</h2>\n<p>Words here.</p>\n")
    assert heading_only.title == "Getting started"
    nothing = split_html("guide/page.htm", "<p>Words here.</p>\n")
    assert (nothing.title, nothing.passages[0].text) == ("page", "Words here.")


def test_entities_and_character_references_are_decoded() -> None:
    page = "<p>caf&eacute; &lt;tag&gt; &#8212; &#x2192; &copy; a&nbsp;b &unknown; AT&T</p>\n"
    [only] = split_html("e.html", page).passages
    assert only.text == "café <tag> — → © a b &unknown; AT&T"


def test_a_line_break_reference_cannot_shift_the_lines_after_it() -> None:
    page = "<p>one&#10;two&#x0A;three</p>\n<h2>Next</h2>\n<p>four</p>\n"
    document = split_html("e.html", page)
    assert [(p.text, p.line) for p in document.passages] == [("one two three", 1), ("four", 2)]


def test_every_line_ending_counts_as_editors_count_it() -> None:
    page = "<h1>T</h1>\r\n<p>a</p>\r<h2>Second</h2>\n<p>b</p>\r\n"
    document = split_html("e.html", page)
    assert [(p.text, p.line, p.end_line) for p in document.passages] == [
        ("a", 1, 2),
        ("b", 3, 4),
    ]


def test_scripts_iframes_and_embedded_content_are_never_text() -> None:
    page = (
        "<h1>Safe</h1>\n<script>document.write('<p>injected</p>')</script>\n"
        "<p>Real words.</p>\n<iframe src='http://evil.example/'><p>framed</p></iframe>\n"
        "<svg><title>icon</title><text>drawn</text></svg><img src='http://x/y.png' alt='pic'>\n"
        "<noscript>enable js</noscript><template><p>later</p></template>\n"
        "<embed src='a.swf'><object data='b'><p>fallback</p></object>\n"
        "<script>unclosed </p> <h2>not a heading</h2>\n"
    )
    document = split_html("hostile.html", page)
    assert document.title == "Safe"
    assert [p.text for p in document.passages] == ["Real words."]


def test_malformed_markup_still_gives_its_text_on_its_lines() -> None:
    page = (
        "<html><title>Broken</title><body>\n"
        "<p>First <b>bold <i>both</b> italic?\n"
        "<p>Second paragraph</span></div></div>\n"
        "<h2>Unclosed heading\n"
        "<p>Under it <a href='x'>link\n"
        "<ul><li>one<li>two</ul></td></tr>\n"
        "</h2><p>after <!-- a comment --> the end\n"
        "<div class='x\n"
    )
    document = split_html("broken.html", page)
    texts = [p.text for p in document.passages]
    assert texts[0] == "First bold both italic?\nSecond paragraph"
    joined = " ".join(texts)
    assert [p.title for p in document.passages][1] == "Broken › Unclosed heading"
    for words in ("Under it link", "one two", "after the end"):
        assert words in " ".join(joined.split())
    assert "comment" not in joined


def test_deeply_nested_tags_are_read_without_recursion() -> None:
    page = "<div>" * 50_000 + "<p>deep text</p>" + "</div>" * 50_000 + "\n<p>after</p>\n"
    [only] = split_html("deep.html", page).passages
    assert only.text == "deep text\nafter"


def test_a_page_of_links_only_is_an_index_with_no_passages() -> None:
    links = "\n".join(f'<li><a href="p{n}.html">Page number {n}</a></li>' for n in range(40))
    page = f"<title>Index</title><h1>Index</h1><ul>{links}</ul>"
    assert html_passages("genindex.html", page) == INDEX_PAGE
    assert split_html("genindex.html", page).passages == ()
    prose = page.replace("<ul>", "<p>" + "Prose a reader came for. " * 80 + "</p><ul>")
    assert isinstance(html_passages("contents.html", prose), Document)


def test_a_page_with_no_main_text_says_so() -> None:
    page = "<html><head><title>Search</title><script>run()</script></head><body></body></html>"
    assert parse_document("search.html", page.encode()) == "has no text in its main content"


# -- decoding -------------------------------------------------------------------------


def test_a_page_is_decoded_by_the_charset_it_declares() -> None:
    latin = '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">\n<p>Café</p>'
    assert "Café" in decode_html(latin.encode("latin-1"))
    short = "<meta charset='koi8-r'><p>Привет</p>"
    assert "Привет" in decode_html(short.encode("koi8-r"))
    # A browser reads "iso-8859-1" as windows-1252, whose 0x93/0x94 are curly quotes.
    assert decode_html(b'<meta charset="ISO-8859-1"><p>\x93hi\x94</p>').endswith(
        "\u201chi\u201d</p>"
    )


def test_a_byte_order_mark_wins_and_utf8_is_the_default() -> None:
    assert decode_html("\ufeff<p>Grüße</p>".encode("utf-8")) == "\ufeff<p>Grüße</p>"
    assert "Grüße" in decode_html("<p>Grüße</p>".encode("utf-16"))
    assert decode_html("<p>Grüße</p>".encode()) == "<p>Grüße</p>"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("<p>Café</p>".encode("latin-1"), "not UTF-8 and declares no charset"),
        (b"<meta charset=utf-8><p>\xff\xfe\xfa</p>", "not in the charset it declares (utf-8)"),
        (b"<meta charset=klingon-7><p>x</p>", "declares a charset Python does not know"),
    ],
)
def test_a_page_that_cannot_be_decoded_says_why(data: bytes, reason: str) -> None:
    with pytest.raises(NotText, match=reason.replace("(", r"\(").replace(")", r"\)")):
        decode_html(data)
    assert isinstance(parse_document("page.html", data), str)
    assert str(parse_document("page.html", data)).startswith(reason)


def test_a_page_with_nul_bytes_is_a_binary_file() -> None:
    assert parse_document("x.html", b"<p>text\x00more</p>") == "binary file (contains NUL bytes)"
    utf16 = "<p>text\x00</p>".encode("utf-16")
    assert parse_document("x.html", utf16) == "binary file (contains NUL bytes)"


def test_each_object_sphinx_documents_is_a_section_named_by_its_qualified_name() -> None:
    page = (
        '<div role="main"><h1>API</h1>\n<p>The reference.</p>\n'
        '<dl class="py class">\n<dt class="sig sig-object py" id="widget.Crank">\n'
        '<em class="property">class </em><span class="sig-name">Crank</span>(<em>teeth</em>)</dt>\n'
        "<dd><p>Turns a gear.</p>\n"
        '<dl class="py method">\n<dt class="sig sig-object py" id="widget.Crank.turn">\n'
        '<span class="sig-name">turn</span>()<a class="headerlink" href="#widget.Crank.turn">¶</a>'
        "</dt>\n<dd><p>One full turn.</p></dd></dl></dd></dl></div>\n"
    )
    document = split_html("api.html", page)
    assert [(p.title, p.text, p.line) for p in document.passages] == [
        ("API", "The reference.", 1),
        ("API › widget.Crank", "class Crank(teeth)\nTurns a gear.", 4),
        ("API › widget.Crank.turn", "turn()\nOne full turn.", 8),
    ]


def test_only_the_first_title_names_the_page_and_an_open_title_ends_at_a_tag() -> None:
    pages = (
        "<html><head><title>First</title></head><body><p>one</p></body></html>\n"
        "<html><head><title>Second</title></head><body><p>two</p></body></html>\n"
    )
    document = split_html("twice.html", pages)
    assert document.title == "First"
    assert [p.text for p in document.passages] == ["one\ntwo"]
    unclosed = split_html("open.html", "<title>Open title\n<body><h1>Heading</h1><p>words</p>")
    assert (unclosed.title, unclosed.passages[0].text) == ("Open title", "words")


def test_texinfo_and_latex2html_navigation_is_not_text() -> None:
    texinfo = (
        "<html><head><title>Overview (GNU Widget 2.1)</title>\n"
        '<meta name="Generator" content="makeinfo"></head><body>\n'
        '<div class="chapter-level-extent" id="Overview">\n'
        '<div class="nav-panel"><p>Next: <a href="Invoking.html" rel="next">Invoking</a>,'
        ' Up: <a href="index.html" rel="up">Top</a></p></div>\n'
        '<h2 class="chapter" id="Overview-1"><span>1 Overview<a class="copiable-link"'
        ' href="#Overview-1"> &para;</a></span></h2>\n'
        "<p>Widget turns cranks.</p>\n"
        '<ul class="mini-toc"><li><a href="Limits.html">Limits</a></li></ul>\n'
        '<table class="menu"><tr><td><a href="Limits.html">Limits</a></td></tr></table>\n'
        "</div></body></html>\n"
    )
    document = split_html("Overview.html", texinfo)
    assert document.title == "Overview (GNU Widget 2.1)"
    assert [(p.title, p.text) for p in document.passages] == [
        ("Overview (GNU Widget 2.1)", "1 Overview\nWidget turns cranks.")
    ]
    latex2html = (
        "<HTML><HEAD><TITLE>1 Introduction</TITLE>\n"
        '<META NAME="Generator" CONTENT="LaTeX2HTML v2008"></HEAD><BODY>\n'
        "<!--Navigation Panel-->\n"
        '<A NAME="tex2html12" HREF="node2.html"><IMG ALT="next" SRC="next.png"></A>\n'
        '<B> Next:</B> <A HREF="node2.html">Usage</A>\n<BR><BR>\n'
        "<!--End of Navigation Panel-->\n"
        '<H1><A NAME="SECTION001">1 Introduction</A></H1>\n'
        "<P>The manual begins.</P>\n"
        "<!--Table of Child-Links-->\n<UL><LI><A HREF='node3.html'>Scope</A></UL>\n"
        "<!--End of Table of Child-Links-->\n"
        "<HR>\n<ADDRESS>Jane Author 2008-01-01</ADDRESS>\n</BODY></HTML>\n"
    )
    document = split_html("node1.html", latex2html)
    assert [(p.title, p.text) for p in document.passages] == [
        ("1 Introduction", "The manual begins.")
    ]


def test_an_authors_sidebar_in_the_main_content_is_text_a_themes_sidebar_is_not() -> None:
    page = (
        "<html><body>\n"
        '<aside class="sidebar theme-nav"><p>Theme links</p></aside>\n'
        '<main><h1>Guide</h1><aside class="sidebar"><p class="sidebar-title">Note</p>\n'
        "<p>Read this first.</p></aside>\n"
        '<ul class="table-of-contents"><li><a href="#a">On this page</a></li></ul>\n'
        "<p>Body text.</p></main>\n"
        '<div class="md-sidebar"><p>Material nav</p></div></body></html>\n'
    )
    [only] = split_html("guide.html", page).passages
    assert only.text == "Note\nRead this first.\n\nBody text."
