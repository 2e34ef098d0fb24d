"""A question word no passage holds, read as the library's word one typing slip away.

People type fast: "punctrued", "happnes", "recieve". A key no passage holds is looked up
among the library's keys one edit away (a letter dropped, added, changed, or two
neighbours swapped), with the same first letter and at least `MIN_LENGTH` letters, so
short words and a word's first letter (rarely mistyped) stay as typed. Among several,
the one more passages hold wins (equal counts: the first in alphabetical order). Keys,
not words: the comparison is between stems, as the ranking sees them.

A slip inside an inflected word makes the stemmer cut it somewhere else ("deploiyng" is
no slip of the key `deploy`, "tesitng" none of `test`), so a word whose key finds nothing
is tried as typed (`correct_as_typed`): the words one letter dropped, added or swapped
away (not changed: a changed letter makes another word of too many), read as keys of at
least `MIN_LENGTH` - 1 letters that some passage holds.

The embedding model reads a mistyped word as pieces of other words ("cahnge" as `ca`,
`##hn`, `##ge`), so a question word that neither the library nor the model knows is
given to the model as the word one slip away that both know (`ModelSpelling`). A word the
model knows stays as typed: "bread" is a word, whatever the library holds.

A key that is no library word mistyped may be a stopword mistyped ("shuld", "sholud"):
it says nothing about the topic, and counted as a word no passage holds it would make
the question look like one about something the library does not cover.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from tui_assistant.core.words import STOPWORDS, stem

_ALPHABET = "abcdefghijklmnopqrstuvwxyz"

# Shorter keys are left as typed: one edit away from a short key is another word.
MIN_LENGTH = 5
# The stopwords long enough that a slip of one is rarely another word, as typed and
# as keys ("there" is the key "ther"), each with the stopword it is.
_LONG_STOPWORDS = {
    form: word
    for word in sorted(STOPWORDS)
    if len(word) >= MIN_LENGTH and word.isalpha()
    for form in (stem(word), word)
}


def one_edit_apart(typed: str, known: str, changed: bool = True) -> bool:
    """Whether `known` is `typed` with one letter dropped, added or (unless not
    `changed`) changed, or two neighbouring letters swapped (and not equal)."""
    if typed == known:
        return False
    short, long = (typed, known) if len(typed) <= len(known) else (known, typed)
    if len(long) - len(short) > 1:
        return False
    start = 0
    while start < len(short) and short[start] == long[start]:
        start += 1
    if len(short) == len(long):
        if changed and short[start + 1 :] == long[start + 1 :]:
            return True  # one letter changed
        return (
            start + 1 < len(short)
            and short[start] == long[start + 1]
            and short[start + 1] == long[start]
            and short[start + 2 :] == long[start + 2 :]
        )  # two neighbours swapped
    return short[start:] == long[start + 1 :]  # one letter dropped or added


class Spelling:
    """The library's keys, grouped by first letter and length for the look-up."""

    def __init__(self, keys: Iterable[str]) -> None:
        self._groups: dict[tuple[str, int], list[str]] = {}
        for key in keys:
            if len(key) >= MIN_LENGTH - 1 and key.isalpha():
                self._groups.setdefault((key[0], len(key)), []).append(key)
        for group in self._groups.values():
            group.sort()

    def correct(
        self, typed: str, frequency: Callable[[str], int], changed: bool = True
    ) -> str | None:
        """The library's key one slip from `typed` (`one_edit_apart`, a changed letter
        counted unless not `changed`) that most passages hold (`frequency`), or None."""
        if len(typed) < MIN_LENGTH or not typed.isalpha():
            return None
        best: str | None = None
        best_count = 0
        for length in (len(typed) - 1, len(typed), len(typed) + 1):
            for known in self._groups.get((typed[0], length), ()):
                if one_edit_apart(typed, known, changed):
                    count = frequency(known)
                    if count > best_count or (
                        count == best_count and best is not None and known < best
                    ):
                        best, best_count = known, count
        return best


def correct_as_typed(
    typed: str, key: Callable[[str], str], frequency: Callable[[str], int]
) -> str | None:
    """The key, held by most passages (`frequency`), of a word one letter dropped, added
    or two neighbours swapped from the word `typed` (`slips_of`), of at least
    `MIN_LENGTH` - 1 letters; or None."""
    if len(typed) < MIN_LENGTH or not typed.isalpha():
        return None
    own = key(typed)
    best: str | None = None
    best_count = 0
    for word in slips_of(typed):
        found = key(word)
        if found == own or len(found) < MIN_LENGTH - 1:
            continue
        count = frequency(found)
        if count > best_count or (count == best_count and best is not None and found < best):
            best, best_count = found, count
    return best


def slips_of(typed: str) -> set[str]:
    """The words one letter dropped, added or two neighbours swapped away from `typed`,
    its first letter kept."""
    found = set()
    for place in range(1, len(typed) + 1):
        head, tail = typed[:place], typed[place:]
        if tail:
            found.add(head + tail[1:])
        if len(tail) > 1 and tail[0] != tail[1]:
            found.add(head + tail[1] + tail[0] + tail[2:])
        found.update(head + letter + tail for letter in _ALPHABET)
    found.discard(typed)
    return found


def slip_of_stopword(typed: str) -> bool:
    """Whether `typed`, of `MIN_LENGTH` letters or more, is a stopword with one letter
    dropped or added, or two neighbours swapped, keeping its first letter ("shuld",
    "sholud", "atfer"): a word that says nothing about the topic. A changed letter is
    not counted: one letter changed in "would", "while" or "after" is often another
    word ("world", "white", "alter")."""
    return stopword_slipped(typed) is not None


def stopword_slipped(typed: str) -> str | None:
    """The stopword `typed` is a slip of (`slip_of_stopword`), or None."""
    if len(typed) < MIN_LENGTH or not typed.isalpha() or typed in _LONG_STOPWORDS:
        return None
    return next(
        (
            word
            for known, word in _LONG_STOPWORDS.items()
            if known[0] == typed[0] and one_edit_apart(typed, known, changed=False)
        ),
        None,
    )


_LETTERS = re.compile(r"[A-Za-z]+")


class ModelSpelling:
    """A question as the embedding model should read it: each word of `MIN_LENGTH`
    letters or more that is not in the model's `vocabulary` (its whole-word tokens, lower
    case) and whose key (`key`) no passage holds (`frequency` 0) is written as the
    vocabulary word one letter dropped, added or swapped away whose key most passages
    hold, or the long stopword it is a slip of; other words as typed."""

    def __init__(
        self,
        vocabulary: Iterable[str],
        frequency: Callable[[str], int],
        key: Callable[[str], str] = stem,
    ) -> None:
        self._vocabulary = frozenset(vocabulary)
        self._frequency = frequency
        self._key = key
        self._spelling: Spelling | None = None  # built at the first word to respell

    def respelt(self, question: str) -> str:
        return _LETTERS.sub(self._word, question) if self._vocabulary else question

    def _word(self, match: re.Match[str]) -> str:
        typed = match.group(0)
        lowered = typed.lower()
        if (
            len(lowered) < MIN_LENGTH
            or lowered in self._vocabulary
            or self._frequency(self._key(lowered))
        ):
            return typed
        stopword = stopword_slipped(lowered)
        if stopword is not None:
            return stopword  # "wihch": which, though no passage's key is a stopword
        if self._spelling is None:
            self._spelling = Spelling(self._vocabulary)
        # A changed letter is not counted: it often makes another word of one the model
        # lacks ("resize" is not "reside", "serde" not "serve").
        corrected = self._spelling.correct(
            lowered, lambda word: self._frequency(self._key(word)), changed=False
        )
        return corrected or typed
