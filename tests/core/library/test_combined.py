"""Several libraries searched as one: ids `NAME:ID`, every passage's library, one index
over the union (its word statistics those of all the libraries), texts read from each
library's own store, and the libraries themselves left as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import memory_library, write_lesson
from tui_assistant.core.library.changes import PassageChanges, passage_changes
from tui_assistant.core.library.combined import combine
from tui_assistant.core.library.library import Library
from tui_assistant.core.library.names import (
    LibrarySpec,
    check_distinct,
    library_name,
    parse_library_entry,
    prefixed_id,
    split_id,
)
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import Evidence, NoEvidence


def folder_of(tmp_path: Path, name: str, lessons: dict[str, tuple[str, str]]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for lesson_id, (title, text) in lessons.items():
        write_lesson(folder, lesson_id, title, text)
    return folder


@pytest.fixture
def kitchen(tmp_path: Path) -> Library:
    return memory_library(
        folder_of(
            tmp_path,
            "Kitchen",
            {
                "pasta": ("Salting pasta water", "Salt the water generously before the pasta."),
                "eggs": ("Boiling eggs", "Boil the eggs for nine minutes, then cool them."),
            },
        )
    )


@pytest.fixture
def garden(tmp_path: Path) -> Library:
    return memory_library(
        folder_of(
            tmp_path,
            "garden",
            {
                "pasta": ("Pasta beds", "Raised beds shaped like pasta shells drain well."),
                "compost": ("Compost", "Turn the compost heap every week to keep it warm."),
            },
        )
    )


def test_every_passage_is_named_by_its_library_and_keeps_its_place(
    kitchen: Library, garden: Library
) -> None:
    both = combine([kitchen, garden])
    assert [p.id for p in both.passages] == [
        "kitchen:eggs",
        "kitchen:pasta",
        "garden:compost",
        "garden:pasta",
    ]
    assert [p.library for p in both.passages] == ["kitchen"] * 2 + ["garden"] * 2
    compost = both.get("garden:compost")
    assert compost is not None
    assert (compost.text, compost.source_path, compost.library) == (
        "Turn the compost heap every week to keep it warm.",
        "garden/compost.md",
        "garden",
    )
    assert both.get("compost") is None  # with several libraries, ids are NAME:ID
    assert [(d.path, d.first, d.library) for d in both.documents] == [
        ("eggs.md", 0, "kitchen"),
        ("pasta.md", 1, "kitchen"),
        ("compost.md", 2, "garden"),
        ("pasta.md", 3, "garden"),
    ]
    assert both.combined and not kitchen.combined
    assert both.part_of(compost) is garden and kitchen.part_of(compost) is kitchen
    assert list(both.parts) == ["kitchen", "garden"]


def test_one_index_finds_the_passages_of_every_library(kitchen: Library, garden: Library) -> None:
    both = combine([kitchen, garden])
    [(best, _)] = RankedRetriever(both).search("turn the compost heap weekly", 1, 1).scored
    assert both.passage(best).id == "garden:compost"
    found = KeywordRetriever(both).retrieve("boil eggs minutes")
    assert isinstance(found, Evidence) and found.passage.id == "kitchen:eggs"
    # A word both libraries hold is found in both: the union's postings.
    pasta = RankedRetriever(both).search("pasta", 1, 4)
    shown = {both.passage(number).id for number, _ in pasta.scored}
    assert shown == {"kitchen:pasta", "garden:pasta"}


def test_the_libraries_it_is_made_of_are_left_as_they_were(
    kitchen: Library, garden: Library
) -> None:
    before = RankedRetriever(garden).search("pasta shells", 1, 5)
    combine([kitchen, garden])
    after = RankedRetriever(garden).search("pasta shells", 1, 5)
    assert before == after
    assert [p.id for p in garden.passages] == ["compost", "pasta"]


def test_one_library_narrowed_is_itself_with_its_ids_prefixed(garden: Library) -> None:
    narrowed = combine([garden])
    assert narrowed.index is garden.index
    assert [p.id for p in narrowed.passages] == ["garden:compost", "garden:pasta"]
    found = RankedRetriever(narrowed).retrieve("turn the compost heap")
    assert isinstance(found, Evidence) and found.passage.id == "garden:compost"


def test_libraries_of_one_name_are_not_combined(kitchen: Library) -> None:
    with pytest.raises(ValueError):
        combine([kitchen, kitchen])


def test_a_refusal_lists_the_nearest_passages_of_every_library(
    kitchen: Library, garden: Library
) -> None:
    found = RankedRetriever(combine([kitchen, garden])).retrieve("pasta")
    assert isinstance(found, NoEvidence)
    assert {p.library for p in found.nearest} == {"kitchen", "garden"}


# -- names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("folder", "name"),
    [
        ("Fastify Docs", "fastify-docs"),
        ("docs_v2", "docs-v2"),
        ("__", ""),
        ("Café Docs", "cafe-docs"),
    ],
)
def test_a_folder_names_its_library_as_a_slug(folder: str, name: str) -> None:
    assert library_name(folder) == name


@pytest.mark.parametrize(
    ("entry", "spec"),
    [
        ("web=/src/site/docs", LibrarySpec("web", Path("/src/site/docs"))),
        ("/src/Site Docs", LibrarySpec("site-docs", Path("/src/Site Docs"))),
        ("/src/a=b", LibrarySpec("a-b", Path("/src/a=b"))),
        ("Web=/src/x", LibrarySpec("x", Path("Web=/src/x"))),
    ],
)
def test_an_entry_is_name_equals_folder_or_a_folder(entry: str, spec: LibrarySpec) -> None:
    assert parse_library_entry(entry) == spec


@pytest.mark.parametrize("entry", ["web=", "/src/___", ""])
def test_an_entry_without_a_folder_or_a_name_is_refused_in_one_line(entry: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_library_entry(entry)
    assert "\n" not in str(raised.value)


def test_two_libraries_of_one_name_are_refused() -> None:
    check_distinct([LibrarySpec("a", Path("/a")), LibrarySpec("b", Path("/a"))])
    with pytest.raises(ValueError, match="two libraries are named a"):
        check_distinct([LibrarySpec("a", Path("/x/a")), LibrarySpec("a", Path("/y/a"))])


def test_a_prefixed_id_splits_back_and_a_plain_id_has_no_library() -> None:
    assert split_id(prefixed_id("fastify", "guides/hooks#onrequest")) == (
        "fastify",
        "guides/hooks#onrequest",
    )
    assert split_id("guides/hooks#onrequest") == (None, "guides/hooks#onrequest")


def test_a_reload_counts_what_changed_library_by_library(tmp_path: Path) -> None:
    kitchen = folder_of(tmp_path, "kitchen", {"pasta": ("Pasta", "Salt the water.")})
    garden = folder_of(tmp_path, "garden", {"compost": ("Compost", "Turn the heap.")})
    before = combine([memory_library(kitchen), memory_library(garden)])
    write_lesson(garden, "roses", "Roses", "Prune in winter.")
    (kitchen / "pasta.md").write_text("# Pasta\n\nSalt the water well.\n", encoding="utf-8")
    after = combine([memory_library(kitchen), memory_library(garden)])
    assert passage_changes(before, after) == PassageChanges(added=2, removed=1)
