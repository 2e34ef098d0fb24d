"""Asides: the clauses of a question in which the library knows no word.

People wrap a question in clauses that are not about its topic ("newbie here.", "i'm on a
mac if that matters", "(sorry for my english)") or paste a line the library does not
hold. Such a clause says nothing about whether the library answers the question, so its
words are not counted as words the library lacks. A clause is an aside only beside a
clause the library does know: a question none of whose clauses the library knows is
about something else, and all its words count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

from tui_assistant.core.words import content_words

# Where one clause ends and the next begins: sentence and clause punctuation followed by
# a space (so `to_bool.converter`, `a,b` and `12:30` stay whole), brackets, a dash set
# off by spaces, a line break.
CLAUSE_BREAK = re.compile(r"[.!?;:,]+(?:\s+|$)|[()\[\]]|\s[-–—]+\s|\n")


def clauses(question: str) -> list[str]:
    """The question's clauses, in order, the empty ones dropped."""
    return [part for part in CLAUSE_BREAK.split(question) if part.strip()]


def aside_keys(
    question: str,
    key: Callable[[str], str],
    read: Mapping[str, str | None],
    known: Collection[str],
) -> frozenset[str]:
    """The keys that appear only in clauses holding no key in `known`, when some other
    clause holds one. `key` turns a word into its key; `read` maps each scored key to
    the key it is read as (a corrected spelling), or None when it is dropped; a key it
    lacks is not scored."""
    clause_keys: list[set[str]] = []
    for clause in clauses(question):
        keys = {read.get(k) for k in map(key, content_words(clause))}
        scored = {k for k in keys if k is not None}
        if scored:
            clause_keys.append(scored)
    knowing = [keys for keys in clause_keys if not keys.isdisjoint(known)]
    if not knowing:
        return frozenset()
    in_knowing = set().union(*knowing)
    return frozenset(
        k for keys in clause_keys if keys.isdisjoint(known) for k in keys if k not in in_knowing
    )
