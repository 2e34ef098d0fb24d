"""The passage-shape check finds what a reader would trip over: two passages citing the
same lines, a citation of a whole chapter for a few words, and an API entry filed under
another section than the one whose page holds its directive."""

from __future__ import annotations

from scripts.measures.passage_shape import shape
from tui_assistant.core.documents.passage import TITLE_SEPARATOR, Passage

PAGE = """API
===

Signing
-------

.. autoclass:: pkg.Signer
   :members:

Errors
------

.. autoexception:: pkg.BadSignature
"""


def title(*headings: str) -> str:
    return TITLE_SEPARATOR.join(headings)


def page_passages() -> list[Passage]:
    return [
        Passage("api", "API", "The API.", "lib/api.rst", 1, 3),
        Passage("api#signing", title("API", "Signing"), "Signing.", "lib/api.rst", 4, 9),
        Passage("api#errors", title("API", "Errors"), "Errors.", "lib/api.rst", 10, 14),
    ]


def read(path: str) -> str | None:
    return PAGE if path == "lib/api.rst" else None


def test_entries_under_the_section_holding_their_directive_pass() -> None:
    passages = [
        *page_passages(),
        Passage(
            "api#pkg-signer",
            title("API", "Signing", "pkg.Signer(key)"),
            "Signs.",
            "lib/pkg.py",
            5,
            20,
        ),
        Passage(
            "api#pkg-signer-sign",
            title("API", "Signing", "pkg.Signer.sign(value)"),
            "Signs a value.",
            "lib/pkg.py",
            22,
            30,
        ),
        Passage(
            "api#pkg-badsignature",
            title("API", "Errors", "pkg.BadSignature"),
            "Raised.",
            "lib/pkg.py",
            1,
            3,
        ),
    ]
    found = shape(passages, read)
    assert found.autodoc == 3
    assert found.autodoc_off_section == []
    assert found.shared_lines == [] and found.long_thin == []


def test_an_entry_filed_under_another_section_is_reported() -> None:
    misplaced = Passage(
        "api#pkg-badsignature",
        title("API", "Signing", "pkg.BadSignature"),
        "Raised.",
        "lib/pkg.py",
        1,
        3,
    )
    found = shape([*page_passages(), misplaced], read)
    assert found.autodoc_off_section == ["api#pkg-badsignature"]


def test_an_entry_after_a_hand_written_entry_of_its_section_passes() -> None:
    # `.. function:: sign_all` written by hand before the autoexception: an entry of
    # Errors (its term an index term), which the autodoc entry after it is not under.
    by_hand = Passage(
        "api#sign-all",
        title("API", "Errors", "sign_all(values)"),
        "Signs every value.",
        "lib/api.rst",
        11,
        13,
        index_terms=("sign_all(values)",),
    )
    after = Passage(
        "api#pkg-badsignature",
        title("API", "Errors", "pkg.BadSignature"),
        "Raised.",
        "lib/pkg.py",
        1,
        3,
    )
    assert shape([*page_passages(), by_hand, after], read).autodoc_off_section == []
    # A subsection is not an entry: an autodoc entry after it belongs to it.
    subsection = Passage("api#more", title("API", "Errors", "More"), "More.", "lib/api.rst", 11, 13)
    found = shape([*page_passages(), subsection, after], read)
    assert found.autodoc_off_section == ["api#pkg-badsignature"]


def test_passages_citing_the_same_lines_are_reported() -> None:
    passages = [
        Passage("a", "A", "one", "lib/a.md", 3, 9),
        Passage("a#b", title("A", "B"), "two", "lib/a.md", 3, 9),
        Passage("a#c", title("A", "C"), "three", "lib/a.md", 10, 12),
    ]
    assert shape(passages, read).shared_lines == ["a", "a#b"]


def test_a_long_span_with_few_words_is_reported_and_a_long_full_one_is_not() -> None:
    words = " ".join(["word"] * 150)
    passages = [
        Passage("thin", "Thin", "a heading's worth of words", "lib/a.pdf", 1, 400),
        Passage("full", "Full", words, "lib/a.pdf", 401, 800),
        Passage("short", "Short", "few words", "lib/a.pdf", 801, 810),
    ]
    assert shape(passages, read).long_thin == ["thin"]
