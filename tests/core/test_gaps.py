"""The questions the documents could not answer: which outcomes are gaps, and how they
are grouped for a maintainer (by the passage they came nearest to, most asked first)."""

from __future__ import annotations

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.gaps import QUESTIONS_SHOWN, Gap, gap_of, group_gaps
from tui_assistant.core.outcome import Outcome, OutcomeKind, Reason, answered, refused
from tui_assistant.core.record import PassageRef
from tui_assistant.core.retrieval.types import Evidence

HOOKS = Passage(
    "fastify:reference/hooks#onclose",
    "Hooks › onClose",
    "Triggered when fastify.close() is invoked.",
    "fastify-docs/Reference/Hooks.md",
    471,
    530,
    "fastify",
)


def refusal(
    reason: Reason, nearest: tuple[Passage, ...] = (), retrieval: str = "ranked"
) -> Outcome:
    return Outcome(
        question="where do I close my database pool?",
        kind=OutcomeKind.REFUSED,
        reason=reason,
        retrieval=retrieval,  # type: ignore[arg-type]
        nearest=nearest,
    )


def test_unsure_and_nothing_are_gaps_kept_by_the_id_within_their_library() -> None:
    found = gap_of(refusal(Reason.AMBIGUOUS, (HOOKS,)), "2026-01-02T03:04:05+00:00")
    assert found is not None
    library, gap = found
    assert library == "fastify"
    assert gap.nearest is not None and gap.nearest.id == "reference/hooks#onclose"
    assert (gap.reason, gap.retrieval, gap.asked_at) == (
        "ambiguous",
        "ranked",
        "2026-01-02T03:04:05+00:00",
    )
    assert gap_of(refusal(Reason.NO_EVIDENCE), "t") == (
        None,
        Gap("where do I close my database pool?", "t", "no_evidence", "ranked"),
    )


def test_answers_and_refusals_that_are_not_the_documents_fault_are_not_gaps() -> None:
    evidence = Evidence((HOOKS,), (), 1.0, None, "ranked")
    assert gap_of(answered("q", evidence, "text"), "t") is None
    assert gap_of(refused("q", Reason.PROVIDER_ERROR, evidence), "t") is None
    assert gap_of(refused("q", Reason.TOO_LONG), "t") is None
    # Blank, or "repeat that" with nothing to repeat: refused before any retrieval.
    assert gap_of(refused("  ", Reason.NO_EVIDENCE, detail="the question is empty"), "t") is None


def gap(question: str, asked_at: str, nearest: str | None, reason: str = "ambiguous") -> Gap:
    ref = None
    if nearest is not None:
        ref = PassageRef(
            id=nearest, title=nearest.title(), source_path=f"docs/{nearest}.md", line=1, end_line=9
        )
    return Gap(question, asked_at, reason, "hybrid", ref)


def test_gaps_are_grouped_by_nearest_passage_most_asked_first() -> None:
    gaps = [
        gap("How do I close the pool?", "2026-01-01", "hooks"),
        gap("how do i  close the POOL?", "2026-01-03", "hooks", "no_evidence"),
        gap("graceful shutdown", "2026-01-02", "hooks"),
        gap("what is a unicorn", "2026-01-05", None, "no_evidence"),
        gap("tls certificates", "2026-01-04", "server"),
        gap("tls certificates", "2026-01-06", "server"),
        gap("self-signed tls", "2026-01-01", "server"),
    ]
    listed = group_gaps([("fastify", gaps)], prefix_ids=False)
    counts = [(g.nearest.id if g.nearest else None, g.count, g.last_asked) for g in listed.groups]
    assert counts == [
        ("server", 3, "2026-01-06"),
        ("hooks", 3, "2026-01-03"),
        (None, 1, "2026-01-05"),
    ]
    hooks = listed.groups[1]
    assert hooks.questions_asked == 2
    # The same question however it was typed, as it was last asked, and how it ended then.
    assert [(q.question, q.count, q.reason) for q in hooks.questions] == [
        ("how do i  close the POOL?", 2, "no_evidence"),
        ("graceful shutdown", 1, "ambiguous"),
    ]
    assert hooks.library == "fastify" and hooks.nearest is not None
    assert hooks.nearest.library == "fastify"


def test_with_several_libraries_ids_are_prefixed_and_limit_keeps_the_most_asked() -> None:
    listed = group_gaps(
        [
            ("fastify", [gap("a", "1", "hooks"), gap("b", "2", "hooks")]),
            ("undici", [gap("c", "3", "pool")]),
        ],
        prefix_ids=True,
        limit=1,
    )
    [group] = listed.groups
    assert group.nearest is not None and group.nearest.id == "fastify:hooks"
    assert group.count == 2


def test_a_group_lists_at_most_its_most_asked_questions() -> None:
    gaps = [gap(f"question {n}", f"2026-01-{n % 28 + 1:02}", "hooks") for n in range(30)]
    gaps += [gap("question 7", "2026-02-01", "hooks")] * 3
    [group] = group_gaps([("fastify", gaps)], prefix_ids=False).groups
    assert group.count == 33 and group.questions_asked == 30
    assert len(group.questions) == QUESTIONS_SHOWN
    assert (group.questions[0].question, group.questions[0].count) == ("question 7", 4)
