"""Text normalisation shared by retrieval, the support check and highlighting.

Questions and lessons go through the same `normalise` so that a word matches only
another whole word with the same stem (`salt` never matches `basalt`, `boiling`
meets `boil`). The stemmer is deliberately small and predictable: a handful of
English suffix rules that a reader can check by hand, pinned by tests on a
cooking vocabulary. Bump `NORMALISER_VERSION` whenever its output can change, so
cached indexes built with an older normaliser are never trusted.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tui_assistant.core.display_text import without_escape_sequences

NORMALISER_VERSION = 3  # 2: escape sequences are not words; 3: CJK character pairs

STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all also am an and any are aren't as at
    be because been before being below between both but by
    can can't cannot could couldn't
    did didn't do does doesn't doing don't down during
    each either else ever every
    few for from further
    get gets got had hadn't has hasn't have haven't having he her here hers herself
    him himself his how however
    i if in into is isn't it it's its itself
    just let like
    many may me might more most much must mustn't my myself
    need no nor not now
    of off on once one only or other ought our ours ourselves out over own
    please put
    quite rather really
    same shall shan't she should shouldn't so some such
    tell than that that's the their theirs them themselves then there these they
    this those through thus to too
    under until up upon us use used using
    very
    want was wasn't way we well were weren't what when where whether which while
    who whom whose why will with won't would wouldn't
    yes yet you your yours yourself yourselves
    """.split()
)

# Plurals that the suffix rules below cannot undo: -ves words whose singular ends in f/fe.
_IRREGULAR: dict[str, str] = {
    "knives": "knife",
    "wives": "wife",
    "lives": "life",
    "halves": "half",
    "loaves": "loaf",
    "leaves": "leaf",
    "shelves": "shelf",
    "calves": "calf",
    "wolves": "wolf",
    "thieves": "thief",
    "scarves": "scarf",
    "selves": "self",
    "children": "child",
    "feet": "foot",
    "teeth": "tooth",
    "geese": "goose",
    "mice": "mouse",
    "men": "man",
    "women": "woman",
}

# A word: letters and digits, with apostrophes inside (`don't`, `cook's`). The one
# definition of a word's shape, for anything that finds words in text.
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_VOWELS = frozenset("aeiouy")
_KEEP_DOUBLE = frozenset("lsfz")


def _has_vowel(stem: str) -> bool:
    return any(ch in _VOWELS for ch in stem)


def _undouble(stem: str) -> str:
    """`stirr` -> `stir`, but `roll`, `dress` and `stuff` keep their double letter."""
    if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in _VOWELS | _KEEP_DOUBLE:
        return stem[:-1]
    return stem


def _strip_plural(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes", "oes")) and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def _strip_verb_ending(word: str) -> str:
    if word.endswith("ing"):
        stem = word[:-3]
        if len(stem) >= 3 and _has_vowel(stem):
            return _undouble(stem)
    if word.endswith("ied") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ed") and not word.endswith("eed"):
        stem = word[:-2]
        if len(stem) >= 3 and _has_vowel(stem):
            return _undouble(stem)
    return word


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Reduce a lower-case word to the stem that its inflections share.

    `boiling`, `boiled`, `boils` -> `boil`; `eggs` -> `egg`; `knives`, `knife` -> `knif`;
    `bake`, `baking`, `baked` -> `bak`. Stems are match keys, not display words.
    """
    word = _IRREGULAR.get(word, word)
    word = _strip_plural(word)
    word = _strip_verb_ending(word)
    # A final silent e is dropped so that `bake` meets `baking`.
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


# Han (with its iteration marks), Hiragana, Katakana and Hangul: scripts written
# without spaces between words.
_CJK_CHARACTERS = (
    "\u1100-\u11ff\u3005-\u3007\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
    "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
_CJK = re.compile(f"[{_CJK_CHARACTERS}]")
_CJK_OR_NOT = re.compile(f"[{_CJK_CHARACTERS}]+|[^{_CJK_CHARACTERS}]+")


def is_cjk(word: str) -> bool:
    """Whether `word` is made of Chinese, Japanese or Korean characters (a pair or one)."""
    return bool(_CJK.match(word))


def words(text: str) -> list[str]:
    """Lower-case words of `text` in order (letters and digits; inner apostrophes kept).

    Terminal escape sequences are formatting, not words: a question pasted in colour,
    `ESC[31msalting`, means `salting`, as it reads on screen. A run of Chinese,
    Japanese or Korean characters, which has no spaces to split at, gives its
    overlapping character pairs (`沸騰水` -> `沸騰`, `騰水`; a lone character stays itself).
    """
    found: list[str] = WORD.findall(without_escape_sequences(text).casefold())
    if not _CJK.search(text):
        return found
    split: list[str] = []
    for word in found:
        if not _CJK.search(word):
            split.append(word)
            continue
        for run in _CJK_OR_NOT.findall(word):
            if not _CJK.match(run):
                split.extend(WORD.findall(run))
            elif len(run) == 1:
                split.append(run)
            else:
                split.extend(run[index : index + 2] for index in range(len(run) - 1))
    return split


def content_words(text: str) -> list[str]:
    """The words of `text` that can carry a topic, in order: stopwords and single
    letters dropped (numbers and CJK characters kept), apostrophes removed. This is
    what the index store keeps for every passage; each retrieval mode turns these words
    into its keys."""
    return list(filter(None, map(_CONTENT_WORDS.__getitem__, words(text))))


def content_word(word: str) -> str:
    """One word of `words` as `content_words` keeps it, or "" when it is dropped."""
    return _CONTENT_WORDS[word]


def _content_word(word: str) -> str:
    """`word` as a content word, or "" when it is dropped."""
    if word in STOPWORDS:
        return ""
    word = word.replace("'", "")
    if word in STOPWORDS or (len(word) == 1 and not word.isdigit() and not _CJK.match(word)):
        return ""
    return word


class _Memo(dict[str, str]):
    """Each distinct word decided once: a library repeats a few thousand words millions
    of times. Emptied when it grows past its limit, so odd input cannot grow it."""

    LIMIT = 500_000

    def __missing__(self, word: str) -> str:
        if len(self) >= self.LIMIT:
            self.clear()
        kept = self[word] = _content_word(word)
        return kept


_CONTENT_WORDS = _Memo()


def match_keys(text: str) -> list[str]:
    """The match keys of `text` in order: its content words, stemmed."""
    return [stem(word) for word in content_words(text)]


def normalise_distinct(text: str) -> frozenset[str]:
    """The set of match keys of `text` (distinct words are what retrieval counts)."""
    return frozenset(match_keys(text))
