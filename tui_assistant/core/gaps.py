"""The questions a library could not answer, and how a maintainer reads them.

A question that ends unsure (`ambiguous`) or with nothing (`no_evidence`) after
retrieval is a gap in the documents: `gap_of` says whether an outcome is one, and which
passage it came nearest to. `group_gaps` puts a library's gaps together by that
passage, most asked first, so the list says what to write next. Pure: the records are
read and written by `store/gaps.py`; the questions are kept as asked and never sent
anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from tui_assistant.core.library.names import prefixed_id, split_id
from tui_assistant.core.outcome import Outcome, Reason
from tui_assistant.core.record import PassageRef

# Reasons that mean the documents did not answer (others are the model's or the user's).
GAP_REASONS = (Reason.AMBIGUOUS, Reason.NO_EVIDENCE)
# Questions listed per group, the most asked first; `questions_asked` counts them all.
QUESTIONS_SHOWN = 10


@dataclass(frozen=True, slots=True)
class Gap:
    """One question a library could not answer: as asked, when, why, by which retrieval,
    and the passage of that library it came nearest to (its id within the library;
    None when no passage came near)."""

    question: str
    asked_at: str
    reason: str
    retrieval: str | None
    nearest: PassageRef | None = None


def gap_of(outcome: Outcome, asked_at: str) -> tuple[str | None, Gap] | None:
    """The gap `outcome` is, with the name of the library of its nearest passage (None
    when no passage came near); None when the documents are not to blame (answered,
    refused before retrieval, a provider's failure, a cancel)."""
    if outcome.reason not in GAP_REASONS or outcome.retrieval is None:
        return None
    assert outcome.reason is not None
    near = outcome.nearest[0] if outcome.nearest else None
    nearest = None
    if near is not None:
        # Kept by its id within its own library, whatever libraries are searched with it.
        nearest = PassageRef.of(near).model_copy(update={"id": split_id(near.id)[1]})
    gap = Gap(outcome.question, asked_at, outcome.reason.value, outcome.retrieval, nearest)
    return (near.library if near is not None else None), gap


class AskedQuestion(BaseModel):
    question: str = Field(description="the question as it was asked")
    count: int = Field(description="how many times it was asked")
    last_asked: str = Field(description="when it was last asked (UTC, ISO 8601)")
    reason: str = Field(description="how it ended the last time: ambiguous or no_evidence")


class GapGroup(BaseModel):
    library: str = Field(description="the library that could not answer")
    nearest: PassageRef | None = Field(
        description="the passage these questions came nearest to; null: no passage came near"
    )
    count: int = Field(description="how many times these questions were asked")
    last_asked: str = Field(description="when one of them was last asked (UTC, ISO 8601)")
    questions_asked: int = Field(description="how many different questions")
    questions: list[AskedQuestion] = Field(
        description=f"the most asked of them, at most {QUESTIONS_SHOWN}"
    )


class GapList(BaseModel):
    groups: list[GapGroup] = Field(description="most asked first")


@dataclass
class _Tally:
    count: int = 0
    last_asked: str = ""
    nearest: PassageRef | None = None
    questions: dict[str, list[Gap]] = field(default_factory=dict)


def group_gaps(
    gaps_by_library: Sequence[tuple[str, Iterable[Gap]]], prefix_ids: bool, limit: int | None = None
) -> GapList:
    """Each library's gaps grouped by the passage they came nearest to (by id: a passage
    moved to other lines is the same passage), the groups most asked first (then most
    recent, then in library order), at most `limit` of them. `prefix_ids`: show ids as
    `NAME:ID` (several libraries)."""
    groups: list[GapGroup] = []
    for library, gaps in gaps_by_library:
        tallies: dict[str | None, _Tally] = {}
        for gap in gaps:
            key = gap.nearest.id if gap.nearest is not None else None
            tally = tallies.setdefault(key, _Tally())
            tally.count += 1
            if gap.asked_at >= tally.last_asked:
                tally.last_asked = gap.asked_at
                tally.nearest = gap.nearest  # as it was when last asked
            tally.questions.setdefault(" ".join(gap.question.split()).casefold(), []).append(gap)
        for tally in tallies.values():
            nearest = tally.nearest
            if nearest is not None:
                shown_id = prefixed_id(library, nearest.id) if prefix_ids else nearest.id
                nearest = nearest.model_copy(update={"id": shown_id, "library": library})
            asked = [_asked(same) for same in tally.questions.values()]
            asked.sort(key=lambda question: (question.count, question.last_asked), reverse=True)
            groups.append(
                GapGroup(
                    library=library,
                    nearest=nearest,
                    count=tally.count,
                    last_asked=tally.last_asked,
                    questions_asked=len(asked),
                    questions=asked[:QUESTIONS_SHOWN],
                )
            )
    groups.sort(key=lambda group: (group.count, group.last_asked), reverse=True)
    return GapList(groups=groups[:limit] if limit is not None else groups)


def _asked(same: list[Gap]) -> AskedQuestion:
    """One question asked `len(same)` times: as it was last asked (the later record
    when two were asked in the same second)."""
    last = same[0]
    for gap in same:
        if gap.asked_at >= last.asked_at:
            last = gap
    return AskedQuestion(
        question=last.question, count=len(same), last_asked=last.asked_at, reason=last.reason
    )
