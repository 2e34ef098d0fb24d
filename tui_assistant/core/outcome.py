"""Outcomes as data: what happened to one question, shared by the CLI and the TUI.

What leaves the app of an outcome (`ask --json`, MCP, history) is its `record.OutcomeRecord`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Literal

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.retrieval.types import Evidence, Mode, NoEvidence


class OutcomeKind(StrEnum):
    ANSWERED = "answered"
    REFUSED = "refused"
    TIMED_OUT = "timed_out"
    CANCELLED = "cancelled"


class Reason(StrEnum):
    NO_EVIDENCE = "no_evidence"
    AMBIGUOUS = "ambiguous"
    TOO_LONG = "too_long"
    UNVERIFIED = "unverified"
    PROVIDER_ERROR = "provider_error"
    MISSING_API_KEY = "missing_api_key"
    QUOTA_EXHAUSTED = "quota_exhausted"
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"
    UNSUPPORTED = "unsupported"


_REASON_WORDS: dict[Reason, str] = {
    Reason.NO_EVIDENCE: "no passage matched this question",
    Reason.AMBIGUOUS: "several passages might answer this",
    Reason.TOO_LONG: "the question is over 4,000 characters",
    Reason.UNVERIFIED: "the model's answer failed the citation check",
    Reason.PROVIDER_ERROR: "the provider did not return a usable answer",
    Reason.MISSING_API_KEY: "no API key is set (TUI_ASSISTANT_API_KEY)",
    Reason.QUOTA_EXHAUSTED: "the monthly call limit is used up",
    Reason.TIMEOUT: "the provider did not answer in time",
    Reason.CANCELLED: "you cancelled the request",
    Reason.UNSUPPORTED: "part of the model's answer is not backed by the passage",
}


# Who chose the passage an answer stands on: retrieval, sure of it; or the model, among
# candidates retrieval was not sure of (`Outcome.chosen_by`).
ChosenBy = Literal["library", "model"]


def model_choice_words(count: int) -> str:
    """An answer the model chose among `count` passages the library was not sure of:
    `answered by the model from 3 possible passages`."""
    return f"answered by the model from {count} possible passage{'s' * (count != 1)}"


def describe_reason(reason: Reason) -> str:
    """The reason in plain words, for status bars and readable output."""
    return _REASON_WORDS[reason]


@dataclass(frozen=True, slots=True)
class SupportReport:
    """Result of the sentence-level support check of a model answer."""

    supported: bool
    unsupported_sentences: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Quote:
    """Words of a passage that a model answer quotes, checked to stand in that passage,
    with the lines of the file where they stand."""

    passage_id: str
    text: str
    line: int
    end_line: int
    # The pages those lines stand on, for a PDF passage.
    page: int | None = None
    end_page: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of one question: answered with checked text, or why not.

    `detail` adds specifics to the reason in plain words (an HTTP status, the deadline
    in seconds, why retrieval refused); it never carries provider text or secrets.
    `passages` are the ones answered from: the passage shown in deterministic mode, the
    passages sent in model mode. `nearest` are a `no_evidence` refusal's places to look.
    `from_model`: the answer is a model's, checked; else it is the passage's own text
    (deterministic mode). `model_detail`: why a model's answer was refused or never came
    (the provider's failure, the check that failed, the deadline), in the app's own plain
    words on one line; None when there was no such refusal. `read_words`: a refusal's
    question keys as retrieval read them (`NoEvidence.read_words`).
    """

    question: str
    kind: OutcomeKind
    reason: Reason | None = None
    evidence: Evidence | None = None
    answer: str | None = None
    citations: tuple[str, ...] = ()
    support: SupportReport | None = None
    elapsed_ms: int = 0
    detail: str | None = None
    retrieval: Mode | None = None
    passages: tuple[Passage, ...] = ()
    nearest: tuple[Passage, ...] = ()
    quotes: tuple[Quote, ...] = ()
    confidence: float | None = None
    from_model: bool = False
    model_detail: str | None = None
    read_words: tuple[str, ...] = ()

    @property
    def answered(self) -> bool:
        return self.kind is OutcomeKind.ANSWERED

    @property
    def chosen_by(self) -> ChosenBy | None:
        """Who chose the passage answered from: `library` when retrieval was sure of it,
        `model` when the library was not sure and the model's checked answer cites one
        of the candidates; None unless answered."""
        if not self.answered:
            return None
        return "model" if self.evidence is not None and self.evidence.model_picks else "library"

    def answered_words(self) -> str:
        """`answered`, or when the library was not sure, whose choice the passage is:
        `answered by the model from 3 possible passages`."""
        return model_choice_words(len(self.passages)) if self.chosen_by == "model" else "answered"

    def describe(self) -> str:
        """What happened, on one line: `answered`, `not sure: 3 possible passages, best
        first`, `refused: <why>`, `timed out`, ... (the screen says which keys open what)."""
        if self.kind is OutcomeKind.ANSWERED:
            said = self.answered_words()
            flagged = len(self.support.unsupported_sentences) if self.support else 0
            if flagged:
                # warn mode: shown, but the reader should know part of it is not backed.
                sentences = "sentence" if flagged == 1 else "sentences"
                return f"{said}: {flagged} {sentences} not backed by the passage"
            return said
        if self.kind is OutcomeKind.TIMED_OUT:
            return "timed out" + (f": {self.detail}" if self.detail else "")
        if self.kind is OutcomeKind.CANCELLED:
            return "cancelled"
        assert self.reason is not None
        if self.reason is Reason.AMBIGUOUS:
            # Not a refusal: the possible passages come with it, the best one first.
            # Why retrieval could not choose adds nothing.
            count = len(self.nearest)
            if not count:
                return f"not sure: {describe_reason(self.reason)}"
            return f"not sure: {count} possible passage{'s' * (count != 1)}, best first"
        if self.reason is Reason.NO_EVIDENCE and self.detail:
            return f"refused: {self.detail}"  # why retrieval refused says it all
        words = describe_reason(self.reason)
        return f"refused: {words}" + (f" ({self.detail})" if self.detail else "")

    def with_elapsed(self, elapsed_ms: int) -> Outcome:
        """This outcome, stamped with how long it took."""
        return replace(self, elapsed_ms=elapsed_ms)

    def for_question(self, question: str, elapsed_ms: int) -> Outcome:
        """This outcome as the answer to another question (a repeat request), stamped
        with how long that took."""
        return replace(self, question=question, elapsed_ms=elapsed_ms)


def _retrieved(evidence: Evidence | None, passages: tuple[Passage, ...] | None) -> dict[str, Any]:
    """The fields an outcome takes from its evidence: the passages answered from (by
    default the best one alone) and the retrieval mode."""
    if evidence is None:
        return {}
    return {
        "evidence": evidence,
        "retrieval": evidence.mode,
        "passages": passages if passages is not None else evidence.passages,
        "confidence": evidence.confidence,
    }


def answered(
    question: str,
    evidence: Evidence,
    answer: str,
    passages: tuple[Passage, ...] | None = None,
    citations: tuple[str, ...] | None = None,
    **extra: Any,
) -> Outcome:
    return Outcome(
        question=question,
        kind=OutcomeKind.ANSWERED,
        answer=answer,
        citations=citations if citations is not None else (evidence.passage.id,),
        **_retrieved(evidence, passages),
        **extra,
    )


def refused(
    question: str,
    reason: Reason,
    evidence: Evidence | None = None,
    detail: str | None = None,
    passages: tuple[Passage, ...] | None = None,
) -> Outcome:
    return Outcome(
        question=question,
        kind=OutcomeKind.REFUSED,
        reason=reason,
        detail=detail,
        **_retrieved(evidence, passages),
    )


def not_found(question: str, no_evidence: NoEvidence, detail: str | None = None) -> Outcome:
    """A `no_evidence` or `ambiguous` refusal: why retrieval refused (or `detail`), and
    the nearest passages or the candidates."""
    return Outcome(
        question=question,
        kind=OutcomeKind.REFUSED,
        reason=Reason.AMBIGUOUS if no_evidence.ambiguous else Reason.NO_EVIDENCE,
        detail=detail or no_evidence.why,
        retrieval=no_evidence.mode,
        nearest=no_evidence.nearest,
        confidence=no_evidence.confidence,
        read_words=no_evidence.read_words,
    )


def timed_out(
    question: str,
    evidence: Evidence | None,
    detail: str | None = None,
    passages: tuple[Passage, ...] | None = None,
) -> Outcome:
    return Outcome(
        question=question,
        kind=OutcomeKind.TIMED_OUT,
        reason=Reason.TIMEOUT,
        detail=detail,
        **_retrieved(evidence, passages),
    )


def cancelled(
    question: str, evidence: Evidence | None, passages: tuple[Passage, ...] | None = None
) -> Outcome:
    return Outcome(
        question=question,
        kind=OutcomeKind.CANCELLED,
        reason=Reason.CANCELLED,
        **_retrieved(evidence, passages),
    )
