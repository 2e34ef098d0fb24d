"""Built documentation sites: a folder of generated pages is read once, as its pages.

A folder that holds a site's built HTML pages also holds what the generator made
for the browser: Sphinx's `_sources/` copies of every page's source, its general
index (`genindex*.html`), search page, module index (`py-modindex.html`),
highlighted source pages (`_modules/`) and static folders; MkDocs' search index,
theme assets and 404 page. Reading them would give each page twice, or give pages of
links and search boxes. `skipped_in_site` names them, with why, from the names in the
folder alone: only when HTML pages are documents and the folder has some, so a tree
that has only `_sources/` (or whose HTML is not read) keeps its sources.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Collection, Mapping

SPHINX_MARKERS = frozenset({"objects.inv", "searchindex.js"})
MKDOCS_MARKERS = frozenset({"sitemap.xml", "sitemap.xml.gz"})
BUILT_SITE = "part of a built site, not a page"

_SPHINX_FOLDERS = {
    "_sources": "the site's copies of its pages' sources (its pages are read)",
    "_static": "the site's static files",
    "_images": "the site's images",
    "_modules": "the site's highlighted source code pages",
    "_downloads": "the site's downloadable files",
}
_SPHINX_PAGES = {
    "genindex*.html": "the site's general index",
    "search.html": "the site's search page",
    "*-modindex.html": "the site's module index",
}
_MKDOCS_FOLDERS = {"search": "the site's search index", "assets": "the site's theme files"}
_MKDOCS_PAGES = {"404.html": "the site's page-not-found page"}


def skipped_in_site(entries: Mapping[str, bool], kinds: Collection[str]) -> dict[str, str]:
    """The entries of one folder (name -> is a folder) that are not documents because
    the folder is a built site, each with why (`part of a built site, not a page: the
    site's search page`)."""
    if "html" not in kinds or not any(
        not is_folder and name.endswith((".html", ".htm")) for name, is_folder in entries.items()
    ):
        return {}
    names = set(entries)
    rules: list[tuple[dict[str, str], dict[str, str]]] = []
    if names & SPHINX_MARKERS:
        rules.append((_SPHINX_FOLDERS, _SPHINX_PAGES))
    if names & MKDOCS_MARKERS or ("404.html" in names and entries.get("search")):
        rules.append((_MKDOCS_FOLDERS, _MKDOCS_PAGES))
    skipped: dict[str, str] = {}
    for folders, pages in rules:
        for name, is_folder in entries.items():
            why = folders.get(name) if is_folder else _matching(pages, name)
            if why is not None:
                skipped[name] = f"{BUILT_SITE}: {why}"
    return skipped


def _matching(patterns: Mapping[str, str], name: str) -> str | None:
    return next(
        (why for pattern, why in patterns.items() if fnmatch.fnmatchcase(name, pattern)), None
    )
