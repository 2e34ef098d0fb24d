"""The one path from a question to an `Outcome`; `ask`, `eval` and the TUI all use it.

A question goes in two steps so that callers can show the evidence while a model is
working, and still know it when the request is cancelled:

1. `start` (pure, synchronous): the follow-up rule, retrieval, and in deterministic mode
   the answer itself. It returns a finished `Outcome` or a `PendingAnswer`.
2. `finish` (async): the provider call, then the citation check. Cancellation is never
   swallowed here; `ask` records a cancelled turn and re-raises.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, replace
from typing import Protocol

from tui_assistant.core.citations import check_citations
from tui_assistant.core.conversation import Conversation, is_repeat_request
from tui_assistant.core.outcome import (
    Outcome,
    Reason,
    answered,
    cancelled,
    refused,
    timed_out,
)
from tui_assistant.core.passages import Passage
from tui_assistant.core.retrieval import Evidence, Retriever
from tui_assistant.core.support import SupportMode, check_support


class ProviderFailure(Exception):
    """A provider call ended without a usable answer, for a known reason.

    `detail` is shown to users: plain words, never provider text or secrets.
    """

    def __init__(self, reason: Reason, detail: str | None = None) -> None:
        super().__init__(detail or reason.value)
        self.reason = reason
        self.detail = detail


class AnswerProvider(Protocol):
    """Turns a question and its one passage into the model's raw answer text.

    Raises `ProviderFailure` for a refusal, `TimeoutError` when its deadline passes;
    lets `asyncio.CancelledError` through.
    """

    deadline_seconds: float

    async def complete(self, question: str, passage: Passage) -> str: ...


@dataclass(frozen=True, slots=True)
class PendingAnswer:
    """Retrieval found a passage; the model has yet to answer from it."""

    question: str
    evidence: Evidence
    started: float

    def elapsed_ms(self) -> int:
        """Milliseconds since the question was asked (for an outcome's `elapsed_ms`)."""
        return _ms(self.started)


class AnswerService:
    def __init__(
        self,
        retriever: Retriever,
        provider: AnswerProvider | None = None,
        support_mode: SupportMode = "warn",
    ) -> None:
        self.retriever = retriever
        self.provider = provider
        self.support_mode = support_mode

    def start(self, question: str, conversation: Conversation) -> Outcome | PendingAnswer:
        """Everything that needs no network: follow-up, retrieval, deterministic answer."""
        started = time.perf_counter()
        if is_repeat_request(question):
            previous = conversation.last_answered()
            if previous is None:
                return refused(question, Reason.NO_EVIDENCE).with_elapsed(_ms(started))
            return previous.for_question(question, _ms(started))
        evidence = self.retriever.retrieve(question)
        if evidence is None:
            return refused(question, Reason.NO_EVIDENCE).with_elapsed(_ms(started))
        if self.provider is None:
            return answered(question, evidence, evidence.passage.text, elapsed_ms=_ms(started))
        return PendingAnswer(question=question, evidence=evidence, started=started)

    async def finish(self, pending: PendingAnswer) -> Outcome:
        """Ask the provider, then accept its answer only if the citation check passes."""
        assert self.provider is not None
        question, evidence = pending.question, pending.evidence
        try:
            text = await self.provider.complete(question, evidence.passage)
        except ProviderFailure as failure:
            outcome = refused(question, failure.reason, evidence, failure.detail)
        except TimeoutError:
            detail = f"no answer within {self.provider.deadline_seconds:g} s"
            outcome = timed_out(question, evidence, detail)
        else:
            outcome = self.judge(question, evidence, text)
        return outcome.with_elapsed(pending.elapsed_ms())

    def judge(self, question: str, evidence: Evidence, text: str) -> Outcome:
        """Pure: the outcome for a model's raw answer to `question` from `evidence`.

        The citation check comes first; an answer that passes it is then checked
        sentence by sentence against the passage, per `support_mode`: `off` skips the
        check, `warn` accepts the answer with its report, `strict` refuses it when any
        sentence is unsupported (keeping the report, so a display can say which).
        """
        check = check_citations(text, evidence.passage.id)
        if not check.accepted:
            return refused(question, Reason.UNVERIFIED, evidence, check.problem)
        answer = text.strip()
        if self.support_mode == "off":
            return answered(question, evidence, answer)
        support = check_support(answer, evidence.passage)
        if self.support_mode == "strict" and not support.supported:
            count = len(support.unsupported_sentences)
            detail = f"{count} sentence{'' if count == 1 else 's'}"
            outcome = refused(question, Reason.UNSUPPORTED, evidence, detail)
            return replace(outcome, support=support)
        return answered(question, evidence, answer, support=support)

    async def ask(self, question: str, conversation: Conversation) -> Outcome:
        """Answer one question and record it as a turn of `conversation`."""
        step = self.start(question, conversation)
        if isinstance(step, PendingAnswer):
            try:
                outcome = await self.finish(step)
            except asyncio.CancelledError:
                conversation.add(cancelled(question, step.evidence).with_elapsed(step.elapsed_ms()))
                raise
        else:
            outcome = step
        conversation.add(outcome)
        return outcome


def _ms(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)
