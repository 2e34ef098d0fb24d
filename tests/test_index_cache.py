"""The on-disk index cache: used when nothing changed, rebuilt when anything did."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from conftest import CliResult, write_lesson

from tui_assistant.core import index_cache
from tui_assistant.core.index_cache import cache_path, open_library
from tui_assistant.core.retrieval import KeywordRetriever
from tui_assistant.core.text import normalise

MakeLibrary = Callable[[Mapping[str, tuple[str, str]]], Path]

LESSONS = {
    "pasta-water": ("Salting pasta water", "Salt the water well before the pasta goes in."),
    "boiled-eggs": ("Boiled eggs", "Lower the eggs into boiling water for nine minutes."),
    "knife-care": ("Knife care", "Sharpen the knife on a whetstone and dry the blade."),
}


def answer(folder: Path, data_dir: Path, question: str) -> tuple[bool, str | None]:
    """(index came from the cache, id of the retrieved lesson)."""
    loaded = open_library(folder, data_dir)
    evidence = KeywordRetriever(loaded.index).retrieve(question)
    return loaded.from_cache, None if evidence is None else evidence.passage.id


def touch_later(path: Path) -> None:
    """Move a file's mtime forward so a same-size edit is visible to the stamp."""
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 5_000_000_000))


def test_second_start_uses_the_cache_and_answers_the_same(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    assert answer(folder, data_dir, "how long to boil eggs") == (False, "boiled-eggs")
    assert cache_path(data_dir, folder).is_file()
    assert answer(folder, data_dir, "how long to boil eggs") == (True, "boiled-eggs")


def test_a_changed_lesson_is_picked_up(make_library: MakeLibrary, tmp_path: Path) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    answer(folder, data_dir, "warm up")
    path = write_lesson(folder, "knife-care", "Knife care", "Hone the blade; sharpen monthly.")
    touch_later(path)
    assert answer(folder, data_dir, "how often to hone the blade") == (False, "knife-care")
    assert answer(folder, data_dir, "how often to hone the blade") == (True, "knife-care")


def test_a_same_size_edit_with_a_new_mtime_is_picked_up(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    assert answer(folder, data_dir, "draining rice") == (False, None)
    path = folder / "pasta-water.md"
    old = path.read_text(encoding="utf-8")
    new = old.replace("Salting pasta water", "Draining rice water")
    assert len(new) == len(old)
    path.write_text(new, encoding="utf-8")
    touch_later(path)
    assert answer(folder, data_dir, "draining rice") == (False, "pasta-water")
    assert answer(folder, data_dir, "draining rice") == (True, "pasta-water")


def test_an_added_lesson_is_picked_up(make_library: MakeLibrary, tmp_path: Path) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    assert answer(folder, data_dir, "rinse the rice") == (False, None)
    write_lesson(folder, "rice", "Cooking rice", "Rinse the rice until the water runs clear.")
    assert answer(folder, data_dir, "rinse the rice") == (False, "rice")
    assert answer(folder, data_dir, "rinse the rice") == (True, "rice")


def test_a_removed_lesson_is_never_answered_from_the_cache(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    assert answer(folder, data_dir, "sharpen the knife")[1] == "knife-care"
    (folder / "knife-care.md").unlink()
    loaded = open_library(folder, data_dir)
    assert loaded.from_cache is False
    assert [lesson.id for lesson in loaded.index.lessons] == ["boiled-eggs", "pasta-water"]
    assert KeywordRetriever(loaded.index).retrieve("sharpen the knife") is None


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: b"not a cache at all", id="garbage"),
        pytest.param(
            lambda data: data[:-40] + bytes([data[-40] ^ 0xFF]) + data[-39:], id="flipped-byte"
        ),
    ],
)
def test_a_corrupt_cache_is_rebuilt_not_trusted(
    make_library: MakeLibrary, tmp_path: Path, damage: Callable[[bytes], bytes]
) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    answer(folder, data_dir, "warm up")
    path = cache_path(data_dir, folder)
    path.write_bytes(damage(path.read_bytes()))
    assert answer(folder, data_dir, "how long to boil eggs") == (False, "boiled-eggs")
    assert answer(folder, data_dir, "how long to boil eggs") == (True, "boiled-eggs")


def test_a_cache_with_valid_checksum_but_impossible_postings_is_rebuilt(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    loaded = open_library(folder, data_dir)
    snapshot = loaded.index.snapshot()
    # Postings that point past the end of the library, written with a good checksum.
    snapshot.body.lessons[0] = 99
    manifest = index_cache._manifest(loaded.library, index_cache.stamp_folder(folder))
    assert manifest is not None
    assert index_cache.write_cache(cache_path(data_dir, folder), manifest, snapshot)
    assert answer(folder, data_dir, "how long to boil eggs") == (False, "boiled-eggs")


def test_a_cache_from_another_normaliser_version_is_rebuilt(
    make_library: MakeLibrary, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    answer(folder, data_dir, "warm up")
    monkeypatch.setattr(index_cache, "NORMALISER_VERSION", index_cache.NORMALISER_VERSION + 1)
    assert answer(folder, data_dir, "how long to boil eggs") == (False, "boiled-eggs")


def test_an_unwritable_data_folder_still_answers(make_library: MakeLibrary, tmp_path: Path) -> None:
    folder = make_library(LESSONS)
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    assert answer(folder, not_a_folder, "how long to boil eggs") == (False, "boiled-eggs")


def test_a_symlinked_lesson_is_not_followed_on_a_warm_start(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    answer(folder, data_dir, "warm up")
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret plans\n\nlaunch codes hidden here\n")
    (folder / "secret.md").symlink_to(secret)
    loaded = open_library(folder, data_dir)
    assert "secret" not in [lesson.id for lesson in loaded.library]
    assert KeywordRetriever(loaded.index).retrieve("secret launch codes") is None


def test_cached_postings_equal_freshly_built_ones(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder, data_dir = make_library(LESSONS), tmp_path / "data"
    fresh = open_library(folder, data_dir).index
    cached = open_library(folder, data_dir)
    assert cached.from_cache
    for word in {
        key for lesson in fresh.lessons for key in normalise(lesson.title + " " + lesson.text)
    }:
        assert cached.index.body(word) == fresh.body(word)
        assert cached.index.title(word) == fresh.title(word)
    assert cached.index.body_lengths == fresh.body_lengths


def test_ask_twice_with_a_data_folder_gives_the_same_answers(
    run_cli: Callable[..., CliResult], make_library: MakeLibrary
) -> None:
    folder = make_library(LESSONS)
    first = run_cli("ask", "--json", "--lessons", str(folder), "how long to boil eggs")
    second = run_cli("ask", "--json", "--lessons", str(folder), "how long to boil eggs")
    assert first.returncode == second.returncode == 0
    assert [row["lesson_id"] for row in first.json_lines()] == ["boiled-eggs"]
    assert second.json_lines() == [
        {**row, "elapsed_ms": second.json_lines()[0]["elapsed_ms"]} for row in first.json_lines()
    ]
