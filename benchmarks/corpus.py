"""Deterministic synthetic lesson libraries and question files for the benchmarks.

A corpus is N lesson files (titles of 3-8 words, bodies of 120-180 words) drawn from
a Zipf-distributed vocabulary of 30,000 made-up words, in a tree of folders two levels
deep (`group-003/section-4/lesson-03412.md`, a hundred files a folder), plus a
JSON-lines case file in the `tui-assistant eval` format. The same seed gives
byte-identical files, so every engine reads the same library and every run can be
compared with the last.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from pathlib import Path

VOCABULARY_SIZE = 30_000
ZIPF_EXPONENT = 1.0
SEED = 20261130
QUESTION_COUNT = 500

_ONSETS = "b c d f g h j k l m n p r s t v w z br cl dr fl gr pl st tr sh ch th".split()
_VOWELS = "a e i o u ai ea oo ou".split()
_CODAS = ["", "", "", "n", "r", "l", "s", "m", "k", "st", "nd", "rt"]
_FILLERS = [
    "how do I {} the {} with {}?",
    "what should I know about {} and {} for {}",
    "can you explain {} {} {}",
    "why does the {} need {} when {}?",
    "tips for {} {} and {}",
]
# Some questions answer from no lesson: words that were never put in any file.
_UNKNOWN_SHARE = 0.15


@dataclass(frozen=True)
class Corpus:
    folder: Path
    lessons: Path
    cases: Path
    size: int


def vocabulary(rng: random.Random) -> list[str]:
    """30,000 distinct pronounceable words (rank order = frequency order)."""
    seen: set[str] = set()
    result: list[str] = []
    while len(result) < VOCABULARY_SIZE:
        syllables = rng.choice((2, 2, 3, 3, 4))
        word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(syllables))
        word += rng.choice(_CODAS)
        if word not in seen:
            seen.add(word)
            result.append(word)
    return result


def _sentences(rng: random.Random, picked: list[str]) -> str:
    parts: list[str] = []
    position = 0
    while position < len(picked):
        length = rng.randint(8, 16)
        sentence = picked[position : position + length]
        position += length
        parts.append(sentence[0].capitalize() + " " + " ".join(sentence[1:]) + ".")
    return " ".join(parts)


def lesson_path(number: int, width: int) -> str:
    """Where lesson `number` lives in the tree, without `.md` (also its id)."""
    return f"group-{number // 1000:03d}/section-{number // 100 % 10}/lesson-{number:0{width}d}"


def locate(root: Path, size: int) -> Corpus:
    """Where the corpus of `size` lessons lives under `root`."""
    folder = root / f"zipf-tree-{size}"
    return Corpus(folder, folder / "lessons", folder / "cases.jsonl", size)


def is_complete(corpus: Corpus) -> bool:
    return (corpus.folder / ".complete").exists()


def generate(root: Path, size: int, question_count: int = QUESTION_COUNT) -> Corpus:
    """Write the corpus of `size` lessons under `root` (skipped when already complete)."""
    corpus = locate(root, size)
    lessons, cases, done = corpus.lessons, corpus.cases, corpus.folder / ".complete"
    if is_complete(corpus):
        return corpus
    lessons.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    words = vocabulary(rng)
    weights = list(
        itertools.accumulate(1.0 / (rank**ZIPF_EXPONENT) for rank in range(1, len(words) + 1))
    )
    width = len(str(size))
    titles: list[list[str]] = []
    bodies: list[list[str]] = []
    for number in range(size):
        title = rng.choices(words, cum_weights=weights, k=rng.randint(3, 8))
        body = rng.choices(words, cum_weights=weights, k=rng.randint(120, 180))
        titles.append(title)
        bodies.append(body)
        text = f"# {' '.join(title).capitalize()}\n\n{_sentences(rng, body)}\n"
        path = lessons / f"{lesson_path(number, width)}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    with cases.open("w", encoding="utf-8") as stream:
        for _ in range(question_count):
            if rng.random() < _UNKNOWN_SHARE:
                unknown = [
                    "".join(rng.choices("xqz", k=3)) + str(rng.randint(0, 999)) for _ in range(3)
                ]
                case = {"question": rng.choice(_FILLERS).format(*unknown), "expect_passage": None}
            else:
                number = rng.randrange(size)
                # A user asks with a word or two of the title and a couple from the text.
                picked = rng.sample(titles[number], k=min(2, len(titles[number])))
                picked += rng.sample(bodies[number], k=3 - len(picked) + 1)[: 3 - len(picked) + 1]
                picked = picked[:3]
                case = {
                    "question": rng.choice(_FILLERS).format(*picked),
                    "expect_passage": lesson_path(number, width),
                }
            stream.write(json.dumps(case) + "\n")
    done.write_text("ok\n")
    return corpus


if __name__ == "__main__":
    import sys

    generate(Path(sys.argv[1]), int(sys.argv[2]))
