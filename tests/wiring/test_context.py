"""Building the app's context from settings: which retriever answers, and a new
context (never one changed in place) after a reload."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers import memory_library
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import open_context
from tui_assistant.wiring.libraries import load_library
from tui_assistant.wiring.retrieval_choice import RetrievalChoice
from tui_assistant.wiring.retrievers import build_retriever

MakeLibrary = Callable[[Mapping[str, tuple[str, str]]], Path]
KITCHEN = {
    "whetstones": ("Whetstones", "Sharpen a steel knife on a whetstone."),
    "storage": ("Knife storage", "Keep each knife in a block or on a magnetic strip."),
}


def test_settings_choose_the_retrieval_mode(make_library: MakeLibrary) -> None:
    library = memory_library(make_library(KITCHEN))
    assert isinstance(build_retriever(Settings(retrieval="ranked"), library), RankedRetriever)
    assert isinstance(build_retriever(Settings(retrieval="keyword"), library), KeywordRetriever)


def test_a_reload_builds_a_new_context_and_leaves_the_old_one_answering(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    folder = make_library(KITCHEN)
    settings = Settings(library=folder, data_dir=tmp_path, retrieval="ranked")
    before = open_context(settings)
    question = "keep each knife in a block or on a magnetic strip"
    (folder / "storage.md").write_text("# Knife storage\n\nHang pans on a rail.\n")
    after = before.with_library(load_library(settings))
    assert after is not before and after.service is not before.service
    assert after.service.provider is before.service.provider
    old = before.service.start(question, Conversation())
    new = after.service.start(question, Conversation())
    assert isinstance(old, Outcome) and old.answered and "magnetic strip" in (old.answer or "")
    assert isinstance(new, Outcome) and "magnetic strip" not in (new.answer or "")


def test_a_question_ends_once_as_its_turn_and_its_gap(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    from tui_assistant.store.gaps import gaps_path, read_gaps

    folder = make_library(KITCHEN)
    context = open_context(Settings(library=folder, data_dir=tmp_path, retrieval="ranked"))
    conversation = Conversation()
    answered = context.service.start("how do I store a knife on a magnetic strip?", conversation)
    unanswered = context.service.start("quantum chromodynamics", conversation)
    assert isinstance(answered, Outcome) and isinstance(unanswered, Outcome)
    context.conclude(answered, conversation)
    assert conversation.last_answered() is answered
    handed: list[Callable[[], None]] = []
    context.conclude(unanswered, conversation, write=handed.append)
    assert conversation.outcomes == [answered, unanswered]
    gaps = gaps_path(tmp_path, folder)
    assert read_gaps(gaps) == []  # the write was handed over, not done
    [write] = handed
    write()
    assert [gap.question for gap in read_gaps(gaps)] == ["quantum chromodynamics"]


def test_hybrid_gives_the_model_a_mistyped_word_as_the_word_it_and_the_library_know(
    make_library: MakeLibrary, tmp_path: Path
) -> None:
    pytest.importorskip("numpy")
    from tests.helpers.embedding import FakeEmbedder

    folder = make_library(KITCHEN)
    lexical = open_context(Settings(library=folder, data_dir=tmp_path, retrieval="ranked"))
    embedder = FakeEmbedder()
    embedder.vocabulary = frozenset({"sharpen", "knife", "whetstone"})
    context = replace(lexical, choice=RetrievalChoice("hybrid"), embedder=embedder)
    hybrid = context.with_vectors(context.embed(context.library))
    assert hybrid is not None and hybrid.retrieval == "hybrid"
    hybrid.service.start("how do I sharpne a knife", Conversation())
    assert embedder.texts[-1] == "how do I sharpen a knife"
