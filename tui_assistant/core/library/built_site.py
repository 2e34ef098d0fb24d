"""Built documentation sites: a folder of generated pages is read once, as its pages.

A folder that holds a site's built HTML pages also holds what the generator made
for the browser: Sphinx's `_sources/` copies of every page's source, its general
index (`genindex*.html`), search page, module index (`py-modindex.html`),
highlighted source pages (`_modules/`) and static folders; MkDocs' search index,
theme assets and 404 page. Reading them would give each page twice, or give pages of
links and search boxes. `skipped_in_site` names them, in one line for the folder, from
the names in the folder alone: only when a format of built pages (`built_site_pages`:
HTML) is read and the folder has pages of it, so a tree that has only `_sources/` (or
whose HTML is not read) keeps its sources.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from tui_assistant.core.documents.formats import FORMATS, format_of

SPHINX_MARKERS = frozenset({"objects.inv", "searchindex.js"})
MKDOCS_MARKERS = frozenset({"sitemap.xml", "sitemap.xml.gz"})
BUILT_SITE = "part of a built site, not a page"

_SPHINX_FOLDERS = frozenset({"_sources", "_static", "_images", "_modules", "_downloads"})
_SPHINX_PAGES = ("genindex*.html", "search.html", "*-modindex.html")
_MKDOCS_FOLDERS = frozenset({"search", "assets"})
_MKDOCS_PAGES = ("404.html",)


@dataclass(frozen=True, slots=True)
class SiteSkip:
    """What a built site's folder holds besides its pages: the names, and one line that
    says what they are (`part of a built site, not a page: _sources/, genindex*.html (3),
    search.html`)."""

    names: frozenset[str]
    reason: str


def skipped_in_site(entries: Mapping[str, bool], kinds: Collection[str]) -> SiteSkip | None:
    """The entries of one folder (name -> is a folder) that are not documents because
    the folder is a built site; None when it is not one."""
    read = [format for format in FORMATS if format.built_site_pages and format.name in kinds]
    if not any(not is_folder and format_of(name) in read for name, is_folder in entries.items()):
        return None
    names = set(entries)
    rules: list[tuple[frozenset[str], tuple[str, ...]]] = []
    if names & SPHINX_MARKERS:
        rules.append((_SPHINX_FOLDERS, _SPHINX_PAGES))
    if names & MKDOCS_MARKERS or ("404.html" in names and entries.get("search")):
        rules.append((_MKDOCS_FOLDERS, _MKDOCS_PAGES))
    skipped: set[str] = set()
    shown: list[str] = []
    for folders, pages in rules:
        for folder in sorted(folders):
            if entries.get(folder):
                skipped.add(folder)
                shown.append(f"{folder}/")
        for pattern in pages:
            matching = [
                name
                for name, is_folder in entries.items()
                if not is_folder and fnmatch.fnmatchcase(name, pattern)
            ]
            skipped.update(matching)
            if len(matching) == 1:
                shown.append(matching[0])
            elif matching:
                shown.append(f"{pattern} ({len(matching)})")
    if not skipped:
        return None
    return SiteSkip(frozenset(skipped), f"{BUILT_SITE}: {', '.join(shown)}")
