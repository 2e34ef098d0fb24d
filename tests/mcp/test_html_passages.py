"""HTML passages through the MCP tools: search, read by id and by lines, check."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_assistant.mcp.tools.check import check
from tui_assistant.mcp.tools.read import read
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import open_context
from tui_assistant.wiring.library_tools import LibraryTools

PAGE = """\
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Backups &#8212; Vault 2.0 documentation</title>
<script>steal()</script></head>
<body><nav class="sidebar"><a href="index.html">Vault</a></nav>
<div role="main">
<h1>Backups</h1>
<p>Vault writes a snapshot every night.</p>
<h2>Restoring a snapshot</h2>
<p>Stop the server, then run
<code>vault restore --from</code> with the
snapshot&#8217;s path.</p>
</div>
<footer>Copyright Vault team</footer>
</body></html>
"""


@pytest.fixture
def tools(tmp_path: Path) -> LibraryTools:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "backups.html").write_text(PAGE, encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nThe cache lives in the data folder.\n")
    settings = Settings(library=folder, data_dir=tmp_path / "data", retrieval="ranked")  # type: ignore[arg-type]
    return LibraryTools(open_context(settings, embed_now=False))


def test_search_finds_an_html_passage_with_its_file_lines(tools: LibraryTools) -> None:
    result = tools.search("how do I restore a snapshot", 3)
    best = result.passages[0]
    assert (best.id, best.title) == (
        "backups#restoring-a-snapshot",
        "Backups › Restoring a snapshot",
    )
    assert (best.source_path, best.line, best.end_line) == ("site/backups.html", 8, 11)


def test_read_by_id_gives_the_text_a_reader_sees(tools: LibraryTools) -> None:
    passage = read(tools, id="backups#restoring-a-snapshot")
    assert passage.text == (
        "Stop the server, then run\nvault restore --from with the\nsnapshot\u2019s path."
    )
    first = read(tools, id="backups")
    assert (first.title, first.text) == ("Backups", "Vault writes a snapshot every night.")


def test_read_by_lines_gives_exactly_those_lines_of_the_file(tools: LibraryTools) -> None:
    result = read(tools, source_path="site/backups.html", line=9, end_line=10)
    assert result.text == "<p>Stop the server, then run\n<code>vault restore --from</code> with the"
    assert result.id == "backups#restoring-a-snapshot"


def test_check_finds_a_quote_of_the_page_on_its_source_lines(tools: LibraryTools) -> None:
    result = check(
        tools,
        'Run "vault restore --from with the snapshot\u2019s path" '
        "[source:backups#restoring-a-snapshot].",
    )
    assert result.verified
    [quote] = result.quotes
    assert (quote.found, quote.passage_id, quote.line, quote.end_line) == (
        True,
        "backups#restoring-a-snapshot",
        10,
        11,
    )
    markup = check(tools, 'It says "<code>vault restore" [source:backups#restoring-a-snapshot].')
    assert not markup.verified
