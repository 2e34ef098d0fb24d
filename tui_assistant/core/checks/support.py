"""The sentence-level support check: is each sentence of a model answer backed by its passages?

The citation check only proves that an answer names passages it was given. This check
asks, sentence by sentence, whether what the answer says can be found in the passages
that sentence cites (a sentence without a marker: the passages the answer cites).
It is deterministic, local and model-free, so it is cheap enough to run on every answer
and its verdict can be explained to a reader:

- a sentence is *judged* when it has at least `MIN_JUDGED_WORDS` distinct content words
  (the same stopwords and stemming as retrieval, via `normalise`); shorter ones such as
  "Yes." carry too few words for an overlap ratio to mean anything;
- a judged sentence needs at least `SUPPORT_THRESHOLD` of its distinct content words in
  the passage (the value is measured by `scripts/measure_support_threshold.py`);
- every number in any sentence must occur in the passage: a changed quantity keeps almost
  all of a sentence's words, so only an exact check catches it;
- every quoted string (the one quote grammar, `normalise.quoted_strings`) of
  `MIN_QUOTE_CHARS` or more characters must occur in the passage, both sides normalised
  as every check normalises them (`normalise.flat`: case, whitespace, quote marks,
  dashes and Markdown markup do not count).

The number and quote checks apply to short sentences too: they are exact, so they do not
suffer from the small sample that makes an overlap ratio meaningless ("About 20 grams."
must not slip through because it is short).

Citation markers are removed before scoring. Each reported sentence is an exact substring
of the answer, so a display can find and mark it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tui_assistant.core.checks.citations import cited_in, strip_citations
from tui_assistant.core.checks.normalise import flat, quoted_strings
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import SupportReport
from tui_assistant.core.sentences import split_sentences
from tui_assistant.core.words import match_keys, normalise_distinct, stem

# What the app does with the check: nothing, flag unsupported sentences, or refuse
# an answer that has one (the setting `TUI_ASSISTANT_SUPPORT_CHECK`).
SupportMode = Literal["off", "warn", "strict"]

# Chosen from the measurements in docs/evaluation.md (scripts/measure_support_threshold.py).
SUPPORT_THRESHOLD = 0.55
MIN_JUDGED_WORDS = 3
MIN_QUOTE_CHARS = 8

# Words that describe the passage rather than claim anything about the world ("According
# to the passage, ..."); they are not expected to occur in the passage itself.
_META_WORDS: frozenset[str] = frozenset(
    stem(word)
    for word in (
        "according",
        "lesson",
        "passage",
        "document",
        "source",
        "text",
        "says",
        "states",
        "mentions",
        "explains",
        "notes",
        "suggests",
        "recommends",
        "advises",
    )
)


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")

_UNITS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_NUMBER_WORDS: dict[str, int] = {
    **_UNITS,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_COMPOUND_NUMBER = re.compile(rf"\b({_TENS})[- ](one|{'|'.join(_UNITS)})\b")
# "one" is left out of the answer's numbers: "a sharp one" is not a quantity. A passage's
# "one" still counts, so an answer's "1 minute" is backed by "one minute".
_ANSWER_NUMBER_WORD = re.compile(rf"\b({'|'.join(_NUMBER_WORDS)})\b")
_PASSAGE_NUMBER_WORD = re.compile(rf"\b(one|{'|'.join(_NUMBER_WORDS)})\b")


@dataclass(frozen=True, slots=True)
class SentenceVerdict:
    """Why one sentence of an answer is, or is not, backed by the passage.

    `coverage` is None when the sentence was too short for the overlap ratio.
    """

    sentence: str
    content_words: tuple[str, ...]
    coverage: float | None
    missing_numbers: tuple[str, ...]
    missing_quotes: tuple[str, ...]
    supported: bool


@dataclass(frozen=True, slots=True)
class CheckedPassage:
    """A passage prepared for checking: its match keys, numbers and normalised text."""

    keys: frozenset[str]
    numbers: frozenset[str]
    flat_text: str

    @classmethod
    def of(cls, passage: Passage) -> CheckedPassage:
        text = f"{passage.title}\n{passage.text}"
        return cls(
            keys=normalise_distinct(text),
            numbers=frozenset(numbers_in(text, _PASSAGE_NUMBER_WORD)),
            flat_text=flat(text),
        )

    @classmethod
    def joined(cls, passages: Sequence[CheckedPassage]) -> CheckedPassage:
        """Several passages read as one; a quote may not run from one into the next."""
        return cls(
            keys=frozenset().union(*(passage.keys for passage in passages)),
            numbers=frozenset().union(*(passage.numbers for passage in passages)),
            flat_text="\n\x00\n".join(passage.flat_text for passage in passages),
        )


def check_support(
    answer: str,
    passages: Passage | Sequence[Passage],
    threshold: float = SUPPORT_THRESHOLD,
) -> SupportReport:
    """The support report of `answer` against `passages` (their titles and texts).

    Each sentence is read against the passages its own markers cite; a sentence
    without a marker, against every passage the answer cites (all of them when it
    cites none of them).
    """
    given = (passages,) if isinstance(passages, Passage) else tuple(passages)
    checked = {passage.id: CheckedPassage.of(passage) for passage in given}
    verdicts = judge_sentences(answer, checked, threshold)
    unsupported = tuple(verdict.sentence for verdict in verdicts if not verdict.supported)
    return SupportReport(supported=not unsupported, unsupported_sentences=unsupported)


def judge_sentences(
    answer: str,
    passages: CheckedPassage | Mapping[str, CheckedPassage],
    threshold: float = SUPPORT_THRESHOLD,
) -> list[SentenceVerdict]:
    """A verdict for every sentence of `answer` that has something to check.

    `passages` maps passage ids to prepared passages (a single one is read against
    every sentence).
    """
    by_id = {"": passages} if isinstance(passages, CheckedPassage) else dict(passages)
    overall = _known(cited_in(answer), by_id) or list(by_id)
    verdicts: list[SentenceVerdict] = []
    for sentence in split_sentences(answer):
        own = _known(cited_in(sentence), by_id) or overall
        passage = by_id[own[0]] if len(own) == 1 else CheckedPassage.joined([by_id[i] for i in own])
        scored = strip_citations(sentence)
        content = tuple(key for key in dict.fromkeys(match_keys(scored)) if key not in _META_WORDS)
        numbers = numbers_in(scored, _ANSWER_NUMBER_WORD)
        quotes = quotes_in(scored)
        if not content and not numbers and not quotes:
            continue  # only a citation marker or punctuation
        coverage: float | None = None
        if len(content) >= MIN_JUDGED_WORDS:
            coverage = sum(key in passage.keys for key in content) / len(content)
        missing_numbers = tuple(number for number in numbers if number not in passage.numbers)
        missing_quotes = tuple(quote for quote in quotes if flat(quote) not in passage.flat_text)
        supported = (
            (coverage is None or coverage >= threshold)
            and not missing_numbers
            and not missing_quotes
        )
        verdicts.append(
            SentenceVerdict(
                sentence=sentence,
                content_words=content,
                coverage=coverage,
                missing_numbers=missing_numbers,
                missing_quotes=missing_quotes,
                supported=supported,
            )
        )
    return verdicts


def _known(ids: list[str], by_id: Mapping[str, CheckedPassage]) -> list[str]:
    return [id_ for id_ in dict.fromkeys(ids) if id_ in by_id]


def numbers_in(text: str, number_words: re.Pattern[str]) -> list[str]:
    """Distinct numbers of `text` in a canonical form ("1,000" -> "1000", "2.50" -> "2.5").

    Written-out numbers count too ("seven" -> "7", "twenty-five" -> "25").
    """
    found: list[str] = []
    lowered = text.casefold()
    for match in _DIGITS.finditer(lowered):
        found.append(_canonical(match.group(0)))
    for match in _COMPOUND_NUMBER.finditer(lowered):
        tens, unit = match.group(1), match.group(2)
        found.append(str(_NUMBER_WORDS[tens] + (1 if unit == "one" else _UNITS[unit])))
    remaining = _COMPOUND_NUMBER.sub(" ", lowered)
    for match in number_words.finditer(remaining):
        word = match.group(1)
        found.append("1" if word == "one" else str(_NUMBER_WORDS[word]))
    return list(dict.fromkeys(found))


def _canonical(number: str) -> str:
    if _THOUSANDS.fullmatch(number):
        return number.replace(",", "")
    number = number.replace(",", ".")
    if "." in number and number.count(".") == 1:
        whole, fraction = number.split(".")
        fraction = fraction.rstrip("0")
        return f"{whole}.{fraction}" if fraction else whole
    return number


def quotes_in(text: str) -> list[str]:
    """Quoted strings of `text` long enough to be checked verbatim."""
    quotes: list[str] = []
    for quoted in quoted_strings(text):
        if len(quoted.words) >= MIN_QUOTE_CHARS:
            quotes.append(quoted.words)
    return quotes
