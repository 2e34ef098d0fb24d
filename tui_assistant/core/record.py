"""The outward record of an outcome: one model for every place an outcome leaves the app.

`OutcomeRecord` is one line of `ask --json`, the MCP `ask` tool's result, and the outcome
a history record keeps; `PassageRef` is a passage as every JSON output names it
(`passages --json`, and the MCP tools' passages with their text added). Every field is
always present (`null` or `[]` when it does not apply). A `Turn` is a record as the
conversation shows it: with what happened in words, and when it was asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tui_assistant.compat import passage_id_fields
from tui_assistant.core.documents.passage import PassageFields, location
from tui_assistant.core.outcome import Outcome, Quote, SupportReport
from tui_assistant.core.service import MAX_QUESTION_CHARS


class PassageRef(BaseModel):
    """A passage as JSON output names it: its id, title and where it stands."""

    id: str = Field(description="the passage id, to cite as [source:ID]")
    title: str
    source_path: str = Field(description="the file, relative to the library's parent folder")
    line: int = Field(description="first line of the passage in the file (1-based)")
    end_line: int = Field(description="last line of the passage in the file (inclusive)")
    # Records written before libraries had names read as "".
    library: str = Field(default="", description="the name of the library it belongs to")
    page: int | None = Field(
        default=None, description="first page (1-based) of a PDF passage; null for other kinds"
    )
    end_page: int | None = Field(
        default=None, description="last page of a PDF passage (inclusive); null for other kinds"
    )
    url: str | None = Field(
        default=None, description="the web page it was read from (a website); null otherwise"
    )

    @classmethod
    def of(cls, passage: PassageFields) -> PassageRef:
        return cls(
            id=passage.id,
            title=passage.title,
            source_path=passage.source_path,
            line=passage.line,
            end_line=passage.end_line,
            library=passage.library,
            page=passage.page,
            end_page=passage.end_page,
            url=passage.url,
        )


class QuoteRef(BaseModel):
    """Words of a passage an answer quotes, with the file lines where they stand."""

    passage_id: str
    text: str = Field(description="the passage's own words")
    line: int
    end_line: int
    page: int | None = Field(default=None, description="the page of `line`, for a PDF")
    end_page: int | None = Field(default=None, description="the page of `end_line`, for a PDF")

    @classmethod
    def of(cls, quote: Quote) -> QuoteRef:
        return cls(
            passage_id=quote.passage_id,
            text=quote.text,
            line=quote.line,
            end_line=quote.end_line,
            page=quote.page,
            end_page=quote.end_page,
        )


class SupportRef(BaseModel):
    """The support check's verdict on a model answer."""

    supported: bool
    unsupported_sentences: list[str]

    @classmethod
    def of(cls, report: SupportReport) -> SupportRef:
        return cls(
            supported=report.supported, unsupported_sentences=list(report.unsupported_sentences)
        )


class OutcomeRecord(BaseModel):
    """What happened to one question, as `ask --json` prints it (one line)."""

    model_config = ConfigDict(frozen=True)

    question: str
    outcome: Literal["answered", "refused", "timed_out", "cancelled"]
    reason: str | None = Field(description="why it was not answered; null when answered")
    retrieval: str | None = Field(description="the retrieval mode: keyword, ranked or hybrid")
    passage_id: str | None = Field(description="the best passage retrieved, if any")
    lesson_id: str | None = Field(description="passage_id under its old name")
    title: str | None
    source_path: str | None
    line: int | None
    end_line: int | None
    # Records written before pages read as null.
    page: int | None = Field(default=None, description="the best passage's first page (PDF)")
    end_page: int | None = Field(default=None, description="the best passage's last page (PDF)")
    url: str | None = Field(default=None, description="the best passage's web page (a website)")
    passages: list[PassageRef] = Field(description="the passages answered from, best first")
    nearest: list[PassageRef] = Field(
        description="a no_evidence or ambiguous refusal's closest passages: places to look"
    )
    answer: str | None = Field(
        description="the checked answer; in deterministic mode the passage text"
    )
    citations: list[str]
    quotes: list[QuoteRef]
    support: SupportRef | None
    elapsed_ms: int
    matched_words: list[str]
    # keyword's score is a whole number of matched-word points, kept as one.
    score: int | float | None
    runner_up_score: int | float | None
    confidence: float | None
    # Records written before these fields read as null.
    chosen_by: Literal["library", "model"] | None = Field(
        default=None,
        description=(
            "who chose the passage answered from: library (retrieval was sure) or model "
            "(the library was not sure; the model's checked answer cites a candidate); "
            "null unless answered"
        ),
    )
    detail: str | None = Field(
        default=None,
        description="why a model answer was refused, in one plain line; null otherwise",
    )

    @classmethod
    def of(cls, outcome: Outcome) -> OutcomeRecord:
        evidence = outcome.evidence
        passage = evidence.passage if evidence else None
        answered = outcome.answered
        return cls(
            question=outcome.question,
            outcome=outcome.kind.value,
            reason=outcome.reason.value if outcome.reason else None,
            retrieval=outcome.retrieval,
            **passage_id_fields(passage.id if passage else None),
            title=passage.title if passage else None,
            source_path=passage.source_path if passage else None,
            line=passage.line if passage else None,
            end_line=passage.end_line if passage else None,
            page=passage.page if passage else None,
            end_page=passage.end_page if passage else None,
            url=passage.url if passage else None,
            passages=[PassageRef.of(shown) for shown in outcome.passages],
            nearest=[PassageRef.of(near) for near in outcome.nearest],
            answer=outcome.answer if answered else None,
            citations=list(outcome.citations) if answered else [],
            quotes=[QuoteRef.of(quote) for quote in outcome.quotes] if answered else [],
            support=SupportRef.of(outcome.support) if outcome.support and answered else None,
            elapsed_ms=outcome.elapsed_ms,
            matched_words=list(evidence.matched_words) if evidence else [],
            score=evidence.score if evidence else None,
            runner_up_score=evidence.runner_up_score if evidence else None,
            confidence=outcome.confidence,
            chosen_by=outcome.chosen_by,
            detail=None if answered else outcome.model_detail,
        )

    @property
    def answered(self) -> bool:
        return self.outcome == "answered" and self.answer is not None

    @property
    def location(self) -> str | None:
        """`lessons/pasta-water.md:1–11`, or the source path alone (records written
        before line ranges), or None."""
        if self.source_path is None:
            return None
        if self.line is None or self.end_line is None:
            return self.source_path
        return location(self.source_path, self.line, self.end_line, self.page, self.end_page)

    @property
    def unsupported_sentences(self) -> tuple[str, ...]:
        return tuple(self.support.unsupported_sentences) if self.support else ()


@dataclass(frozen=True, slots=True)
class Turn:
    """One question of a conversation as it is shown, exported and kept: its outcome's
    record, what happened in words (`Outcome.describe`, as it was then) and when."""

    record: OutcomeRecord
    status: str
    asked_at: str

    @classmethod
    def of(cls, outcome: Outcome, asked_at: str) -> Turn:
        """The turn of a live outcome, as history reads it back: a question longer than
        any answered one is kept to its first `MAX_QUESTION_CHARS` characters."""
        record = OutcomeRecord.of(outcome)
        question = record.question[:MAX_QUESTION_CHARS]
        return cls(record.model_copy(update={"question": question}), outcome.describe(), asked_at)

    @property
    def question(self) -> str:
        return self.record.question
