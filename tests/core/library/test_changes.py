"""What a reload changed, counted in passages: new and removed passages, an edited one
once each way, a moved one not at all, and texts compared only where the new library
read its documents again."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tests.helpers import library_of
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.changes import PassageChanges, passage_changes
from tui_assistant.core.library.library import Library


def doc(path: str, title: str, text: str, line: int = 1) -> Passage:
    return Passage(path.removesuffix(".md"), title, text, f"notes/{path}", line, line + 2)


def library(passages: Sequence[Passage], reread: Sequence[str] = ()) -> Library:
    base = library_of(passages)
    texts = [passage.text for passage in passages]
    return Library(
        Path("notes"),
        base.passages,
        base.documents,
        base.index,
        texts.__getitem__,
        reread=reread,
    )


BEFORE = [doc("a.md", "A", "alpha"), doc("b.md", "B", "beta"), doc("c.md", "C", "gamma")]


def test_added_and_removed_passages_are_counted() -> None:
    after = [doc("a.md", "A", "alpha"), doc("c.md", "C", "gamma"), doc("d.md", "D", "delta")]

    changes = passage_changes(library(BEFORE), library(after, reread=["b.md", "d.md"]))

    assert changes == PassageChanges(added=1, removed=1)
    assert str(changes) == "+1 \N{MINUS SIGN}1 passages"


def test_an_edited_passage_counts_once_each_way_and_a_moved_one_not_at_all() -> None:
    after = [doc("a.md", "A", "alpha, edited"), doc("b.md", "B", "beta", line=7), BEFORE[2]]

    changes = passage_changes(library(BEFORE), library(after, reread=["a.md", "b.md"]))

    assert changes == PassageChanges(added=1, removed=1)


def test_texts_of_documents_not_read_again_are_not_compared() -> None:
    # A library that did not read b.md again has its stored text: its id and title
    # are the same, so it is not compared (the text here stands for any text).
    unread = [BEFORE[0], doc("b.md", "B", "text not read"), BEFORE[2]]

    changes = passage_changes(library(BEFORE), library(unread, reread=["a.md"]))

    assert not changes
    assert str(changes) == "+0 \N{MINUS SIGN}0 passages"


def test_an_id_taken_by_another_document_is_a_change_even_unread() -> None:
    after = [BEFORE[0], Passage("b-2", "B", "beta", "notes/b.md", 1, 3), BEFORE[2]]

    changes = passage_changes(library(BEFORE), library(after))

    assert changes == PassageChanges(added=1, removed=1)


def test_large_counts_read_with_separators() -> None:
    assert str(PassageChanges(12_000, 3)) == "+12,000 \N{MINUS SIGN}3 passages"
