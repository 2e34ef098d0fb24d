"""The one path from a question to an `Outcome`; `ask`, `eval` and the TUI all use it.

A question goes in two steps so that callers can show the evidence while a model is
working, and still know it when the request is cancelled:

1. `start` (pure, synchronous): the follow-up rule, retrieval, and in deterministic mode
   the answer itself. It returns a finished `Outcome` or a `PendingAnswer`.
2. `finish` (async): the provider call under the one deadline, then the citation
   check. Cancellation is never swallowed here.

What a cancelled question becomes is decided here too (`cancelled`), so `ask`, the
TUI and the history it writes say the same for the same cancel. The service reads a
conversation (for follow-ups) and never adds to it: the caller ends each question in
one place (`AppContext.conclude`), which records its turn and its gap.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from tui_assistant.core.checks.answer import ModelAnswer, check_model_answer
from tui_assistant.core.checks.quotes import without_quote
from tui_assistant.core.checks.support import SupportMode
from tui_assistant.core.conversation import Conversation, is_repeat_request
from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import (
    Outcome,
    Reason,
    answered,
    cancelled,
    describe_reason,
    not_found,
    refused,
    timed_out,
)
from tui_assistant.core.retrieval.types import Evidence, NoEvidence, Retriever
from tui_assistant.errors import ProviderFailure

# A longer question is refused before anything else happens.
MAX_QUESTION_CHARS = 4000
EMPTY_QUESTION = "the question is empty"
# A refusal's `model_detail` is one line of at most this many characters.
MAX_DETAIL_CHARS = 200
# Passages retrieved for an answer: its own and the next ones, one key away in the
# evidence panel (a model gets only those close to the answer's, `Evidence.close`).
CANDIDATES_SHOWN = 3


class AnswerProvider(Protocol):
    """Turns a question and its passages into the model's answer (`ModelAnswer`).

    Raises `ProviderFailure` for a refusal; lets `asyncio.CancelledError` through. The
    service bounds the whole call (the call ledger's wait included) by its deadline.
    """

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer: ...


@dataclass(frozen=True, slots=True)
class PendingAnswer:
    """Retrieval found passages to send; the model has yet to answer from them.

    `evidence.close` are the passages sent: a sure question's passage and those close
    to it, or an ambiguous question's candidates (`ambiguous` is then retrieval's
    refusal, which stands unless the model's answer passes every check).
    """

    question: str
    evidence: Evidence
    started: float
    ambiguous: NoEvidence | None = None

    @property
    def sent(self) -> tuple[Passage, ...]:
        return self.evidence.close

    def elapsed_ms(self) -> int:
        """Milliseconds since the question was asked (for an outcome's `elapsed_ms`)."""
        return _ms(self.started)


@dataclass(frozen=True, slots=True)
class Searched:
    """A question searched (`AnswerService.search`): what retrieval alone makes of it,
    and the best passages of that same ranking as (passage number, score)."""

    outcome: Outcome
    scored: tuple[tuple[int, float], ...] = ()


class AnswerService:
    def __init__(
        self,
        retriever: Retriever,
        provider: AnswerProvider | None = None,
        support_mode: SupportMode = "warn",
        deadline_seconds: float = 20.0,
        passages_sent: int = 3,
    ) -> None:
        self.retriever = retriever
        self.provider = provider
        self.support_mode = support_mode
        self.deadline_seconds = deadline_seconds
        self.passages_sent = passages_sent

    def with_retriever(self, retriever: Retriever) -> AnswerService:
        """The same service (provider, checks, deadline) answering through `retriever`."""
        return AnswerService(
            retriever, self.provider, self.support_mode, self.deadline_seconds, self.passages_sent
        )

    def start(self, question: str, conversation: Conversation) -> Outcome | PendingAnswer:
        """Everything that needs no network: follow-up, retrieval, deterministic answer."""
        started = time.perf_counter()
        early = _before_retrieval(question, conversation)
        if early is not None:
            return early.with_elapsed(_ms(started))
        evidence = self.retriever.retrieve(question, self._retrieved)
        if self.provider is None:
            return _retrieval_outcome(question, evidence).with_elapsed(_ms(started))
        if isinstance(evidence, NoEvidence):
            if evidence.ambiguous:
                # The model may resolve what retrieval could not: it gets the candidates.
                candidates = _candidates(evidence, self.passages_sent)
                return PendingAnswer(question, candidates, started, ambiguous=evidence)
            return not_found(question, evidence).with_elapsed(_ms(started))
        close = min(len(evidence.close), self.passages_sent)
        return PendingAnswer(question, replace(evidence, close_count=close), started)

    def search(self, question: str, limit: int) -> Searched:
        """Retrieval alone, for a question of no conversation and with no model (the
        MCP `search`): one ranking, read as the outcome deterministic mode gives (the
        rules before retrieval included) and as the `limit` best passages with this
        mode's own scores."""
        started = time.perf_counter()
        early = _before_retrieval(question, Conversation())
        if early is not None:
            # Too long, blank, or a follow-up with nothing to follow: nothing to search by,
            # so no passage either.
            return Searched(early.with_elapsed(_ms(started)))
        ranked = self.retriever.search(question, self._retrieved, limit)
        outcome = _retrieval_outcome(question, ranked.found)
        return Searched(outcome.with_elapsed(_ms(started)), ranked.scored)

    @property
    def _retrieved(self) -> int:
        """How many passages retrieval gives: the ones shown, or sent if more."""
        return max(CANDIDATES_SHOWN, self.passages_sent)

    async def finish(self, pending: PendingAnswer) -> Outcome:
        """Ask the provider, then accept its answer only if the citation check passes."""
        assert self.provider is not None
        question, evidence, sent = pending.question, pending.evidence, pending.sent
        try:
            async with asyncio.timeout(self.deadline_seconds):
                answer = await self.provider.complete(question, sent)
        except ProviderFailure as failure:
            reason = Reason(failure.reason)  # `errors` cannot name the outcome's type
            outcome = refused(question, reason, evidence, failure.detail, sent)
            why = failure.detail or describe_reason(reason)
            outcome = replace(outcome, model_detail=_one_plain_line(why))
        except TimeoutError:
            detail = f"no answer within {self.deadline_seconds:g} s"
            outcome = timed_out(question, evidence, detail, sent)
            outcome = replace(outcome, model_detail=detail)
        except Exception as error:  # a provider bug ends as a refusal, not a crash
            detail = f"unexpected {type(error).__name__}"
            outcome = refused(question, Reason.PROVIDER_ERROR, evidence, detail, sent)
            outcome = replace(outcome, model_detail=detail)
        else:
            outcome = self.judge(question, evidence, answer)
        if pending.ambiguous is not None:
            outcome = _resolved(outcome, pending.ambiguous)
        return outcome.with_elapsed(pending.elapsed_ms())

    def judge(self, question: str, evidence: Evidence, answer: ModelAnswer) -> Outcome:
        """Pure: the outcome for a model's `answer` to `question` from the passages of
        `evidence` (the ones sent).

        The citation and quote checks come first (`answers.check_model_answer`: every
        passage cited was sent, every quote stands in the passage it cites); an answer
        that passes both is then checked sentence by sentence against the passages it
        cites, per `support_mode`: `off` skips the check, `warn` accepts the answer
        with its report, `strict` refuses it when any sentence is unsupported (keeping
        the report, so a display can say which).
        """
        sent = evidence.close
        check = check_model_answer(answer, sent, with_support=self.support_mode != "off")
        if not check.accepted:
            problem = check.problem or ""
            # The screen says the problem in the app's words; the record names the quote.
            outcome = refused(question, Reason.UNVERIFIED, evidence, without_quote(problem), sent)
            return replace(outcome, model_detail=_one_plain_line(problem))
        support = check.support
        if support is not None and self.support_mode == "strict" and not support.supported:
            count = len(support.unsupported_sentences)
            detail = f"{count} sentence{'' if count == 1 else 's'}"
            outcome = refused(question, Reason.UNSUPPORTED, evidence, detail, sent)
            why = f"{detail} not backed by the passages cited"
            return replace(outcome, support=support, model_detail=why)
        return answered(
            question,
            evidence,
            check.answer,
            sent,
            check.cited_ids,
            quotes=check.quotes,
            support=support,
            from_model=True,
        )

    def cancelled(self, step: PendingAnswer | str) -> Outcome:
        """What a cancelled question becomes: the one rule for `ask`, the TUI and history.

        Cancelled while its answer was awaited (`step` is its `PendingAnswer`): the
        passages sent stay with it, and an ambiguous question chooses none and keeps its
        candidates. Cancelled before it was started (`step` is the question, held for a
        reload): nothing was retrieved, so nothing is kept.
        """
        if isinstance(step, str):
            return cancelled(step, None)
        outcome = cancelled(step.question, step.evidence, step.sent)
        if step.ambiguous is not None:
            outcome = _resolved(outcome, step.ambiguous)
        return outcome.with_elapsed(step.elapsed_ms())

    async def ask(self, question: str, conversation: Conversation) -> Outcome:
        """Answer one question of `conversation` (both steps; the turn is the caller's
        to record). A cancel propagates: `cancelled` says what the question became."""
        step = self.start(question, conversation)
        return await self.finish(step) if isinstance(step, PendingAnswer) else step


def _before_retrieval(question: str, conversation: Conversation) -> Outcome | None:
    """The outcome decided before anything is retrieved, if any: a question too long or
    blank is refused; a follow-up repeats the last answered turn (refused without one)."""
    if len(question) > MAX_QUESTION_CHARS:
        return refused(question, Reason.TOO_LONG)
    if not question.strip():
        # Nothing to retrieve by: no passage is offered, not even as a place to look.
        return refused(question, Reason.NO_EVIDENCE, detail=EMPTY_QUESTION)
    if is_repeat_request(question):
        previous = conversation.last_answered()
        if previous is None:
            return refused(question, Reason.NO_EVIDENCE)
        return previous.for_question(question, 0)
    return None


def _retrieval_outcome(question: str, found: Evidence | NoEvidence) -> Outcome:
    """What retrieval alone makes of a question: answered with its passage's own text
    (deterministic mode), or refused with the nearest passages or the candidates."""
    if isinstance(found, NoEvidence):
        return not_found(question, found)
    return answered(question, found, found.passage.text)


def _candidates(ambiguous: NoEvidence, sent: int) -> Evidence:
    """An ambiguous question's candidates as the evidence a model answers from."""
    return Evidence(
        passages=ambiguous.nearest,
        matched_words=(),
        score=0.0,
        runner_up_score=None,
        mode=ambiguous.mode,
        close_count=min(len(ambiguous.nearest), sent),
        confidence=ambiguous.confidence,
        model_picks=True,
    )


def _resolved(outcome: Outcome, ambiguous: NoEvidence) -> Outcome:
    """The outcome of an ambiguous question sent to a model.

    An answer that passed every check stands, its passage the one it cites first. An
    answer that failed a check leaves retrieval's refusal (`ambiguous`, the candidates
    listed). Any other end (a provider error, a timeout, a cancel) keeps its own reason,
    with no passage chosen and the candidates listed."""
    if outcome.answered and outcome.evidence is not None:
        evidence = outcome.evidence
        cited = next(p for p in evidence.passages if p.id == outcome.citations[0])
        others = tuple(p for p in evidence.passages if p.id != cited.id)
        chosen = replace(evidence, passages=(cited, *others))
        return replace(outcome, evidence=chosen)
    if outcome.reason in (Reason.UNVERIFIED, Reason.UNSUPPORTED):
        refusal = not_found(outcome.question, ambiguous)
        return replace(
            refusal,
            passages=outcome.passages,
            support=outcome.support,
            model_detail=outcome.model_detail,
        )
    return replace(
        outcome, evidence=None, nearest=ambiguous.nearest, read_words=ambiguous.read_words
    )


def _one_plain_line(text: str) -> str:
    """A reason for the record: one line, safe on a terminal, not too long (a quote of
    the model's in it is already shortened)."""
    return shortened(one_line(text), MAX_DETAIL_CHARS)


def _ms(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)
