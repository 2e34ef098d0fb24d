"""A website's lists of pages read without a network: llms.txt, sitemaps and sitemap
indexes, and the links of HTML and Markdown pages."""

from __future__ import annotations

import pytest

from tui_assistant.registry.site_lists import (
    html_links,
    markdown_links,
    read_sitemap,
    sitemaps_of_robots,
)
from tui_assistant.registry.site_urls import SiteSpec, parse_site_url

LLMS_TXT = """\
# FastWidget

> FastWidget builds widgets quickly.

Some notes with an [inline link](guide/intro.md).

## Docs

- [Install](https://ex.com/docs/install.md): how to install
- [Config](/docs/config.md "Configuration")
- [Blog](https://ex.com/blog/post.md)
- [Other site](https://other.org/docs/a.md)
- [Again](https://ex.com/docs/install.md#top)

## Optional

- [API](<https://ex.com/docs/api reference.md>)
"""


@pytest.fixture
def site() -> SiteSpec:
    found = parse_site_url("https://ex.com/docs/")
    assert found is not None
    return found


def test_llms_txt_gives_its_links_under_the_scope_in_order_each_once(site: SiteSpec) -> None:
    assert markdown_links(LLMS_TXT, site, "https://ex.com/docs/llms.txt") == [
        "https://ex.com/docs/guide/intro.md",
        "https://ex.com/docs/install.md",
        "https://ex.com/docs/config.md",
    ]


def test_a_sitemap_gives_its_pages_under_the_scope(site: SiteSpec) -> None:
    xml = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://ex.com/docs/</loc><lastmod>2025-01-01</lastmod></url>
  <url><loc> https://ex.com/docs/a.html </loc></url>
  <url><loc>https://ex.com/docs/a.html?ref=x</loc></url>
  <url><loc>https://ex.com/pricing/</loc></url>
  <url><loc>javascript:alert(1)</loc></url>
</urlset>"""
    found = read_sitemap(xml, site)
    assert found.pages == ["https://ex.com/docs/", "https://ex.com/docs/a.html"]
    assert found.sitemaps == []


def test_a_sitemap_index_names_the_sitemaps_on_the_same_host(site: SiteSpec) -> None:
    xml = b"""<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://ex.com/sitemap-docs.xml</loc></sitemap>
  <sitemap><loc>https://ex.com/sitemap-blog.xml.gz</loc></sitemap>
  <sitemap><loc>https://evil.org/sitemap.xml</loc></sitemap>
</sitemapindex>"""
    found = read_sitemap(xml, site)
    assert found.pages == []
    assert found.sitemaps == [
        "https://ex.com/sitemap-docs.xml",
        "https://ex.com/sitemap-blog.xml.gz",
    ]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><urlset/>', "DTD or entities"),
        (b"<html><body>not found</body></html>", "not a sitemap"),
        (b"not xml at all", "is not XML"),
    ],
)
def test_what_is_not_a_sitemap_is_refused_in_one_line(
    site: SiteSpec, data: bytes, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        read_sitemap(data, site)


def test_robots_sitemap_lines_on_another_host_are_not_followed(site: SiteSpec) -> None:
    assert sitemaps_of_robots(
        ["https://ex.com/sitemap.xml", "https://cdn.other.org/sitemap.xml"], site
    ) == ["https://ex.com/sitemap.xml"]


def test_html_links_are_read_from_anchors_only_and_nothing_runs(site: SiteSpec) -> None:
    page = """<html><head><link rel="stylesheet" href="style.css">
<script src="app.js"></script><script>location.href = "steal.html"</script></head>
<body><a href="b.html#x">B</a> <a href="javascript:void(0)">js</a>
<a href="data:text/html;base64,PGgxPg==">data</a> <a href="/docs/c/">C</a>
<a rel="nofollow" href="private.html">no</a> <a>no href</a> <area href="map.html">
<a href="https://ex.com/other/">out</a> <a href="b.html">again</a></body></html>"""
    assert html_links(page, site, "https://ex.com/docs/a/index.html") == [
        "https://ex.com/docs/a/b.html",
        "https://ex.com/docs/c/",
        "https://ex.com/docs/a/map.html",
    ]


def test_a_base_href_is_what_relative_links_follow(site: SiteSpec) -> None:
    page = '<base href="/docs/v2/"><a href="intro.html">Intro</a>'
    assert html_links(page, site, "https://ex.com/docs/") == ["https://ex.com/docs/v2/intro.html"]
