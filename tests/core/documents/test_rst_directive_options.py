"""A Sphinx directive's options are never shown, whatever their number; an option block
docutils refuses (a name given twice) leaves the directive's entries as written."""

from __future__ import annotations

from tui_assistant.core.documents.rst import split_rst

CHANGELOG = """Changelog
=========

.. changelog::
    :version: 2.0.1
    :released: May 5, 2026

    .. change::
        :tags: bug, orm
        :tickets: 4109

        Fixed the session's ``flush`` on a detached object.

    .. versionchanged:: 2.0 the flush
       :class: note

       Flushes run in order.
"""


def text_of(source: str) -> str:
    [passage] = split_rst("changes.rst", source).passages
    return passage.text


def test_options_are_never_shown_and_the_argument_and_content_are() -> None:
    text = text_of(CHANGELOG)
    assert "Fixed the session's flush on a detached object." in text
    assert "Changed in version 2.0: the flush" in text and "Flushes run in order." in text
    for option in (":version:", "2.0.1", "released", "tags", "tickets", "4109", "bug", "class"):
        assert option not in text


def test_an_option_given_twice_leaves_the_directive_as_written() -> None:
    twice = CHANGELOG.replace(":released: May 5, 2026", ":released: May 5\n    :released: May 6")
    text = text_of(twice)
    # docutils refuses the block: its entries are shown as written, markup and all.
    assert "Fixed the session's ``flush`` on a detached object." in text
    assert "May 6" not in text
