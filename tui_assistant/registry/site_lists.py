"""The lists a website gives of its pages: `llms.txt`, sitemaps, and the links of a
page (HTML or Markdown). Pure: text in, URLs out, every URL made canonical and in
the scope (`site_urls.canonical`), in the order given, each once.

Nothing on a page is run: HTML is read by the standard library's tokenizer for its
`<a href>` and `<base href>` only; a sitemap is XML read without its DTD (a document
that declares one, or entities, is refused: no entity expansion bomb).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from xml.etree import ElementTree

from tui_assistant.registry.site_urls import SiteSpec, canonical

# `[text](url)` or `[text](<url> "title")`, as Markdown and llms.txt write links.
_MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^()\s<>]+)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")
_DECLARATION = re.compile(rb"<!(DOCTYPE|ENTITY)", re.I)


def unique(urls: Iterable[str | None]) -> list[str]:
    """`urls` without the Nones, each once, in order."""
    return list(dict.fromkeys(url for url in urls if url is not None))


def markdown_links(text: str, spec: SiteSpec, base: str) -> list[str]:
    """The in-scope links of a Markdown page or an `llms.txt` (a title, a summary and
    lists of `[name](url): notes`)."""
    return unique(canonical(match.group(1), spec, base) for match in _MARKDOWN_LINK.finditer(text))


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self.base: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        href = values.get("href")
        if not href:
            return
        if tag == "base" and self.base is None:
            self.base = href
        elif tag in ("a", "area") and "nofollow" not in (values.get("rel") or "").lower():
            self.hrefs.append(href)


def html_links(text: str, spec: SiteSpec, base: str) -> list[str]:
    """The in-scope links (`<a href>`, `<area href>`) of an HTML page at `base`, read
    against its `<base href>` if it gives one."""
    parser = _Links()
    try:
        parser.feed(text)
        parser.close()
    except (AssertionError, ValueError):
        pass  # a page the tokenizer gives up on: the links read so far
    page_base = canonical(parser.base, spec, base) if parser.base else None
    return unique(canonical(href, spec, page_base or base) for href in parser.hrefs)


@dataclass(frozen=True, slots=True)
class Sitemap:
    """A sitemap's pages (`<urlset>`) or the sitemaps a sitemap index names."""

    pages: list[str]
    sitemaps: list[str]


def read_sitemap(data: bytes, spec: SiteSpec) -> Sitemap:
    """The in-scope pages of a sitemap (`<urlset><url><loc>`), or the sitemaps of a
    sitemap index (`<sitemapindex><sitemap><loc>`, any host's not followed). ValueError
    with one line when it is not a sitemap."""
    if _DECLARATION.search(data[:4096]) or b"<!ENTITY" in data:
        raise ValueError("declares a DTD or entities: not read")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        raise ValueError(f"is not XML ({error})") from None
    kind = _local(root.tag)
    if kind not in ("urlset", "sitemapindex"):
        raise ValueError(f"is not a sitemap (its root is <{kind}>)")
    locs = [
        (element.text or "").strip()
        for element in root.iter()
        if _local(element.tag) == "loc" and element.text
    ]
    if kind == "urlset":
        return Sitemap(unique(canonical(loc, spec) for loc in locs), [])
    return Sitemap([], unique(_same_site(loc, spec) for loc in locs))


def _same_site(loc: str, spec: SiteSpec) -> str | None:
    """A nested sitemap's URL when it is on the site's host (any path)."""
    return canonical(loc, spec.whole_site())


def sitemaps_of_robots(urls: Iterable[str], spec: SiteSpec) -> list[str]:
    """robots.txt's `Sitemap:` URLs that are on the site's host."""
    return unique(_same_site(url, spec) for url in urls)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()
