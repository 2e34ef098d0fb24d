"""Ranked retrieval (`TUI_ASSISTANT_RETRIEVAL=ranked`): BM25F ranking that still refuses,
on small libraries held in memory, library folders and the committed Django FAQ.

Also pins `keyword` results, because ranked-only query processing must never change them.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import BUNDLED_LESSONS, KNIFE_LESSONS, PROJECT_ROOT, library_of, memory_library
from tests.helpers import cjk_library as cjk
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import TIE, Evidence, NoEvidence

MakeLibrary = Callable[[Mapping[str, tuple[str, str]]], Path]
DJANGO_FAQ_LESSONS = PROJECT_ROOT / "eval" / "django-faq-lessons"


def retrievers(folder: Path) -> tuple[KeywordRetriever, RankedRetriever]:
    library = memory_library(folder)
    return KeywordRetriever(library), RankedRetriever(library)


# -- small in-memory libraries ---------------------------------------------------------


def passage(passage_id: str, title: str, text: str) -> Passage:
    return Passage(id=passage_id, title=title, text=text, source_path=f"lessons/{passage_id}.md")


def retriever(*passages: Passage) -> RankedRetriever:
    return RankedRetriever(library_of(passages, key=RankedRetriever.key))


# Sure of every best passage: for tests of what the ranking puts first.
CERTAIN = Logistic(names=(), coefficients=(), intercept=10.0)
ALWAYS_SURE = ConfidenceModel(sure=CERTAIN, offer=CERTAIN, answer_at=0.5, close_at=0.1)


def answer(ranked: RankedRetriever, question: str) -> str | None:
    """The passage the ranking puts first, whatever the confidence model decides."""
    ranking = ranked.rank(question)
    return None if ranking is None else ranked.library.passage(ranking.passage_number).id


def sure(library: Library) -> RankedRetriever:
    return RankedRetriever(library, model=ALWAYS_SURE)


KITCHEN_PASSAGES = (
    passage(
        "boil", "Boiling eggs", "Lower the eggs into boiling water and boil them for seven minutes."
    ),
    passage(
        "knives", "Knife care", "Sharpen knives on a whetstone and dry each blade after washing."
    ),
    passage(
        "bread", "Bread basics", "Knead the dough, let it rise, then bake the loaf until golden."
    ),
    passage("rice", "Cooking rice", "Rinse the rice, add water, cover the pot and simmer gently."),
    passage("salt", "Seasoning", "Add salt to the water before the pasta goes in."),
)


def test_inflections_match_through_the_stemmer() -> None:
    ranked = retriever(*KITCHEN_PASSAGES)
    # "sharpening" and "knife" meet "Sharpen" and "knives" in the passage.
    assert answer(ranked, "what is the trick to sharpening a knife?") == "knives"
    assert answer(ranked, "how long do I boil an egg?") == "boil"


def test_a_rare_telling_word_outweighs_common_ones() -> None:
    # "water" and "pot" are everywhere; "whetstone" is in one passage only.
    common = "Put water in the pot, then wait for the water in the pot."
    library = [passage(f"pot-{number}", f"Pot notes {number}", common) for number in range(6)] + [
        passage("stone", "Stones", "A whetstone sits in water before use.")
    ]
    ranked = retriever(*library)
    assert answer(ranked, "water pot whetstone") == "stone"


def test_a_question_whose_telling_words_appear_nowhere_is_refused() -> None:
    ranked = retriever(*KITCHEN_PASSAGES)
    # Only "water" is in the library; the words that say what the question is about
    # (carburettor, gearbox, torque) are in no passage.
    refusal = ranked.retrieve("carburettor gearbox torque water")
    assert isinstance(refusal, NoEvidence) and not refusal.ambiguous
    ranking = ranked.rank("carburettor gearbox torque water")
    assert ranking is not None
    assert len(ranking.unknown_words) == 3  # the stems of the three missing words


def test_an_exact_tie_is_ambiguous_with_the_tied_passages_as_candidates() -> None:
    twins = (
        passage("first", "Rice", "Simmer the rice gently."),
        passage("second", "Rice", "Simmer the rice gently."),
        passage("other", "Bread", "Bake the loaf."),
    )
    ranked = retriever(*twins)
    ranking = ranked.rank("simmer rice")
    assert ranking is not None and ranking.margin == 0.0
    refusal = ranked.retrieve("simmer rice")
    assert isinstance(refusal, NoEvidence) and refusal.ambiguous
    assert refusal.mode == "ranked"
    assert [passage.id for passage in refusal.nearest] == ["first", "second"]


def test_a_clear_question_gets_one_passage_with_its_matched_words() -> None:
    ranked = retriever(*KITCHEN_PASSAGES)
    evidence = ranked.retrieve("how do I knead bread dough?")
    assert isinstance(evidence, Evidence)
    assert evidence.mode == "ranked"
    assert evidence.passage.id == "bread"
    assert {"bread", "dough"} <= set(evidence.matched_words)
    assert evidence.runner_up_score is None or evidence.score > evidence.runner_up_score


def test_question_framing_words_do_not_decide_the_answer() -> None:
    # "trying" and "possible" frame the question; they must not pull in a passage
    # that only shares them.
    framing = passage("framing", "Trying things", "Trying is possible; anyone can try anything.")
    library = (*KITCHEN_PASSAGES, framing)
    ranked = retriever(*library)
    assert answer(ranked, "I'm trying to see if it's possible to simmer rice") == "rice"


def test_a_question_with_no_library_word_is_refused() -> None:
    ranked = retriever(*KITCHEN_PASSAGES)
    assert ranked.rank("quantum chromodynamics") is None
    assert answer(ranked, "quantum chromodynamics") is None


# -- library folders ------------------------------------------------------------------


def test_ranked_picks_the_passage_with_the_rare_word_where_keyword_ties(
    make_library: MakeLibrary,
) -> None:
    keyword, ranked = retrievers(make_library(KNIFE_LESSONS))
    question = "How do I sharpen a ceramic knife?"
    # keyword: ceramic-knives and whetstones both match two distinct words (a tie).
    assert isinstance(keyword.retrieve(question), NoEvidence)
    assert answer(ranked, question) == "ceramic-knives"


def test_ranked_answers_a_one_word_question_that_keyword_refuses(
    make_library: MakeLibrary,
) -> None:
    keyword, ranked = retrievers(make_library(KNIFE_LESSONS))
    assert isinstance(keyword.retrieve("Tell me about serrated blades"), NoEvidence)
    evidence = sure(ranked.library).retrieve("serrated")
    assert isinstance(evidence, Evidence)
    assert evidence.passage.id == "bread"
    assert evidence.matched_words == ("serrat",)


def test_evidence_reports_matched_words_score_and_runner_up(make_library: MakeLibrary) -> None:
    _, ranked = retrievers(make_library(KNIFE_LESSONS))
    evidence = sure(ranked.library).retrieve("Which knife edge chips if I twist a ceramic one?")
    assert isinstance(evidence, Evidence)
    assert evidence.passage.id == "ceramic-knives"
    # Matched words come in question order, as normalised keys.
    assert evidence.matched_words == ("knif", "edg", "chip", "twist", "ceramic")
    assert evidence.runner_up_score is not None
    assert evidence.score > evidence.runner_up_score > 0


def test_runner_up_is_none_when_only_one_passage_matches(make_library: MakeLibrary) -> None:
    _, ranked = retrievers(make_library(KNIFE_LESSONS))
    evidence = sure(ranked.library).retrieve("magnetic strip")
    assert isinstance(evidence, Evidence)
    assert evidence.passage.id == "storage"
    assert evidence.runner_up_score is None


def test_a_close_runner_up_makes_the_question_ambiguous(make_library: MakeLibrary) -> None:
    close = {
        "stock": ("Chicken stock", "Simmer chicken bones with onion for three hours."),
        "soup": ("Chicken soup", "Simmer chicken with onion and carrot for one hour."),
        "bread": ("Bread", "Bake bread in a hot oven."),
    }
    library = memory_library(make_library(close))
    question = "Simmer chicken with onion"
    refusal = RankedRetriever(library).retrieve(question)
    # Both chicken passages could answer: offered as candidates, the closer first.
    assert isinstance(refusal, NoEvidence) and refusal.ambiguous
    assert sorted(passage.id for passage in refusal.nearest) == ["soup", "stock"]
    # The word only one of them holds decides.
    evidence = RankedRetriever(library).retrieve("simmer chicken bones for stock")
    assert isinstance(evidence, Evidence) and evidence.passage.id == "stock"


def test_too_little_of_the_question_matched_is_not_answered(make_library: MakeLibrary) -> None:
    _, ranked = retrievers(make_library(KNIFE_LESSONS))
    # Only "knife" matches; "oxtail", "braise" and "marrow" appear nowhere.
    refusal = ranked.retrieve("Which knife do I need to braise oxtail with marrow?")
    assert isinstance(refusal, NoEvidence)
    assert 0 < len(refusal.nearest) <= 5


def test_a_question_sharing_no_word_with_the_library_refuses(make_library: MakeLibrary) -> None:
    _, ranked = retrievers(make_library(KNIFE_LESSONS))
    for question in ["What is the capital of Australia?", "How do I do it?", ""]:
        refusal = ranked.retrieve(question)  # no word at all, or stopwords only
        assert isinstance(refusal, NoEvidence)
        assert refusal.nearest == ()


def test_question_framing_words_do_not_count_in_ranked(make_library: MakeLibrary) -> None:
    passages = {
        "thinking": ("Thinking ahead", "Make a plan: know what you will try first."),
        "storage": ("Knife storage", "Keep each knife in a block or on a magnetic strip."),
        "boards": ("Cutting boards", "Cut on wood so the knife edge lasts."),
    }
    _, ranked = retrievers(make_library(passages))
    # Counted as topic words, think/know/try/make would hand this to "Thinking ahead".
    evidence = sure(ranked.library).retrieve("I'm thinking I know how to try to make a knife block")
    assert isinstance(evidence, Evidence)
    assert evidence.passage.id == "storage"
    assert evidence.matched_words == ("knif", "block")


NOTES = {
    "boiler": ("Boiler", "Bleed the radiators each autumn and check the pressure gauge."),
    "garden": ("Garden", "Water the tomatoes every morning in summer and mulch the beds."),
    "bicycle": (
        "Bicycle",
        "Oil the bicycle chain every 300 kilometres, and wipe off the excess oil.",
    ),
}


def test_a_small_notes_folder_answers_a_plainly_worded_question(
    make_library: MakeLibrary,
) -> None:
    _, ranked = retrievers(make_library(NOTES))
    # "often" is in no note; it frames the question rather than naming its subject.
    evidence = ranked.retrieve("How often should I oil my bicycle chain?")
    assert isinstance(evidence, Evidence) and evidence.passage.id == "bicycle"
    refusal = ranked.retrieve("How do I change the oil in my car engine?")
    assert isinstance(refusal, NoEvidence) and not refusal.ambiguous


def test_phrases_that_only_ask_for_help_are_not_read_as_the_topic(
    make_library: MakeLibrary,
) -> None:
    _, ranked = retrievers(make_library(NOTES))
    question = "hi, quick question: what kind of pressure gauge is on the boiler? thx in advance"
    ranking = ranked.rank(question)
    assert ranking is not None
    # "question", "kind" and "advance" are in no note: read as topic words, they would
    # count against a question that one note answers.
    assert ranking.unknown_words == ()
    assert answer(ranked, question) == "boiler"
    # The same words as the topic are still read.
    assert "question" in ranked.rank("the question of boiler pressure").weights


def test_ranked_never_reads_library_files(monkeypatch: pytest.MonkeyPatch) -> None:
    passages = [
        Passage(passage_id, title, text, f"nowhere/{passage_id}.md")
        for passage_id, (title, text) in KNIFE_LESSONS.items()
    ]
    ranked = sure(library_of(passages))

    def no_file_access(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("retrieval touched the file system")

    monkeypatch.setattr(builtins, "open", no_file_access)
    monkeypatch.setattr(os, "scandir", no_file_access)
    monkeypatch.setattr(Path, "read_text", no_file_access)
    monkeypatch.setattr(Path, "read_bytes", no_file_access)
    evidence = ranked.retrieve("ceramic knife")
    assert isinstance(evidence, Evidence)
    assert evidence.passage.id == "ceramic-knives"


def test_on_real_documentation_ranked_answers_a_keyword_tie_and_refuses_other_subjects() -> None:
    """The Django FAQ as a library; the questions are written here, not taken from any
    evaluation set, so no figure measured on a set is pinned."""
    keyword, ranked = retrievers(DJANGO_FAQ_LESSONS)
    question = "Which license is Django distributed under?"
    tie = keyword.retrieve(question)
    assert isinstance(tie, NoEvidence) and tie.why == TIE
    # "distributed under the 3-clause BSD license": ranked puts it first, answered or
    # offered as the first candidate.
    assert answer(ranked, question) == "faq-general-06"
    result = ranked.retrieve(question)
    shown = result.passage if isinstance(result, Evidence) else result.nearest[0]
    assert shown.id == "faq-general-06"
    for other_subject in [
        "How long should I simmer a chicken stock?",
        "Which football team won the 1998 world cup?",
        "What is the capital of Australia?",
        "How do I tune a guitar string?",
    ]:
        refusal = ranked.retrieve(other_subject)
        assert isinstance(refusal, NoEvidence), other_subject
        assert len(refusal.nearest) <= 5


# Keyword results pinned: ranked-only query processing must leave them exactly as they were.
KEYWORD_ON_BUNDLED_LESSONS = [
    ("How much salt goes in pasta water?", "pasta-water", ("salt", "goe", "pasta", "water"), 7),
    (
        "How long do I boil eggs for a runny yolk?",
        "boiled-eggs",
        ("long", "boil", "egg", "runny", "yolk"),
        7,
    ),
    ("How do I sharpen a kitchen knife?", "knife-care", ("sharpen", "kitchen", "knif"), 5),
    (
        "Why does my boiled egg have a green ring?",
        "boiled-eggs",
        ("boil", "egg", "green", "ring"),
        6,
    ),
    ("I'm trying to store knives", "knife-care", ("stor", "knif"), 3),
    ("boiling water", None, (), 0),  # pasta-water and boiled-eggs tie at 2
    ("What is the capital of France?", None, (), 0),
]


@pytest.mark.parametrize(("question", "passage_id", "matched", "score"), KEYWORD_ON_BUNDLED_LESSONS)
def test_keyword_results_on_bundled_lessons_are_unchanged(
    question: str, passage_id: str | None, matched: tuple[str, ...], score: int
) -> None:
    keyword, _ = retrievers(BUNDLED_LESSONS)
    evidence = keyword.retrieve(question)
    if passage_id is None:
        assert isinstance(evidence, NoEvidence)
    else:
        assert isinstance(evidence, Evidence)
        assert (evidence.passage.id, evidence.matched_words, evidence.score) == (
            passage_id,
            matched,
            score,
        )


def test_keyword_results_on_a_fixture_are_unchanged(make_library: MakeLibrary) -> None:
    keyword, _ = retrievers(make_library(KNIFE_LESSONS))
    results = {
        question: (evidence.passage.id, evidence.score) if isinstance(evidence, Evidence) else None
        for question in [
            "How do I sharpen a ceramic knife?",
            "I'm trying to sharpen my knife on a whetstone",
            "What knife do you need for bread crust?",
            "magnetic strip",
            "Does glass dull a knife?",
        ]
        for evidence in [keyword.retrieve(question)]
    }
    assert results == {
        "How do I sharpen a ceramic knife?": None,
        "I'm trying to sharpen my knife on a whetstone": ("whetstones", 4),
        "What knife do you need for bread crust?": ("bread", 5),
        "magnetic strip": ("storage", 2),
        "Does glass dull a knife?": ("boards", 3),
    }


def test_scored_gives_the_best_passages_by_bm25f_best_first_also_when_refused() -> None:
    ranked = retriever(*KITCHEN_PASSAGES)
    question = "boiling eggs for seven minutes"
    scored = ranked.search(question, 1, 3).scored
    assert ranked.library.passage(scored[0][0]).id == answer(ranked, question) == "boil"
    assert [score for _, score in scored] == sorted((s for _, s in scored), reverse=True)
    tie = retriever(passage("a", "Eggs", "Boil them."), passage("b", "Eggs", "Boil them."))
    assert isinstance(tie.retrieve("boil eggs"), NoEvidence)
    assert len(tie.search("boil eggs", 1, 5).scored) == 2
    assert tie.search("zebra quantum", 1, 5).scored == ()


# -- languages written without spaces ----------------------------------------------


@pytest.fixture(scope="module")
def cjk_library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return memory_library(cjk.write_cjk_library(tmp_path_factory.mktemp("cjk")))


@pytest.mark.parametrize(("question", "expected"), cjk.ANSWERED)
def test_a_cjk_question_finds_its_passage(
    cjk_library: Library, question: str, expected: str
) -> None:
    # Found: answered, or offered first when ranked alone is not sure of it.
    result = RankedRetriever(cjk_library).retrieve(question)
    shown = result.passages if isinstance(result, Evidence) else result.nearest
    assert shown and shown[0].id == expected, result


@pytest.mark.parametrize("question", cjk.NOT_IN_THE_LIBRARY)
def test_a_cjk_question_the_library_cannot_answer_is_refused(
    cjk_library: Library, question: str
) -> None:
    assert isinstance(RankedRetriever(cjk_library).retrieve(question), NoEvidence)


# -- sure where the words leave no doubt ----------------------------------------------

ORCHARD = {
    "apple-trees.md": (
        "# Apple trees\n\n"
        "Prune the apple trees in late winter, while they are dormant and before the buds\n"
        "break. Cut out dead, crossing and inward-growing branches first, then thin the\n"
        "crown so light reaches the middle of the tree.\n\n"
        "## Feeding\n\n"
        "Spread compost around the base of each tree in early spring, clear of the trunk.\n"
    ),
    "roses.md": (
        "# Roses\n\n"
        "Cut roses back by about a third in early spring, just as the new shoots appear,\n"
        "to an outward-facing bud. Deadhead through the summer so they keep flowering.\n\n"
        "## Black spot\n\n"
        "Pick up fallen leaves with black spot and bin them; water at the base.\n"
    ),
    "vegetable-garden.md": (
        "# Vegetable garden\n\n"
        "Sow tomatoes indoors in March and plant them out after the last frost. Pinch out\n"
        "the side shoots of cordon tomatoes every week and tie the stem to its cane.\n\n"
        "## Watering\n\n"
        "Water in the morning at the roots. Fruit trees in pots need water every day in a\n"
        "hot spell.\n"
    ),
}


def test_a_notes_folder_answers_from_the_note_its_words_point_to(tmp_path: Path) -> None:
    for name, text in ORCHARD.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    ranked = RankedRetriever(memory_library(tmp_path))
    # "prune" is in one note alone, "apple" in one document alone: however unsure the
    # models are of three short notes, the words leave no doubt.
    found = ranked.retrieve("When is the best time to prune my apple trees?")
    assert isinstance(found, Evidence), found
    assert found.passage.id == "apple-trees"
    # A question the notes do not answer is still not answered from them.
    refused = ranked.retrieve("How do I get rid of greenfly on my roses?")
    assert not isinstance(refused, Evidence)


GUIDE_AND_ANNOUNCEMENT = {
    "guide/dep-pre-bundling.md": (
        "# Dependency Pre-Bundling\n\n"
        "When you start the dev server for the first time, it bundles your project's\n"
        "imports from node_modules before loading the site.\n\n"
        "## The Why\n\n"
        "Packages shipped as CommonJS are converted to ES modules, and packages with many\n"
        "internal modules become one module, so the browser makes fewer requests.\n"
    ),
    "blog/announcing-v5.md": (
        "# Version 5 is out!\n\n"
        "Dependency pre-bundling is faster: pre-bundling of a dependency now runs in\n"
        "parallel, and dependency pre-bundling caches more. Server-side rendering and\n"
        "building for production got faster too.\n"
    ),
    "config/dep-optimization-options.md": (
        "# Dep Optimization Options\n\n"
        "## optimizeDeps.include\n\n"
        "By default, linked packages not inside node_modules are not pre-bundled. Use this\n"
        "option to force a linked dependency to be pre-bundled.\n"
    ),
}


def test_the_page_titled_as_the_question_beats_an_announcement_that_mentions_it(
    tmp_path: Path,
) -> None:
    for name, text in GUIDE_AND_ANNOUNCEMENT.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    ranked = RankedRetriever(memory_library(tmp_path), model=ALWAYS_SURE)
    found = ranked.retrieve("what is dependency pre-bundling?")
    assert isinstance(found, Evidence)
    assert found.passage.id.startswith("guide/dep-pre-bundling")


def test_a_word_typed_with_one_slip_is_read_as_the_librarys_word() -> None:
    ranked = RankedRetriever(
        library_of(
            [
                passage("puncture", "Fixing a puncture", "Find the hole in the punctured tube."),
                passage("chain", "Chain", "Oil the chain every month."),
            ],
            key=RankedRetriever.key,
        ),
        model=ALWAYS_SURE,
    )
    assert answer(ranked, "how do i find the hole in a punctrued tube") == "puncture"
    ranking = ranked.rank("how do i find the hole in a punctrued tube")
    assert ranking is not None and not ranking.unknown_words


def test_a_slip_inside_an_inflected_word_is_read_as_the_librarys_word() -> None:
    ranked = RankedRetriever(
        library_of(
            [
                passage("poach", "Poaching eggs", "Slide the egg into simmering water."),
                passage("whisk", "Whisking", "Whisk the whites until stiff."),
            ],
            key=RankedRetriever.key,
        ),
        model=ALWAYS_SURE,
    )
    # "simmerign" is no slip of the key "simmer"; the word as typed is one of "simmering".
    ranking = ranked.rank("do i slide the eggs into simmerign water")
    assert ranking is not None and not ranking.unknown_words
    assert "simmer" in ranking.matched[ranking.passage_number]
    # Not sure of it, the refusal still says how the question was read, for the marks.
    ranked.model = replace(ALWAYS_SURE, answer_at=1.0, close_at=0.0)
    found = ranked.retrieve("do i slide cold eggs into simmerign water")
    assert isinstance(found, NoEvidence) and found.ambiguous
    assert "simmer" in found.read_words and "simmerign" not in found.read_words


def test_greetings_thanks_bare_contractions_and_mistyped_stopwords_are_not_topic_words(
    tmp_path: Path,
) -> None:
    for name, text in ORCHARD.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    ranked = RankedRetriever(memory_library(tmp_path))
    tidy = ranked.retrieve("When should I prune my apple trees?")
    chatty = "hey, sorry - when sholud i prune my apple trees? im not sure, dont know. thx"
    ranking = ranked.rank(chatty)
    # None of the chatter counts as a word the notes lack, so the question is judged
    # as the tidy one is.
    assert ranking is not None and ranking.unknown_words == ()
    typed = ranked.retrieve(chatty)
    assert isinstance(tidy, Evidence) and isinstance(typed, Evidence), typed
    assert typed.passage.id == tidy.passage.id == "apple-trees"
    assert typed.confidence == tidy.confidence


def test_an_aside_the_notes_know_no_word_of_is_not_counted_as_words_they_lack(
    tmp_path: Path,
) -> None:
    for name, text in ORCHARD.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    ranked = RankedRetriever(memory_library(tmp_path))
    tidy = ranked.rank("When should I prune my apple trees?")
    aside = ranked.rank("newbie here. when should i prune my apple trees, my coworker asked me")
    assert tidy is not None and aside is not None
    assert set(aside.unknown_words) == {"newbi", "coworker", "ask"}
    assert aside.unknown_share == tidy.unknown_share == 0.0
    # In the clause that names the topic, a word the notes lack still counts.
    mixed = ranked.rank("when should i prune my apple trees with a chainsaw")
    assert mixed is not None and mixed.unknown_share > 0.0


ON_CALL = (
    "# On-call rotation\n\n"
    "## Response times\n\n"
    "Acknowledge a page within 15 minutes, day or night. For a long incident, hand over\n"
    "after four hours and post updates on time.\n\n"
    "## Compensation\n\n"
    "On-call staff are paid a weekly allowance for the rotation, and a public holiday on\n"
    "call counts double. After a long night page, take the next morning as time off.\n"
)


def test_the_section_that_says_it_as_the_question_does_comes_first(tmp_path: Path) -> None:
    # Both sections hold "time", "long", "night" and "page", the shorter first one even
    # in its title; only the second says "time off" and "long night page" as the
    # question does.
    (tmp_path / "on-call.md").write_text(ON_CALL, encoding="utf-8")
    ranked = RankedRetriever(memory_library(tmp_path), model=ALWAYS_SURE)
    for question in (
        "do I get time off after a long night page?",
        "do i get time off affter a long nihgt page",
    ):
        found = ranked.retrieve(question)
        assert isinstance(found, Evidence), question
        assert found.passage.id.endswith("compensation"), (question, found.passage.id)


def test_a_questions_pairs_are_its_words_as_read() -> None:
    ranked = retriever(passage("night", "Night pages", "A long night page earns time off."))
    ranking = ranked.rank("i'm trying to get time off after a long nihgt page")
    assert ranking is not None
    pairs = set(ranking.pairs)
    # A mistyped word is read as the library's ("nihgt" -> night); "get" and "a" bind to
    # nothing, so "get time" and "a long" are not pairs, nor two stopwords ("off after").
    assert pairs == {("tim", "off"), ("long", "night"), ("night", "pag")}
