"""What the headless commands print for an outcome, in readable form."""

from __future__ import annotations

import pytest

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import answered
from tui_assistant.core.retrieval.types import Evidence
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
