"""The app wired over several libraries: one question searches them all, each keeps its
own index store and vectors, a question narrowed to one searches only it, the
questions none could answer are kept per library, and the status says what answers."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers import write_lesson
from tui_assistant.core.conversation import Conversation
from tui_assistant.settings import Settings
from tui_assistant.store.gaps import gaps_path, read_gaps
from tui_assistant.store.index_store import store_path
from tui_assistant.wiring.context import (
    AppContext,
    open_context,
    with_stored_vectors,
)
from tui_assistant.wiring.gaps import list_gaps
from tui_assistant.wiring.libraries import load_library
from tui_assistant.wiring.retrieval_choice import RetrievalChoice
from tui_assistant.wiring.status import status_of

KITCHEN = {
    "pasta": ("Salting pasta water", "Salt the pasta water generously: ten grams a litre."),
    "eggs": ("Boiling eggs", "Boil the eggs for nine minutes, then cool them in cold water."),
    "knives": ("Knife care", "Sharpen the knife on a whetstone and dry it after washing."),
}
GARDEN = {
    "compost": ("Compost", "Turn the compost heap every week so it stays warm and sweet."),
    "watering": ("Watering", "Water the beds early in the morning, at the roots."),
    "pruning": ("Pruning roses", "Prune roses in late winter, above an outward bud."),
}


def write(folder: Path, lessons: dict[str, tuple[str, str]]) -> Path:
    folder.mkdir(parents=True)
    for lesson_id, (title, text) in lessons.items():
        write_lesson(folder, lesson_id, title, text)
    return folder


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    return write(tmp_path / "kitchen", KITCHEN), write(tmp_path / "Garden Notes", GARDEN)


def context_of(folders: tuple[Path, Path], data: Path, retrieval: str = "keyword") -> AppContext:
    kitchen, garden = folders
    settings = Settings(  # type: ignore[call-arg]
        library=[str(kitchen), f"garden={garden}"], data_dir=data, retrieval=retrieval
    )
    return open_context(settings)


def ask(context: AppContext, question: str, library: str | None = None):  # type: ignore[no-untyped-def]
    return asyncio.run(context.service_for(library).ask(question, Conversation()))


def test_a_question_searches_every_library_and_says_which_one_answered(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    context = context_of(folders, tmp_path / "data")
    assert context.names == ("kitchen", "garden")
    compost = ask(context, "how often should I turn the compost heap to keep it warm?")
    eggs = ask(context, "how many minutes do I boil the eggs before I cool them?")
    assert compost.answered and compost.evidence.passage.id == "garden:compost"
    assert compost.evidence.passage.library == "garden"
    assert eggs.answered and eggs.evidence.passage.id == "kitchen:eggs"
    # Each library keeps its own index store in the data folder.
    for folder in folders:
        assert store_path(tmp_path / "data", folder).exists()


def test_a_question_narrowed_to_one_library_searches_only_it(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    context = context_of(folders, tmp_path / "data")
    narrowed = context.service_for("kitchen").search("water", 5)
    shown = [context.library.parts["kitchen"].passage(n).id for n, _ in narrowed.scored]
    assert shown and all(p.startswith("kitchen:") or p in KITCHEN for p in shown)
    ids = [narrowed.outcome.nearest[0].id] if narrowed.outcome.nearest else []
    assert all(passage.startswith("kitchen:") for passage in ids)
    everywhere = context.service.search("water", 5)
    libraries = {context.library.passage(n).library for n, _ in everywhere.scored}
    assert libraries == {"kitchen", "garden"}
    assert context.service_for("kitchen") is context.service_for("kitchen")
    with pytest.raises(LookupError) as unknown:
        context.service_for("cellar")
    assert str(unknown.value) == "no library is named cellar (the libraries are kitchen, garden)"


def test_a_reloaded_library_answers_narrowed_questions_from_its_new_files(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    context = context_of(folders, tmp_path / "data")
    question = "how long do I knead the bread dough?"
    before = ask(context, question, "kitchen")
    write_lesson(folders[0], "bread", "Kneading bread", "Knead the bread dough for ten minutes.")

    reloaded = context.with_library(load_library(context.settings))
    after = ask(reloaded, question, "kitchen")

    assert not before.answered
    assert after.answered and after.evidence.passage.id == "kitchen:bread"
    assert not ask(context, question, "kitchen").answered  # the old context is unchanged


def test_questions_no_library_could_answer_are_kept_in_the_library_they_came_nearest(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    context = context_of(folders, data)
    for question in ("roses", "roses", "quantum chromodynamics", "how do I boil eggs?"):
        context.conclude(ask(context, question))
    kitchen, garden = folders
    garden_gaps = read_gaps(gaps_path(data, garden))
    kitchen_gaps = read_gaps(gaps_path(data, kitchen))
    assert [g.question for g in garden_gaps] == ["roses", "roses", "quantum chromodynamics"]
    assert [g.question for g in kitchen_gaps] == ["quantum chromodynamics"]  # near nothing
    assert garden_gaps[0].nearest is not None and garden_gaps[0].nearest.id == "pruning"
    listed = list_gaps(context.settings)
    first = listed.groups[0]
    assert (first.library, first.count) == ("garden", 2)
    assert first.nearest is not None and first.nearest.id == "garden:pruning"
    assert {g.library for g in list_gaps(context.settings, "kitchen").groups} == {"kitchen"}
    with pytest.raises(LookupError):
        list_gaps(context.settings, "cellar")


def test_gaps_are_not_kept_when_turned_off(folders: tuple[Path, Path], tmp_path: Path) -> None:
    data = tmp_path / "data"
    context = context_of(folders, data)
    quiet = replace(context, settings=context.settings.model_copy(update={"gaps": False}))
    quiet.conclude(ask(quiet, "roses"))
    assert not (data / "gaps").exists()


def test_the_status_names_each_library_with_what_it_holds(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    context = context_of(folders, tmp_path / "data")
    status = status_of(context, watching=False)
    assert [(s.name, s.documents, s.passages, s.retrieval) for s in status.libraries] == [
        ("kitchen", 3, 3, "keyword"),
        ("garden", 3, 3, "keyword"),
    ]
    assert all(s.vectors == 0 and s.embedding_model is None for s in status.libraries)
    assert status.libraries[0].read_at == context.read_at


def test_stored_vectors_are_read_before_the_first_answer(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    pytest.importorskip("numpy", reason="the semantic extra is not installed")
    from tests.helpers.embedding import FakeEmbedder

    data = tmp_path / "data"
    embedder = FakeEmbedder()

    def lexical() -> AppContext:
        context = context_of(folders, data, "ranked")
        return replace(context, choice=RetrievalChoice("hybrid"), embedder=embedder)

    cold = lexical()
    assert with_stored_vectors(cold) is cold  # nothing stored yet: embedded in the background
    status = status_of(cold, watching=True)
    assert [(s.vectors, s.embedding_model, s.watch) for s in status.libraries] == [
        (0, "fake-bag-of-words@1", True)
    ] * 2
    embedded = cold.with_vectors(cold.embed(cold.library))
    assert embedded is not None and embedded.retrieval == "hybrid"
    computed = len(embedder.texts)
    warm = with_stored_vectors(lexical())
    assert warm.retrieval == "hybrid"
    assert len(embedder.texts) == computed  # read from the stores, nothing embedded again
    assert [s.vectors for s in status_of(warm, watching=False).libraries] == [3, 3]
    found = ask(warm, "how often should I turn the compost heap to keep it warm?")
    assert found.retrieval == "hybrid" and found.evidence.passage.id == "garden:compost"
    narrowed = warm.service_for("garden")
    assert narrowed.retriever.mode == "hybrid"
    assert ask(warm, "compost heap warm", "garden").retrieval == "hybrid"


def test_a_model_cites_a_passage_of_several_libraries_as_name_colon_id(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    from tests.helpers import ScriptedProvider

    context = context_of(folders, tmp_path / "data")
    provider = ScriptedProvider(
        {
            "garden:compost": 'Turn it weekly: "every week so it stays warm" [source:garden:compost].',
            "kitchen:eggs": "Nine minutes [source:eggs].",  # the id without its library
        }
    )
    service = context.service.__class__(context.service.retriever, provider)
    compost = asyncio.run(service.ask("turn the compost heap warm", Conversation()))
    eggs = asyncio.run(service.ask("boil the eggs minutes", Conversation()))
    assert compost.answered and compost.citations == ("garden:compost",)
    assert compost.quotes[0].passage_id == "garden:compost"
    assert (eggs.answered, eggs.reason.value if eggs.reason else None) == (False, "unverified")
