"""The sentence-level support check, on hand-made answers and through the service."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import BUNDLED_LESSONS, PROJECT_ROOT, library_of, memory_library
from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.checks.support import (
    SUPPORT_THRESHOLD,
    CheckedPassage,
    SupportMode,
    check_support,
    judge_sentences,
)
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import Outcome, OutcomeKind, Reason
from tui_assistant.core.record import OutcomeRecord
from tui_assistant.core.retrieval.types import Evidence, Mode
from tui_assistant.core.sentences import split_sentences
from tui_assistant.core.service import AnswerService

PASTA = Passage(
    id="pasta-water",
    title="Salting pasta water",
    text=(
        "Pasta absorbs water as it cooks, so the water is the only chance to season the "
        "noodle itself. Use about 10 grams of salt per litre of water, roughly two level "
        "teaspoons. Add the salt once the water is boiling hard, just before the pasta goes "
        "in. Do not pour oil into the water: it floats on top and makes the sauce slide off. "
        'The water should taste "pleasantly seasoned, like a mild broth". Stir during the '
        "first minute."
    ),
    source_path="lessons/pasta-water.md",
)
CITE = "[source:pasta-water]"


def unsupported(answer: str, lesson: Passage = PASTA) -> tuple[str, ...]:
    return check_support(answer, lesson).unsupported_sentences


def test_faithful_paraphrase_with_shared_words_passes() -> None:
    answer = (
        f"Season the water, because it is your only chance to season the pasta itself {CITE}. "
        f"Add the salt when the water is boiling hard, just before the pasta goes in {CITE}."
    )
    report = check_support(answer, PASTA)
    assert report.supported
    assert report.unsupported_sentences == ()


def test_invented_step_fails_and_only_that_sentence_is_reported() -> None:
    invented = "Rub a little butter around the rim of the pot so it never boils over."
    answer = f"Use about 10 grams of salt per litre of water {CITE}. {invented} {CITE}"
    report = check_support(answer, PASTA)
    assert not report.supported
    assert report.unsupported_sentences == (f"{invented} {CITE}",)


@pytest.mark.parametrize(
    "changed",
    [
        "Use about 15 grams of salt per litre of water.",
        "Use about 10 grams of salt per litre, roughly four level teaspoons.",
        "Use about twelve grams of salt per litre of water.",
        "Use about 10.5 grams of salt per litre of water.",
    ],
)
def test_changed_number_fails_even_when_every_word_matches(changed: str) -> None:
    assert unsupported(f"{changed} {CITE}") == (f"{changed} {CITE}",)


def test_numbers_match_whether_written_in_digits_or_words() -> None:
    # The passage says "10 grams" and "two level teaspoons".
    answer = f"Use ten grams of salt per litre of water, about 2 level teaspoons {CITE}."
    assert unsupported(answer) == ()


def test_misquoted_quote_fails() -> None:
    answer = f'The water should taste "pleasantly salty, like the sea" {CITE}.'
    assert unsupported(answer) == (answer,)


def test_exact_quote_passes_despite_case_and_whitespace() -> None:
    answer = f'The water should taste "Pleasantly   seasoned, like a\nmild broth" {CITE}.'
    assert check_support(answer, PASTA).supported


def test_quote_shorter_than_eight_characters_is_not_checked_verbatim() -> None:
    answer = f'Add the salt when the water is "boiling" hard, just before the pasta {CITE}.'
    assert check_support(answer, PASTA).supported


@pytest.mark.parametrize(
    "short", ["Yes.", "Salt generously.", "Absolutely not!", "In short: butter it."]
)
def test_sentences_under_three_content_words_are_not_judged(short: str) -> None:
    # "generously", "absolutely", "butter" are not in the passage; the sentences are too
    # short for an overlap ratio to mean anything.
    answer = f"{short} Use about 10 grams of salt per litre of water {CITE}."
    assert check_support(answer, PASTA).supported


def test_a_short_sentence_with_a_wrong_number_is_still_flagged() -> None:
    assert unsupported(f"Use 25 grams. {CITE}") == (f"Use 25 grams. {CITE}",)


def test_citation_markers_are_ignored_for_scoring() -> None:
    lesson = Passage(
        id="zebra-quantum-77-violin",
        title=PASTA.title,
        text=PASTA.text,
        source_path="lessons/zebra-quantum-77-violin.md",
    )
    # Unstripped, the marker would add three unknown words and an unknown number.
    answer = "Stir the pasta during the first minute [source:zebra-quantum-77-violin]."
    assert check_support(answer, lesson).supported


@pytest.mark.parametrize("source", ["lesson", "passage", "document"])
def test_words_that_describe_the_passage_do_not_count_against_a_sentence(source: str) -> None:
    answer = f"According to the {source}, add the salt once the water is boiling hard {CITE}."
    assert check_support(answer, PASTA).supported


def test_reported_sentences_are_exact_substrings_of_the_answer() -> None:
    answer = (
        "Here is what to do:\n"
        f"- Bring the water to a hard boil {CITE}.\n"
        "- Rub butter around the rim of the pot so it never boils over.\n"
        f"1. Always rinse cooked noodles under the cold tap afterwards {CITE}."
    )
    flagged = unsupported(answer)
    assert len(flagged) == 2
    for sentence in flagged:
        assert sentence in answer
        assert not sentence.startswith(("-", "1."))


def test_sentences_split_at_ends_but_not_inside_numbers_abbreviations_or_quotes() -> None:
    answer = 'Use 10.5 g, e.g. for fusilli. He said "Stop. Now." Then drain! Is it done?'
    assert split_sentences(answer) == [
        "Use 10.5 g, e.g. for fusilli.",
        'He said "Stop. Now."',
        "Then drain!",
        "Is it done?",
    ]


def test_an_answer_of_only_a_citation_is_supported() -> None:
    assert check_support(CITE, PASTA).supported


def test_the_title_backs_sentences_too() -> None:
    lesson = Passage("x", "Salting pasta water", "Boil it.", "lessons/x.md")
    assert check_support("Salting pasta water matters.", lesson).supported


def test_coverage_threshold_is_what_separates_judged_sentences() -> None:
    passage = CheckedPassage.of(PASTA)
    # 2 of the 4 content words (salt, water) are in the passage: 0.5 coverage.
    [verdict] = judge_sentences("Salt the water with seaweed flakes.", passage)
    assert verdict.coverage == 0.5
    assert not verdict.supported
    [lenient] = judge_sentences("Salt the water with seaweed flakes.", passage, threshold=0.5)
    assert lenient.supported


def load_labelled_answers() -> list[dict[str, object]]:
    path = PROJECT_ROOT / "eval" / "support-answers.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


EGGS = Passage(
    id="kitchen/eggs#boiling",
    title="Eggs › Boiling",
    text="Lower the eggs into simmering water and cook them for 6 minutes for a runny yolk.",
    source_path="lessons/kitchen/eggs.md",
)
EGG_CITE = "[source:kitchen/eggs#boiling]"
EGG_SENTENCE = "Cook the eggs in simmering water for 6 minutes for a runny yolk"


def test_each_sentence_is_read_against_the_passages_it_cites() -> None:
    right = f"{FAITHFUL} {EGG_SENTENCE} {EGG_CITE}."
    # The egg sentence is true of the egg passage, not of the pasta one it now cites.
    crossed = f"{FAITHFUL} {EGG_SENTENCE} {CITE}."

    assert check_support(right, [PASTA, EGGS]).supported
    assert check_support(crossed, [PASTA, EGGS]).unsupported_sentences == (
        f"{EGG_SENTENCE} {CITE}.",
    )


def test_a_sentence_without_a_marker_is_read_against_what_the_answer_cites() -> None:
    both = f"{EGG_SENTENCE}. Salt the water well {CITE} {EGG_CITE}."
    only_pasta = f"{EGG_SENTENCE}. Salt the water well {CITE}."

    assert check_support(both, [PASTA, EGGS]).supported
    assert check_support(only_pasta, [PASTA, EGGS]).unsupported_sentences == (f"{EGG_SENTENCE}.",)


def test_a_quote_must_stand_in_one_passage_not_across_two() -> None:
    joined = f'They say "{PASTA.text[-20:]} {EGGS.text[:20]}" {CITE} {EGG_CITE}.'

    assert not check_support(joined, [PASTA, EGGS]).supported


def test_hand_labelled_set_faithful_answers_pass_and_misquotes_fail() -> None:
    # The guarantees docs/evaluation.md states for the chosen threshold.
    library = memory_library(BUNDLED_LESSONS)
    rows = load_labelled_answers()
    assert len(rows) >= 60
    for row in rows:
        lesson = library.get(str(row["lesson"]))
        assert lesson is not None
        report = check_support(str(row["answer"]), lesson, SUPPORT_THRESHOLD)
        if row["faithful"]:
            assert report.supported, row["answer"]
        elif row["kind"] == "misquote":
            assert not report.supported, row["answer"]


# --- through AnswerService, with a provider that returns a fixed answer ----------------


class FixedProvider:
    """An AnswerProvider that answers every question with one prepared text."""

    deadline_seconds = 5.0

    def __init__(self, text: str) -> None:
        self.text = text
        self.calls: list[str] = []

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        self.calls.append(question)
        return ModelAnswer(self.text)


class PastaRetriever:
    """Retrieval that always finds the pasta passage (and `others` as runners-up)."""

    mode: Mode = "keyword"

    def __init__(self, *others: Passage) -> None:
        self.others = others
        self.library = library_of([PASTA, *others])

    def retrieve(self, question: str, count: int = 1) -> Evidence:
        return Evidence((PASTA, *self.others)[:count], ("salt", "pasta"), 4.0, None)


FAITHFUL = f"Use about 10 grams of salt per litre of water {CITE}."
INVENTED = "Rub butter around the rim of the pot so it never boils over."
WITH_INVENTION = f"{FAITHFUL} {INVENTED} {CITE}"


async def ask(mode: SupportMode, text: str) -> tuple[dict[str, object], FixedProvider]:
    provider = FixedProvider(text)
    service = AnswerService(PastaRetriever(), provider, support_mode=mode)
    outcome = await service.ask("how much salt for pasta?", Conversation())
    return OutcomeRecord.of(outcome).model_dump(mode="json"), provider


async def test_warn_shows_the_answer_and_lists_unsupported_sentences() -> None:
    result, provider = await ask("warn", WITH_INVENTION)
    assert provider.calls == ["how much salt for pasta?"]
    assert result["outcome"] == "answered"
    assert result["answer"] == WITH_INVENTION
    assert result["support"] == {
        "supported": False,
        "unsupported_sentences": [f"{INVENTED} {CITE}"],
    }


async def test_warn_reports_a_fully_supported_answer_as_supported() -> None:
    result, _ = await ask("warn", FAITHFUL)
    assert result["support"] == {"supported": True, "unsupported_sentences": []}


async def test_strict_refuses_an_answer_with_an_unsupported_sentence() -> None:
    result, _ = await ask("strict", WITH_INVENTION)
    assert result["outcome"] == "refused"
    assert result["reason"] == "unsupported"
    assert result["answer"] is None
    assert result["support"] is None
    assert result["lesson_id"] == "pasta-water"


async def test_strict_accepts_a_fully_supported_answer() -> None:
    result, _ = await ask("strict", FAITHFUL)
    assert result["outcome"] == "answered"
    assert result["support"] == {"supported": True, "unsupported_sentences": []}


async def test_off_skips_the_check() -> None:
    result, _ = await ask("off", WITH_INVENTION)
    assert result["outcome"] == "answered"
    assert result["support"] is None


@pytest.mark.parametrize("mode", ["off", "warn", "strict"])
async def test_the_citation_check_still_comes_first(mode: SupportMode) -> None:
    result, _ = await ask(mode, "Use about 10 grams of salt per litre of water.")
    assert result["reason"] == "unverified"


def test_strict_refusal_keeps_the_report_for_display() -> None:
    service = AnswerService(PastaRetriever(), FixedProvider(""), support_mode="strict")
    evidence = PastaRetriever().retrieve("")
    outcome = service.judge("q", evidence, ModelAnswer(WITH_INVENTION))
    assert outcome.kind is OutcomeKind.REFUSED and outcome.reason is Reason.UNSUPPORTED
    assert outcome.support is not None
    assert outcome.support.unsupported_sentences == (f"{INVENTED} {CITE}",)
    assert outcome.detail == "1 sentence"
    assert outcome.describe() == (
        "refused: part of the model's answer is not backed by the passage (1 sentence)"
    )


def test_deterministic_answers_carry_no_support_report() -> None:
    service = AnswerService(PastaRetriever(), provider=None, support_mode="strict")
    outcome = service.start("how much salt", Conversation())
    assert isinstance(outcome, Outcome) and outcome.answered
    assert OutcomeRecord.of(outcome).model_dump(mode="json")["support"] is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab 1.!?"“”`\n-*[]:source' + "\u2019")), max_size=80))
def test_any_answer_gets_a_report_whose_sentences_are_substrings(answer: str) -> None:
    report = check_support(answer, PASTA)
    assert report.supported == (not report.unsupported_sentences)
    for sentence in report.unsupported_sentences:
        assert sentence and sentence in answer
    for sentence in split_sentences(answer):
        assert sentence == sentence.strip() and sentence in answer


async def test_an_answer_from_two_passages_is_accepted_with_both_cited_in_order() -> None:
    text = f"{EGG_SENTENCE} {EGG_CITE}. {FAITHFUL}"
    service = AnswerService(PastaRetriever(EGGS), FixedProvider(text), support_mode="strict")

    outcome = await service.ask("salt and eggs?", Conversation())

    assert outcome.kind is OutcomeKind.ANSWERED
    assert outcome.citations == ("kitchen/eggs#boiling", "pasta-water")
    assert outcome.passages == (PASTA, EGGS)
    assert outcome.support is not None and outcome.support.supported
