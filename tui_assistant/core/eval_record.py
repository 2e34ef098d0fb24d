"""The `eval --json` object: the pydantic records of an `EvalReport` (its figures, per
kind and per question style, its failures and what a model did)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tui_assistant.core.evaluation import EvalReport, Tally


class KindTally(BaseModel):
    cases: int
    correct: int


class TallyRecord(KindTally):
    accuracy: float = Field(description="correct / cases; 0.0 when there are no cases")

    @classmethod
    def of(cls, tally: Tally) -> TallyRecord:
        return cls(cases=tally.cases, correct=tally.correct, accuracy=tally.accuracy)


class FailureRecord(BaseModel):
    question: str
    expected: str | None = Field(description="the passage id expected; null for a refusal")
    got: str | None = Field(description="the passage id retrieved; null when none was")
    kind: str
    line: int = Field(description="the case's line in the cases file (1-based)")


class ModelCountsRecord(BaseModel):
    """What the model did with the cases whose passage was sent to it."""

    asked: int
    accepted: int = Field(description="answers accepted, those with flagged sentences included")
    refused_unverified: int
    flagged_by_support: int = Field(
        description="accepted answers with sentences the passage does not back, and answers "
        "refused as unsupported"
    )
    other: dict[str, int] = Field(description="the other refusals, by reason")


class StyleRecord(BaseModel):
    """The figures of one question style's cases (`style` in the cases file)."""

    cases: int
    precision: float
    on_screen: float
    unanswerable_answered: float
    unanswerable_offered: float
    coverage: float
    first_right: float
    called_nothing_first_right: float

    @classmethod
    def of(cls, report: EvalReport) -> StyleRecord:
        return cls(
            cases=report.total.cases,
            precision=report.precision,
            on_screen=report.on_screen,
            unanswerable_answered=report.unanswerable_answered,
            unanswerable_offered=report.unanswerable_offered,
            coverage=report.coverage,
            first_right=report.first_right,
            called_nothing_first_right=report.called_nothing_first_right,
        )


class EvalRecord(BaseModel):
    """The `eval --json` object; `model` is null unless a model answered."""

    cases: int
    correct: int
    accuracy: float
    by_kind: dict[str, KindTally]
    precision: float = Field(
        description="cases answered with the expected passage / cases answered (1.0 when none)"
    )
    on_screen: float = Field(
        description="answerable cases whose expected passage is the answer's or a refusal's "
        "nearest / answerable cases"
    )
    unanswerable_answered: float = Field(
        description="cases expecting no passage that got one / cases expecting no passage"
    )
    unanswerable_offered: float = Field(
        description="cases expecting no passage offered possible passages (not sure) / cases "
        "expecting no passage"
    )
    coverage: float = Field(
        description="answerable cases answered with the expected passage / answerable cases"
    )
    first_right: float = Field(
        description="answerable cases whose first passage shown is the expected one / "
        "answerable cases"
    )
    called_nothing_first_right: float = Field(
        description="answerable cases refused no_evidence whose first nearest passage is the "
        "expected one / answerable cases"
    )
    by_style: dict[str, StyleRecord] = Field(
        description="the same figures per question style (`tidy` unless a case says `real`)"
    )
    answerable: TallyRecord = Field(description="the cases that expect a passage")
    refusals: TallyRecord = Field(description="the cases that expect no passage")
    failures: list[FailureRecord]
    model: ModelCountsRecord | None
    retrieval: str = Field(description="the retrieval mode that ran")
    mode: str = Field(description="`deterministic`, or the model and the provider's host")

    @classmethod
    def of(cls, report: EvalReport, retrieval: str, mode: str) -> EvalRecord:
        total, model = report.total, report.model
        return cls(
            cases=total.cases,
            correct=total.correct,
            accuracy=total.accuracy,
            by_kind={
                kind: KindTally(cases=tally.cases, correct=tally.correct)
                for kind, tally in report.by_kind.items()
            },
            precision=report.precision,
            on_screen=report.on_screen,
            unanswerable_answered=report.unanswerable_answered,
            unanswerable_offered=report.unanswerable_offered,
            coverage=report.coverage,
            first_right=report.first_right,
            called_nothing_first_right=report.called_nothing_first_right,
            by_style={style: StyleRecord.of(part) for style, part in report.by_style().items()},
            answerable=TallyRecord.of(report.answerable),
            refusals=TallyRecord.of(report.refusals),
            failures=[
                FailureRecord(
                    question=failure.case.question,
                    expected=failure.case.expect_passage,
                    got=failure.got,
                    kind=failure.case.kind,
                    line=failure.case.line_number,
                )
                for failure in report.failures
            ],
            model=None
            if model is None
            else ModelCountsRecord(
                asked=model.asked,
                accepted=model.accepted,
                refused_unverified=model.refused_unverified,
                flagged_by_support=model.flagged_by_support,
                other=dict(model.other),
            ),
            retrieval=retrieval,
            mode=mode,
        )
