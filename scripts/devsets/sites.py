"""The development libraries that are built HTML sites taken whole from a Debian -doc
package: a Sphinx site in the Furo theme (inline SVG icons on every page) and the
PostgreSQL manual (several thousand sections). Rows of the same table as
`scripts.devsets.sources`; `build.TREES` lists them with the others."""

from __future__ import annotations

from pathlib import PurePosixPath

from scripts.devsets.sources import Keep, Tree, copyright_file, deb


def sphinx_site(prefix: str) -> Keep:
    """A built Sphinx site's pages, page sources and inventory, without its theme's
    static files and images (one file of `_static/` is kept: it says the site is Sphinx's)
    and without the highlighted module sources but their index."""

    def keep(path: str) -> str | None:
        if not path.startswith(prefix):
            return None
        relative = PurePosixPath(path.removeprefix(prefix))
        top = relative.parts[0]
        if top in ("_static", "_images"):
            kept = relative.name == "documentation_options.js"
        elif top == "_modules":
            kept = relative == PurePosixPath("_modules/index.html")
        else:
            kept = relative.suffix in (".html", ".txt") or relative.name == "objects.inv"
        return str(relative) if kept else None

    return keep


def html_pages(prefix: str) -> Keep:
    """The .html pages directly in `prefix`: no image, stylesheet or script."""

    def keep(path: str) -> str | None:
        relative = path.removeprefix(prefix)
        if not path.startswith(prefix) or "/" in relative or not relative.endswith(".html"):
            return None
        return relative

    return keep


STRUCTLOG = "usr/share/doc/python-structlog-doc/html/"
POSTGRES = "usr/share/doc/postgresql-doc-15/html/"

SITE_TREES: tuple[Tree, ...] = (
    Tree(
        "structlog-html",
        deb("python-structlog-doc", "22.3.0-2"),
        "its built Sphinx site in the Furo theme, one file of the static folders",
        sphinx_site(STRUCTLOG),
        copyright_file("python-structlog-doc", then="Apache-2.0"),
    ),
    Tree(
        "postgres-manual",
        deb("postgresql-doc-15", "15.20-0+deb12u1"),
        "the PostgreSQL 15 manual's HTML pages, without its images and stylesheet",
        html_pages(POSTGRES),
        copyright_file("postgresql-doc-15"),
    ),
)
