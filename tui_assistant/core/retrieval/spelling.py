"""A question word no passage holds, read as the library's word one typing slip away.

People type fast: "punctrued", "happnes", "recieve". A key no passage holds is looked up
among the library's keys one edit away (a letter dropped, added, changed, or two
neighbours swapped), with the same first letter and at least `MIN_LENGTH` letters, so
short words and a word's first letter (rarely mistyped) stay as typed. Among several,
the one more passages hold wins (equal counts: the first in alphabetical order). Keys,
not words: the comparison is between stems, as the ranking sees them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

# Shorter keys are left as typed: one edit away from a short key is another word.
MIN_LENGTH = 5


def one_edit_apart(typed: str, known: str) -> bool:
    """Whether `known` is `typed` with one letter dropped, added or changed, or two
    neighbouring letters swapped (and not equal)."""
    if typed == known:
        return False
    short, long = (typed, known) if len(typed) <= len(known) else (known, typed)
    if len(long) - len(short) > 1:
        return False
    start = 0
    while start < len(short) and short[start] == long[start]:
        start += 1
    if len(short) == len(long):
        if short[start + 1 :] == long[start + 1 :]:
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

    def correct(self, typed: str, frequency: Callable[[str], int]) -> str | None:
        """The library's key one slip from `typed` that most passages hold (`frequency`),
        or None."""
        if len(typed) < MIN_LENGTH or not typed.isalpha():
            return None
        best: str | None = None
        best_count = 0
        for length in (len(typed) - 1, len(typed), len(typed) + 1):
            for known in self._groups.get((typed[0], length), ()):
                if one_edit_apart(typed, known):
                    count = frequency(known)
                    if count > best_count or (
                        count == best_count and best is not None and known < best
                    ):
                        best, best_count = known, count
        return best
