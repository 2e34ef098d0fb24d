"""A DocBook-built manual page read as its reader sees it: the Prev/Up/Next navigation
is furniture, an admonition is text of its section, a term's alternatives are terms, the
book's index is no passage, and a long section's parts are titled by their prose."""

from __future__ import annotations

from tui_assistant.core.documents.html import INDEX_PAGE, html_passages, split_html

PROSE = " ".join(["Remote connections need a matching line of the file."] * 12)
LONG = f"{PROSE} {PROSE}"  # an entry too long to share a passage


def navigation(position: str) -> str:
    return (
        f'<div class="nav{position}"><table><tr><th>19.1. The pg_hba.conf File</th></tr>'
        '<tr><td><a href="a.html">Prev</a></td><td><a href="b.html">Up</a></td>'
        '<td><a href="index.html">Home</a></td><td><a href="c.html">Next</a></td></tr>'
        "</table></div>"
    )


def page(body: str) -> str:
    return (
        "<html><head><title>19.1. The pg_hba.conf File</title></head><body>\n"
        f'{navigation("header")}\n<div class="sect1">\n'
        '<h2 class="title">19.1. The pg_hba.conf File</h2>\n'
        f"{body}\n</div>\n{navigation('footer')}\n</body></html>"
    )


def test_the_page_navigation_is_neither_a_passage_nor_text() -> None:
    document = split_html("auth.html", page(f"<p>Client authentication is set here. {PROSE}</p>"))

    [only] = document.passages
    assert only.title == "19.1. The pg_hba.conf File"
    assert only.text.startswith("Client authentication is set here.")
    assert "Prev" not in only.text and "Next" not in only.text
    assert (only.line, only.end_line) == (4, 5)


def test_an_admonition_is_text_of_its_section_and_entries_after_it_stay_in_the_section() -> None:
    body = f"""<p>The file holds one record a line. {PROSE}</p>
<div class="note"><h3 class="title">Note</h3><p>Remote TCP/IP connections need a host line.</p></div>
<p>Records are read in order.</p>
<dl>
<dt><span class="term"><em>address</em></span></dt><dd><p>The client addresses. {LONG}</p></dd>
<dt><span class="term"><em>user</em></span></dt><dd><p>The database user names. {LONG}</p></dd>
</dl>"""
    document = split_html("auth.html", page(body))

    titles = [passage.title for passage in document.passages]
    assert titles == [
        "19.1. The pg_hba.conf File",
        "19.1. The pg_hba.conf File › address",
        "19.1. The pg_hba.conf File › user",
    ]
    first = document.passages[0].text
    assert "Note Remote TCP/IP connections need a host line." in first
    assert first.endswith("Records are read in order.")


def test_each_alternative_of_a_term_is_a_term() -> None:
    body = f"""<dl>
<dt><span class="term"><code class="option">-a</code><br /></span><span class="term"><code class="option">--all</code></span></dt><dd><p>Cluster all databases. {LONG}</p></dd>
<dt><span class="term"><em><code>IP-address</code></em><br /></span><span class="term"><em><code>IP-mask</code></em></span></dt><dd><p>The mask. {LONG}</p></dd>
<dt><b>mode=ro<br>mode=rw</b></dt><dd><p>The access mode. {LONG}</p></dd>
</dl>"""
    document = split_html("clusterdb.html", page(body))

    assert [passage.title.split(" › ")[-1] for passage in document.passages] == [
        "-a, --all",
        "IP-address, IP-mask",
        "mode=ro, mode=rw",
    ]


def test_the_book_index_is_no_passage() -> None:
    index = """<html><head><title>Index</title></head><body>
<div class="index" id="BOOKINDEX"><h1 class="title">Index</h1>
<div class="indexdiv"><h3>A</h3><dl>
<dt>abbrev, <a href="functions-net.html#F">Network Address Functions</a></dt>
<dt>ABORT, <a href="sql-abort.html">ABORT</a></dt>
</dl></div></div></body></html>"""

    assert html_passages("bookindex.html", index) == INDEX_PAGE


def test_a_reference_page_name_and_synopsis_on_one_line_are_one_passage() -> None:
    # DocBook writes a reference page's name, purpose and synopsis on one line.
    text = (
        "<html><head><title>createuser</title></head><body>"
        '<div class="refentry"><div class="refnamediv"><h2>createuser</h2>'
        "<p>createuser — define a new user account</p></div>"
        '<div class="refsynopsisdiv"><h2>Synopsis</h2><p>createuser [option...]</p></div>'
        "<div><h2>Description</h2><p>\ncreateuser creates a new user.\n</p></div>"
        "</div></body></html>"
    )
    document = split_html("app-createuser.html", text)

    assert [(p.title, p.line, p.end_line) for p in document.passages] == [
        ("createuser", 1, 1),
        ("createuser › Description", 1, 2),
    ]
    assert document.passages[0].text == (
        "createuser — define a new user account Synopsis createuser [option...]"
    )


def test_a_part_is_titled_by_its_prose_never_a_code_line_or_a_table_row() -> None:
    code = "\n".join(f"    order_id integer REFERENCES orders, -- column {n}" for n in range(60))
    rows = "\n".join(
        f"<tr><td><code>restrict_violation_{n}</code></td><td>{23500 + n}</td></tr>"
        for n in range(300)
    )
    body = f"""<p>{PROSE}</p>
<p>{PROSE}</p>
<pre class="programlisting">CREATE TABLE order_items (
{code}
);</pre>
<p>Restricting and cascading deletes are the two most common options.</p>
<table>
{rows}
</table>"""
    document = split_html("ddl.html", page(body))

    labels = [passage.title.split(" › ")[-1] for passage in document.passages[1:]]
    # The second part starts inside the code: its prose names it.
    assert document.passages[1].text.startswith("order_id integer")
    assert labels[0] == "Restricting and cascading deletes are the \N{HORIZONTAL ELLIPSIS}"
    # A part of table rows only is numbered.
    assert document.passages[-1].text.startswith("restrict_violation_")
    assert labels[-1] == f"part {len(document.passages)}"


def test_only_the_title_of_an_admonition_is_text_not_headings_named_or_held_like_one() -> None:
    text = f"""<html><head><title>Config</title></head><body><main>
<h1>Config</h1>
<section id="note"><h2>note</h2><p>A note field. {LONG}</p></section>
<div class="admonition block"><p class="admonition-title">Theme options</p>
<h3 id="locale">locale</h3><p>The language of the theme. {LONG}</p></div>
</main></body></html>"""
    document = split_html("config.html", text)

    assert [passage.title for passage in document.passages] == [
        "Config › note",
        "Config › note › locale",
    ]
