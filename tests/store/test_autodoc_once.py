"""A package's API page and its source give each documented object once: the docs
page's passage, under the section holding the directive, citing the source's lines."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from tui_assistant.core.library.library import Library
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library

SOURCE = '''"""Templates from many places."""


class PackageLoader:
    """Load templates from a Python package's folder."""

    def list_templates(self):
        """The names of every template the package holds."""


class BytecodeCache:
    """Keep compiled templates between runs."""


class TemplateRuntimeError(Exception):
    """Raised when a template fails while it renders."""


def select_autoescape(enabled_extensions=("html",)):
    """Turn autoescaping on for templates whose names end with these extensions."""
'''
API = """API
===

.. module:: jinjo

Loaders
-------

Loaders find templates by name.

.. autoclass:: PackageLoader
   :members:

Bytecode Cache
--------------

Bytecode caches skip parsing.

.. autoclass:: BytecodeCache

Exceptions
----------

.. autoexception:: TemplateRuntimeError

Custom Filters
--------------

Filters are functions.
"""


@pytest.fixture
def package(tmp_path: Path) -> Path:
    folder = tmp_path / "jinjo-1.0"
    (folder / "docs").mkdir(parents=True)
    (folder / "src" / "jinjo").mkdir(parents=True)
    (folder / "src" / "jinjo" / "__init__.py").write_text(SOURCE)
    (folder / "docs" / "api.rst").write_text(API)
    return folder


def opened(folder: Path, data_dir: Path) -> Library:
    return open_library(folder, data_dir, stem, kinds=("rst", "py"))


def titles_citing(library: Library, line: int) -> list[str]:
    return [
        info.title
        for info in library.passages
        if info.source_path.endswith("src/jinjo/__init__.py") and info.line == line
    ]


def test_no_two_passages_cite_the_same_lines(package: Path, tmp_path: Path) -> None:
    library = opened(package, tmp_path / "data")
    cited = Counter((info.source_path, info.line, info.end_line) for info in library.passages)
    assert [place for place, count in cited.items() if count > 1] == []


def test_each_object_is_the_docs_pages_passage_under_its_section(
    package: Path, tmp_path: Path
) -> None:
    library = opened(package, tmp_path / "data")
    assert titles_citing(library, 4) == ["API › Loaders › jinjo.PackageLoader"]
    assert titles_citing(library, 7) == ["API › Loaders › jinjo.PackageLoader.list_templates()"]
    assert titles_citing(library, 11) == ["API › Bytecode Cache › jinjo.BytecodeCache"]
    assert titles_citing(library, 15) == ["API › Exceptions › jinjo.TemplateRuntimeError"]
    (loader,) = [info for info in library.passages if info.line == 4]
    assert loader.document == "docs/api.rst"
    assert (loader.source_path, loader.end_line) == ("jinjo-1.0/src/jinjo/__init__.py", 5)
    text = library.get(loader.id)
    assert text is not None and "Python package's folder" in text.text


def test_an_object_no_page_documents_keeps_its_source_passage(
    package: Path, tmp_path: Path
) -> None:
    library = opened(package, tmp_path / "data")
    assert titles_citing(library, 19) == ["jinjo.select_autoescape(enabled_extensions=('html',))"]


def test_the_index_holds_the_object_once(package: Path, tmp_path: Path) -> None:
    library = opened(package, tmp_path / "data")
    holders = [library.info(number).title for number in library.index.holders(stem("compiled"))]
    assert holders == ["API › Bytecode Cache › jinjo.BytecodeCache"]


def test_a_directive_taken_out_gives_the_object_back_to_its_source(
    package: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    opened(package, data).close()
    page = package / "docs" / "api.rst"
    page.write_text(API.replace(".. autoclass:: BytecodeCache\n", ""))
    os.utime(page, ns=(10**18, 10**18))

    library = opened(package, data)
    assert titles_citing(library, 11) == ["jinjo.BytecodeCache"]
