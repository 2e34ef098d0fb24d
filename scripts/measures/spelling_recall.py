"""How the word ranking reads mistyped words, on every development set: of the slips in
the real-style questions (a word one slip from a word of the tidy question it rewrites,
whose key some passage holds), how many are read as the word meant; and of the tidy
questions' words of five letters or more that no passage holds, how many are read as a
library word all the same. Both with the library's keys alone and with the word as typed
tried too, as `ranked` reads them (`RankedRetriever.spelt`).

    python -m scripts.measures.spelling_recall
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from scripts.devsets.sets import available
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.spelling import MIN_LENGTH, Spelling, one_edit_apart
from tui_assistant.core.words import content_words, stem, words
from tui_assistant.store.index_store import open_library

ROOT = Path(__file__).resolve().parents[2]


def read_as(ranked: RankedRetriever, spelling: Spelling, word: str, as_typed: bool) -> str:
    """The key `word` is read as: as `ranked` reads it (`as_typed`), or by the library's
    keys alone (its own key, or the key one slip from it)."""
    key = stem(word)
    if as_typed:
        return ranked.spelt({key: word})[key] or key
    if ranked.holds(key):
        return key
    return spelling.correct(key, ranked.frequency) or key


def main() -> int:
    slips = 0
    meant = {False: 0, True: 0}
    unknown = 0
    taken = {False: 0, True: 0}
    with tempfile.TemporaryDirectory() as data_dir:
        for name, cases_path, folder in available():
            if name == "django-large":
                continue
            library = open_library(folder, Path(data_dir), RankedRetriever.key)
            ranked = RankedRetriever(library)
            spelling = Spelling(library.index.keys())
            for line in cases_path.read_text(encoding="utf-8").splitlines():
                case = json.loads(line)
                if case.get("style") != "real":
                    for word in content_words(case["question"]):
                        key = stem(word)
                        if len(word) < MIN_LENGTH or ranked.holds(key):
                            continue
                        unknown += 1
                        for as_typed in (False, True):
                            taken[as_typed] += read_as(ranked, spelling, word, as_typed) != key
                    continue
                tidy = {word.lower() for word in words(case["tidy"])}
                for word in (word.lower() for word in words(case["question"])):
                    if word in tidy:
                        continue
                    origin = sorted(other for other in tidy if one_edit_apart(word, other))
                    if not origin or not ranked.holds(stem(origin[0])):
                        continue
                    slips += 1
                    for as_typed in (False, True):
                        meant[as_typed] += read_as(ranked, spelling, word, as_typed) == stem(
                            origin[0]
                        )
    print("| read | slips read as the word meant | tidy words no passage holds, read as another |")
    print("| --- | --- | --- |")
    for as_typed, label in ((False, "keys alone"), (True, "keys, then the word as typed")):
        print(f"| {label} | {meant[as_typed]} of {slips} | {taken[as_typed]} of {unknown} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
