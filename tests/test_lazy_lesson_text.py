"""Large libraries keep lesson texts on disk: same answers, same rules for the reread."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from tui_assistant.core import index_cache
from tui_assistant.core.index_cache import open_library
from tui_assistant.core.lessons import LessonLibrary
from tui_assistant.core.retrieval import KeywordRetriever
from tui_assistant.core.text import normalise

MakeLibrary = Callable[[Mapping[str, tuple[str, str]]], Path]

LESSONS = {
    "pasta-water": ("Salting pasta water", "Salt the water well before the pasta goes in."),
    "boiled-eggs": ("Boiled eggs", "Lower the eggs into boiling water for nine minutes."),
    "knife-care": ("Knife care", "Sharpen the knife on a whetstone and dry the blade."),
}


@pytest.fixture
def texts_on_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat every library as large, so its texts stay on disk."""
    monkeypatch.setattr(index_cache, "TEXT_IN_MEMORY_BYTES", 0)


def test_texts_left_on_disk_read_back_the_same(make_library: MakeLibrary) -> None:
    folder = make_library(LESSONS)
    in_memory = LessonLibrary.load(folder)
    on_disk = LessonLibrary.load(folder, keep_text=False)
    assert on_disk.lessons == in_memory.lessons
    assert [lesson.text for lesson in on_disk] == [lesson.text for lesson in in_memory]


@pytest.mark.usefixtures("texts_on_disk")
def test_a_large_library_answers_the_same_cold_and_warm(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder = make_library(LESSONS)
    reference = KeywordRetriever(open_library(folder, tmp_path / "memory").index)
    cold = open_library(folder, tmp_path / "data")
    warm = open_library(folder, tmp_path / "data")
    assert (cold.from_cache, warm.from_cache) == (False, True)
    for question in ["how long to boil eggs", "salt for pasta water", "sharpen a knife blade"]:
        expected = reference.retrieve(question)
        assert expected is not None
        for loaded in (cold, warm):
            evidence = KeywordRetriever(loaded.index).retrieve(question)
            assert evidence == expected
            assert evidence is not None and evidence.passage.text == LESSONS[evidence.passage.id][1]


@pytest.mark.usefixtures("texts_on_disk")
def test_a_lesson_replaced_by_a_symlink_after_loading_is_not_followed(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder = make_library(LESSONS)
    loaded = open_library(folder, tmp_path / "data")
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nlaunch codes hidden here\n")
    lesson_file = folder / "boiled-eggs.md"
    lesson_file.unlink()
    lesson_file.symlink_to(secret)
    lesson = loaded.library.get("boiled-eggs")
    assert lesson is not None
    assert "launch codes" not in lesson.text
    assert "changed since the app started" in lesson.text


@pytest.mark.usefixtures("texts_on_disk")
def test_a_stale_cache_with_the_same_stamps_is_still_rebuilt(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    """The stamps only predict that the cache is usable; the full check still runs."""
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    loaded = open_library(folder, data_dir)
    snapshot = loaded.index.snapshot()
    snapshot.body.lessons[0] = 99  # impossible postings behind matching stamps
    manifest = index_cache._manifest(loaded.library, index_cache.stamp_folder(folder))
    assert manifest is not None
    assert index_cache.write_cache(index_cache.cache_path(data_dir, folder), manifest, snapshot)
    again = open_library(folder, data_dir)
    assert not again.from_cache
    evidence = KeywordRetriever(again.index).retrieve("how long to boil eggs")
    assert evidence is not None and evidence.passage.id == "boiled-eggs"


def test_a_word_repeated_hundreds_of_times_keeps_its_exact_count(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    # Counts are stored in one byte while they fit; 300 does not.
    text = " ".join(["whetstone"] * 300) + " blade"
    folder = make_library({**LESSONS, "knife-care": ("Knife care", text)})
    fresh = open_library(folder, tmp_path / "data")
    cached = open_library(folder, tmp_path / "data")
    assert cached.from_cache
    (key,) = normalise("whetstone")
    knife = [lesson.id for lesson in fresh.index.lessons].index("knife-care")
    for index in (fresh.index, cached.index):
        postings = index.body(key)
        assert list(postings.lessons) == [knife]
        assert list(postings.counts) == [300]
