"""Building an index in chunks (spilled to a temporary file) gives the same postings.

A large library's postings are gathered lesson by lesson in chunks that are written
to an unnamed temporary file; these tests make chunks tiny so a small library uses
that path, and check every word's postings against a plain count of each lesson.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from typing import IO, Any

import pytest

from tui_assistant.core import index as index_module
from tui_assistant.core.index import IndexSnapshot, build_snapshot, key_normaliser
from tui_assistant.core.passages import Passage


def _library() -> list[Passage]:
    lessons = []
    for number in range(40):
        body = " ".join(f"word{(number * 7 + step) % 53}" for step in range(number % 11 + 3))
        if number == 17:
            body += " often" * 300  # a count that does not fit in one byte
        if number % 9 == 4:
            body = "the and of"  # stopwords only: a lesson with no body keys
        lessons.append(Passage(f"lesson-{number}", f"Title word{number % 5} topic", body, "x.md"))
    return lessons


def _expected_postings(lessons: list[Passage], field: str) -> dict[str, list[tuple[int, int]]]:
    normalise = key_normaliser()
    postings: dict[str, list[tuple[int, int]]] = {}
    for number, lesson in enumerate(lessons):
        keys = normalise(lesson.title if field == "title" else lesson.text)
        for word, count in Counter(keys).items():
            postings.setdefault(word, []).append((number, count))
    return postings


def _postings(snapshot: IndexSnapshot, field: str) -> dict[str, list[tuple[int, int]]]:
    flat = snapshot.title if field == "title" else snapshot.body
    result = {}
    for slot, word in enumerate(flat.words):
        start, end = flat.starts[slot], flat.starts[slot + 1]
        result[word] = list(zip(flat.lessons[start:end], flat.counts[start:end], strict=True))
    return result


def _spy_on_temporary_files(monkeypatch: pytest.MonkeyPatch, fail: bool = False) -> list[int]:
    opened: list[int] = []
    real = tempfile.TemporaryFile

    def temporary_file(*args: Any, **kwargs: Any) -> IO[bytes]:
        opened.append(1)
        if fail:
            raise OSError("no space left")
        return real(*args, **kwargs)

    monkeypatch.setattr(index_module.tempfile, "TemporaryFile", temporary_file)
    return opened


@pytest.mark.parametrize("fail", [False, True], ids=["spilled", "temporary-file-fails"])
def test_chunked_build_gives_every_word_its_exact_postings(
    monkeypatch: pytest.MonkeyPatch, fail: bool
) -> None:
    lessons = _library()
    monkeypatch.setattr(index_module, "CHUNK_POSTINGS", 5)
    opened = _spy_on_temporary_files(monkeypatch, fail=fail)
    snapshot = build_snapshot(lessons)
    assert opened, "the tiny chunks were never spilled"
    for field in ("title", "body"):
        assert _postings(snapshot, field) == _expected_postings(lessons, field)
    assert max(snapshot.body.counts) == 300


def test_small_library_is_built_without_a_temporary_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened = _spy_on_temporary_files(monkeypatch)
    lessons = _library()
    snapshot = build_snapshot(lessons)
    assert opened == []
    assert _postings(snapshot, "body") == _expected_postings(lessons, "body")


def test_field_with_more_than_65536_words_keeps_every_word_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Word numbers start as two-byte values; the 65,537th word must widen them.
    monkeypatch.setattr(index_module, "CHUNK_POSTINGS", 20_000)
    many = " ".join(f"q{number}" for number in range(70_000))
    lessons = [
        Passage("first", "One", many, "a.md"),
        Passage("second", "Two", "q69999 q0 q65536 q65537", "b.md"),
    ]
    snapshot = build_snapshot(lessons)
    body = _postings(snapshot, "body")
    assert len(body) == 70_000
    assert body["q65537"] == [(0, 1), (1, 1)]
    assert body["q69999"] == [(0, 1), (1, 1)]
    assert body["q1"] == [(0, 1)]
