"""reStructuredText documents: sections of three levels, true line ranges, and a
parse that reads nothing but the text it is given."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tui_assistant.core.passages import MAX_PASSAGE_CHARS, Document, split_document

GUIDE = """\
=====
Guide
=====

Read this first.

Install
=======

Run ``pip install thing`` and see :ref:`setup`.

.. code-block:: python

    import thing

--------
On Linux
--------

Use the package manager.

Details
~~~~~~~

Level four stays inside its section.

Configure
=========

Edit the file.
"""


def split(text: str, path: str = "docs/guide.rst") -> Document:
    return split_document(path, text)


def test_sections_of_the_first_three_levels_are_passages() -> None:
    document = split(GUIDE)
    assert document.title == "Guide"
    assert [(d.anchor, d.title) for d in document.passages] == [
        ("", "Guide"),
        ("install", "Guide › Install"),
        ("on-linux", "Guide › Install › On Linux"),
        ("configure", "Guide › Configure"),
    ]


def test_line_ranges_start_at_the_title_or_its_overline() -> None:
    lines = GUIDE.splitlines()
    first, install, linux, configure = split(GUIDE).passages
    assert (first.line, first.end_line) == (1, 5)  # the document title is overlined
    assert lines[install.line - 1] == "Install" and lines[install.line] == "======="
    assert lines[install.end_line - 1] == "    import thing"
    assert lines[linux.line - 1] == "--------"  # its overline
    assert lines[linux.line] == "On Linux"
    assert (configure.line, configure.end_line) == (len(lines) - 3, len(lines))


def test_text_is_the_source_of_the_section_without_its_title() -> None:
    passages = split(GUIDE).passages
    assert passages[1].text.startswith("Run ``pip install thing`` and see :ref:`setup`.")
    assert ".. code-block:: python" in passages[1].text  # directives kept as written
    assert "Details\n~~~~~~~\n\nLevel four stays inside its section." in passages[2].text
    assert "Install" not in passages[1].text.splitlines()[0]


def test_sphinx_source_copies_are_rst_and_ids_drop_the_suffix() -> None:
    document = split_document("_sources/guide.rst.txt", GUIDE)
    assert [d.anchor for d in document.passages][:2] == ["", "install"]


def test_without_a_level_one_title_the_file_name_titles_it() -> None:
    document = split("Intro text.\n\nSome more text.\n", "notes/plain.rst")
    assert document.title == "plain"
    assert [d.text for d in document.passages] == ["Intro text.\n\nSome more text."]


def test_a_transition_is_not_a_title() -> None:
    document = split("Title\n=====\n\nOne.\n\n----------\n\nTwo.\n")
    (draft,) = document.passages
    assert draft.text == "One.\n\n----------\n\nTwo."


def test_titles_are_plain_text() -> None:
    document = split(
        "Title\n=====\n\nIntro.\n\nThe ``fs`` *module*\n-------------------\n\nText.\n"
    )
    assert document.passages[1].title == "Title › The fs module"


def test_a_long_section_is_cut_like_markdown() -> None:
    paragraph = "word " * 150
    text = "Title\n=====\n\n" + "\n\n".join([paragraph] * 12) + "\n"
    passages = split(text).passages
    assert len(passages) > 1
    assert all(len(d.text) <= MAX_PASSAGE_CHARS for d in passages)
    assert passages[1].anchor == "title-part-2"


# -- reading nothing -------------------------------------------------------------

_watching: list[tuple[str, tuple[object, ...]]] | None = None


def _audit(event: str, args: tuple[object, ...]) -> None:
    if _watching is not None and event in (
        "open",
        "socket.connect",
        "urllib.Request",
        "os.listdir",
    ):
        _watching.append((event, args))


sys.addaudithook(_audit)


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text("a,secret,value\n", encoding="utf-8")
    return path


def hostile(secret: Path) -> str:
    return f"""\
Title
=====

.. include:: /etc/passwd

.. include:: {secret}

.. raw:: html
   :file: {secret}

.. raw:: html
   :url: http://127.0.0.1:9/x

.. csv-table:: Data
   :file: {secret}

.. csv-table:: Data
   :url: http://127.0.0.1:9/data.csv

.. literalinclude:: {secret}

.. image:: {secret}
   :scale: 50

After the directives.
"""


def test_includes_raw_and_file_options_read_nothing(secret: Path) -> None:
    global _watching
    text = hostile(secret)
    split(text)  # the first parse may import parts of docutils
    _watching = []
    try:
        document = split(text)
    finally:
        events, _watching = _watching, None
    assert events == []
    assert all("secret,value" not in d.text and "root:" not in d.text for d in document.passages)
    assert document.passages[0].text.endswith("After the directives.")
