"""reStructuredText and MyST reference entries and index terms: what a reader looks a
passage up by besides its title."""

from __future__ import annotations

from tui_assistant.core.documents.markdown import split_markdown
from tui_assistant.core.documents.passage import MAX_PASSAGE_CHARS
from tui_assistant.core.documents.rst import split_rst
from tui_assistant.core.documents.sphinx_markup import index_terms

GUIDE = """\
Guide
=====

Intro text.

Options
-------

.. program:: pip install

.. option:: -r <file>, --requirement <file>

   Install from the given requirements file.

.. option:: --user

   Install to the user site.

.. index:: single: cache; wheel

Caching
-------

Wheels are cached.

Glossary
--------

wheel
   A built package.

sdist
   A source package.

API
---

.. py:function:: send_message(sender, recipient)

   Send a message.

.. code-block:: rst

   .. py:function:: not_an_entry()
"""


def passages(text: str) -> dict[str, tuple[str, ...]]:
    return {draft.title: draft.index_terms for draft in split_rst("guide.rst", text).passages}


def test_sphinx_options_are_entries_named_by_each_option_and_with_their_program() -> None:
    assert passages(GUIDE)["Guide › Options"] == (
        "-r",
        "--requirement",
        "pip install -r",
        "pip install --requirement",
        "--user",
        "pip install --user",
    )


def test_definition_list_terms_are_index_terms_of_their_passage() -> None:
    assert passages(GUIDE)["Guide › Glossary"] == ("wheel", "sdist")


def test_a_domain_directive_is_a_passage_of_its_own_titled_by_the_object_name() -> None:
    found = passages(GUIDE)
    assert found["Guide › API › send_message"] == ("send_message",)
    assert not any("not_an_entry" in terms for terms in found.values())


def test_index_directive_terms_go_to_the_passage_that_follows() -> None:
    assert passages(GUIDE)["Guide › Caching"] == ("cache", "wheel")


def test_a_long_list_makes_passages_of_whole_entries_the_first_titled_as_its_section() -> None:
    body = "\n".join(f"``--flag{n}``\n   {'Explains the flag. ' * 20}\n" for n in range(30))
    text = f"CLI\n===\n\nFlags\n-----\n\n{body}"
    drafts = split_rst("cli.rst", text).passages
    assert [draft.title for draft in drafts] == [
        "CLI › Flags",
        "CLI › Flags › --flag10 … --flag19",
        "CLI › Flags › --flag20 … --flag29",
    ]
    assert all(len(draft.text) <= MAX_PASSAGE_CHARS for draft in drafts)
    terms = [term for draft in drafts for term in draft.index_terms]
    assert terms == [f"--flag{n}" for n in range(30)]


def test_a_section_that_fits_one_passage_stays_whole_with_its_entries_as_terms() -> None:
    text = "Tool\n====\n\nRun it.\n\n-q, --quiet  Say less.\n-v  Say more.\n\nMore words.\n"
    (draft,) = split_rst("tool.rst", text).passages
    assert draft.text == "Run it.\n\n-q, --quiet  Say less.\n-v  Say more.\n\nMore words."
    assert draft.index_terms == ("-q", "--quiet", "-v")


def test_field_and_option_lists_are_entries() -> None:
    text = """\
Settings
========

:timeout: Seconds to wait.
:retries: How often to try.

-v, --verbose  Say more.
-q             Say less.
"""
    (only,) = split_rst("settings.rst", text).passages
    assert only.index_terms == ("timeout", "retries", "-v", "--verbose", "-q")


def test_index_entries_name_their_terms() -> None:
    assert index_terms(["single: cache; wheel", "pair: build; isolation", "!Python, pip"]) == [
        "cache",
        "wheel",
        "build",
        "isolation",
        "Python",
        "pip",
    ]
    assert index_terms([":name: label", "see: venv; virtual environment"]) == [
        "venv",
        "virtual environment",
    ]


def test_myst_index_directive_terms_go_to_the_passage_that_follows() -> None:
    text = """\
# Guide

Intro.

```{index} single: cache; wheel
```

## Caching

Wheels are cached.
"""
    drafts = split_markdown("guide.md", text).passages
    assert [(draft.title, draft.index_terms) for draft in drafts] == [
        ("Guide", ()),
        ("Guide › Caching", ("cache", "wheel")),
    ]


def test_ids_of_parts_stay_on_the_passages_holding_their_lines() -> None:
    flags = "\n".join(f"``--flag{n}``\n   {'Explains the flag. ' * 20}\n" for n in range(30))
    text = f"CLI\n===\n\nFlags\n-----\n\n{flags}"
    drafts = split_rst("cli.rst", text).passages
    # Groups of entries cut the section where its paragraphs cut it before: the parts
    # keep their ids and lines.
    assert [(draft.anchor, draft.line) for draft in drafts] == [
        ("", 4),
        ("flags-part-2", 37),
        ("flags-part-3", 67),
    ]


def words(number: int) -> str:
    return f"w{number} " + "lorem ipsum dolor " * 130  # ~2,300 characters


def test_a_long_myst_section_splits_at_its_deeper_headings_and_index_terms_follow() -> None:
    text = (
        f"# Guide\n\n## Build\n\n{words(0)}\n\n```{{index}} single: binary; cache\n```\n\n"
        f"#### Wheels\n\n{words(1)}\n"
    )
    drafts = split_markdown("guide.md", text).passages
    assert [(draft.anchor, draft.title) for draft in drafts] == [
        ("", "Guide › Build"),
        ("build-part-2", "Guide › Build › Wheels"),  # the id its part had
    ]
    assert drafts[1].index_terms == ("binary", "cache")


def test_a_long_rst_section_splits_at_every_level_and_parts_keep_their_ids() -> None:
    text = (
        f"Guide\n=====\n\nBuild\n-----\n\nWheels\n~~~~~~\n\n{words(0)}\n\n"
        f"Caches\n^^^^^^\n\n.. index:: pair: store; folder\n\n{words(1)}\n\n"
        f"Sizes\n^^^^^\n\nsmall.\n"
    )
    drafts = split_rst("guide.rst", text).passages
    assert [(draft.anchor, draft.title) for draft in drafts] == [
        ("", "Guide › Build › Wheels"),
        ("wheels-part-2", "Guide › Build › Wheels › Caches"),
        ("sizes", "Guide › Build › Wheels › Sizes"),
    ]
    assert drafts[1].index_terms == ("store", "folder")
