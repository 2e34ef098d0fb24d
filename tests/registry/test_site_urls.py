"""A website's SPEC, scope, canonical links and the files its pages are kept as:
pure, no network."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from tui_assistant.registry.site_urls import (
    SiteSpec,
    canonical,
    page_file,
    parse_site_url,
    today,
)
from tui_assistant.registry.specs import parse_site_spec


def spec(url: str) -> SiteSpec:
    found = parse_site_url(url)
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("url", "root", "library"),
    [
        ("https://docs.example.com/", "/", "docs.example.com"),
        ("https://docs.example.com", "/", "docs.example.com"),
        ("https://Docs.Example.com/Guide/", "/Guide/", "docs.example.com-guide"),
        ("https://example.com/docs/v2", "/docs/v2/", "example.com-docs-v2"),
        ("https://example.com/docs/index.html", "/docs/", "example.com-docs"),
        ("https://example.com:8443/docs/", "/docs/", "example.com-8443-docs"),
        ("https://example.com:443/docs/", "/docs/", "example.com-docs"),
        ("http://127.0.0.1:8000/a/../docs/", "/docs/", "127.0.0.1-8000-docs"),
        ("http://localhost/docs/", "/docs/", "localhost-docs"),
    ],
)
def test_a_website_spec_names_its_scope_and_library(url: str, root: str, library: str) -> None:
    site = spec(url)
    assert (site.root, site.library_base) == (root, library)
    assert site.registry == "web" and str(site) == url


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("http://example.com/docs/", "https is required"),
        ("https://me:pw@example.com/", "must not contain a user name or password"),
        ("https://example.com/docs/?lang=en", "must not have a query"),
        ("https:///docs/", "https:// URL with a host"),
    ],
)
def test_a_website_spec_not_allowed_says_why_in_one_line(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words) as raised:
        parse_site_spec(text)
    assert "\n" not in str(raised.value) and "a website's URL" in str(raised.value)


def test_other_specs_are_not_websites() -> None:
    assert parse_site_spec("pypi:attrs") is None and parse_site_spec("npm:left-pad@1") is None


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("guide/install.html", "https://ex.com/docs/guide/install.html"),
        ("guide/install.html#step-2", "https://ex.com/docs/guide/install.html"),
        ("guide/?month=2&year=2024", "https://ex.com/docs/guide/"),
        ("./a/../b.html", "https://ex.com/docs/b.html"),
        ("/docs", "https://ex.com/docs"),
        ("HTTPS://EX.COM/docs/x.html", "https://ex.com/docs/x.html"),
        ("../shop/", None),
        ("/documentation/", None),
        ("https://other.com/docs/", None),
        ("http://ex.com/docs/", None),
        ("https://ex.com:8443/docs/", None),
        ("javascript:alert(1)", None),
        ("data:text/html,<h1>x</h1>", None),
        ("mailto:me@ex.com", None),
        ("#top", None),
        ("https://user@ex.com/docs/", None),
        ("", None),
    ],
)
def test_links_are_canonical_and_in_the_scope_or_dropped(link: str, expected: str | None) -> None:
    assert canonical(link, spec("https://ex.com/docs/"), "https://ex.com/docs/") == expected


@pytest.mark.parametrize(
    ("url", "suffix", "expected"),
    [
        ("https://ex.com/docs/", ".html", "index.html"),
        ("https://ex.com/docs", ".html", "index.html"),
        ("https://ex.com/docs/guide/", ".md", "guide/index.md"),
        ("https://ex.com/docs/guide/install", ".html", "guide/install.html"),
        ("https://ex.com/docs/guide/install.html", ".md", "guide/install.md"),
        ("https://ex.com/docs/guide/install.md", ".md", "guide/install.md"),
        ("https://ex.com/docs/api/v1.2", ".html", "api/v1.2.html"),
        ("https://ex.com/docs/a%20b/c%3Fd.html", ".html", "a-b/c-d.html"),
        ("https://ex.com/docs/.git/config", ".html", "_git/config.html"),
        ("https://ex.com/docs/%2e%2e/%2e%2e/etc/passwd", ".html", None),
        ("https://ex.com/docs/" + "a/" * 40 + "x", ".html", None),
    ],
)
def test_a_page_is_kept_at_its_url_path_with_safe_names_only(
    url: str, suffix: str, expected: str | None
) -> None:
    assert page_file(url, spec("https://ex.com/docs/"), suffix) == expected


def test_the_version_is_the_utc_date_of_the_fetch() -> None:
    late = datetime(2025, 3, 1, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert today(late) == "2025-03-02"
    assert today(datetime(2025, 3, 1, 0, 5, tzinfo=UTC)) == "2025-03-01"
