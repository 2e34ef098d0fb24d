"""What users notice about `ranked` retrieval, on small libraries held in memory."""

from __future__ import annotations

from tui_assistant.core.library import Library
from tui_assistant.core.passages import Passage
from tui_assistant.core.ranked import RankedRetriever


def passage(passage_id: str, title: str, text: str) -> Passage:
    return Passage(id=passage_id, title=title, text=text, source_path=f"lessons/{passage_id}.md")


def retriever(*passages: Passage) -> RankedRetriever:
    return RankedRetriever(Library.from_passages(passages, key=RankedRetriever.key))


def answer(ranked: RankedRetriever, question: str) -> str | None:
    evidence = ranked.retrieve(question)
    return None if evidence is None else evidence.passage.id


KITCHEN = (
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
    ranked = retriever(*KITCHEN)
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
    ranked = retriever(*KITCHEN)
    # Only "water" is in the library; the words that say what the question is about
    # (carburettor, gearbox, torque) are in no passage.
    assert answer(ranked, "carburettor gearbox torque water") is None
    ranking = ranked.rank("carburettor gearbox torque water")
    assert ranking is not None
    assert len(ranking.unknown_words) == 3  # the stems of the three missing words


def test_an_exact_tie_is_refused() -> None:
    twins = (
        passage("first", "Rice", "Simmer the rice gently."),
        passage("second", "Rice", "Simmer the rice gently."),
        passage("other", "Bread", "Bake the loaf."),
    )
    ranked = retriever(*twins)
    ranking = ranked.rank("simmer rice")
    assert ranking is not None and ranking.margin == 0.0
    assert answer(ranked, "simmer rice") is None


def test_a_clear_question_gets_one_passage_with_its_matched_words() -> None:
    ranked = retriever(*KITCHEN)
    evidence = ranked.retrieve("how do I knead bread dough?")
    assert evidence is not None
    assert evidence.passage.id == "bread"
    assert {"bread", "dough"} <= set(evidence.matched_words)
    assert evidence.runner_up_score is None or evidence.score > evidence.runner_up_score


def test_question_framing_words_do_not_decide_the_answer() -> None:
    # "trying" and "possible" frame the question; they must not pull in a passage
    # that only shares them.
    framing = passage("framing", "Trying things", "Trying is possible; anyone can try anything.")
    library = (*KITCHEN, framing)
    ranked = retriever(*library)
    assert answer(ranked, "I'm trying to see if it's possible to simmer rice") == "rice"


def test_a_question_with_no_library_word_is_refused() -> None:
    ranked = retriever(*KITCHEN)
    assert ranked.rank("quantum chromodynamics") is None
    assert answer(ranked, "quantum chromodynamics") is None
