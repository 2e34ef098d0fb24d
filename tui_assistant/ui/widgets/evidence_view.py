"""The evidence panel's view model: which passages it lists for an outcome, in which
order and under which role, the words each is said to match, its header line, where a
fetched library's passage comes from and its score in words. Pure: tested without an
app (`tests/ui/test_evidence_view.py`)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.documents.place import place_in_file
from tui_assistant.core.outcome import Outcome, Quote
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.core.words import WORD, content_words, stem
from tui_assistant.ui.widgets.markdown_view import highlight_spans
from tui_assistant.ui.widgets.untrusted_text import one_line
from tui_assistant.wiring.origins import FetchedOrigin

# How a listed passage is named in its header: one of an unsure question's possible
# passages, or one of a refusal's closest.
POSSIBLE = "possible passage"
CLOSEST = "closest"
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")


def ordered_passages(outcome: Outcome) -> tuple[tuple[Passage, ...], tuple[str, ...]]:
    """The passages behind an outcome and each one's role: for an answer the cited ones
    first (in citation order), then the others it was built from (`not cited`); for an
    outcome that is not an answer, each a `candidate`. Each passage once."""
    evidence = outcome.evidence
    cited = set(outcome.citations) if outcome.answered else set()
    others = (*outcome.passages, *(evidence.passages if evidence else ()))
    by_id = {passage.id: passage for passage in others}
    ordered = [by_id[id_] for id_ in outcome.citations if id_ in by_id and id_ in cited]
    ordered += [passage for passage in others if passage.id not in cited]
    passages = tuple({passage.id: passage for passage in ordered}.values())
    roles = tuple(
        "cited" if passage.id in cited else ("not cited" if outcome.answered else "candidate")
        for passage in passages
    )
    return passages, roles


def matched_details(
    passages: Iterable[Passage],
    keys: Collection[str],
    question: str | None,
    details: Mapping[str, str],
) -> dict[str, str]:
    """`details` (by passage id) with each passage's own matched words added: the
    question's words (as typed) whose keys its title or text holds, then a key the
    question holds no word of (a mistyped word read as the library's) as the passage
    writes it, in lower case ("tesitng" read as `test`: "testing")."""
    found = dict(details)
    typed = {stem(word) for word in content_words(question)} if question else set()
    for passage in passages:
        held = f"{passage.title}\n{passage.text}"
        spans = {key: highlight_spans(held, [key]) for key in keys}
        own = [key for key in keys if spans[key]]
        words = question_words(question, own) if question else own
        if question:
            words += [held[slice(*spans[key][0])].lower() for key in own if key not in typed]
        if words:
            parts = [found.get(passage.id, ""), "matched: " + ", ".join(words)]
            found[passage.id] = " · ".join(filter(None, parts))
    return found


@dataclass(frozen=True, slots=True)
class Header:
    """The line above a passage (`step`: its place and role) and its details line."""

    step: str
    details: str


def passage_header(listed_as: str, position: int, count: int, role: str, details: str) -> Header:
    """`possible passage 2/3 · matched: …`, `3/4 · not cited`: where the open passage
    stands in the list and what it is. A possible passage has one line above its text
    (the list beside it holds its title and place), so its details take the role's place."""
    listed = f"{listed_as} " if listed_as else ""
    step = f"{listed}{position + 1}/{count}"
    if listed_as == POSSIBLE:
        role, details = details, ""
    return Header(" · ".join(filter(None, [step, role])), details)


def location_suffix(passage: Passage) -> str:
    """`:line–end_line`, or a PDF passage's ` p. 12–13` (`place.place_in_file`)."""
    return place_in_file(passage.line, passage.end_line, passage.page, passage.end_page)


def origin_line(origin: FetchedOrigin | None, url: str | None = None) -> str:
    """Where a passage comes from: `from attrs 24.2.0 (pypi, fetched 2026-12-05)`, a
    repository's `from tool@v2.0 (git, fetched …)`, a website's page by its URL
    (`from https://… (web, fetched …)`); "" for a folder library's passage."""
    if origin is None:
        return f"from {url}" if url else ""
    if url:
        source = url
    elif origin.origin == "git" and origin.version:
        source = f"{origin.package}@{origin.version}"
    else:
        source = " ".join(filter(None, [origin.package, origin.version]))
    day = origin.fetched_at
    if day and _DAY.match(day):
        day = day[:10]  # the day says how fresh it is; the time of day adds nothing
    facts = ", ".join(filter(None, [origin.origin, f"fetched {day}" if day else ""]))
    return f"from {source} ({facts})" if facts else f"from {source}"


def question_words(
    question: str, matched_keys: Collection[str], key: KeyFunction = stem
) -> list[str]:
    """The question's own words (as typed, first spelling of each) whose retrieval key is
    one of `matched_keys`: `scopes` and `packages`, not the stems `scop` and `packag`."""
    keys = set(matched_keys)
    shown: dict[str, str] = {}
    for match in WORD.finditer(one_line(question)):
        for word in content_words(match.group()):
            found = key(word)
            if found in keys and found not in shown:
                shown[found] = match.group()
    return list(shown.values())


def quoted_lines(passage: Passage, quotes: Iterable[Quote]) -> list[tuple[int, int]]:
    """The quotes of `passage` as 0-based, inclusive line ranges of its text.

    A passage's text ends on its `end_line` (its first line may be a heading the text
    leaves out), so text line `i` is file line `end_line - (lines - 1) + i`.
    """
    first = passage.end_line - passage.text.count("\n")
    return [
        (quote.line - first, quote.end_line - first)
        for quote in quotes
        if quote.passage_id == passage.id
    ]


def score_text(evidence: Evidence) -> str:
    """Why the chosen passage won, in figures a reader can compare.

    In hybrid the order is the fused ranking of words and meaning while the score is
    the cosine similarity, so the next passage's cosine can be the higher one: it is
    not shown. In the lexical modes the order is the score's, best first, so the next
    passage's score is shown beside it."""
    sure = "" if evidence.confidence is None else f"; confidence {evidence.confidence:.2f}"
    if evidence.model_picks:
        return f"a candidate the model cited{sure}"
    if evidence.mode == "hybrid":
        return f"best match of words and meaning (cosine {evidence.score:.2f}{sure})"
    name = "BM25" if evidence.mode == "ranked" else "score"
    text = f"best match ({name} {_figure(evidence.score)}"
    if evidence.runner_up_score is not None:
        text += f", next {_figure(evidence.runner_up_score)}"
    return text + sure + ")"


def _figure(score: float) -> str:
    return f"{score:g}" if float(score).is_integer() else f"{score:.2f}"
