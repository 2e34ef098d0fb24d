"""The BM25F arithmetic of `ranked`: field weights and length effects, inverse
document frequency, the path field's postings, and the CJK seams a question's words
leave. Pure functions over numbers and a library's passage infos."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.words import content_words, is_cjk, stem

# BM25F parameters. b is the usual BM25 default; k1 = 1.5 sits inside the usual range
# (1.2 to 2.0), where the development sets' results were flat (docs/retrieval.md). The
# title weight matches `keyword` and the FTS5 peer.
SATURATION = 1.5
TITLE_LENGTH_EFFECT = 0.75
BODY_LENGTH_EFFECT = 0.75
TITLE_WEIGHT = 2.0
BODY_WEIGHT = 1.0
# The document's path (folder and file name words: `providers/aws/guide/functions.md`
# gives `providers aws guide functions`) is a third field, so a question's distinguishing
# word ("aws", "v2") decides between copies of a page that differ mainly by folder.
PATH_WEIGHT = 2.0
PATH_LENGTH_EFFECT = 0.75
# A passage's index terms (the book's index entries pointing to it, the terms of the
# reference entries it holds: `Passage.index_terms`) are a fourth field, weighted like
# its title: a reader looks a passage up by them as by its title.
TERMS_WEIGHT = 2.0
TERMS_LENGTH_EFFECT = 0.75
# The name `Library.tables` keeps the path field's postings under, built with `stem`.
PATH_POSTINGS = "path_postings:stem"


def path_words(document: str) -> list[str]:
    """The content words of a document's path: its folders and its file name without
    the extension (`providers/aws/guide/functions.md` -> providers, aws, guide, functions)."""
    stem_part, _, extension = document.rpartition(".")
    return content_words((stem_part if extension.isalpha() else document).replace("/", " "))


def path_postings(library: Library, key: KeyFunction) -> tuple[dict[str, list[int]], list[int]]:
    """Per key, the passage numbers whose document path holds it (ascending); and every
    passage's path length in words. Each document's path is read once."""
    kept = library.tables.get(PATH_POSTINGS) if key is stem else None
    if kept is not None:  # kept with the index, built from these passages
        return kept  # type: ignore[return-value]
    postings: dict[str, list[int]] = {}
    lengths: list[int] = []
    by_document: dict[str, list[str]] = {}
    for number in range(len(library)):
        document = library.info(number).document
        keys = by_document.get(document)
        if keys is None:
            keys = by_document[document] = list(dict.fromkeys(map(key, path_words(document))))
        lengths.append(len(keys))
        for found in keys:
            postings.setdefault(found, []).append(number)
    return postings, lengths


def terms_postings(
    library: Library, key: KeyFunction
) -> tuple[dict[str, list[tuple[int, int]]], list[int]]:
    """Per key, the (passage number, count) pairs of the passages whose index terms hold
    it (ascending); and every passage's index terms' length in words."""
    postings: dict[str, list[tuple[int, int]]] = {}
    lengths: list[int] = []
    for number in range(len(library)):
        terms = library.info(number).index_terms
        if not terms:  # most passages have none: no words, length 0
            lengths.append(0)
            continue
        words = [key(word) for word in content_words(" ".join(terms))]
        lengths.append(len(words))
        for found, count in Counter(words).items():
            postings.setdefault(found, []).append((number, count))
    return postings, lengths


def cjk_seams(question: str, key: KeyFunction, matched: set[str], unknown: set[str]) -> set[str]:
    """The question's CJK character pairs that no passage holds and that overlap a pair
    the best passage matched: the seam between two words (`具怎` of `刀具怎么` when the
    passage holds `刀具`), which says nothing about the topic.

    They leave the question's weight; any other CJK pair no passage holds weighs once,
    not twice: with no spaces, a pair across words is no sign of another topic.
    """
    sequence = [key(word) for word in content_words(question)]
    seams: set[str] = set()
    for index, pair in enumerate(sequence):
        if pair not in unknown or not is_cjk(pair):
            continue
        neighbours = sequence[max(index - 1, 0) : index] + sequence[index + 1 : index + 2]
        if any(
            neighbour in matched and (neighbour[-1] == pair[0] or neighbour[0] == pair[-1])
            for neighbour in neighbours
        ):
            seams.add(pair)
    return seams


def length_norms(lengths: Iterable[int], effect: float) -> list[float]:
    """1 - b + b * length / average length, per passage (1.0 everywhere for an empty field)."""
    values = list(lengths)
    average = sum(values) / len(values) if values else 0.0
    if average == 0:
        return [1.0] * len(values)
    return [1.0 - effect + effect * length / average for length in values]


def inverse_document_frequency(passage_count: int, document_frequency: int) -> float:
    """BM25's idf, kept positive: log(1 + (N - df + 0.5) / (df + 0.5))."""
    return math.log(1.0 + (passage_count - document_frequency + 0.5) / (document_frequency + 0.5))


def top_two(scores: dict[int, float]) -> tuple[int, int | None]:
    best: int | None = None
    runner_up: int | None = None
    for number, score in scores.items():
        if best is None or (score, -number) > (scores[best], -best):
            best, runner_up = number, best
        elif runner_up is None or (score, -number) > (scores[runner_up], -runner_up):
            runner_up = number
    assert best is not None
    return best, runner_up
