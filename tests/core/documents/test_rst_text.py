"""reStructuredText passages read as the built page does, on the file's own lines:
roles, references, literals and directives as their words, labels and comments as
nothing, and quotes of those words found on the lines where they stand."""

from __future__ import annotations

import pytest

from tui_assistant.core.checks.quotes import find_quote
from tui_assistant.core.documents.passage import Document, PassageDraft, file_lines
from tui_assistant.core.documents.sphinx_markup import only_shown, role_text
from tui_assistant.core.documents.split import split_document


def split(text: str, path: str = "how-to/failures.rst") -> Document:
    return split_document(path, text)


def only(text: str, path: str = "how-to/failures.rst") -> PassageDraft:
    (draft,) = split(text, path).passages
    return draft


def lines_of(draft: PassageDraft, text: str) -> list[str]:
    """The file lines a passage spans."""
    return file_lines(text)[draft.line - 1 : draft.end_line]


# Flask's and pytest's documentation, as written.
ERRORS = """\
Application Errors
==================

If an error is not handled, :exc:`~werkzeug.exceptions.InternalServerError`
is returned. Run the app behind `Gunicorn <https://gunicorn.org/>`_ or
Gunicorn_ with ``--workers 4``, see :func:`flask.Flask.errorhandler` and
:ref:`the error guide <error-handlers>`.

.. _Gunicorn: https://gunicorn.org/
"""


def test_roles_references_and_literals_read_as_their_text() -> None:
    draft = only(ERRORS)
    assert draft.text == (
        "If an error is not handled, InternalServerError\n"
        "is returned. Run the app behind Gunicorn or\n"
        "Gunicorn with --workers 4, see flask.Flask.errorhandler() and\n"
        "the error guide."
    )


def test_a_role_in_a_title_reads_as_its_text() -> None:
    text = """\
How to handle test failures
===========================

Intro.

Using :doc:`python:library/pdb` with pytest
-------------------------------------------

Dropping to :doc:`pdb <python:library/pdb>` on failures.
"""
    _first, pdb = split(text).passages
    assert pdb.title == "How to handle test failures › Using pdb with pytest"
    assert pdb.text == "Dropping to pdb on failures."


@pytest.mark.parametrize(
    ("role", "shown"),
    [
        (":exc:`~werkzeug.exceptions.InternalServerError`", "InternalServerError"),
        (":class:`!pytest.Item`", "pytest.Item"),
        (":meth:`~pytest.Config.getini`", "getini()"),
        (":kbd:`ctrl-space`", "ctrl-space"),
        (":envvar:`PYTEST_ADDOPTS`", "PYTEST_ADDOPTS"),
        (":abbr:`LIFO (last-in, first-out)`", "LIFO"),
        (":guilabel:`&Cancel`", "Cancel"),
        (":samp:`print(1+{variable})`", "print(1+variable)"),
        (":ref:`raises <assertraises>`", "raises"),
        (":ref:`assertraises`", "assertraises"),
        ("not a role", "not a role"),
    ],
)
def test_sphinx_roles_show_what_sphinx_shows(role: str, shown: str) -> None:
    assert role_text(role, {}) == shown


def test_a_reference_to_a_label_of_the_document_reads_as_its_title() -> None:
    text = """\
Fixtures
========

See :ref:`fixture-scopes` first.

.. _`fixture-scopes`:

Fixture scopes
--------------

Fixtures are created when first requested by a test.
"""
    first, _scopes = split(text, "how-to/fixtures.rst").passages
    assert first.text == "See Fixture scopes first."


def test_a_link_over_two_lines_keeps_the_lines_after_it_in_place() -> None:
    text = """\
Deploying
=========

Run it with `Gunicorn
<https://gunicorn.org/>`_ and two workers.
Last line.
"""
    draft = only(text)
    assert draft.text == "Run it with Gunicorn\nand two workers.\nLast line."
    assert (draft.line, draft.end_line) == (1, 6)


@pytest.mark.parametrize(
    ("paragraph", "shown"),
    [
        ("For example::", "For example:"),
        ("For example ::", "For example"),
        ("::", ""),
    ],
)
def test_a_literal_marker_reads_as_docutils_renders_it(paragraph: str, shown: str) -> None:
    draft = only(f"Usage\n=====\n\nIntro.\n\n{paragraph}\n\n    pytest -x\n")
    assert draft.text == f"Intro.\n\n{shown}\n\n    pytest -x"


def test_literal_blocks_and_code_are_kept_as_written() -> None:
    text = """\
Install
=======

Run it::

    pip install ``not-a-literal`` :ref:`not-a-role`

.. code-block:: python
   :caption: conftest.py

    def test_answer():
        assert func(3) == 5

Done.
"""
    draft = only(text)
    assert ".. code-block::" not in draft.text and ":caption:" not in draft.text
    assert "    pip install ``not-a-literal`` :ref:`not-a-role`" in draft.text
    assert "    def test_answer():\n        assert func(3) == 5" in draft.text
    assert draft.text.endswith("Done.")


def test_admonitions_and_version_notes_read_as_their_words() -> None:
    text = """\
abbr - manage fish abbreviations
================================

.. note::
    Only typed-in commands use abbreviations.

.. versionchanged:: 3.6.0
   Previous versions of this allowed saving abbreviations in universal variables.

.. versionadded:: 8.4

.. seealso:: :func:`pytest.fail`
"""
    assert only(text, "cmds/abbr.rst").text == (
        "Note:\n"
        "Only typed-in commands use abbreviations.\n"
        "\n"
        "Changed in version 3.6.0:\n"
        "Previous versions of this allowed saving abbreviations in universal variables.\n"
        "\n"
        "Added in version 8.4.\n"
        "\n"
        "See also: pytest.fail()"
    )


def test_an_object_description_reads_as_its_signature_and_its_text() -> None:
    text = """\
Configuration
=============

.. confval:: addopts

   Add the specified ``OPTS`` to the set of command line arguments.
"""
    assert (
        only(text).text == "addopts\n\nAdd the specified OPTS to the set of command line arguments."
    )


def test_directives_that_show_no_text_leave_none() -> None:
    text = """\
Reference
=========

.. toctree::
   :maxdepth: 2

   getting-started
   how-to/index

.. include:: ../../CONTRIBUTING.rst

.. highlight:: python

.. only:: builder_man

          NOTE: This page documents the fish builtin ``read``.

.. only:: html

   Shown on the web page.

.. |release| replace:: 8.4.2

This is pytest |release|.
"""
    # Each line of the file is a line of the text: the ones that show nothing are empty.
    assert only(text, "reference/index.rst").text == (
        "Shown on the web page.\n\n\n\nThis is pytest 8.4.2."
    )


def test_a_page_of_directives_labels_and_metadata_shows_only_object_names() -> None:
    autodoc_only = """\
:orphan:

.. _`api-reference`:

API Reference
=============

.. automodule:: pytest
   :members:

.. autofunction:: pytest.main
"""
    include_only = ".. include:: ../../CONTRIBUTING.rst\n"
    # With no source to read, an autodoc directive shows the object's name.
    (api,) = split(autodoc_only, "reference/api.rst").passages
    assert api.text.split() == ["pytest", "pytest.main"]
    assert split(include_only, "contributing.rst").passages == ()


def test_labels_and_metadata_belong_to_the_heading_after_them() -> None:
    text = """\
:orphan:

.. _get-started:

Get Started
===========

.. _`getstarted`:
.. _`installation`:

Install ``pytest``
------------------

``pytest`` requires: Python 3.8+ or PyPy3.

.. _`simpletest`:

Create your first test
----------------------

Create a new file called ``test_sample.py``.
"""
    install, first_test = split(text, "getting-started.rst").passages
    # The page title's section has no text: the first passage is the next section,
    # and it keeps the document's id.
    assert (install.anchor, install.title) == ("", "Get Started › Install pytest")
    assert install.line == 8  # its labels, right above it
    assert install.text == "pytest requires: Python 3.8+ or PyPy3."
    assert install.end_line == 14  # not the next section's label
    assert (first_test.anchor, first_test.line) == ("create-your-first-test", 16)
    assert first_test.text == "Create a new file called test_sample.py."


def test_only_shown_reads_the_expression_as_an_html_build_would() -> None:
    assert only_shown("html")
    assert not only_shown("builder_man")
    assert only_shown("not latex and (html or epub)")
    assert not only_shown("latex or man")
    assert only_shown("((")  # not understood: shown


def test_a_quote_of_the_shown_words_is_found_on_the_file_lines() -> None:
    draft = only(ERRORS)
    passage = draft.passage("errors", "docs/errors.rst")
    quote = find_quote("behind Gunicorn or Gunicorn with --workers 4", passage)
    assert quote is not None
    assert (quote.line, quote.end_line) == (5, 6)
    assert "Gunicorn" in file_lines(ERRORS)[quote.line - 1]
    assert find_quote(":exc:`~werkzeug.exceptions.InternalServerError`", passage) is None


def test_an_object_marker_right_above_a_title_belongs_to_it() -> None:
    text = """\
Fixtures
========

Fixtures are requested by name.

.. fixture:: capfd

capfd
-----

**Tutorial**: captures
"""
    intro, capfd = split(text, "reference/reference.rst").passages
    assert intro.text == "Fixtures are requested by name."
    assert (capfd.line, capfd.title, capfd.text) == (6, "Fixtures › capfd", "Tutorial: captures")
