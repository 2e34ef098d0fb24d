"""Evaluation: parsing a cases file, and the report's numbers on a small fixture."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import memory_library
from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.eval_record import EvalRecord, StyleRecord
from tui_assistant.core.evaluation import (
    EvalCase,
    EvalReport,
    check_expected_passages,
    evaluate,
    parse_cases,
)
from tui_assistant.core.library.library import Library
from tui_assistant.core.outcome import Reason
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.service import AnswerService, SupportMode
from tui_assistant.errors import CasesError, ProviderFailure

FIXTURE_LESSONS = {
    "tea-brewing": (
        "Brewing tea",
        "Steep black tea leaves in boiling water for four minutes. Green tea wants cooler water.",
    ),
    "rice-cooking": (
        "Cooking rice",
        "Rinse the rice until the water runs clear, then simmer it with a lid on.",
    ),
    "bread-baking": (
        "Baking bread",
        "Knead the dough, let it rise, and bake in a hot oven until the crust is brown.",
    ),
}

# Expected outcomes follow from the keyword rule (title 2, body 1, two distinct words):
FIXTURE_CASES = [
    {
        "question": "How long should I steep tea?",
        "expect_passage": "tea-brewing",
        "kind": "expected",
    },
    {"question": "How do I rinse rice?", "expect_passage": "rice-cooking", "kind": "expected"},
    {"question": "How do I bake bread?", "expect_passage": "bread-baking", "kind": "expected"},
    # tea: water 1 + green 1 + tea 2; rice has only "water".
    {"question": "What water for green tea?", "expect_passage": "tea-brewing", "kind": "expected"},
    # Misleading: "boiling" and "water" make tea-brewing win; it does not answer this.
    {
        "question": "Does boiling water kill bread yeast?",
        "expect_passage": None,
        "kind": "misleading",
    },
    # No shared word at all: retrieval refuses though a passage is about it.
    {
        "question": "How do I make sourdough loaves?",
        "expect_passage": "bread-baking",
        "kind": "expected",
    },
    {"question": "What is the capital of France?", "expect_passage": None, "kind": "unanswerable"},
    {"question": "How long to simmer rice with a lid?", "expect_passage": "rice-cooking"},
]


def jsonl(rows: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(row) + "\n" for row in rows]


@pytest.fixture
def fixture_library(make_library: Callable[[Mapping[str, tuple[str, str]]], Path]) -> Library:
    return memory_library(make_library(FIXTURE_LESSONS))


def eval_json(report: EvalReport) -> dict[str, Any]:
    """The report as `eval --json` prints it."""
    return EvalRecord.of(report, "keyword", "deterministic").model_dump(mode="json")


def service_for(
    library: Library, provider: Any = None, mode: SupportMode = "warn"
) -> AnswerService:
    return AnswerService(KeywordRetriever(library), provider, mode)


async def test_report_numbers_on_the_fixture(fixture_library: Library) -> None:
    report = await evaluate(parse_cases(jsonl(FIXTURE_CASES)), service_for(fixture_library))
    data = eval_json(report)
    # One style of question: its figures are the whole report's.
    figures = [key for key in StyleRecord.model_fields if key != "cases"]
    assert data.pop("by_style") == {"tidy": {"cases": 8, **{key: data[key] for key in figures}}}
    assert data.pop("unanswerable_offered") == 0.0
    assert data == {
        "cases": 8,
        "correct": 6,
        "accuracy": 0.75,
        "by_kind": {
            "expected": {"cases": 5, "correct": 4},
            "misleading": {"cases": 1, "correct": 0},
            "unanswerable": {"cases": 1, "correct": 1},
            "unspecified": {"cases": 1, "correct": 1},
        },
        "precision": 5 / 6,
        "on_screen": 5 / 6,
        "unanswerable_answered": 0.5,
        "coverage": 5 / 6,
        "first_right": 5 / 6,
        "called_nothing_first_right": 0.0,
        "answerable": {"cases": 6, "correct": 5, "accuracy": 5 / 6},
        "refusals": {"cases": 2, "correct": 1, "accuracy": 0.5},
        "failures": [
            {
                "question": "Does boiling water kill bread yeast?",
                "expected": None,
                "got": "tea-brewing",
                "kind": "misleading",
                "line": 5,
            },
            {
                "question": "How do I make sourdough loaves?",
                "expected": "bread-baking",
                "got": None,
                "kind": "expected",
                "line": 6,
            },
        ],
        "model": None,
        "retrieval": "keyword",
        "mode": "deterministic",
    }


TWIN_LESSONS = {
    "tea-black": ("Tea", "Steep the leaves in hot water for four minutes."),
    "tea-green": ("Tea", "Steep the leaves in hot water for two minutes."),
    "rice-cooking": ("Cooking rice", "Rinse the rice, then simmer it with a lid on."),
}


async def test_a_refusal_listing_the_expected_passage_counts_as_on_screen_not_answered(
    make_library: Callable[[Mapping[str, tuple[str, str]]], Path],
) -> None:
    # "steep tea leaves" ties the two tea passages: refused, both listed as nearest.
    cases = [
        {"question": "How do I steep tea leaves?", "expect_passage": "tea-green"},
        {"question": "How do I simmer rice with a lid?", "expect_passage": "rice-cooking"},
        {"question": "How do I cook rice in a pan?", "expect_passage": "tea-black"},
        {"question": "Which rice should I rinse?", "expect_passage": None},
        {"question": "What is the capital of France?", "expect_passage": None},
    ]
    library = memory_library(make_library(TWIN_LESSONS))
    report = await evaluate(parse_cases(jsonl(cases)), service_for(library))
    tie, simmer, wrong, misleading, unknown = report.results
    assert tie.got is None and tie.on_screen and not tie.correct
    assert simmer.correct and simmer.on_screen
    assert wrong.got == "rice-cooking" and not wrong.on_screen
    assert misleading.got == "rice-cooking" and unknown.got is None
    data = eval_json(report)
    # Answered: simmer (right), wrong and misleading (both rice-cooking, not expected).
    assert data["precision"] == pytest.approx(1 / 3)
    assert data["on_screen"] == pytest.approx(2 / 3)
    assert data["unanswerable_answered"] == pytest.approx(1 / 2)
    assert data["coverage"] == pytest.approx(1 / 3)


async def test_first_right_counts_an_ambiguous_refusals_first_candidate_and_the_answer(
    make_library: Callable[[Mapping[str, tuple[str, str]]], Path],
) -> None:
    library = memory_library(make_library(TWIN_LESSONS))
    cases = [
        # ranked cannot tell the two tea passages apart: ambiguous, both candidates.
        {"question": "How do I steep tea leaves in hot water?", "expect_passage": "tea-black"},
        {"question": "How do I steep tea leaves in hot water?", "expect_passage": "tea-green"},
        {"question": "How do I simmer rice with a lid?", "expect_passage": "rice-cooking"},
        {"question": "What is the capital of France?", "expect_passage": None},
    ]
    service = AnswerService(RankedRetriever(library))
    report = await evaluate(parse_cases(jsonl(cases)), service)
    first, second, rice, unknown = report.results
    assert first.outcome.reason is Reason.AMBIGUOUS
    shown = first.outcome.nearest[0].id
    assert first.first_shown == second.first_shown == shown
    # Exactly one of the two tea cases has its passage shown first.
    assert [first.first_right, second.first_right].count(True) == 1
    assert rice.first_shown == "rice-cooking" and rice.first_right
    assert not unknown.first_right
    assert eval_json(report)["first_right"] == pytest.approx(2 / 3)


async def test_a_no_evidence_refusal_shows_no_first_passage(fixture_library: Library) -> None:
    cases = [{"question": "What is the capital of France?", "expect_passage": "tea-brewing"}]
    report = await evaluate(parse_cases(jsonl(cases)), service_for(fixture_library))
    assert report.results[0].first_shown is None
    assert report.first_right == 0.0


async def test_called_nothing_first_right_counts_a_refusal_whose_first_place_is_the_answer(
    fixture_library: Library,
) -> None:
    # One shared word is too few for keyword: refused, tea-brewing first to look at.
    cases = [
        {"question": "Is green any good?", "expect_passage": "tea-brewing"},
        {"question": "Is green any good?", "expect_passage": "rice-cooking"},
        {"question": "Is green any good?", "expect_passage": None},
        {"question": "How long to simmer rice with a lid?", "expect_passage": "rice-cooking"},
    ]
    report = await evaluate(parse_cases(jsonl(cases)), service_for(fixture_library))
    right, wrong, unanswerable, answered = report.results
    assert right.outcome.reason is Reason.NO_EVIDENCE
    assert right.outcome.nearest[0].id == "tea-brewing"
    assert right.called_nothing_first_right
    assert not wrong.called_nothing_first_right
    assert not unanswerable.called_nothing_first_right
    assert not answered.called_nothing_first_right
    assert eval_json(report)["called_nothing_first_right"] == pytest.approx(1 / 3)


def test_a_case_may_say_how_its_question_is_phrased() -> None:
    rows = [
        {"question": "How do I rinse rice?", "expect_passage": "rice-cooking"},
        {
            "question": "hey so how do u rinse rice",
            "expect_passage": "rice-cooking",
            "style": "real",
        },
    ]
    tidy, real = parse_cases(jsonl(rows))
    assert (tidy.style, real.style) == ("tidy", "real")
    with pytest.raises(CasesError, match=r'line 1.*"style"'):
        parse_cases(jsonl([{**rows[0], "style": "messy"}]))


async def test_precision_is_one_when_nothing_is_answered(fixture_library: Library) -> None:
    cases = [{"question": "What is the capital of France?", "expect_passage": None}]
    report = await evaluate(parse_cases(jsonl(cases)), service_for(fixture_library))
    assert report.precision == 1.0 and report.unanswerable_answered == 0.0


class ScriptedProvider:
    """An AnswerProvider whose reply to each question is scripted: a text or an exception."""

    def __init__(self, script: Mapping[str, str | Exception]) -> None:
        self.script = script
        self.calls: list[tuple[str, str]] = []

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        self.calls.append((question, passages[0].id))
        reply = self.script[question]
        if isinstance(reply, Exception):
            raise reply
        return ModelAnswer(reply)


def scripted_provider() -> ScriptedProvider:
    return ScriptedProvider(
        {
            "How long should I steep tea?": (
                "Steep black tea leaves in boiling water for four minutes [source:tea-brewing]."
            ),
            "How do I rinse rice?": "Rinse it until the water runs clear.",  # no citation
            "How do I bake bread?": (
                "Bake in a hot oven until the crust is brown [source:bread-baking]. "
                "Brush the loaf with beaten egg for a glossy finish [source:bread-baking]."
            ),
            "What water for green tea?": ProviderFailure(Reason.PROVIDER_ERROR, "HTTP 500"),
            "Does boiling water kill bread yeast?": TimeoutError(),
            "How long to simmer rice with a lid?": (
                "Simmer the rice with a lid on [source:rice-cooking]."
            ),
        }
    )


@pytest.mark.parametrize(
    ("mode", "accepted", "flagged"),
    [("warn", 3, 1), ("strict", 2, 1), ("off", 3, 0)],
)
async def test_model_mode_counts_what_the_model_did(
    fixture_library: Library, mode: SupportMode, accepted: int, flagged: int
) -> None:
    provider = scripted_provider()
    report = await evaluate(
        parse_cases(jsonl(FIXTURE_CASES)), service_for(fixture_library, provider, mode)
    )
    data = eval_json(report)
    # The model is asked for every case whose retrieval found a passage, with that passage.
    assert provider.calls == [
        ("How long should I steep tea?", "tea-brewing"),
        ("How do I rinse rice?", "rice-cooking"),
        ("How do I bake bread?", "bread-baking"),
        ("What water for green tea?", "tea-brewing"),
        ("Does boiling water kill bread yeast?", "tea-brewing"),
        ("How long to simmer rice with a lid?", "rice-cooking"),
    ]
    assert data["model"] == {
        "asked": 6,
        "accepted": accepted,
        "refused_unverified": 1,
        "flagged_by_support": flagged,
        "other": {"provider_error": 1, "timeout": 1},
    }
    # Correctness is about retrieval, whatever the model then did.
    assert (data["cases"], data["correct"], len(data["failures"])) == (8, 6, 2)


async def test_each_case_is_its_own_conversation(fixture_library: Library) -> None:
    cases = parse_cases(
        jsonl(
            [
                {"question": "How do I bake bread?", "expect_passage": "bread-baking"},
                # In a shared conversation this would repeat the bread answer.
                {"question": "repeat that", "expect_passage": None},
            ]
        )
    )
    report = await evaluate(cases, service_for(fixture_library))
    assert [result.got for result in report.results] == ["bread-baking", None]
    assert report.results[1].outcome.reason is Reason.NO_EVIDENCE


def test_parse_cases_reads_fields_skips_blank_lines_and_ignores_extra_keys() -> None:
    lines = [
        '{"question": " How do I bake bread? ", "expect_passage": "bread-baking", '
        '"kind": "expected"}\n',
        "\n",
        "   \n",
        '{"question": "Capital of France?", "expect_passage": null, "note": "off topic"}\n',
    ]
    assert parse_cases(lines) == [
        EvalCase(1, "How do I bake bread?", "bread-baking", "expected"),
        EvalCase(4, "Capital of France?", None, "unspecified"),
    ]


def test_the_old_key_expect_lesson_reads_the_same_as_expect_passage() -> None:
    old = ['{"question": "How do I bake bread?", "expect_lesson": "bread-baking"}\n']
    new = ['{"question": "How do I bake bread?", "expect_passage": "bread-baking"}\n']
    assert parse_cases(old) == parse_cases(new)
    assert parse_cases(old)[0].expect_passage == "bread-baking"
    refusal = parse_cases(['{"question": "Capital of France?", "expect_lesson": null}'])
    assert refusal[0].expect_passage is None
    with pytest.raises(CasesError, match='"expect_lesson" must be a passage id'):
        parse_cases(['{"question": "q", "expect_lesson": 3}'])


GOOD = '{"question": "q", "expect_passage": null}'


@pytest.mark.parametrize(
    ("bad_line", "problem"),
    [
        ('{"question": "q", "expect_passage": null', "not valid JSON"),
        ('["question", "q"]', "expected a JSON object"),
        ('{"expect_passage": "tea-brewing"}', 'missing "question"'),
        ('{"question": "", "expect_passage": null}', '"question" must be a non-empty string'),
        ('{"question": 42, "expect_passage": null}', '"question" must be a non-empty string'),
        ('{"question": "q"}', 'missing "expect_passage"'),
        ('{"question": "q", "expect_passage": 3}', '"expect_passage" must be a passage id'),
        ('{"question": "q", "expect_passage": ["tea"]}', '"expect_passage" must be a passage id'),
        ('{"question": "q", "expect_passage": null, "kind": 7}', '"kind" must be'),
    ],
)
def test_malformed_line_is_reported_with_its_line_number(bad_line: str, problem: str) -> None:
    with pytest.raises(CasesError) as raised:
        parse_cases([GOOD, "", bad_line, GOOD])
    assert raised.value.line_number == 3
    assert str(raised.value).startswith("line 3: ")
    assert problem in str(raised.value)


def test_a_file_without_cases_is_an_error() -> None:
    with pytest.raises(CasesError, match="no cases"):
        parse_cases(["\n", "  \n"])


def test_expected_passage_missing_from_the_library_is_reported_by_line() -> None:
    cases = parse_cases(
        [
            '{"question": "a", "expect_passage": "tea-brewing"}',
            '{"question": "b", "expect_passage": null}',
            '{"question": "c", "expect_passage": "tea-brewnig"}',
        ]
    )
    with pytest.raises(CasesError) as raised:
        check_expected_passages(cases, ["tea-brewing", "rice-cooking"])
    assert raised.value.line_number == 3
    assert "tea-brewnig" in str(raised.value)


async def test_progress_is_reported_after_each_case(fixture_library: Library) -> None:
    seen: list[tuple[int, int]] = []
    cases = parse_cases(jsonl(FIXTURE_CASES[:3]))
    await evaluate(
        cases, service_for(fixture_library), lambda done, total: seen.append((done, total))
    )
    assert seen == [(1, 3), (2, 3), (3, 3)]


async def test_the_report_splits_by_question_style(fixture_library: Library) -> None:
    rows = [
        {"question": "How do I rinse rice?", "expect_passage": "rice-cooking"},
        {"question": "hey how do i rinse rice", "expect_passage": "rice-cooking", "style": "real"},
        {"question": "How do I bake bread?", "expect_passage": "bread-baking"},
    ]
    report = await evaluate(parse_cases(jsonl(rows)), service_for(fixture_library))
    styles = report.by_style()
    assert list(styles) == ["tidy", "real"]
    assert styles["tidy"].total.cases == 2 and styles["real"].total.cases == 1


async def test_each_question_style_is_reported_apart_with_the_unanswerable_offered(
    make_library: Callable[[Mapping[str, tuple[str, str]]], Path],
) -> None:
    library = memory_library(make_library(TWIN_LESSONS))
    cases = [
        {"question": "How do I simmer rice with a lid?", "expect_passage": "rice-cooking"},
        # ranked cannot tell the two tea passages apart: not sure, both offered.
        {
            "question": "hey so how do i steep tea leaves in hot water thanks",
            "expect_passage": None,
            "style": "real",
        },
        {"question": "What is the capital of France?", "expect_passage": None, "style": "real"},
    ]
    service = AnswerService(RankedRetriever(library))
    report = await evaluate(parse_cases(jsonl(cases)), service)
    assert report.results[1].outcome.reason is Reason.AMBIGUOUS
    data = eval_json(report)
    assert data["unanswerable_offered"] == pytest.approx(1 / 2)
    assert list(data["by_style"]) == ["tidy", "real"]
    tidy, real = data["by_style"]["tidy"], data["by_style"]["real"]
    assert (tidy["cases"], tidy["coverage"], tidy["unanswerable_offered"]) == (1, 1.0, 0.0)
    assert (real["cases"], real["unanswerable_offered"], real["unanswerable_answered"]) == (
        2,
        0.5,
        0.0,
    )
