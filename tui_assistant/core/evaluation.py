"""Retrieval evaluation: run a file of cases through the service and count what it got right.

Every case goes through `AnswerService.ask`, the same call `tui-assistant ask` makes,
each in a fresh conversation, so `eval` and `ask` cannot disagree about a question. A
case is correct when the passage retrieved is the one expected, or when no passage was
expected and retrieval found none; what a model then did with the passage does not
change that, and is counted separately (`ModelCounts`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from tui_assistant.compat import expect_key
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.outcome import Outcome, Reason
from tui_assistant.core.service import AnswerService
from tui_assistant.errors import CasesError

UNSPECIFIED_KIND = "unspecified"
# How a case's question is phrased: `tidy` (as documentation phrases it) or `real` (as
# people type it: long, chatty, typos, a pasted error). A case without `style` is tidy.
TIDY_STYLE = "tidy"
STYLES = (TIDY_STYLE, "real")


@dataclass(frozen=True, slots=True)
class EvalCase:
    line_number: int
    question: str
    expect_passage: str | None
    kind: str = UNSPECIFIED_KIND
    style: str = TIDY_STYLE


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: EvalCase
    outcome: Outcome

    @property
    def got(self) -> str | None:
        """The retrieved passage id, or None when retrieval found no passage."""
        evidence = self.outcome.evidence
        return evidence.passage.id if evidence is not None else None

    @property
    def correct(self) -> bool:
        return self.got == self.case.expect_passage

    @property
    def on_screen(self) -> bool:
        """The expected passage is the one answered from, or one of a refusal's
        candidates or nearest passages: the user sees it without searching."""
        expected = self.case.expect_passage
        if expected is None:
            return False
        return self.got == expected or any(p.id == expected for p in self.outcome.nearest)

    @property
    def first_shown(self) -> str | None:
        """The passage a person sees first: the answer's, or an ambiguous refusal's
        first candidate; None for any other refusal."""
        if self.got is not None:
            return self.got
        if self.outcome.reason is Reason.AMBIGUOUS and self.outcome.nearest:
            return self.outcome.nearest[0].id
        return None

    @property
    def first_right(self) -> bool:
        """An answerable case whose first passage shown is the expected one."""
        expected = self.case.expect_passage
        return expected is not None and self.first_shown == expected

    @property
    def offered(self) -> bool:
        """Refused as not sure, with possible passages offered (the first shown at once)."""
        return self.outcome.reason is Reason.AMBIGUOUS and bool(self.outcome.nearest)

    @property
    def called_nothing_first_right(self) -> bool:
        """An answerable case refused `no_evidence` although the first of its nearest
        passages is the expected one: "nothing" said above the answer."""
        expected = self.case.expect_passage
        outcome = self.outcome
        return (
            expected is not None
            and outcome.reason is Reason.NO_EVIDENCE
            and bool(outcome.nearest)
            and outcome.nearest[0].id == expected
        )


@dataclass(frozen=True, slots=True)
class Tally:
    cases: int = 0
    correct: int = 0

    def add(self, correct: bool) -> Tally:
        return Tally(self.cases + 1, self.correct + int(correct))

    @property
    def accuracy(self) -> float:
        return self.correct / self.cases if self.cases else 0.0


@dataclass(frozen=True, slots=True)
class ModelCounts:
    """What the model did with the cases whose passage was sent to it.

    `accepted` includes answers accepted with flagged sentences (support check `warn`);
    `flagged_by_support` counts those plus answers refused as `unsupported` (`strict`).
    """

    asked: int = 0
    accepted: int = 0
    refused_unverified: int = 0
    flagged_by_support: int = 0
    other: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EvalReport:
    results: tuple[CaseResult, ...]
    model: ModelCounts | None = None

    @property
    def total(self) -> Tally:
        return _tally(self.results)

    @property
    def by_kind(self) -> dict[str, Tally]:
        kinds = dict.fromkeys(result.case.kind for result in self.results)
        return {
            kind: _tally(result for result in self.results if result.case.kind == kind)
            for kind in kinds
        }

    @property
    def answerable(self) -> Tally:
        """Cases that expect a passage: how often that passage was retrieved."""
        return _tally(r for r in self.results if r.case.expect_passage is not None)

    @property
    def refusals(self) -> Tally:
        """Cases that expect no passage: how often retrieval correctly found none."""
        return _tally(r for r in self.results if r.case.expect_passage is None)

    @property
    def precision(self) -> float:
        """Cases answered with the expected passage / cases answered (retrieval found a
        passage); 1.0 when none was answered, since no wrong passage was shown."""
        answered = [r for r in self.results if r.got is not None]
        return _share(sum(r.correct for r in answered), len(answered), empty=1.0)

    @property
    def on_screen(self) -> float:
        """Answerable cases whose expected passage is on screen / answerable cases."""
        answerable = [r for r in self.results if r.case.expect_passage is not None]
        return _share(sum(r.on_screen for r in answerable), len(answerable))

    @property
    def unanswerable_answered(self) -> float:
        """Cases expecting no passage that got one / cases expecting no passage."""
        unanswerable = [r for r in self.results if r.case.expect_passage is None]
        return _share(sum(r.got is not None for r in unanswerable), len(unanswerable))

    @property
    def unanswerable_offered(self) -> float:
        """Cases expecting no passage that were offered possible passages (not sure) /
        cases expecting no passage."""
        unanswerable = [r for r in self.results if r.case.expect_passage is None]
        return _share(sum(r.offered for r in unanswerable), len(unanswerable))

    @property
    def coverage(self) -> float:
        """Answerable cases answered with the expected passage / answerable cases."""
        answerable = self.answerable
        return _share(answerable.correct, answerable.cases)

    @property
    def first_right(self) -> float:
        """Answerable cases whose first passage shown is the expected one / answerable
        cases: what a person reads first is right, sure or not."""
        answerable = [r for r in self.results if r.case.expect_passage is not None]
        return _share(sum(r.first_right for r in answerable), len(answerable))

    @property
    def called_nothing_first_right(self) -> float:
        """Answerable cases refused `no_evidence` whose first nearest passage is the
        expected one / answerable cases."""
        answerable = [r for r in self.results if r.case.expect_passage is not None]
        return _share(sum(r.called_nothing_first_right for r in answerable), len(answerable))

    def by_style(self) -> dict[str, EvalReport]:
        """The report of each question style's cases, in the order styles first occur."""
        styles = dict.fromkeys(result.case.style for result in self.results)
        return {
            style: EvalReport(tuple(r for r in self.results if r.case.style == style))
            for style in styles
        }

    @property
    def failures(self) -> list[CaseResult]:
        return [result for result in self.results if not result.correct]


def _tally(results: Iterable[CaseResult]) -> Tally:
    tally = Tally()
    for result in results:
        tally = tally.add(result.correct)
    return tally


def _share(part: int, whole: int, empty: float = 0.0) -> float:
    return part / whole if whole else empty


def parse_cases(lines: Iterable[str]) -> list[EvalCase]:
    """Parse JSON-lines cases; blank lines are skipped.

    Each line is an object with `question` (non-empty string), `expect_passage` (a
    passage id or null; required, so a forgotten key is not silently read as "expect a
    refusal"; `expect_lesson` is its old name) and optionally `kind` (string) and
    `style` (`tidy` or `real`: how the question is phrased; tidy when absent). Other
    keys are ignored, so a case can carry a note. Raises `CasesError` naming the first
    bad line; an empty file is an error too.
    """
    cases: list[EvalCase] = []
    for line_number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        cases.append(_parse_case(line_number, line))
    if not cases:
        raise CasesError(1, "the file has no cases")
    return cases


def _parse_case(line_number: int, line: str) -> EvalCase:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise CasesError(line_number, f"not valid JSON ({error.msg})") from None
    if not isinstance(data, dict):
        raise CasesError(line_number, "expected a JSON object")
    question = data.get("question")
    if "question" not in data:
        raise CasesError(line_number, 'missing "question"')
    if not isinstance(question, str) or not question.strip():
        raise CasesError(line_number, '"question" must be a non-empty string')
    key = expect_key(data)
    if key is None:
        raise CasesError(line_number, 'missing "expect_passage" (a passage id, or null)')
    expect = data[key]
    if expect is not None and (not isinstance(expect, str) or not expect.strip()):
        raise CasesError(line_number, f'"{key}" must be a passage id string or null')
    kind = data.get("kind")
    if kind is not None and (not isinstance(kind, str) or not kind.strip()):
        raise CasesError(line_number, '"kind" must be a non-empty string')
    style = data.get("style", TIDY_STYLE)
    if style not in STYLES:
        raise CasesError(line_number, '"style" must be "tidy" or "real"')
    return EvalCase(
        line_number=line_number,
        question=question.strip(),
        expect_passage=expect,
        kind=kind.strip() if kind is not None else UNSPECIFIED_KIND,
        style=style,
    )


def check_expected_passages(cases: Sequence[EvalCase], passage_ids: Iterable[str]) -> None:
    """Raise `CasesError` for the first case expecting a passage the library lacks:
    such a case could never be correct, and is almost always a typo."""
    known = set(passage_ids)
    for case in cases:
        if case.expect_passage is not None and case.expect_passage not in known:
            raise CasesError(
                case.line_number, f'"expect_passage" {case.expect_passage!r} is not in the library'
            )


async def evaluate(
    cases: Sequence[EvalCase],
    service: AnswerService,
    on_case_done: Callable[[int, int], None] | None = None,
) -> EvalReport:
    """Run each case through `service.ask` in its own conversation, one after another.

    `on_case_done(done, total)` lets a caller show progress; model calls can take a while.
    """
    results: list[CaseResult] = []
    for case in cases:
        outcome = await service.ask(case.question, Conversation())
        results.append(CaseResult(case, outcome))
        if on_case_done is not None:
            on_case_done(len(results), len(cases))
    model = count_model_outcomes(results) if service.provider is not None else None
    return EvalReport(results=tuple(results), model=model)


def count_model_outcomes(results: Iterable[CaseResult]) -> ModelCounts:
    """Counts over the cases whose passage went to the model (retrieval found one)."""
    asked = accepted = unverified = flagged = 0
    other: Counter[str] = Counter()
    for result in results:
        outcome = result.outcome
        if outcome.evidence is None:
            continue  # refused before any model call
        asked += 1
        if outcome.answered:
            accepted += 1
            if outcome.support is not None and not outcome.support.supported:
                flagged += 1
        elif outcome.reason is Reason.UNVERIFIED:
            unverified += 1
        elif outcome.reason is Reason.UNSUPPORTED:
            flagged += 1
        else:
            other[outcome.reason.value if outcome.reason else outcome.kind.value] += 1
    return ModelCounts(
        asked=asked,
        accepted=accepted,
        refused_unverified=unverified,
        flagged_by_support=flagged,
        other=dict(sorted(other.items())),
    )
