"""Porter's suffix-stripping algorithm (1980), for scripts/ranked_experiments.py only.

The shared normaliser (core/text.py) strips inflections only (`-s`, `-ing`, `-ed`), so
`dynamic` and `dynamically`, `cite` and `citation` stay apart. The experiment groups the
index's keys whose words share a Porter stem and scores each group as one term, to
measure whether a stronger stemmer would help `ranked` (it helped top-1 on the small set
only; see docs/retrieval.md). Written from the published description of the algorithm,
with its two common later revisions (`-bli` -> `-ble`, `-logi` -> `-log` in step 2).
"""

from __future__ import annotations

from functools import lru_cache

_VOWELS = frozenset("aeiou")


def _is_consonant(word: str, position: int) -> bool:
    letter = word[position]
    if letter in _VOWELS:
        return False
    if letter == "y":
        # y after a consonant acts as a vowel ("syzygy"), at the start as a consonant.
        return position == 0 or not _is_consonant(word, position - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC)^m[V]: how many vowel-consonant runs the stem has."""
    runs = 0
    previous_vowel = False
    for position in range(len(stem)):
        consonant = _is_consonant(stem, position)
        if consonant and previous_vowel:
            runs += 1
        previous_vowel = not consonant
    return runs


def _has_vowel(stem: str) -> bool:
    return any(not _is_consonant(stem, position) for position in range(len(stem)))


def _ends_double_consonant(stem: str) -> bool:
    return len(stem) >= 2 and stem[-1] == stem[-2] and _is_consonant(stem, len(stem) - 1)


def _ends_cvc(stem: str) -> bool:
    """consonant-vowel-consonant at the end, the last not w, x or y ("hop", not "snow")."""
    return (
        len(stem) >= 3
        and _is_consonant(stem, len(stem) - 3)
        and not _is_consonant(stem, len(stem) - 2)
        and _is_consonant(stem, len(stem) - 1)
        and stem[-1] not in "wxy"
    )


_STEP_2 = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("logi", "log"),
)
_STEP_3 = (
    ("icate", "ic"),
    ("ative", ""),
    ("alize", "al"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
)
_STEP_4 = (
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
)


def _longest_suffix(word: str, suffixes: tuple[str, ...]) -> str | None:
    matches = [suffix for suffix in suffixes if word.endswith(suffix)]
    return max(matches, key=len) if matches else None


def _step_1(word: str) -> str:
    if word.endswith("sses") or word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
        return _step_1c(word)
    for ending in ("ed", "ing"):
        if word.endswith(ending) and _has_vowel(word[: -len(ending)]):
            word = word[: -len(ending)]
            if word.endswith(("at", "bl", "iz")):
                word += "e"
            elif _ends_double_consonant(word) and word[-1] not in "lsz":
                word = word[:-1]
            elif _measure(word) == 1 and _ends_cvc(word):
                word += "e"
            break
    return _step_1c(word)


def _step_1c(word: str) -> str:
    if word.endswith("y") and _has_vowel(word[:-1]):
        return word[:-1] + "i"
    return word


def _replace(word: str, rules: tuple[tuple[str, str], ...]) -> str:
    suffix = _longest_suffix(word, tuple(old for old, _ in rules))
    if suffix is None:
        return word
    stem = word[: -len(suffix)]
    if _measure(stem) > 0:
        return stem + dict(rules)[suffix]
    return word


def _step_4(word: str) -> str:
    suffix = _longest_suffix(word, _STEP_4)
    if suffix is None:
        return word
    stem = word[: -len(suffix)]
    if _measure(stem) <= 1:
        return word
    if suffix == "ion" and not stem.endswith(("s", "t")):
        return word
    return stem


def _step_5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        measure = _measure(stem)
        if measure > 1 or (measure == 1 and not _ends_cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=100_000)
def porter_stem(word: str) -> str:
    """The Porter stem of a lower-case word: `dynamically` and `dynamic` -> `dynam`.

    Words of one or two letters are returned as they are, as the algorithm prescribes.
    """
    if len(word) <= 2:
        return word
    word = _step_1(word)
    word = _replace(word, _STEP_2)
    word = _replace(word, _STEP_3)
    word = _step_4(word)
    return _step_5(word)
