"""What the headless commands print for an outcome, in readable form."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import answered, not_found
from tui_assistant.core.retrieval.types import Evidence, NoEvidence
from tui_assistant.output import print_readable

SALT = Passage("salt", "Salt", "Salt the water.", "notes/salt.md", 1, 3)
EGGS = Passage("eggs", "Eggs", "Boil the eggs.", "notes/eggs.md", 1, 3)
EVIDENCE = Evidence((SALT, EGGS), ("salt",), 4.0, 1.0)


def test_a_passage_answer_lists_the_other_passages_as_runners_up(
    capsys: pytest.CaptureFixture[str],
) -> None:
    print_readable(answered("salt?", EVIDENCE, SALT.text, passages=(SALT, EGGS)))
    assert "runner-up: notes/eggs.md:1\u20133 [eggs]" in capsys.readouterr().out


def test_a_model_answer_lists_the_other_passages_as_sent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A model may answer with the passage's very words: it is still the model's answer.
    outcome = answered("salt?", EVIDENCE, SALT.text, passages=(SALT, EGGS), from_model=True)
    print_readable(outcome)
    assert "also sent: notes/eggs.md:1\u20133 [eggs]" in capsys.readouterr().out


def test_a_model_choice_among_unsure_passages_is_never_said_as_answered_from(
    capsys: pytest.CaptureFixture[str],
) -> None:
    candidates = replace(EVIDENCE, model_picks=True)
    outcome = answered("salt?", candidates, "Salt it. [source:salt]", (SALT, EGGS), from_model=True)

    print_readable(outcome)

    out = capsys.readouterr().out
    assert "answered by the model from 2 possible passages (the library was not sure)" in out
    assert "it cites Salt [salt]" in out
    assert "answered from" not in out
    assert "other possible passage: notes/eggs.md:1\u20133 [eggs]" in out


def test_an_unsure_question_whose_model_answer_was_refused_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    unsure = NoEvidence("close", (SALT, EGGS), "hybrid", ambiguous=True)
    outcome = replace(not_found("salt?", unsure), model_detail="no text beyond citations")

    print_readable(outcome)

    out = capsys.readouterr().out
    assert "not sure: 2 possible passages, best first" in out
    assert "the model's answer was refused: no text beyond citations" in out
