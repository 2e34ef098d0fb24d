"""Extract three built HTML documentation trees from Debian packages into eval/.

- eval/bidict-html/      the bidict 0.22.1 documentation as python-bidict-doc ships it: a
                         Sphinx site (furo theme) with its pages, `_sources/` copies,
                         general and module indexes, search page and `objects.inv`; of its
                         static and source-code folders one small file each, so they are
                         there as in the package (the theme's scripts, styles and images,
                         the highlighted source pages and the gzipped changelog page are
                         left out).
- eval/mkdocs-html/      the MkDocs 1.4.2 user guide as mkdocs-doc ships it: a site MkDocs
                         built (mkdocs theme) with its 404 page, `sitemap.xml` and search
                         index; images, scripts, styles and fonts are left out.
- eval/lua-manual-html/  the Lua 5.1 Reference Manual, one page (`manual.html`, 250 KB),
                         as lua5.1-doc ships it, with its contents page (`contents.html`).
                         `manual.html` is also the source of the same manual as PDF.

Each tree's licence goes to eval/<name>.LICENSE with a first line naming the package.
Download the packages once (this needs the network; the script itself does not):

    apt-get update && apt-get download python-bidict-doc=0.22.1-1 \\
        mkdocs-doc=1.4.2+dfsg-2 lua5.1-doc=5.1.5-9

then, from the repository root:

    python scripts/build_html_devsets.py python-bidict-doc_0.22.1-1_all.deb \\
        mkdocs-doc_1.4.2+dfsg-2_all.deb lua5.1-doc_5.1.5-9_all.deb

The cases files (eval/<name>.jsonl) are written by hand, not by this script.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from build_docs_devsets import EVAL, deb_files, write_tree

MPL_LICENSE = Path("/usr/share/common-licenses/MPL-2.0")


def bidict_kept(path: PurePosixPath) -> bool:
    top = path.parts[0]
    if top in ("_static", "_images"):
        return path.name == "documentation_options.js"
    if top == "_modules":
        return path == PurePosixPath("_modules/index.html")
    return path.suffix in (".html", ".txt") or path.name == "objects.inv"


def mkdocs_kept(path: PurePosixPath) -> bool:
    return path.suffix == ".html" or path.name in ("sitemap.xml", "search_index.json")


def lua_kept(path: PurePosixPath) -> bool:
    return path.name in ("manual.html", "contents.html")


TREES: dict[str, tuple[str, str, Callable[[PurePosixPath], bool]]] = {
    # name: (package name, folder inside the package, which files are kept)
    "bidict-html": ("python-bidict-doc", "usr/share/doc/python-bidict-doc/html/", bidict_kept),
    "mkdocs-html": ("mkdocs-doc", "usr/share/doc/mkdocs/html/", mkdocs_kept),
    "lua-manual-html": ("lua5.1-doc", "usr/share/doc/lua5.1-doc/doc/", lua_kept),
}


def build(name: str, deb: Path) -> None:
    package, prefix, kept = TREES[name]
    files = deb_files(deb)
    pages: dict[str, bytes] = {}
    for path, content in files.items():
        relative = PurePosixPath(path.removeprefix(prefix))
        if path.startswith(prefix) and kept(relative):
            pages[str(relative)] = content
    count, size = write_tree(name, pages)
    notice = files[f"usr/share/doc/{package}/copyright"].decode("utf-8")
    if name == "bidict-html":
        notice += "\n\nThe full text of the MPL-2.0:\n\n" + MPL_LICENSE.read_text()
    version = deb.name.split("_")[1]
    header = (
        f"Extracted from the Debian package {package} {version} (its {prefix} folder,"
        f" {count} files kept) by scripts/build_html_devsets.py. The package's copyright file:"
    )
    (EVAL / f"{name}.LICENSE").write_text(f"{header}\n\n{notice}")
    print(f"eval/{name}: {count} files, {size:,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("debs", nargs="+", type=Path, help="the downloaded .deb files")
    args = parser.parse_args()
    for deb in args.debs:
        package = deb.name.split("_")[0]
        name = next((name for name, tree in TREES.items() if tree[0] == package), None)
        if name is None:
            raise SystemExit(f"{deb}: not one of {', '.join(tree[0] for tree in TREES.values())}")
        build(name, deb)


if __name__ == "__main__":
    main()
