"""The bm25s peer (optional `bench` extra): same pipeline as engine_fts5.py.

bm25s has no per-field weights, so the title is indexed twice (title weight 2). Its
saved index is reused on a second start when every file's size and mtime match.
Prints one JSON object: ready_seconds, latencies_ms, answered.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import bm25s

from benchmarks.engine_common import (
    Answer,
    lesson_id,
    read_lesson,
    run_engine,
    signature,
    stamp_matches,
)


def open_index(folder: Path, workdir: Path) -> tuple[bm25s.BM25, list[str]]:
    files = signature(folder)
    stamp = json.dumps(files)
    saved = workdir / "bm25s"
    stamp_file = workdir / "bm25s.stamp"
    if stamp_matches(stamp_file, stamp):
        return bm25s.BM25.load(str(saved)), [lesson_id(name) for name, _, _ in files]
    texts = []
    for name, _size, _mtime in files:
        title, body = read_lesson(os.path.join(folder, name))
        texts.append(f"{title} {title} {body}")
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
    retriever.save(str(saved))
    stamp_file.write_text(stamp)
    return retriever, [lesson_id(name) for name, _, _ in files]


def open_engine(folder: Path, workdir: Path) -> Answer:
    retriever, ids = open_index(folder, workdir)

    def answer(question: str) -> str | None:
        tokens = bm25s.tokenize([question], stopwords="en", show_progress=False)
        if not tokens.vocab:
            return None
        results, scores = retriever.retrieve(tokens, k=2, show_progress=False)
        top = scores[0]
        return ids[int(results[0][0])] if top[0] > 0 and top[0] != top[1] else None

    return answer


if __name__ == "__main__":
    raise SystemExit(run_engine(open_engine))
