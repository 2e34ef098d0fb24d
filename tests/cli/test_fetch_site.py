"""`tui-assistant fetch https://HOST/PATH/` against a website on loopback: its page
list (llms.txt, sitemaps, links), Markdown asked for, robots.txt honoured, a refresh
that re-uses unchanged pages, and every passage citing its page's URL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.fake_site import FakeSite, Page, html
from tui_assistant import cli
from tui_assistant.mcp.tools.read import read
from tui_assistant.registry.site_urls import today
from tui_assistant.settings import load_settings
from tui_assistant.wiring.context import open_context
from tui_assistant.wiring.library_tools import LibraryTools

MARKDOWN = "text/markdown; charset=utf-8"


@pytest.fixture
def site(clean_env: Path) -> Iterator[FakeSite]:
    with FakeSite() as fake:
        yield fake


def fetch(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> dict[str, Any]:
    assert cli.main(["fetch", "--json", *args]) == code
    [result] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return result


def kept_files(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


def library_of(site: FakeSite) -> str:
    return f"127.0.0.1-{site.port}-docs@{today()}"


def test_llms_txt_lists_the_pages_read_and_markdown_is_kept_as_markdown(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/docs/"] = Page(html("Widgets", "The widget documentation."))
    site.pages["/llms.txt"] = Page(
        "# Widgets\n\n> Widgets for everyone.\n\n## Docs\n\n"
        "- [Install](/docs/install.md): installing widgets\n"
        f"- [Configure]({site.url}/docs/configure.md)\n"
        "- [Blog](/blog/news.md)\n- [Elsewhere](https://example.org/docs/x.md)\n",
        "text/plain; charset=utf-8",
    )
    site.pages["/docs/install.md"] = Page("# Install\n\nRun pip install widgets.\n", MARKDOWN)
    site.pages["/docs/configure.md"] = Page("# Configure\n\nSet WIDGET_HOME.\n", MARKDOWN)
    result = fetch(capsys, f"{site.url}/docs/")
    name = library_of(site)
    assert (result["library"], result["status"], result["origin"]) == (name, "fetched", "web")
    assert (result["package"], result["version"]) == (name.split("@")[0], today())
    assert result["fetched_at"].endswith("+00:00")
    assert result["detail"] == "3 pages from llms.txt"
    folder = clean_env / "fetched" / name
    assert kept_files(folder) == [".fetched.json", "configure.md", "index.html", "install.md"]
    assert not site.asked("/blog/news.md")
    metadata = json.loads((folder / ".fetched.json").read_text())
    assert metadata["registry"] == "web" and metadata["crawl"] == "llms.txt"
    assert metadata["pages"]["install.md"]["url"] == f"{site.url}/docs/install.md"


def test_llms_full_txt_is_read_when_there_is_no_llms_txt_and_an_html_answer_is_not_a_list(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A site that answers every path with its HTML page has no llms.txt at all.
    site.pages["/docs/llms.txt"] = Page(html("Not found", "[Nope](/docs/nope.md)"))
    site.pages["/docs/llms-full.txt"] = Page(
        "# Widgets\n\n## Install\n\nSee [the guide](/docs/guide.md).\n", MARKDOWN
    )
    site.pages["/docs/"] = Page(html("Widgets", "The widget documentation."))
    site.pages["/docs/guide.md"] = Page("# Guide\n\nRead it all.\n", MARKDOWN)
    result = fetch(capsys, f"{site.url}/docs/")
    assert result["detail"] == "2 pages from llms-full.txt"
    assert not site.asked("/docs/nope.md")


def test_a_sitemap_index_from_robots_txt_lists_the_pages_under_the_scope(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/robots.txt"] = Page("Sitemap: /maps/index.xml\n", "text/plain")
    site.pages["/maps/index.xml"] = Page(
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<sitemap><loc>/maps/pages.xml</loc></sitemap></sitemapindex>",
        "application/xml",
    )
    site.pages["/maps/pages.xml"] = Page(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{site.url}/docs/a.html</loc></url><url><loc>{site.url}/docs/b/</loc></url>"
        f"<url><loc>{site.url}/shop/c.html</loc></url></urlset>",
        "application/xml",
    )
    site.pages["/docs/"] = Page(html("Home", "Start here.", "z.html"))
    site.pages["/docs/a.html"] = Page(html("Alpha", "Alpha text."))
    site.pages["/docs/b/"] = Page(html("Beta", "Beta text."))
    result = fetch(capsys, f"{site.url}/docs/")
    assert result["detail"] == "3 pages from its sitemap"
    folder = clean_env / "fetched" / library_of(site)
    assert kept_files(folder) == [".fetched.json", "a.html", "b/index.html", "index.html"]
    # The list is the crawl: no link is followed, nothing outside the scope is asked for.
    assert not site.asked("/docs/z.html") and not site.asked("/shop/c.html")


def test_without_a_list_links_under_the_path_are_followed_and_nothing_else(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/docs/"] = Page(
        html(
            "Home",
            "Start here.",
            "guide/one.html#part",
            "guide/one.html?month=2",
            "javascript:alert(1)",
            "data:text/html,<h1>x</h1>",
            "mailto:a@example.org",
            "https://example.org/docs/",
            "../shop/buy.html",
            f"{site.url.replace('127.0.0.1', 'localhost')}/docs/other.html",
        )
    )
    site.pages["/docs/guide/one.html"] = Page(html("One", "First guide.", "two.html", "/docs/"))
    site.pages["/docs/guide/two.html"] = Page(html("Two", "Second guide."))
    result = fetch(capsys, f"{site.url}/docs/")
    assert result["detail"] == "3 pages from its links"
    folder = clean_env / "fetched" / library_of(site)
    assert kept_files(folder) == [
        ".fetched.json",
        "guide/one.html",
        "guide/two.html",
        "index.html",
    ]
    asked = [path for path, _ in site.requests]
    assert asked.count("/docs/guide/one.html") == 1 and asked.count("/docs/") == 1
    assert not any("?" in path or "shop" in path or "other" in path for path in asked)


def test_markdown_is_asked_for_and_kept_where_offered_html_elsewhere(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/docs/"] = Page(
        html("Home", "Start here.", "api"), markdown="# Home\n\nStart here.\n\n[API](api)\n"
    )
    site.pages["/docs/api"] = Page(html("API", "The widget API."))
    fetch(capsys, f"{site.url}/docs/")
    folder = clean_env / "fetched" / library_of(site)
    assert kept_files(folder) == [".fetched.json", "api.html", "index.md"]
    page_headers = [headers for headers in site.headers if headers.get("Accept", "")]
    assert "text/markdown, text/html;q=0.9" in [headers["Accept"] for headers in page_headers]


def test_robots_txt_disallowed_pages_are_never_asked_for(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/robots.txt"] = Page(
        "User-agent: *\nDisallow: /docs/private/\nDisallow: /*.txt$\n", "text/plain"
    )
    site.pages["/docs/"] = Page(html("Home", "Start.", "private/keys.html", "open.html", "a.txt"))
    site.pages["/docs/open.html"] = Page(html("Open", "Open text."))
    site.pages["/docs/private/keys.html"] = Page(html("Keys", "Secret."))
    fetch(capsys, f"{site.url}/docs/")
    assert not site.asked("/docs/private/keys.html") and not site.asked("/docs/a.txt")
    folder = clean_env / "fetched" / library_of(site)
    assert kept_files(folder) == [".fetched.json", "index.html", "open.html"]


def test_robots_disallow_is_said_in_one_line(
    site: FakeSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/robots.txt"] = Page("User-agent: *\nDisallow: /docs/private/\n", "text/plain")
    site.pages["/docs/"] = Page(html("Home", "Start.", "private/a.html", "private/b.html"))
    assert cli.main(["fetch", f"{site.url}/docs/"]) == 0
    err = capsys.readouterr().err
    assert f"left out {library_of(site)}: 2 pages robots.txt disallows: not read\n" in err


def test_a_site_fetched_before_is_present_and_refresh_reuses_unchanged_pages(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/docs/"] = Page(html("Home", "Start.", "a.html", "b.html"), etag='"h1"')
    site.pages["/docs/a.html"] = Page(html("Alpha", "Alpha is the first."), etag='"a1"')
    site.pages["/docs/b.html"] = Page(html("Beta", "Beta is the second."), etag='"b1"')
    name = library_of(site)
    first = fetch(capsys, f"{site.url}/docs/")
    asked = len(site.requests)
    assert fetch(capsys, f"{site.url}/docs/")["status"] == "present"
    assert len(site.requests) == asked  # read once: no network

    # An older version stands beside: a refresh makes today's, re-using what is unchanged.
    base = name.split("@")[0]
    older = clean_env / "fetched" / f"{base}@2000-01-01"
    (clean_env / "fetched" / name).rename(older)
    site.pages["/docs/b.html"] = Page(html("Beta", "Beta has changed."), etag='"b2"')
    again = fetch(capsys, "--refresh", f"{site.url}/docs/")
    assert (again["library"], again["status"]) == (name, "fetched")
    assert again["detail"] == f"3 pages from its links, 2 unchanged since {base}@2000-01-01"
    assert site.asked("/docs/a.html") == [200, 304] and site.asked("/docs/b.html") == [200, 200]
    assert "changed" in (clean_env / "fetched" / name / "b.html").read_text()
    assert (older / "b.html").read_text() != (clean_env / "fetched" / name / "b.html").read_text()
    assert first["fetched_at"] <= again["fetched_at"]

    # The bare name is the newest version; a second refresh the same day replaces it.
    assert cli.main(["ask", "--json", "--library", base, "what is alpha?"]) == 0
    assert json.loads(capsys.readouterr().out)["passages"][0]["library"] == name
    replaced = fetch(capsys, "--refresh", f"{site.url}/docs/")
    assert replaced["library"] == name and "3 unchanged" in replaced["detail"]


def test_every_passage_of_a_site_cites_its_page_url(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/docs/"] = Page(html("Home", "Start here.", "boil.html"))
    site.pages["/docs/boil.html"] = Page(
        html("Boiling", "Boil the kettle for three minutes before you pour the tea.")
    )
    fetch(capsys, f"{site.url}/docs/")
    name = library_of(site)
    page_url = f"{site.url}/docs/boil.html"
    question = "how long do I boil the kettle before pouring tea?"

    assert cli.main(["ask", "--json", "--library", name, question]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["passage_id"] == "boil" and answer["url"] == page_url
    assert answer["passages"][0]["url"] == page_url
    assert cli.main(["ask", "--library", name, question]) == 0
    assert f"url: {page_url}\n" in capsys.readouterr().out

    assert cli.main(["search", "--json", "--library", name, question]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (first["id"], first["url"]) == ("boil", page_url)
    assert cli.main(["search", "--library", name, question]) == 0
    assert page_url in capsys.readouterr().out

    assert cli.main(["passages", "--json", "--library", name]) == 0
    rows = {row["id"]: row["url"] for row in json.loads(capsys.readouterr().out)}
    assert rows == {"boil": page_url, "index": f"{site.url}/docs/"}

    context = open_context(load_settings([name]))
    try:
        tools = LibraryTools(context)
        found = tools.search(question, 3)
        assert found.passages[0].url == page_url
        by_id = read(tools, id="boil")
        assert by_id.url == page_url
        lines = read(tools, source_path=by_id.source_path, line=1, end_line=1)
        assert lines.url == page_url and "Boil the kettle" in lines.text
        stored = (clean_env / "fetched" / name / "boil.html").read_text()
        assert lines.text.strip() in stored or "Boil the kettle" in stored
    finally:
        context.library.close()


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("http://example.org/docs/", "https is required"),
        ("https://user:secret@example.org/docs/", "user name or password"),
        ("https://example.org/docs/?page=2", "must not have a query"),
    ],
)
def test_a_website_spec_that_is_not_allowed_is_one_line_before_any_network(
    clean_env: Path, capsys: pytest.CaptureFixture[str], spec: str, words: str
) -> None:
    assert cli.main(["fetch", spec]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
