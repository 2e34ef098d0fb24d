"""Ranked retrieval: BM25F over the shared index, with refusal by confidence.

`TUI_ASSISTANT_RETRIEVAL=ranked`. The keyword rule counts distinct matching words, so
on a library of hundreds of passages most questions tie at the best count and are
refused. Here every passage sharing a question word gets a BM25F score: a word counts
for more when it is rare in the library (inverse document frequency), when it is in
the title or the passage's index terms (weighted like `keyword`, title 2 to body 1), and
when it is a larger share of a short passage; repeats saturate, so one word cannot win
on repetition alone.

A score always has a best passage, so the product's promise (one passage or an honest
refusal) rests on how sure the ranking is (`core.confidence`): the best passage's lead
over the runner-up, its score against the most the question's words could score, and
the share of the question's word weight it matches (each word weighted by its inverse
document frequency; a question word that no passage holds counts twice, since it is
also a sign that the question is about something the library does not cover). A sure
question is answered; one whose best passages are close to each other (an exact tie,
say) is refused as ambiguous with those candidates; any other is refused.

Question words go through the same `normalise` as the index, plus a few extra words
that are frequent in questions and say nothing about the topic; those are dropped only
here, so `keyword` results never change.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import chain

from tui_assistant.core.documents.formats import format_of
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.asides import aside_keys
from tui_assistant.core.retrieval.bm25f import (
    BODY_LENGTH_EFFECT,
    BODY_WEIGHT,
    PATH_LENGTH_EFFECT,
    PATH_WEIGHT,
    SATURATION,
    TERMS_LENGTH_EFFECT,
    TERMS_WEIGHT,
    TITLE_LENGTH_EFFECT,
    TITLE_WEIGHT,
    cjk_seams,
    inverse_document_frequency,
    length_norms,
    path_postings,
    terms_postings,
    top_two,
)
from tui_assistant.core.retrieval.confidence import (
    CLOSE_SCORE_SHARE,
    SENT_SCORE_SHARE,
    Assessment,
    ConfidenceModel,
    Signals,
    assess,
    conclude,
)
from tui_assistant.core.retrieval.fitted import RANKED_MODEL, RANKED_SECTION_WEIGHTS
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.named import named_in, named_index
from tui_assistant.core.retrieval.sections import (
    RERANK_DEPTH,
    Marks,
    SectionWeights,
    order_sections,
)
from tui_assistant.core.retrieval.spelling import Spelling, correct_as_typed, slip_of_stopword
from tui_assistant.core.retrieval.types import (
    NEAREST_SHOWN,
    NO_SHARED_WORD,
    Evidence,
    Mode,
    NoEvidence,
    Ranking,
    Search,
    best_numbers,
)
from tui_assistant.core.retrieval.word_pairs import question_pairs
from tui_assistant.core.words import STOPWORDS, content_words, is_cjk, normalise_distinct, stem

# Words that frame a question without naming its topic ("I'm trying to...", "is it
# possible to make...", "how often should I...", "hey ... thanks"), dropped from ranked
# questions, with the stopwords people type without their apostrophe ("dont", "cant").
# Chosen from how questions are phrased, not from the development sets' failures;
# `normalise` already drops how/why/can/does/what. Ranked-only, so `keyword` results
# never change.
QUESTION_WORDS: frozenset[str] = frozenset(
    """
    i'm i've i'd i'll you're you've you'd you'll we're we've they're they've
    he's she's it'll what's where's who's how's there's here's let's
    know think wonder wondering try trying tried seem seems
    go going goes make makes making made possible
    anyone anybody someone somebody something anything thing things
    sure actually hi hello hey thanks thank thx ty pls plz sorry
    often usually typically normally generally properly correctly exactly basically ok okay
    im ive youre theyre
    """.split()
)
# Compared as normalised keys, so inflections ("thinking", "tries") are dropped too.
_QUESTION_KEYS = normalise_distinct(
    " ".join([*QUESTION_WORDS, *(word.replace("'", "") for word in STOPWORDS if "'" in word)])
)
# Phrases that frame a question ("when is the best time to prune", "is there a way to
# skip") or only ask for help ("quick question:", "any ideas?", "thanks in advance"),
# dropped as a whole: their words alone ("time", "best", "question", "advance") can
# name a topic, and a word no passage holds counts against the question.
_FRAMING_PHRASES = (
    r"(?:the\s+)?(?:best|right|correct|proper|recommended|easiest|simplest)\s+"
    r"(?:time|way|moment|place)\s+(?:to|for)",
    r"is\s+there\s+(?:a|any)\s+way\s+to",
    r"what\s+(?:kind|sort)s?\s+of",
    r"(?:quick|dumb|stupid|silly|noob|newbie|beginner)\s+question",
    r"any\s+(?:ideas?|hints?|tips|suggestions|pointers)",
    r"(?:thanks|thank\s+you|thx|ty)\s+in\s+advance",
    r"(?:i\s+have\s+)?no\s+idea",
    r"figure\s+(?:(?:this|it)\s+)?out",
    r"if\s+(?:that|it)\s+matters",
)
FRAMING = re.compile(r"\b(?:" + "|".join(_FRAMING_PHRASES) + r")\b", re.IGNORECASE)


# How far ahead of the best word score a passage named by its API name is put.
NAMED_LEAD = 1.0
# At most this many of a question's words are tried as typed (`correct_as_typed`, a few
# hundred look-ups each): a question with more words no passage holds is not mistyped,
# it is about something else, and a pasted wall of them must stay cheap.
MAX_TRIED_AS_TYPED = 10


class RankedRetriever:
    """BM25F scores over the postings of the question's words; refuses unless confident."""

    key: KeyFunction = staticmethod(stem)
    mode: Mode = "ranked"

    def __init__(
        self,
        library: Library,
        model: ConfidenceModel = RANKED_MODEL,
        sections: SectionWeights = RANKED_SECTION_WEIGHTS,
        correct_spelling: bool = True,
    ) -> None:
        self.library = library
        self.index = library.index
        self.model = model
        self.sections = sections
        self.marks = Marks.of(library, self.key)
        self.correct_spelling = correct_spelling
        self._spelling: Spelling | None = None  # built at the first unknown word
        # Per-passage length normalisers, computed once so a question only walks postings.
        self._title_norms = length_norms(self.index.title_lengths, TITLE_LENGTH_EFFECT)
        self._body_norms = length_norms(self.index.body_lengths, BODY_LENGTH_EFFECT)
        self._path, path_lengths = path_postings(library, self.key)
        self._path_norms = length_norms(path_lengths, PATH_LENGTH_EFFECT)
        self._terms, terms_lengths = terms_postings(library, self.key)
        self._terms_norms = length_norms(terms_lengths, TERMS_LENGTH_EFFECT)
        infos = [library.info(number) for number in range(len(library))]
        self._named = named_index(
            (number, info.title)
            for number, info in enumerate(infos)
            if _documents_api(info.source_path)
        )
        # Each passage's document, as a small number, to tell a document's own words.
        places: dict[str, int] = {}
        self._document_of = [places.setdefault(info.document, len(places)) for info in infos]

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        return self.search(question, count, 0).found

    def search(self, question: str, count: int, limit: int) -> Search:
        """The verdict, and the best `limit` passages by BM25F score, best first."""
        ranking = self.rank(question)
        if ranking is None:
            return Search(NoEvidence(NO_SHARED_WORD, mode=self.mode))
        assessment = self.assess(ranking, max(count, NEAREST_SHOWN))
        scores = ranking.scores
        order = assessment.order
        shown = [*order, *(n for n in best_numbers(scores, limit) if n not in order)][:limit]
        scored = tuple((number, round(scores[number], 4)) for number in shown)
        best = order[0]
        found = conclude(
            self.library,
            assessment,
            count,
            matched_words=tuple(ranking.matched[best]),
            score=round(scores[best], 4),
            runner_up_score=round(scores[order[1]], 4) if len(order) > 1 else None,
            mode=self.mode,
            read_words=tuple(ranking.weights),
        )
        return Search(found, scored)

    def spelt(self, written: Mapping[str, str]) -> dict[str, str | None]:
        """Each key of `written` (key: the word it was written as) as it is read: one no
        passage holds as the library's key one typing slip away, or the key of the word
        one slip from the word as written, if there is one (`spelling`), or else None
        when it is a stopword mistyped ("shuld", "sholud"); any other as it is."""
        found: dict[str, str | None] = {}
        tries = MAX_TRIED_AS_TYPED
        for key, word in written.items():
            read: str | None = key
            if self.correct_spelling and not self.holds(key):
                if self._spelling is None:
                    self._spelling = Spelling(self.index.keys())
                corrected = self._spelling.correct(key, self.frequency)
                if corrected is None and tries > 0:
                    tries -= 1
                    corrected = correct_as_typed(word, self.key, self.frequency)
                read = None if corrected is None and slip_of_stopword(key) else corrected or key
            found[key] = read
        return found

    def document_words(self, ranking: Ranking, number: int) -> int:
        """How many of the question's words passage `number` holds that no passage of
        another document holds (in its title, body or path)."""
        document = self._document_of[number]
        found = 0
        for key in ranking.matched.get(number, ()):
            holders = chain(
                self.index.holders(key),
                self._path.get(key, ()),
                (number for number, _ in self._terms.get(key, ())),
            )
            found += all(self._document_of[other] == document for other in holders)
        return found

    def holds(self, key: str) -> bool:
        """Whether some passage holds `key` (in its title, body or path)."""
        return bool(self.frequency(key)) or key in self._path or key in self._terms

    def frequency(self, key: str) -> int:
        """How many passages hold `key` in their title or body (counted once per field)."""
        return len(self.index.title(key).numbers) + len(self.index.body(key).numbers)

    def order(self, ranking: Ranking, depth: int = NEAREST_SHOWN) -> tuple[list[int], float]:
        """The scored passages, best first (at least `depth`, if that many scored): the
        first `RERANK_DEPTH` by their section score (`sections`, without meaning), the
        rest by word score; and the best section score's lead over the next."""
        lexical = best_numbers(ranking.scores, max(depth, RERANK_DEPTH))
        head, lead = order_sections(
            lexical[:RERANK_DEPTH], None, ranking, self.marks, self.sections
        )
        return head + lexical[RERANK_DEPTH:], lead

    def assess(self, ranking: Ranking, depth: int = NEAREST_SHOWN) -> Assessment:
        """The ranking judged by the confidence model: answer, candidates, or refusal."""
        order, lead = self.order(ranking, depth)
        scores = ranking.scores
        closeness = [scores[number] / ranking.score for number in order]
        signals = replace(
            word_signals(ranking, order[0]),
            section_lead=lead,
            document_words=float(self.document_words(ranking, order[0])),
        )
        tied = len(order) > 1 and lead == 0.0 and scores[order[0]] == scores[order[1]]
        return assess(
            self.model, order, closeness, CLOSE_SCORE_SHARE, signals, tied, SENT_SCORE_SHARE
        )

    def rank(self, question: str) -> Ranking | None:
        """The best-scoring passage and its confidence numbers; None when no passage matches."""
        asked = FRAMING.sub(" ", question)
        written: dict[str, str] = {}
        for word in content_words(asked):
            written.setdefault(self.key(word), word)
        read = self.spelt({k: word for k, word in written.items() if k not in _QUESTION_KEYS})
        keys = list(dict.fromkeys(key for key in read.values() if key is not None))
        passage_count = len(self.index)
        if not keys or passage_count == 0:
            return None
        scores: dict[int, float] = {}
        matched: dict[int, list[str]] = {}
        weights: dict[str, float] = {}
        matched_anywhere: set[str] = set()
        in_title: dict[int, list[str]] = {}
        for key in keys:
            title = self.index.title(key)
            body = self.index.body(key)
            # Pseudo term frequency per passage: field counts, weighted and length-normalised.
            frequency: dict[int, float] = {}
            for number, count in zip(title.numbers, title.counts, strict=True):
                frequency[number] = TITLE_WEIGHT * count / self._title_norms[number]
                in_title.setdefault(number, []).append(key)
            for number, count in zip(body.numbers, body.counts, strict=True):
                frequency[number] = (
                    frequency.get(number, 0.0) + BODY_WEIGHT * count / self._body_norms[number]
                )
            if PATH_WEIGHT:
                path_norms = self._path_norms
                for number in self._path.get(key, ()):
                    frequency[number] = (
                        frequency.get(number, 0.0) + PATH_WEIGHT / path_norms[number]
                    )
            terms_norms = self._terms_norms
            for number, count in self._terms.get(key, ()):
                # Title-like: a section's title share counts its index terms too.
                frequency[number] = (
                    frequency.get(number, 0.0) + TERMS_WEIGHT * count / terms_norms[number]
                )
                if key not in in_title.get(number, ()):
                    in_title.setdefault(number, []).append(key)
            weight = weights[key] = inverse_document_frequency(passage_count, len(frequency))
            if frequency:
                matched_anywhere.add(key)
            for number, pseudo_count in frequency.items():
                gain = weight * pseudo_count / (SATURATION + pseudo_count)
                scores[number] = scores.get(number, 0.0) + gain
                matched.setdefault(number, []).append(key)
        if not scores:
            return None
        # A passage the question names by its API name comes first (Python source only).
        named = named_in(question, self._named) if self._named else []
        if named:
            top = max(scores.values())
            # Named exactly, the object is what the question's words are about.
            held = [key for key in weights if key in matched_anywhere]
            for position, number in enumerate(named):
                scores[number] = top * (1.0 + NAMED_LEAD * (len(named) - position))
                matched[number] = held
        # Highest score first; equal scores in passage order, so results are repeatable.
        best, runner_up = top_two(scores)
        best_score = scores[best]
        runner_up_score = None if runner_up is None else scores[runner_up]
        margin = 1.0 if runner_up_score is None else (best_score - runner_up_score) / best_score
        # Words no passage holds weigh twice: once unmatched, once as off-library evidence.
        unknown = tuple(key for key in keys if key not in matched_anywhere)
        asides = aside_keys(asked, self.key, read, matched_anywhere)
        seams = cjk_seams(question, self.key, set(matched[best]), set(unknown))
        total_weight = sum(weight for key, weight in weights.items() if key not in seams) + sum(
            weights[key] for key in unknown if not is_cjk(key)
        )
        matched_weight = sum(weights[key] for key in matched[best])
        return Ranking(
            passage_number=best,
            matched_words=tuple(matched[best]),
            score=best_score,
            runner_up_score=runner_up_score,
            margin=margin,
            matched_share=matched_weight / total_weight,
            unknown_words=unknown,
            aside_words=tuple(key for key in keys if key in asides),
            scores=scores,
            matched=matched,
            weights=weights,
            total_weight=total_weight,
            key_count=len(keys),
            in_title=in_title,
            rarest_weight=inverse_document_frequency(passage_count, 1),
            pairs=question_pairs(
                asked,
                self.key,
                weights,
                lambda key: read.get(key, key),
                _QUESTION_KEYS.__contains__,
            ),
        )


def word_signals(ranking: Ranking | None, best: int, order: Sequence[int] | None = None) -> Signals:
    """The word ranking's signals about passage `best`: its lead over the best other
    passage (over the top word score), and the shares of the question's words it
    matches and that no passage holds. `order`: the word ranking, best first (by
    default computed from the scores)."""
    if ranking is None or not ranking.scores:
        return Signals()
    scores = ranking.scores
    if order is None:
        order = best_numbers(scores, 2)
    top = scores[order[0]]
    other = next((number for number in order if number != best), None)
    own = scores.get(best, 0.0)
    return Signals(
        word_lead=(own - (scores[other] if other is not None else 0.0)) / top,
        matched_share=ranking.share_of(best),
        known_share=ranking.known_share_of(best),
        unknown_share=ranking.unknown_share,
        title_share=ranking.title_share_of(best),
        evidence=ranking.evidence_of(best),
        title_evidence=ranking.evidence_of(best, title_only=True),
        sole_match=float(ranking.sole_holder(best)),
        own_words=float(ranking.own_words_of(best)),
    )


def _documents_api(source_path: str) -> bool:
    """Whether the passage's file documents named API objects (Python source)."""
    format = format_of(source_path)
    return format is not None and format.documents_api
