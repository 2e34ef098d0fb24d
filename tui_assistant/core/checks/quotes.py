"""The quote check: every quote in a model answer must stand in the passage it cites.

Pure and total. A *quote* is text on one line of the answer in straight or curly
double quotes or guillemets (`normalise.quoted_strings`, the one quote grammar). It quotes
the passage named by the first `[source:ID]` marker after it in the same sentence, else
by the last marker before it in that sentence; a quote in a sentence without a marker
must stand in one of the passages the answer cites anywhere. Single quotes are not
quotes (they are far more often apostrophes).

"Stands in" is compared after normalising both sides the one way every check does
(`normalise.flatten`: case, whitespace, quote marks, dashes and Markdown markup do not
count). Punctuation at a quote's edges is the writer's and is ignored.

A structured answer's (id, quote) pairs are checked as they are (`answers`); only
plain text is read by these rules.

A quote must say something: an empty or whitespace-only quote, and one of fewer than
`MIN_QUOTE_WORDS` words (unless it is one long specific string), refuses the answer
(each with its reason).

A quote that checks out is reported with the file lines it spans, and with the
passage's own words, so no text of the model's reaches the outcome as a quote. The
reason a quote failed names it, cleaned and shortened (`shown_quote`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tui_assistant.core.checks.citations import CITATION_MARKER, cited_in
from tui_assistant.core.checks.normalise import EDGE_PUNCTUATION, flat, flatten, quoted_strings
from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import Quote
from tui_assistant.core.sentences import split_sentences

MAX_QUOTES = 20
MAX_QUOTE_CHARS = 1000
# One or two words ("the server", "10 grams") stand in almost any passage on the topic,
# so finding them proves next to nothing while the answer looks checked; three words is
# the shortest span that is usually a phrase of that passage alone. The sentences a
# structured answer may quote (`providers.prompt`) have at least as many. A shorter
# quote of this many characters is one specific string (a setting line, a URL, a long
# name: "@acme:registry=https://npm.acme.test/"), as particular as a phrase.
MIN_QUOTE_WORDS = 3
SPECIFIC_QUOTE_CHARS = 20
# How much of a failed quote its reason shows.
SHOWN_QUOTE_CHARS = 60

NOT_IN_PASSAGE = "quote not in the passage"
NOT_SENT = "a quote cites a passage it was not sent"
TOO_MANY = f"more than {MAX_QUOTES} quotes"
TOO_LONG = f"a quote is longer than {MAX_QUOTE_CHARS:,} characters"
EMPTY_QUOTE = "an empty quote"
SHORT_QUOTE = f"a quote of fewer than {MIN_QUOTE_WORDS} words"


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    """The checked quotes of an answer, or why one of them failed."""

    quotes: tuple[Quote, ...] = ()
    problem: str | None = None

    @property
    def accepted(self) -> bool:
        return self.problem is None


@dataclass(frozen=True, slots=True)
class QuotedSpan:
    """A quote as written in the answer, and where it is said to come from: one
    passage id, or every id the answer cites when its sentence has no marker."""

    text: str
    cites: tuple[str, ...]


def quoted_spans(answer: str, also_cited: Sequence[str] = ()) -> list[QuotedSpan]:
    """The quotes of `answer`, in order, by the rule in the module docstring;
    `also_cited` are passages the answer cites besides its own markers."""
    everywhere = tuple(dict.fromkeys([*cited_in(answer), *also_cited]))
    spans: list[QuotedSpan] = []
    for sentence in split_sentences(answer):
        markers = [(match.start(), match.group(1)) for match in CITATION_MARKER.finditer(sentence)]
        for quoted in quoted_strings(sentence):
            text = quoted.words
            if not text:
                continue
            after = [id_ for start, id_ in markers if start >= quoted.end]
            before = [id_ for start, id_ in markers if start < quoted.start]
            if after:
                cites: tuple[str, ...] = (after[0],)
            elif before:
                cites = (before[-1],)
            else:
                cites = everywhere
            spans.append(QuotedSpan(text, cites))
    return spans


def quote_problem(quotes: Sequence[str]) -> str | None:
    """The first rule a model's quotes break, whatever holds them: too many, one too
    long, one too short to check; None when they keep every rule."""
    if len(quotes) > MAX_QUOTES:
        return TOO_MANY
    if any(len(quote) > MAX_QUOTE_CHARS for quote in quotes):
        return TOO_LONG
    short = next((quote for quote in quotes if too_short(quote)), None)
    return short_quote(short) if short is not None else None


def check_quotes(
    answer: str, sent: Sequence[Passage], also_cited: Sequence[str] = ()
) -> QuoteCheck:
    """Every quote of `answer` found in the passage it cites among `sent`, or the first
    problem: too many quotes, one too long, one citing a passage not sent, one that
    is not there. `also_cited`: as for `quoted_spans`."""
    if any(not quoted.words for quoted in quoted_strings(answer)):
        return QuoteCheck(problem=EMPTY_QUOTE)
    spans = quoted_spans(answer, also_cited)
    problem = quote_problem([span.text for span in spans])
    if problem is not None:
        return QuoteCheck(problem=problem)
    by_id = {passage.id: passage for passage in sent}
    found: list[Quote] = []
    for span in spans:
        if not span.cites or any(id_ not in by_id for id_ in span.cites):
            return QuoteCheck(problem=NOT_SENT)
        quote = next(
            (q for q in (find_quote(span.text, by_id[id_]) for id_ in span.cites) if q), None
        )
        if quote is None:
            return QuoteCheck(problem=not_in_passage(span.text))
        found.append(quote)
    return QuoteCheck(tuple(dict.fromkeys(found)))


def too_short(quote: str) -> bool:
    """Whether `quote` (as every check reads it) has fewer than `MIN_QUOTE_WORDS` words
    and fewer than `SPECIFIC_QUOTE_CHARS` characters."""
    words = flat(quote.strip(EDGE_PUNCTUATION))
    return len(words.split()) < MIN_QUOTE_WORDS and len(words) < SPECIFIC_QUOTE_CHARS


def shown_quote(quote: str) -> str:
    """A quote of the model's as a reason names it: one safe line, shortened."""
    return '"' + shortened(one_line(quote), SHOWN_QUOTE_CHARS) + '"'


def not_in_passage(quote: str) -> str:
    """`quote not in the passage: "…"`."""
    return f"{NOT_IN_PASSAGE}: {shown_quote(quote)}"


def without_quote(problem: str) -> str:
    """A problem in the app's words alone, without the model's quote it may name
    (`quote not in the passage`): what a screen shows, where no unchecked model text
    goes; `ask --json` keeps the quote."""
    head, marker, _ = problem.partition(': "')
    return head if marker and problem.endswith('"') else problem


def short_quote(quote: str) -> str:
    """`a quote of fewer than 3 words: "…"`."""
    return f"{SHORT_QUOTE}: {shown_quote(quote)}"


def find_quote(quote: str, passage: Passage) -> Quote | None:
    """Where `quote` stands in `passage`'s text (normalised as above), as a `Quote` with
    the passage's own words and the file lines they span; None if it is not there or
    normalises to nothing."""
    wanted, _ = flatten(quote.strip(EDGE_PUNCTUATION))
    if not wanted:
        return None
    flat, origin = flatten(passage.text)
    position = flat.find(wanted)
    if position < 0:
        return None
    start, end = origin[position], origin[position + len(wanted) - 1] + 1
    first = first_text_line(passage)
    line = first + passage.text.count("\n", 0, start)
    end_line = first + passage.text.count("\n", 0, end - 1)
    return Quote(
        passage_id=passage.id,
        text=passage.text[start:end],
        line=line,
        end_line=end_line,
        page=passage.page_at(line),
        end_page=passage.page_at(end_line),
    )


def first_text_line(passage: Passage) -> int:
    """The file line of the passage text's first line.

    The text leaves out the heading line and blank lines around it, but keeps every
    line from its first to `end_line`, so it is counted back from there.
    """
    return max(passage.line, passage.end_line - passage.text.count("\n"))
