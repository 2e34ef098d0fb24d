"""A model's answer as data, and the one check that decides whether it may be shown.

An answer comes in one of two forms:

- plain text with `[source:ID]` markers and quoted words, read by the rules of
  `citations` and `quotes` (the only form that is parsed);
- a structured answer: its text and, given by the server, the (passage id, quote) pairs
  it cites. The pairs are checked as they are: no sentence splitting, no guessing which
  quote belongs to which id.

Both are accepted only if every passage they cite is one that was sent, every quote
stands in the passage it cites (and says something: `quotes.MIN_QUOTE_WORDS`), they are
not blank or too long, and they say something beyond their citations
(`has_own_text`). The support check
(`support.check_support`) is reported alongside; whether it refuses is the caller's
choice. Pure and total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tui_assistant.core.checks.citations import (
    CITATION_MARKER,
    MAX_ANSWER_CHARS,
    NOT_GIVEN,
    check_citations,
    strip_citations,
)
from tui_assistant.core.checks.quotes import (
    EMPTY_QUOTE,
    MAX_QUOTES,
    TOO_MANY,
    check_quotes,
    find_quote,
    not_in_passage,
    quote_problem,
)
from tui_assistant.core.checks.support import check_support
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import Quote, SupportReport
from tui_assistant.core.words import content_words

NO_TEXT = "no text beyond citations"

# Words that point at the sources instead of saying anything ("From the docs:", "See",
# "according to the passage"): an answer of nothing else, its markers, punctuation and
# stopwords, says nothing a reader could check.
_POINTING_WORDS: frozenset[str] = frozenset(
    """
    according answer answered answers check cite cited citation citations detail details
    doc docs document documentation documents explained find found here info information
    lesson lessons look mentioned note noted page pages passage passages read refer
    reference references section sections see shown source sources stated states
    """.split()
)


@dataclass(frozen=True, slots=True)
class ModelAnswer:
    """What a provider returns: the answer's text, and the (passage id, quote) pairs
    it cites when the server gave them as data (None: plain text, markers inline)."""

    text: str
    pairs: tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True, slots=True)
class AnswerCheck:
    """The verdict on one answer.

    `answer` is the text to show (stripped; a structured answer's text followed by a
    marker for each passage it cites that its text does not name). `cited_ids` are
    distinct, in the order they are first cited; `quotes` carry the passages' own words
    and file lines. `support` is the support report when it was asked for.
    """

    answer: str = ""
    cited_ids: tuple[str, ...] = ()
    quotes: tuple[Quote, ...] = ()
    problem: str | None = None
    support: SupportReport | None = None

    @property
    def accepted(self) -> bool:
        return self.problem is None


def has_own_text(text: str) -> bool:
    """Whether `text` says anything beyond its citation markers: a content word (a number
    counts) that is not one of the words pointing at the sources."""
    return any(word not in _POINTING_WORDS for word in content_words(strip_citations(text)))


def check_plain_answer(
    text: str, sent: Sequence[Passage], with_support: bool = True
) -> AnswerCheck:
    """A plain-text answer (markers and quotes inline) against the passages `sent`:
    the citation check, then whether it has text of its own, the quote check, then (if
    asked) the support check."""
    citations = check_citations(text, [passage.id for passage in sent])
    if not citations.accepted:
        return AnswerCheck(problem=citations.problem)
    if not has_own_text(text):
        return AnswerCheck(problem=NO_TEXT)
    quoted = check_quotes(text, sent)
    if not quoted.accepted:
        return AnswerCheck(problem=quoted.problem)
    answer = text.strip()
    support = check_support(answer, sent) if with_support else None
    return AnswerCheck(answer, citations.cited_ids, quoted.quotes, support=support)


def check_model_answer(
    answer: ModelAnswer, sent: Sequence[Passage], with_support: bool = True
) -> AnswerCheck:
    """`answer` against the passages `sent`: plain text by `check_plain_answer`; a
    structured answer by its pairs, with any markers and quotes in its text held to
    the plain rules."""
    if answer.pairs is None:
        return check_plain_answer(answer.text, sent, with_support)
    text = answer.text.strip()
    if not text:
        return AnswerCheck(problem="blank answer")
    if len(text) > MAX_ANSWER_CHARS:
        return AnswerCheck(problem=f"answer longer than {MAX_ANSWER_CHARS:,} characters")
    by_id = {passage.id: passage for passage in sent}
    if any(passage_id not in by_id for passage_id, _ in answer.pairs):
        return AnswerCheck(problem=NOT_GIVEN)
    pair_ids = tuple(passage_id for passage_id, _ in answer.pairs)
    inline = [match.group(1) for match in CITATION_MARKER.finditer(text)]
    if not inline and not pair_ids:
        return AnswerCheck(problem="no [source:ID] citation")
    if inline:
        citations = check_citations(text, by_id)
        if not citations.accepted:
            return AnswerCheck(problem=citations.problem)
    if not has_own_text(text):
        return AnswerCheck(problem=NO_TEXT)
    cited = tuple(dict.fromkeys([*inline, *pair_ids]))
    quoted = [(passage_id, " ".join(quote.split())) for passage_id, quote in answer.pairs]
    if any(not quote for _, quote in quoted):
        return AnswerCheck(problem=EMPTY_QUOTE)
    problem = quote_problem([quote for _, quote in quoted])
    if problem is not None:
        return AnswerCheck(problem=problem)
    # Quotes the text itself holds: a quote without a marker may stand in any cited passage.
    in_text = check_quotes(text, sent, also_cited=cited)
    if not in_text.accepted:
        return AnswerCheck(problem=in_text.problem)
    found = list(in_text.quotes)
    for passage_id, quote in quoted:
        match = find_quote(quote, by_id[passage_id])
        if match is None:
            return AnswerCheck(problem=not_in_passage(quote))
        found.append(match)
    if len(found) > MAX_QUOTES:
        return AnswerCheck(problem=TOO_MANY)
    missing = [passage_id for passage_id in cited if f"[source:{passage_id}]" not in text]
    shown = " ".join([text, *(f"[source:{passage_id}]" for passage_id in missing)])
    support = None
    if with_support:
        # A sentence without a marker of its own is read against every passage cited.
        support = check_support(text, [by_id[passage_id] for passage_id in cited])
    return AnswerCheck(shown, cited, tuple(dict.fromkeys(found)), support=support)
