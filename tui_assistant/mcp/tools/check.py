"""The `check` tool: a draft answer's citations and quotes checked against the library,
as the app checks a model's answer (`core.checks.draft`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from tui_assistant.core.checks.citations import MAX_ANSWER_CHARS
from tui_assistant.core.checks.draft import CheckedQuote, check_draft, quote_locator
from tui_assistant.wiring.library_tools import LibraryTools

Answer = Annotated[
    str,
    Field(
        strict=True,
        max_length=MAX_ANSWER_CHARS,
        description="the draft answer, citing [source:ID] after what each passage backs and "
        f"quoting passages in double quotes; at most {MAX_ANSWER_CHARS:,} characters",
    ),
]


class CitationResult(BaseModel):
    id: str
    known: bool = Field(description="whether the library has a passage with this id")


class FoundElsewhere(BaseModel):
    """Where a quote that is not in the passage it cites does stand in the library."""

    passage_id: str = Field(description="the passage that holds it: cite this one")
    source_path: str
    line: int = Field(description="first file line of the quoted words")
    end_line: int = Field(description="last file line of the quoted words")
    page: int | None = Field(default=None, description="the page of `line`, for a PDF")
    end_page: int | None = Field(default=None, description="the page of `end_line`, for a PDF")


class QuoteResult(BaseModel):
    text: str = Field(description="the quote as the draft writes it")
    passage_id: str | None = Field(description="the passage it stands in, or the one it cites")
    found: bool = Field(description="whether it stands in the passage it cites")
    line: int | None = Field(description="first file line of the quoted words, when found")
    end_line: int | None = Field(description="last file line of the quoted words, when found")
    page: int | None = Field(default=None, description="the page of `line`, for a PDF")
    end_page: int | None = Field(default=None, description="the page of `end_line`, for a PDF")
    found_elsewhere: FoundElsewhere | None = Field(
        default=None,
        description="when not found: the passage and lines where it stands in the library "
        "(null: nowhere)",
    )


class CheckResult(BaseModel):
    verified: bool = Field(
        description="at least one citation, every cited id a passage of the library, "
        "every quote in the passage it cites"
    )
    citations: list[CitationResult]
    quotes: list[QuoteResult]
    unsupported_sentences: list[str] = Field(
        description="sentences the passages they cite do not back (the support check)"
    )
    problems: list[str] = Field(description="one plain line per failed rule")


def check(tools: LibraryTools, answer: Answer) -> CheckResult:
    """Check a draft answer's [source:ID] citations and quotes before you give it.

    Every [source:ID] citation must name a passage of the library, and every
    double-quoted quote must stand in the passage it cites (whitespace, case and quote
    marks aside). Returns `verified`, each citation (known or not), each quote (found or
    not, with its file lines), the sentences the cited passages do not back, and one
    line per problem. Fix the draft until `verified` is true and no sentence is
    unsupported.
    """
    library = tools.context.library
    verdict = check_draft(answer, library.get, quote_locator(library))
    return CheckResult(
        verified=verdict.verified,
        citations=[CitationResult(id=c.id, known=c.known) for c in verdict.citations],
        quotes=[
            QuoteResult(
                text=q.text,
                passage_id=q.passage_id,
                found=q.found,
                line=q.line,
                end_line=q.end_line,
                page=q.page,
                end_page=q.end_page,
                found_elsewhere=_elsewhere(q),
            )
            for q in verdict.quotes
        ],
        unsupported_sentences=list(verdict.unsupported_sentences),
        problems=list(verdict.problems),
    )


def _elsewhere(quote: CheckedQuote) -> FoundElsewhere | None:
    if quote.elsewhere is None:
        return None
    passage, found = quote.elsewhere
    return FoundElsewhere(
        passage_id=passage.id,
        source_path=passage.source_path,
        line=found.line,
        end_line=found.end_line,
        page=found.page,
        end_page=found.end_page,
    )
