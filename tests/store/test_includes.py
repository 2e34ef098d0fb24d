"""Documents that read other files of the library: an include is read in place, an
autodoc directive from the Python source, never anything outside the folder; a change to
an included file reads its includer again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.store_files import closed, open_, problems, write
from tui_assistant.core.documents.inclusion import Unread
from tui_assistant.core.library.library import INCLUDES_ONLY
from tui_assistant.core.library.report import skip_reason
from tui_assistant.store.folder import FolderReader

CHANGES_MD = "# Changes\n\n```{include} ../CHANGES.rst\n```\n"
CHANGES_RST = """\
Version 8.2.0
-------------

-   The pager shows colours on Windows.

Version 8.1.0
-------------

-   Shell completion for zsh.
"""
API_MD = """\
# API

```{autofunction} shop.cart.total
```

```{autofunction} shop.missing.nothing
```
"""
CART = '''\
def total(items, tax=0.2):
    """The price of all items, tax included."""
    return sum(items) * (1 + tax)
'''


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    folder = tmp_path / "shop"
    write(folder, "docs/changes.md", CHANGES_MD)
    write(folder, "CHANGES.rst", CHANGES_RST)
    write(folder, "docs/api.md", API_MD)
    write(folder, "src/shop/cart.py", CART)
    return folder


def test_an_include_of_a_file_outside_the_documents_is_read_in_place(
    shop: Path, data_dir: Path
) -> None:
    write(shop, "docs/_snippets/install.inc", "Run `pip install shop`.\n")
    write(shop, "docs/install.md", "# Install\n\n```{include} _snippets/install.inc\n```\n")
    library = open_(shop, data_dir)
    (install,) = [info for info in library if info.document == "docs/install.md"]
    assert (install.source_path, install.line, install.end_line) == (
        "shop/docs/_snippets/install.inc",
        1,
        1,
    )
    assert library.get(install.id).text == "Run `pip install shop`."  # type: ignore[union-attr]


def test_an_included_document_is_in_the_library_once_citing_its_own_lines(
    shop: Path, data_dir: Path
) -> None:
    library = open_(shop, data_dir)
    cited = [info for info in library if info.source_path == "shop/CHANGES.rst"]
    # The changelog's passages are its own; the page that includes it adds no copy.
    assert [(info.id, info.line, info.end_line) for info in cited] == [
        ("changes", 1, 4),
        ("changes#version-8-1-0", 6, 9),
    ]
    assert problems(library)["docs/changes.md"] == INCLUDES_ONLY
    assert skip_reason(INCLUDES_ONLY) == "includes_only"  # not "no text besides headings"


def test_autodoc_reads_the_python_source_and_says_what_it_could_not(
    shop: Path, data_dir: Path
) -> None:
    library = open_(shop, data_dir)
    (api,) = [info for info in library if "shop.cart.total" in info.title]
    assert api.title == "API › shop.cart.total(items, tax=0.2)"
    assert (api.source_path, api.line, api.end_line) == ("shop/src/shop/cart.py", 1, 2)
    assert library.get(api.id).text == "The price of all items, tax included."  # type: ignore[union-attr]
    notices = [str(problem) for problem in library.problems if not problem.skipped]
    assert notices == [
        "file docs/api.md: autofunction shop.missing.nothing:"
        " no Python source for shop.missing.nothing in the library"
    ]


def test_a_change_to_an_included_file_reads_its_includer_again(
    shop: Path, data_dir: Path, reads: list[str]
) -> None:
    write(shop, "docs/_snippets/install.inc", "Run `pip install shop`.\n")
    write(shop, "docs/install.md", "# Install\n\n```{include} _snippets/install.inc\n```\n")
    closed(open_(shop, data_dir))
    reads.clear()
    write(shop, "docs/_snippets/install.inc", "Run `uv add shop`.\n")
    library = open_(shop, data_dir)
    assert reads == ["docs/install.md"]
    texts = [library.get(info.id).text for info in library if info.document == "docs/install.md"]  # type: ignore[union-attr]
    assert texts == ["Run `uv add shop`."]
    closed(library)
    reads.clear()
    write(shop, "src/shop/cart.py", CART.replace("tax included", "tax and all"))
    closed(open_(shop, data_dir))
    assert reads == ["docs/api.md"]
    reads.clear()
    (shop / "src/shop/cart.py").unlink()
    library = open_(shop, data_dir)
    assert reads == ["docs/api.md"]
    assert not any(info.source_path.endswith(".py") for info in library)


def test_an_include_outside_the_library_is_never_read(tmp_path: Path, data_dir: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nThe launch code is 1234.\n", encoding="utf-8")
    folder = tmp_path / "docs"
    write(folder, "index.md", "# Index\n\nHello.\n\n```{include} ../secret.md\n```\n")
    library = open_(folder, data_dir)
    assert all("launch code" not in library.passage(n).text for n in range(len(library)))
    assert [str(problem) for problem in library.problems] == [
        "file index.md: include ../secret.md: outside the library (not read)"
    ]


def test_an_included_file_with_nul_bytes_is_not_read_as_a_binary_document_is_not(
    tmp_path: Path, data_dir: Path
) -> None:
    folder = tmp_path / "docs"
    write(folder, "index.md", "# Index\n\nHello.\n\n```{include} _snippets/blob.inc\n```\n")
    (folder / "_snippets").mkdir()
    for name in ("_snippets/blob.inc", "blob.md"):
        (folder / name).write_bytes(b"Secret part\x00of a binary file\n")
    library = open_(folder, data_dir)
    assert all("Secret part" not in library.passage(n).text for n in range(len(library)))
    assert [str(problem) for problem in library.problems] == [
        "skipped file blob.md: binary file (contains NUL bytes)",
        "file index.md: include _snippets/blob.inc: binary file (contains NUL bytes) (not read)",
    ]


# -- the reader --------------------------------------------------------------------


def test_the_reader_refuses_every_path_outside_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "library"
    write(folder, "docs/ok.md", "fine")
    (tmp_path / "outside.md").write_text("secret", encoding="utf-8")
    os.symlink(tmp_path / "outside.md", folder / "link.md")
    os.symlink(tmp_path, folder / "linked-folder")
    read = FolderReader(folder)
    assert read("docs/ok.md") == "fine"
    assert read("../outside.md") == Unread("outside the library (not read)")
    assert read("docs/../../outside.md") == Unread("outside the library (not read)")
    assert read(str(tmp_path / "outside.md")) == Unread("absolute path (not read)")
    assert read("link.md") == Unread("is a symlink (not followed)")
    assert read("linked-folder/outside.md") == Unread("is a symlink (not followed)")
    assert read("docs/none.md") == Unread("not found in the library")
    assert read.stamps["docs/none.md"] == (-1, -1)
    assert "link.md" not in read.stamps
