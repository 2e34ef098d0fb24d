"""MyST (Sphinx's Markdown) read as its page shows it: roles as their text, labels and
attribute lines as anchors, directives as their words, content and code, line for line."""

from __future__ import annotations

from tui_assistant.core.documents.passage import Document, PassageDraft
from tui_assistant.core.documents.split import split_document


def split(text: str, path: str = "docs/guide.md") -> Document:
    return split_document(path, text)


def titled(document: Document, title: str) -> PassageDraft:
    return next(draft for draft in document.passages if draft.title == title)


def test_roles_read_as_their_text_in_titles_and_text() -> None:
    text = """\
# The {func}`echo` function

Press {kbd}`Ctrl+C` to stop; see {class}`~click.Path` and {ref}`the options <options>`.
Written as code, `{func}` stays.
"""
    document = split(text)
    assert document.title == "The echo() function"
    (only,) = document.passages
    assert only.text.splitlines() == [
        "Press Ctrl+C to stop; see Path and the options.",
        "Written as code, `{func}` stays.",
    ]


def test_labels_and_attribute_lines_are_anchors_never_text_or_passages() -> None:
    text = """\
# Options

(options)=

{.hide-header}

## Option names

Options have names.

(parameter-types)=

## Parameter Types {#types}

See {ref}`options` and {ref}`parameter-types`, and {ref}`custom-types` elsewhere.
{doc}`advanced_usage`
"""
    document = split(text)
    assert [draft.title for draft in document.passages] == [
        "Options › Option names",
        "Options › Parameter Types",
    ]
    assert titled(document, "Options › Option names").text == "Options have names."
    types = titled(document, "Options › Parameter Types")
    # A label of this document reads as its heading; another's as its words.
    assert types.text.splitlines() == [
        "See options and Parameter Types, and custom types elsewhere.",
        "advanced usage",
    ]


def test_a_page_of_labels_and_attribute_lines_makes_no_passage() -> None:
    assert split("(intro)=\n\n{.hide-header}\n\n% a comment\n\n+++\n").passages == ()


def test_admonitions_and_versions_read_as_their_words_then_their_content() -> None:
    text = """\
# Pager

```{note}
The pager uses {envvar}`PAGER`.
```

:::{warning} Windows
Colours need colorama.
:::

```{versionadded} 8.2
The `color` argument.
```

```{deprecated} 9.0
```
"""
    (only,) = split(text).passages
    assert only.text.split("\n") == [
        "Note:",
        "The pager uses PAGER.",
        "",
        "",
        "Warning: Windows",
        "Colours need colorama.",
        "",
        "",
        "Added in version 8.2:",
        "The `color` argument.",
        "",
        "",
        "Deprecated since version 9.0.",
    ]
    assert (only.line, only.end_line) == (1, 15)


def test_code_blocks_stay_code_without_their_options_and_a_toctree_is_no_text() -> None:
    text = """\
# Example

```{code-block} python
:caption: hello.py
:linenos:

print("hi")  # {func}`not a role`
```

```{toctree}
:maxdepth: 2

intro
api
```
"""
    (only,) = split(text).passages
    assert only.text == '```python\n\n\n\nprint("hi")  # {func}`not a role`\n```'


def test_tabs_show_their_labels_and_content() -> None:
    text = """\
# Install

::::{tab-set}
:::{tab-item} pip
:sync: pip
pip install shop
:::
:::{tab-item} conda
conda install shop
:::
::::
"""
    (only,) = split(text).passages
    assert [line for line in only.text.splitlines() if line] == [
        "pip",
        "pip install shop",
        "conda",
        "conda install shop",
    ]


def test_an_eval_rst_block_reads_as_the_restructuredtext_it_holds() -> None:
    text = """\
# Commands

```{eval-rst}
.. note:: Use :func:`shop.run` to start.

.. versionchanged:: 8.0
   Renamed.
```
"""
    (only,) = split(text).passages
    assert only.text.splitlines() == [
        "Note: Use shop.run() to start.",
        "",
        "Changed in version 8.0:",
        "Renamed.",
    ]


def test_an_autodoc_directive_without_source_shows_the_objects_name() -> None:
    text = "# API\n\n```{autofunction} shop.cart.total\n```\n"
    document = split(text)
    (only,) = document.passages
    assert only.text == "shop.cart.total"
    assert document.notes == (
        "autofunction shop.cart.total: not read (no library folder to read it from)",
    )
