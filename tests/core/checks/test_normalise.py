"""One reading of "the same text" for every check: the quote check, the support check
and the draft check agree on a quote, whatever Markdown, dashes or quote marks stand
around its words in the passage."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.checks.draft import check_draft
from tui_assistant.core.checks.normalise import flat
from tui_assistant.core.checks.quotes import check_quotes
from tui_assistant.core.checks.support import check_support
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import OutcomeKind
from tui_assistant.core.retrieval.types import Evidence, Mode
from tui_assistant.core.service import AnswerService

CITE = "[source:salt]"


def salt(text: str) -> Passage:
    return Passage(id="salt", title="Salt", text=text, source_path="notes/salt.md")


# (the passage's text, an answer quoting it faithfully, a word of the quote)
FAITHFUL = {
    "emphasis": (
        "Use **one tablespoon** per litre of water for pasta.",
        f'Use "one tablespoon per litre of water" for pasta {CITE}.',
        "tablespoon",
    ),
    "link": (
        "Read the [salting chart](https://example.test/chart) before you cook.",
        f'Read "the salting chart before you cook" first {CITE}.',
        "chart",
    ),
    "dashes": (
        "Salt the water — never the empty pot — once it boils.",
        f'Salt "the water - never the empty pot - once it boils" {CITE}.',
        "empty",
    ),
    "curly quotes": (
        "The water should taste “like a mild broth”, not like the sea.",
        f'The water should taste «like a mild broth", not like the sea» {CITE}.',
        "mild",
    ),
    "all at once": (
        "Taste it: the _water_ should be “like a [mild broth](https://broth.test)” — not the sea.",
        f"Taste the water: “the water should be 'like a mild broth' - not the sea” {CITE}.",
        "mild",
    ),
}


@pytest.mark.parametrize("passage_text, answer, _", FAITHFUL.values(), ids=FAITHFUL.keys())
def test_a_faithful_quote_passes_every_check(passage_text: str, answer: str, _: str) -> None:
    passage = salt(passage_text)

    assert check_quotes(answer, [passage]).accepted
    assert check_support(answer, passage).unsupported_sentences == ()
    draft = check_draft(answer, {"salt": passage}.get)
    assert (draft.verified, draft.unsupported_sentences, draft.problems) == (True, (), ())


@pytest.mark.parametrize("passage_text, answer, word", FAITHFUL.values(), ids=FAITHFUL.keys())
def test_a_changed_word_fails_every_check(passage_text: str, answer: str, word: str) -> None:
    passage = salt(passage_text)
    changed = answer.replace(word, "other")

    assert not check_quotes(changed, [passage]).accepted
    assert check_support(changed, passage).unsupported_sentences != ()
    assert not check_draft(changed, {"salt": passage}.get).verified


class FixedProvider:
    def __init__(self, text: str) -> None:
        self.text = text

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        return ModelAnswer(self.text)


class OnePassage:
    mode: Mode = "ranked"

    def __init__(self, passage: Passage) -> None:
        self.passage = passage

    def retrieve(self, question: str, count: int = 1) -> Evidence:
        return Evidence((self.passage,), ("salt",), 4.0, None)


@pytest.mark.parametrize("passage_text, answer, _", FAITHFUL.values(), ids=FAITHFUL.keys())
async def test_the_strict_support_check_accepts_a_correct_answer(
    passage_text: str, answer: str, _: str
) -> None:
    service = AnswerService(OnePassage(salt(passage_text)), FixedProvider(answer), "strict")

    outcome = await service.ask("how much salt?", Conversation())

    assert (outcome.kind, outcome.reason) == (OutcomeKind.ANSWERED, None)
    assert outcome.support is not None and outcome.support.supported


def test_the_one_normalisation_drops_markup_and_folds_marks() -> None:
    assert flat("Use **one** [cup](https://x.test) — “now”") == "use one cup - 'now'"
