"""The evidence panel's view model, without an app: which passages an outcome lists, in
which order and role, what each is said to match, and its header line."""

from __future__ import annotations

from tests.ui.test_evidence_panel import CONFIG, EVIDENCE, QUESTION, REGISTRY, SCOPE
from tui_assistant.core.outcome import Reason, answered, refused
from tui_assistant.ui.widgets.evidence_view import (
    CLOSEST,
    POSSIBLE,
    matched_details,
    ordered_passages,
    passage_header,
)


def test_an_answer_lists_its_cited_passages_first_in_citation_order_then_the_others() -> None:
    outcome = answered(
        QUESTION,
        EVIDENCE,
        "Set it in .npmrc [source:npm/config#files] [source:npm/registry#scoped].",
        passages=(REGISTRY, CONFIG),
        citations=(CONFIG.id, REGISTRY.id),
    )
    passages, roles = ordered_passages(outcome)
    assert passages == (CONFIG, REGISTRY, SCOPE)
    assert roles == ("cited", "cited", "not cited")


def test_a_refusal_lists_each_passage_once_as_a_candidate() -> None:
    outcome = refused(QUESTION, Reason.UNVERIFIED, EVIDENCE, passages=(REGISTRY, REGISTRY))
    passages, roles = ordered_passages(outcome)
    assert passages == (REGISTRY, CONFIG, SCOPE)
    assert roles == ("candidate", "candidate", "candidate")


def test_details_name_the_question_words_a_passage_holds_as_typed() -> None:
    details = matched_details(
        [REGISTRY, SCOPE], ["scop", "registry"], QUESTION, {REGISTRY.id: "best match"}
    )
    assert details[REGISTRY.id] == "best match · matched: scoped, registry"
    assert details[SCOPE.id] == "matched: scoped"


def test_details_name_a_mistyped_words_reading_as_the_passage_writes_it() -> None:
    # "registy" was read as the library's `registry`; "scoped" is named as typed.
    details = matched_details([REGISTRY], ["scop", "registry"], "scoped registy?", {})
    assert details[REGISTRY.id] == "matched: scoped, registry"


def test_the_header_says_where_the_passage_stands_and_what_it_is() -> None:
    assert passage_header("", 0, 3, "cited", "why").step == "1/3 · cited"
    closest = passage_header(CLOSEST, 1, 4, "not an answer", "matched: eggs")
    assert (closest.step, closest.details) == ("closest 2/4 · not an answer", "matched: eggs")
    # A possible passage has one line above its text: its details take the role's place.
    possible = passage_header(POSSIBLE, 0, 2, "", "matched: eggs")
    assert (possible.step, possible.details) == ("possible passage 1/2 · matched: eggs", "")
