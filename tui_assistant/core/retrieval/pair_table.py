"""Each passage's adjacent word pairs (`word_pairs.passage_pairs`), split once per library.

The section score (`sections`) weighs how much of a question's wording its first places
hold side by side. A passage's pairs are split from its title and text the first time a
question puts it among those places, and kept for as long as the library is served: a
busy server's questions reach a different few passages each, so a small memo of recent
ones was read and split again on most calls. A library is read once per version, so its
table lives with it (`Marks`) and never goes stale.

Kept packed, to stay small for a whole library: each word a number, each pair one
64-bit number of its two words', a passage's pairs a sorted array of them (8 bytes a
pair, where a set of string pairs takes about a hundred). A question's pair is looked up
by bisection, exactly: a pair is held when, and only when, `passage_pairs` holds it.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from collections.abc import Callable

from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.word_pairs import passage_pairs

# A word's number fits in half a pair's.
_WORD_BITS = 32


class HeldPairs:
    """One passage's pairs, packed; `pair in held` as in the set `passage_pairs` gives."""

    __slots__ = ("_codes", "_words")

    def __init__(self, codes: array[int], words: dict[str, int]) -> None:
        self._codes = codes
        self._words = words

    def __contains__(self, pair: object) -> bool:
        if not isinstance(pair, tuple) or len(pair) != 2:
            return False
        first, second = self._words.get(pair[0]), self._words.get(pair[1])
        if first is None or second is None:
            return False  # a word no split passage holds
        code = first << _WORD_BITS | second
        place = bisect_left(self._codes, code)
        return place < len(self._codes) and self._codes[place] == code

    def __len__(self) -> int:
        return len(self._codes)


class PairTable:
    """The pairs of a library's passages by number, each split the first time it is asked
    for (`read(number)` gives its title and text). Safe to call from several threads."""

    def __init__(self, read: Callable[[int], tuple[str, str]], key: KeyFunction) -> None:
        self._read = read
        self._key = key
        self._words: dict[str, int] = {}
        self._held: dict[int, HeldPairs] = {}
        # Numbering a passage's new words is one step: two threads never share a number.
        self._numbering = threading.Lock()

    def __call__(self, number: int) -> HeldPairs:
        held = self._held.get(number)
        if held is None:
            title, text = self._read(number)
            pairs = passage_pairs(title, text, self._key)
            with self._numbering:
                found = self._numbered({word for pair in pairs for word in pair})
            codes = array("Q", sorted(found[one] << _WORD_BITS | found[two] for one, two in pairs))
            held = self._held.setdefault(number, HeldPairs(codes, self._words))
        return held

    @property
    def kept(self) -> int:
        """How many passages' pairs are kept (a table is never empty-and-false)."""
        return len(self._held)

    def _numbered(self, found: set[str]) -> dict[str, int]:
        """Each word of `found` by its number, new words numbered next."""
        words = self._words
        return {word: words.setdefault(word, len(words)) for word in found}
