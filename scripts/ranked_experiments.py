"""Measure candidate changes to `ranked`, with held-out halves, before adopting any.

Each variant re-scores every case with BM25F as in tui_assistant/core/ranked.py, changing
one thing: a Porter stemmer grouping the index's keys (scripts/porter_stem.py), the
concatenation of adjacent question words as an extra term ("log in" -> "login"),
k1 / b / title weight, or a coordination factor. For each variant it prints the top-1
answerable accuracy (no refusal), then, for several confidence rules, the thresholds that
a fixed selection rule picks on the **odd-numbered cases** (1st, 3rd, ... of each cases
file, answerable and unanswerable alike) and the numbers those thresholds give on the
**even-numbered cases** (held out) and on all cases.

Selection rule (fixed in advance): among thresholds that refuse at least 80% of the
unanswerable odd cases on both sets, the most answerable odd cases right summed over both
sets, then the higher worst-set refusal, then the first in grid order (lowest thresholds).

    python scripts/build_django_devsets.py      # once
    python scripts/ranked_experiments.py
"""

from __future__ import annotations

import itertools
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from porter_stem import porter_stem  # noqa: E402

from tui_assistant.core.library import Library  # noqa: E402
from tui_assistant.core.ranked import (  # noqa: E402
    _QUESTION_KEYS,
    _inverse_document_frequency,
    _length_norms,
)
from tui_assistant.core.store import open_library  # noqa: E402
from tui_assistant.core.text import STOPWORDS, stem, words  # noqa: E402

SETS = [
    ("small", ROOT / "eval/django-faq.jsonl", ROOT / "eval/django-faq-lessons"),
    ("large", ROOT / "eval/django-large.jsonl", ROOT / "eval/django/large-lessons"),
]
HALVES = ("odd", "even", "all")


@dataclass(frozen=True)
class Variant:
    name: str
    porter: bool = False
    compounds: bool = False
    saturation: float = 1.2
    length_effect: float = 0.75
    title_weight: float = 2.0
    coordination: float = 0.0


@dataclass(frozen=True)
class Features:
    """The best lesson before refusal and the numbers a confidence rule may use."""

    lesson_id: str
    margin: float  # (best - runner-up) / best
    share: float  # share of the question's idf mass the best lesson matches
    normalised_score: float  # best score / the question's idf mass
    matched_count: int  # distinct question terms the best lesson matches


@dataclass
class DevSet:
    name: str
    cases: list[dict[str, str | None]]
    library: Library
    # Porter stem -> the index keys of the library's words with that stem.
    porter_groups: dict[str, set[str]] = field(default_factory=dict)


def question_terms(question: str) -> list[tuple[str, str]]:
    """(word, index key) per distinct key, filtered as ranked filters questions."""
    terms: dict[str, str] = {}
    for word in words(question):
        # As core/text.normalise: stopwords are checked with and without apostrophes.
        if word in STOPWORDS:
            continue
        word = word.replace("'", "")
        if word in STOPWORDS or (len(word) == 1 and not word.isdigit()):
            continue
        key = stem(word)
        if key not in _QUESTION_KEYS:
            terms.setdefault(key, word)
    return [(word, key) for key, word in terms.items()]


def load(name: str, cases_path: Path, lessons_path: Path) -> DevSet:
    lines = cases_path.read_text(encoding="utf-8").splitlines()
    library = open_library(lessons_path, None, stem)  # indexed in memory
    dev_set = DevSet(name, [json.loads(line) for line in lines if line.strip()], library)
    for lesson in (library.passage(number) for number in range(len(library))):
        for word in set(words(lesson.title)) | set(words(lesson.text)):
            if word in STOPWORDS:
                continue
            word = word.replace("'", "")
            if word not in STOPWORDS and (len(word) > 1 or word.isdigit()):
                dev_set.porter_groups.setdefault(porter_stem(word), set()).add(stem(word))
    return dev_set


def rank(dev_set: DevSet, variant: Variant, question: str) -> Features | None:
    index = dev_set.library.index
    title_norms = _length_norms(index.title_lengths, variant.length_effect)
    body_norms = _length_norms(index.body_lengths, variant.length_effect)
    terms = question_terms(question)
    groups: list[tuple[str, set[str], bool]] = []  # label, index keys, counts for the share
    for word, key in terms:
        keys = {key}
        if variant.porter:
            keys |= dev_set.porter_groups.get(porter_stem(word), set())
        groups.append((porter_stem(word) if variant.porter else key, keys, True))
    if variant.compounds:
        raw = words(question)
        own_keys = {key for _, key in terms}
        for first, second in itertools.pairwise(raw):
            key = stem((first + second).replace("'", ""))
            if key not in own_keys and (index.title(key).numbers or index.body(key).numbers):
                groups.append(("+" + key, {key}, False))
    scores: dict[int, float] = defaultdict(float)
    matched: dict[int, list[str]] = defaultdict(list)
    weights: dict[str, float] = {}
    for label, keys, counted in groups:
        frequency: dict[int, float] = defaultdict(float)
        for key in keys:
            for number, count in zip(
                index.title(key).numbers, index.title(key).counts, strict=True
            ):
                frequency[number] += variant.title_weight * count / title_norms[number]
            for number, count in zip(index.body(key).numbers, index.body(key).counts, strict=True):
                frequency[number] += count / body_norms[number]
        weight = _inverse_document_frequency(len(index), len(frequency))
        if counted:
            weights[label] = weight
        for number, pseudo_count in frequency.items():
            scores[number] += weight * pseudo_count / (variant.saturation + pseudo_count)
            matched[number].append(label)
    if not scores or not weights:
        return None
    total = sum(weights.values())
    if variant.coordination:
        for number in scores:
            share = sum(weights.get(label, 0.0) for label in matched[number]) / total
            scores[number] *= share**variant.coordination
    ordered = sorted(scores, key=lambda number: (-scores[number], number))
    best = ordered[0]
    runner_up = scores[ordered[1]] if len(ordered) > 1 else None
    counted_matches = [label for label in matched[best] if label in weights]
    return Features(
        lesson_id=dev_set.library.passages[best].id,
        margin=1.0 if runner_up is None else (scores[best] - runner_up) / scores[best],
        share=sum(weights[label] for label in counted_matches) / total,
        normalised_score=scores[best] / total,
        matched_count=len(counted_matches),
    )


Rule = Callable[[Features], bool]
Tally = tuple[int, int, int, int]  # answerable right, answerable, refused, unanswerable


def tally(
    cases: list[dict[str, str | None]], ranked: list[Features | None], accept: Rule, half: str
) -> Tally:
    right = answerable = refused = unanswerable = 0
    for number, (case, features) in enumerate(zip(cases, ranked, strict=True), start=1):
        if (half == "odd" and number % 2 == 0) or (half == "even" and number % 2 == 1):
            continue
        got = features.lesson_id if features is not None and accept(features) else None
        if case["expect_lesson"] is None:
            unanswerable += 1
            refused += got is None
        else:
            answerable += 1
            right += got == case["expect_lesson"]
    return right, answerable, refused, unanswerable


def rule_families() -> dict[str, list[tuple[str, Rule]]]:
    shares = [0.0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]
    margins = [0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2]

    def share_margin(share: float, margin: float) -> Rule:
        return lambda f: f.share >= share and f.margin > margin

    def score_margin(score: float, margin: float) -> Rule:
        return lambda f: f.normalised_score >= score and f.margin > margin

    def two_paths(one_word: float, several: float) -> Rule:
        return lambda f: (
            f.margin > 0 and (f.share >= one_word or (f.matched_count >= 2 and f.share >= several))
        )

    return {
        "share + margin (current)": [
            (f"share>={s} margin>{m}", share_margin(s, m)) for s in shares for m in margins
        ],
        "normalised score + margin": [
            (f"score>={s / 1.5:.2f} margin>{m}", score_margin(s / 1.5, m))
            for s in shares
            for m in margins
        ],
        "one word needs share s1, two or more s2": [
            (f"s1>={s1} s2>={s2}", two_paths(s1, s2))
            for s1 in [*shares, 0.7, 0.8, 1.01]
            for s2 in shares
            if s2 <= s1
        ],
    }


def fmt(tallies: Iterable[Tally]) -> str:
    return "  ".join(f"{r:>2}/{a} refused {f:>2}/{u}" for r, a, f, u in tallies)


def main() -> int:
    for _name, _cases_path, lessons_path in SETS:
        if not lessons_path.is_dir():
            print(f"{lessons_path} is missing: run scripts/build_django_devsets.py first")
            return 2
    dev_sets = [load(*spec) for spec in SETS]
    variants = [
        Variant("as shipped"),
        Variant("porter groups", porter=True),
        Variant("compounds", compounds=True),
        Variant("porter + compounds", porter=True, compounds=True),
        Variant("coordination 0.5", coordination=0.5),
        Variant("k1 0.9 b 0.9 title 1", saturation=0.9, length_effect=0.9, title_weight=1.0),
        Variant("k1 2.0 b 0.5 title 3", saturation=2.0, length_effect=0.5, title_weight=3.0),
    ]
    print("columns: small set, large set; halves are odd-numbered / even-numbered cases")
    for variant in variants:
        ranked = [[rank(s, variant, str(c["question"])) for c in s.cases] for s in dev_sets]

        def always(_: Features) -> bool:
            return True

        top = {
            h: [tally(s.cases, r, always, h) for s, r in zip(dev_sets, ranked, strict=False)]
            for h in HALVES
        }
        print(f"\n== {variant.name}: top-1, never refusing")
        for half in HALVES:
            print(f"   {half:<5} {fmt(top[half])}")
        for family, rules in rule_families().items():
            results = {
                label: {
                    h: [tally(s.cases, r, rule, h) for s, r in zip(dev_sets, ranked, strict=False)]
                    for h in HALVES
                }
                for label, rule in rules
            }
            qualifying = [
                label
                for label in results
                if all(f / u >= 0.8 for _, _, f, u in results[label]["odd"])
            ]
            if not qualifying:
                print(f"   {family}: nothing refuses 80% on the odd half")
                continue
            best = max(
                qualifying,
                key=lambda label: (
                    sum(r for r, _, _, _ in results[label]["odd"]),
                    min(f / u for _, _, f, u in results[label]["odd"]),
                    -list(results).index(label),
                ),
            )
            print(f"   {family}: picks {best}")
            for half in HALVES:
                print(f"     {half:<5} {fmt(results[best][half])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
