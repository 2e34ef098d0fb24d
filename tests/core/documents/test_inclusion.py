"""Includes, literalinclude and autodoc, resolved through a reader (here a dict): the
passages they bring cite the file they come from; what is not read is one note each."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tui_assistant.core.documents.inclusion import Reader, Unread, library_path
from tui_assistant.core.documents.split import split_document

CHANGES = """\
Changes
=======

Version 8.2.0
-------------

-   Drop support for Python 3.7.

Version 8.1.0
-------------

-   Shell completion for fish.
"""
CORE = '''\
"""The core."""

def echo(message=None, *, err=False):
    """Print a message and a newline.

    :param message: the string to print.
    :param err: write to ``stderr`` instead.
    """


class Context:
    """What a command runs in."""

    def exit(self, code=0):
        """Exit the application."""

    def _hidden(self):
        """Not public."""
'''


def reader(files: Mapping[str, str]) -> tuple[Reader, list[str]]:
    asked: list[str] = []

    def read(path: str) -> str | Unread:
        asked.append(path)
        return files.get(path, Unread("not found in the library"))

    return read, asked


def test_an_included_rst_changelog_is_read_in_place_in_a_myst_page() -> None:
    read, asked = reader({"CHANGES.rst": CHANGES})
    text = "# Changes\n\nEvery release.\n\n```{include} ../CHANGES.rst\n```\n"
    document = split_document("docs/changes.md", text, read)
    assert asked == ["CHANGES.rst"]
    assert [(d.title, d.source, d.line, d.end_line) for d in document.passages] == [
        ("Changes", "", 1, 3),
        ("Changes › Version 8.2.0", "CHANGES.rst", 4, 7),
        ("Changes › Version 8.1.0", "CHANGES.rst", 9, 12),
    ]
    assert document.passages[1].text == "-   Drop support for Python 3.7."
    assert len({draft.anchor for draft in document.passages}) == 3
    assert document.notes == ()


def test_an_rst_include_of_a_fragment_reads_under_the_including_section() -> None:
    read, _ = reader({"docs/_snippets/install.rst": "Run ``pip install shop``.\n"})
    text = "Install\n=======\n\nFirst:\n\n.. include:: _snippets/install.rst\n"
    document = split_document("docs/install.rst", text, read)
    assert [(d.title, d.text, d.source) for d in document.passages][1] == (
        "Install",
        "Run pip install shop.",
        "docs/_snippets/install.rst",
    )


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("../../etc/passwd", "outside the library (not read)"),
        ("/etc/passwd", "absolute path (not read)"),
        ("C:\\secrets.md", "absolute path (not read)"),
    ],
)
def test_a_path_outside_the_library_is_never_asked_for(target: str, reason: str) -> None:
    read, asked = reader({})
    document = split_document(
        "docs/index.md", f"# Index\n\nHi.\n\n```{{include}} {target}\n```\n", read
    )
    assert asked == []
    assert document.notes == (f"include {target}: {reason}",)
    assert library_path("docs/index.md", target) == Unread(reason)


def test_an_include_of_itself_or_in_a_circle_stops() -> None:
    read, asked = reader(
        {
            "a.md": "# A\n\nText A.\n\n```{include} b.md\n```\n",
            "b.md": "# B\n\n```{include} a.md\n```\n",
        }
    )
    document = split_document("a.md", "# A\n\nText A.\n\n```{include} b.md\n```\n", read)
    assert asked == ["b.md"]
    assert document.notes == ("include b.md: include a.md: includes itself (not read again)",)


def test_literalinclude_is_the_files_lines_as_code() -> None:
    read, _ = reader({"docs/examples/hello.py": "import shop\n\nshop.run()\nprint('done')\n"})
    text = "# Hello\n\nThe example:\n\n```{literalinclude} examples/hello.py\n:lines: 1-3\n```\n"
    (_, code) = split_document("docs/hello.md", text, read).passages
    assert (code.title, code.text, code.source, code.line, code.end_line) == (
        "Hello › hello.py",
        "import shop\n\nshop.run()",
        "docs/examples/hello.py",
        1,
        3,
    )


def test_autodoc_is_a_passage_per_object_citing_the_python_source() -> None:
    read, asked = reader({"src/click/core.py": CORE})
    text = """\
API
===

.. currentmodule:: click.core

.. autofunction:: echo

.. autoclass:: Context
   :members:

.. autoexception:: click.core.Missing
"""
    document = split_document("docs/api.rst", text, read)
    assert "src/click/core.py" in asked
    drafts = [d for d in document.passages if d.source]
    assert [(d.title, d.line, d.end_line) for d in drafts] == [
        ("API › click.core.echo(message=None, *, err=False)", 3, 7),
        ("API › click.core.Context", 11, 12),
        ("API › click.core.Context.exit(code=0)", 14, 15),
    ]
    assert {d.source for d in drafts} == {"src/click/core.py"}
    # The docstring reads as Sphinx shows it: no field or literal markup.
    assert drafts[0].text.splitlines() == [
        "Print a message and a newline.",
        "",
        "param message: the string to print.",
        "param err: write to stderr instead.",
    ]
    assert document.notes == (
        "autoexception click.core.Missing: not found with a docstring in src/click/core.py",
    )


def test_an_automodule_names_the_module_of_the_directives_after_it() -> None:
    dev = '"""Helpers for development."""\n\n\nclass ConsoleRenderer:\n    """Render pretty."""\n'
    read, _ = reader({"src/slog/dev.py": dev})
    text = "API\n===\n\n.. automodule:: slog.dev\n\n.. autoclass:: ConsoleRenderer\n"
    document = split_document("docs/api.rst", text, read)
    assert [d.title for d in document.passages if d.source] == [
        "API › slog.dev",
        "API › slog.dev.ConsoleRenderer",
    ]
    assert document.notes == ()


def test_a_directive_finds_an_object_its_module_s_all_leaves_out() -> None:
    dev = (
        '__all__ = ["ConsoleRenderer"]\n\n\nclass ConsoleRenderer:\n    """Render pretty."""\n'
        '\n\nclass Column:\n    """One column of the rendered line."""\n'
    )
    read, _ = reader({"slog/dev.py": dev})
    text = "API\n===\n\n.. automodule:: slog.dev\n   :members:\n\n.. autoclass:: slog.dev.Column\n"
    document = split_document("docs/api.rst", text, read)
    assert [d.title for d in document.passages if d.source] == [
        "API › slog.dev.ConsoleRenderer",
        "API › slog.dev.Column",
    ]


def test_autodoc_without_the_source_in_the_library_says_so() -> None:
    read, _ = reader({})
    text = "# API\n\n```{autoclass} shop.Cart\n:members:\n```\n"
    document = split_document("docs/api.md", text, read)
    (only,) = document.passages
    assert only.text == "shop.Cart"
    assert document.notes == ("autoclass shop.Cart: no Python source for shop.Cart in the library",)


def test_an_include_keeps_to_start_after_and_end_before_on_the_files_own_lines() -> None:
    readme = "# Shop\n\n<!-- begin -->\nShop keeps carts.\n<!-- end -->\n\nBadges.\n"
    read, _ = reader({"README.md": readme})
    text = '# Index\n\n```{include} ../README.md\n:start-after: "<!-- begin -->"\n:end-before: <!-- end -->\n```\n'
    (only,) = split_document("docs/index.md", text, read).passages
    assert (only.text, only.source, only.line, only.end_line) == (
        "Shop keeps carts.",
        "README.md",
        4,
        4,
    )
    missing = text.replace("begin", "start")
    document = split_document("docs/index.md", missing, read)
    assert document.notes == (
        "include ../README.md: its start-after or end-before text is not in the file",
    )
