"""The built sites' rows of the development-set table: from a Debian -doc package, a
Sphinx site keeps its pages, page sources and inventory but not its theme or images, and
the PostgreSQL manual keeps its top-level pages alone; both are listed with the others."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.devsets import build
from tests.scripts.test_devsets_build import run, tree_files, write_deb

STRUCTLOG = "usr/share/doc/python-structlog-doc/"
POSTGRES = "usr/share/doc/postgresql-doc-15/"


def test_a_sphinx_site_keeps_its_pages_and_not_its_theme(tmp_path: Path) -> None:
    html = STRUCTLOG + "html/"
    kept = {
        "index.html": b"<html><svg><symbol id='svg-toc'/></svg>structlog</html>",
        "api.html": b"<html>API</html>",
        "objects.inv": b"# Sphinx inventory\n",
        "_sources/api.rst.txt": b"API\n===\n",
        "_static/documentation_options.js": b"var DOCUMENTATION_OPTIONS = {};\n",
        "_modules/index.html": b"<html>modules</html>",
    }
    dropped = {
        "_static/styles/furo.css": b"body {}",
        "_static/scripts/furo.js": b"",
        "_images/console_output.png": b"\x89PNG",
        "_modules/structlog/dev.html": b"<html>source</html>",
    }
    write_deb(
        tmp_path / "python-structlog-doc_22.3.0-2_all.deb",
        {
            **{html + path: data for path, data in {**kept, **dropped}.items()},
            STRUCTLOG + "copyright": b"Files: *\nLicense: Apache-2.0 or Expat\n",
        },
    )
    assert run(tmp_path, "structlog-html") == 0
    assert tree_files(tmp_path / "eval" / "structlog-html") == kept
    licence = (tmp_path / "eval" / "structlog-html.LICENSE").read_text()
    assert licence.startswith("Extracted from the Debian package python-structlog-doc 22.3.0-2 (")
    assert "License: Apache-2.0 or Expat\n" in licence
    assert "The full text of the Apache-2.0:" in licence


def test_the_postgres_manual_keeps_its_pages_without_images(tmp_path: Path) -> None:
    html = POSTGRES + "html/"
    page = b"<html><h1>CREATE TABLE</h1></html>"
    write_deb(
        tmp_path / "postgresql-doc-15_15.20-0+deb12u1_all.deb",
        {
            html + "sql-createtable.html": page,
            html + "gin.svg": b"<svg/>",
            html + "stylesheet.css": b"body {}",
            POSTGRES + "tutorial/complex.c": b"int main;",
            "usr/share/postgresql/15/man/man3/ABORT.3.gz": b"",
            POSTGRES + "copyright": b"Files: *\nLicense: PostgreSQL\n",
        },
    )
    assert run(tmp_path, "postgres-manual") == 0
    assert tree_files(tmp_path / "eval" / "postgres-manual") == {"sql-createtable.html": page}
    licence = (tmp_path / "eval" / "postgres-manual.LICENSE").read_text()
    assert licence.split("\n\n", 1)[1] == "Files: *\nLicense: PostgreSQL\n"


def test_the_listing_names_the_built_sites(capsys: pytest.CaptureFixture[str]) -> None:
    assert build.main(["--list"]) == 0
    listing = capsys.readouterr().out
    assert "structlog-html: the Debian package python-structlog-doc 22.3.0-2" in listing
    assert "apt-get download postgresql-doc-15=15.20-0+deb12u1" in listing
