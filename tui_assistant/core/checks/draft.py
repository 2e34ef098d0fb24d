"""Checking someone else's draft answer against the whole library.

A coding agent writes an answer citing `[source:ID]` and quoting in double quotes, and
asks whether it holds. The verdict uses the rules the app applies to its own model's
answers, with one difference: any passage of the library may be cited, not only the
ones a question was sent with. So:

- `answers.check_plain_answer` with every cited passage the library has as if it had
  been sent: at least one marker, each one spelled `[source:ID]` with a known ID, and
  every quote standing in the passage it cites; that is `verified`. Each citation and
  each quote is also reported on its own (found or not, with its file lines);
- `check_support` against the cited passages: the sentences they do not back,
  reported beside the verdict. Pure: the library is a lookup function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tui_assistant.core.checks.answer import check_plain_answer
from tui_assistant.core.checks.citations import CITATION_MARKER, NOT_GIVEN, cited_in
from tui_assistant.core.checks.quotes import (
    MAX_QUOTE_CHARS,
    find_quote,
    quoted_spans,
    shown_quote,
)
from tui_assistant.core.checks.support import check_support
from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.passage import Passage, location
from tui_assistant.core.library.library import Library
from tui_assistant.core.outcome import Quote
from tui_assistant.core.retrieval.types import question_keys

# Looks a passage up by id; None when the library has no such passage.
PassageLookup = Callable[[str], Passage | None]

# Ids and markers echoed in a problem line are cut to this many characters (a quote is
# shown as every check shows it, `shown_quote`).
_SHOWN_CHARS = 80


@dataclass(frozen=True, slots=True)
class CitedId:
    id: str
    known: bool


# Where a quote stands in the library, whatever it cites: the passage it is in, with
# the file lines of the quoted words; None when it stands nowhere.
QuoteLocator = Callable[[str], tuple[Passage, Quote] | None]


@dataclass(frozen=True, slots=True)
class CheckedQuote:
    """One quote of the draft as written, and where it stands: the passage and the
    file lines, or `found` False (then `passage_id` is the passage it cites, if any,
    and `elsewhere` the passage and lines where it does stand, if anywhere)."""

    text: str
    passage_id: str | None
    found: bool
    line: int | None = None
    end_line: int | None = None
    elsewhere: tuple[Passage, Quote] | None = None
    page: int | None = None
    end_page: int | None = None


@dataclass(frozen=True, slots=True)
class DraftCheck:
    verified: bool
    citations: tuple[CitedId, ...]
    quotes: tuple[CheckedQuote, ...]
    unsupported_sentences: tuple[str, ...]
    problems: tuple[str, ...]


def check_draft(
    answer: str, lookup: PassageLookup, locate: QuoteLocator | None = None
) -> DraftCheck:
    """The verdict on `answer`, each citation and each quote, against the library
    that `lookup` reads; a quote not in the passage it cites is looked for in the
    whole library with `locate`, so the draft can cite where it really is."""
    cited_ids = list(dict.fromkeys(cited_in(answer)))
    cited = {id_: passage for id_ in cited_ids if (passage := lookup(id_)) is not None}
    citations = tuple(CitedId(id_, id_ in cited) for id_ in cited_ids)
    passages = list(cited.values())
    problems: list[str] = []

    # The app's own check of a plain answer, with every cited passage of the library
    # as if it had been sent; the lines below say which citation or quote failed.
    verdict = check_plain_answer(answer, passages, with_support=False)
    problems.extend(
        f"cites {_shown(c.id)}, which is not a passage of the library"
        for c in citations
        if not c.known
    )
    quotes = tuple(_check_quote(text, cites, cited, locate) for text, cites in _spans(answer))
    for quote in quotes:
        if not quote.found:
            where = (
                f"the passage it cites ({quote.passage_id})"
                if quote.passage_id
                else "a cited passage"
            )
            problem = f"quote {shown_quote(quote.text)} is not in {where}"
            if quote.elsewhere is not None:
                passage, found = quote.elsewhere
                problem += f"; found at {_location(passage, found)}, passage {passage.id}"
            problems.append(problem)
    if not verdict.accepted and not problems:
        # Blank, no citation, a marker not written exactly, too many or too long quotes.
        problems.append(_citation_problem(answer, verdict.problem))

    unsupported: tuple[str, ...] = ()
    if answer.strip():
        unsupported = check_support(answer, passages).unsupported_sentences
    if unsupported:
        count = len(unsupported)
        problems.append(
            f"{count} sentence{'' if count == 1 else 's'} not backed by the passages cited"
        )
    return DraftCheck(
        verified=verdict.accepted,
        citations=citations,
        quotes=quotes,
        unsupported_sentences=unsupported,
        problems=tuple(problems),
    )


def _location(passage: Passage, found: Quote) -> str:
    return location(passage.source_path, found.line, found.end_line, found.page, found.end_page)


def _spans(answer: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(span.text, span.cites) for span in quoted_spans(answer)]


def _check_quote(
    text: str, cites: tuple[str, ...], cited: dict[str, Passage], locate: QuoteLocator | None
) -> CheckedQuote:
    """Where one quote stands among the passages it cites (the rule of `check_quotes`:
    all of them must be known, and it must stand in one), else in the library."""
    if cites and all(id_ in cited for id_ in cites):
        for id_ in cites:
            found = find_quote(text, cited[id_])
            if found is not None:
                return CheckedQuote(
                    text,
                    id_,
                    True,
                    found.line,
                    found.end_line,
                    page=found.page,
                    end_page=found.end_page,
                )
    elsewhere = locate(text) if locate is not None else None
    return CheckedQuote(text, cites[0] if len(cites) == 1 else None, False, elsewhere=elsewhere)


def quote_locator(library: Library) -> QuoteLocator:
    """Where a quote stands in `library`: the first passage, in library order, that holds
    it. Only passages whose text holds every content word of the quote are read."""

    def locate(text: str) -> tuple[Passage, Quote] | None:
        if len(text) > MAX_QUOTE_CHARS:
            return None
        index = library.index
        keys = question_keys(text, index.key)
        if not keys:
            return None  # no word to look it up by
        holding: set[int] | None = None
        for postings in sorted((index.body(key).numbers for key in keys), key=len):
            holding = set(postings) if holding is None else holding.intersection(postings)
            if not holding:
                return None
        assert holding is not None
        for number in sorted(holding, key=library.positions.__getitem__):
            passage = library.passage(number)
            found = find_quote(text, passage)
            if found is not None:
                return passage, found
        return None

    return locate


def _citation_problem(answer: str, problem: str | None) -> str:
    """The citation rule's problem, in the words of a draft checked against the library."""
    if problem == NOT_GIVEN:
        written = next(
            (
                m.group(0)
                for m in CITATION_MARKER.finditer(answer)
                if m.group(0) != f"[source:{m.group(1)}]"
            ),
            None,
        )
        if written is not None:
            return f"citation {_shown(written)} is not written exactly as [source:ID]"
    return str(problem)


def _shown(text: str) -> str:
    """An id or marker of the draft's, as a problem names it: one safe line, shortened."""
    return shortened(one_line(text), _SHOWN_CHARS)
