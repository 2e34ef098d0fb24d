"""reStructuredText documents: sections of three levels, true line ranges, and a
parse that reads nothing but the text it is given."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_assistant.core.documents.passage import MAX_PASSAGE_CHARS, Document
from tui_assistant.core.documents.split import split_document

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


def test_text_is_the_section_as_the_page_reads_without_its_title() -> None:
    passages = split(GUIDE).passages
    assert passages[1].text.startswith("Run pip install thing and see setup.")
    assert ".. code-block::" not in passages[1].text
    assert "\n    import thing" in passages[1].text  # the code, as written
    assert "Details\n~~~~~~~\n\nLevel four stays inside its section." in passages[2].text
    assert "Install" not in passages[1].text.splitlines()[0]


def test_sphinx_source_copies_are_rst_and_ids_drop_the_suffix() -> None:
    document = split_document("_sources/guide.rst.txt", GUIDE)
    assert [d.anchor for d in document.passages][:2] == ["", "install"]


def test_without_a_level_one_title_the_file_name_titles_it() -> None:
    document = split("Intro text.\n\nSome more text.\n", "notes/plain.rst")
    assert document.title == "plain"
    assert [d.text for d in document.passages] == ["Intro text.\n\nSome more text."]


def test_a_changelog_of_top_level_versions_is_a_section_per_version() -> None:
    changes = (
        "Version 2.2.0\n-------------\n\nDrop Python 3.7.\n\n\n"
        "Version 2.1.2\n-------------\n\nHandle date overflow.\n"
    )
    document = split(changes, "CHANGES.rst")
    assert document.title == "CHANGES"
    assert [(d.title, d.line) for d in document.passages] == [
        ("CHANGES › Version 2.2.0", 1),
        ("CHANGES › Version 2.1.2", 7),
    ]


def test_a_transition_is_not_a_title() -> None:
    document = split("Title\n=====\n\nOne.\n\n----------\n\nTwo.\n")
    (draft,) = document.passages
    assert draft.text == "One.\n\n----------\n\nTwo."


def test_titles_are_plain_text() -> None:
    document = split(
        "Title\n=====\n\nIntro.\n\nThe ``fs`` *module*\n-------------------\n\nText.\n"
    )
    assert document.passages[1].title == "Title › The fs module"


def test_sphinx_roles_in_titles_show_as_sphinx_shows_them() -> None:
    heading = (
        ":class:`~django.http.HttpResponse` and :attr:`last name <User.last_name>` in :mod:`a.b`"
    )
    text = f"Notes\n=====\n\nIntro.\n\n{heading}\n{'-' * len(heading)}\n\nText.\n"
    assert split(text).passages[1].title == "Notes › HttpResponse and last name in a.b"


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


# -- properties over generated documents ----------------------------------------

_STYLES = {1: "#", 2: "=", 3: "-", 4: "~"}  # level 1 overlined, as many projects write it
_WORDS = st.sampled_from(["salt", "water", "Pasta", "boil", "``code``", "*egg*", "knife"])
_LINE = st.lists(_WORDS, min_size=1, max_size=6).map(" ".join)
_BLOCK = st.one_of(
    st.tuples(st.just("title"), st.integers(1, 4), st.lists(_WORDS, min_size=1, max_size=3)),
    st.tuples(st.just("paragraph"), st.lists(_LINE, min_size=1, max_size=3)),
    st.tuples(st.just("literal"), st.lists(_LINE, min_size=1, max_size=2)),
)


@dataclass
class GeneratedRst:
    lines: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)  # each line as the page reads
    title_lines: dict[int, int] = field(default_factory=dict)  # line number -> its level
    content: list[int] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def add(self, line: str, level: int = 0, shown: str | None = None) -> None:
        self.lines.append(line)
        self.shown.append(line if shown is None else shown)
        if level:
            self.title_lines[len(self.lines)] = level
        elif line.strip():
            self.content.append(len(self.lines))


@st.composite
def rst_documents(draw: st.DrawFn) -> GeneratedRst:
    generated = GeneratedRst()
    current = 0
    for block in draw(st.lists(_BLOCK, max_size=12)):
        if block[0] == "title":
            level = min(block[1], current + 1)  # a title may only go one level down
            current = level
            title = " ".join(block[2]).replace("``", "").replace("*", "")
            rule = _STYLES[level] * (len(title) + 2)
            # A level-4 title stays inside its passage's text: it counts as content.
            kind = level if level <= 3 else 0
            if level == 1:
                generated.add(rule, kind)
            generated.add(title, kind)
            generated.add(rule, kind)
        elif block[0] == "paragraph":
            for line in block[1]:
                generated.add(line, shown=line.replace("``", "").replace("*", ""))
        else:
            generated.add("Example::", shown="Example:")
            generated.add("")
            for line in block[1]:
                generated.add("    " + line)
        generated.add("")
    return generated


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rst_documents())
def test_generated_rst_passages_cover_the_text_in_order_from_their_titles(
    generated: GeneratedRst,
) -> None:
    document = split(generated.text)
    previous_end = 0
    covered: list[int] = []
    for draft in document.passages:
        assert previous_end < draft.line <= draft.end_line <= len(generated.lines)
        previous_end = draft.end_line
        own = [n for n in range(draft.line, draft.end_line + 1) if n not in generated.title_lines]
        # Titles of levels 1-3 only ever start a passage; they are never in its text.
        assert all(
            n <= draft.line + 2
            for n in range(draft.line, draft.end_line + 1)
            if n in generated.title_lines
        )
        expected = "\n".join(generated.shown[n - 1] for n in own).strip()
        heading = [
            generated.lines[n - 1]
            for n in range(draft.line, draft.line + 3)
            if n in generated.title_lines and not generated.lines[n - 1].startswith("#")
        ]
        if len(document.passages) == 1 and heading and heading[0] != document.title:
            # A document's only passage opens with its heading, which the title does
            # not say.
            assert draft.text.startswith(heading[0] + "\n")
            assert draft.text.endswith(expected)
        else:
            assert draft.text == expected
        covered += [n for n in own if n in generated.content]
    assert covered == generated.content
