"""A built HTML site through the commands: `passages`, `ask --json` and `library` show
its pages' passages with the HTML file's lines, and say what the site holds besides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui_assistant import cli

PAGE = """\
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title} &#8212; Kettle 3.1 documentation</title>
</head><body><div class="sphinxsidebar" role="navigation"><a href="index.html">Kettle</a></div>
<div class="body" role="main">
<h1>{title}<a class="headerlink" href="#top">¶</a></h1>
<p>{words}</p>
</div></body></html>
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    html = tmp_path / "html"
    (html / "_sources").mkdir(parents=True)
    (html / "descale.html").write_text(
        PAGE.format(title="Descaling", words="Descale the kettle with citric acid every month.")
    )
    (html / "boil.html").write_text(
        PAGE.format(title="Boiling", words="Fill the kettle above the minimum line.")
    )
    (html / "_sources" / "descale.rst.txt").write_text("Descaling\n=========\n\nCitric acid.\n")
    (html / "search.html").write_text(PAGE.format(title="Search", words="Search the docs."))
    (html / "objects.inv").write_bytes(b"# Sphinx inventory version 2\n")
    return html


def test_passages_and_ask_show_the_html_file_and_its_lines(
    clean_env: Path, site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["passages", "--library", str(site), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(p["id"], p["title"], p["source_path"], p["line"]) for p in listed] == [
        ("boil", "Boiling", "html/boil.html", 5),
        ("descale", "Descaling", "html/descale.html", 5),
    ]

    assert cli.main(["ask", "--library", str(site), "--json", "how do I descale the kettle"]) == 0
    answer = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (answer["passage_id"], answer["source_path"]) == ("descale", "html/descale.html")
    assert (answer["line"], answer["end_line"]) == (5, 6)
    assert "Descale the kettle with citric acid every month." in answer["answer"]
    assert "¶" not in answer["answer"] and "Kettle 3.1" not in answer["answer"]


def test_the_library_report_counts_html_and_names_the_site_files_once(
    clean_env: Path, site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["library", "--library", str(site), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["documents"]["by_kind"]["html"] == 2
    assert data["skipped"]["by_reason"]["built_site"] == 1
    [skipped] = data["skipped"]["files"]
    assert skipped["path"] == "./"
    assert skipped["detail"] == "part of a built site, not a page: _sources/, search.html"
