"""The bm25s peer (optional `bench` extra): same pipeline as engine_fts5.py.

bm25s has no per-field weights, so the title is indexed twice (title weight 2). Its
saved index is reused on a second start when every file's size and mtime match.
Prints one JSON object: ready_seconds, latencies_ms, answered.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import bm25s
from engine_fts5 import _read, _signature


def open_index(folder: Path, workdir: Path) -> tuple[bm25s.BM25, list[str]]:
    signature = _signature(folder)
    stamp = json.dumps(signature)
    saved = workdir / "bm25s"
    stamp_file = workdir / "bm25s.stamp"
    if stamp_file.exists() and stamp_file.read_text() == stamp:
        return bm25s.BM25.load(str(saved)), [name[:-3] for name, _, _ in signature]
    texts = []
    for name, _size, _mtime in signature:
        title, body = _read(os.path.join(folder, name))
        texts.append(f"{title} {title} {body}")
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
    retriever.save(str(saved))
    stamp_file.write_text(stamp)
    return retriever, [name[:-3] for name, _, _ in signature]


def main(argv: list[str]) -> int:
    folder, cases, workdir = Path(argv[0]), Path(argv[1]), Path(argv[2])
    workdir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    retriever, ids = open_index(folder, workdir)
    ready = time.perf_counter() - start
    questions = [json.loads(line)["question"] for line in cases.open(encoding="utf-8")]
    latencies = []
    answered = 0
    for question in questions:
        began = time.perf_counter()
        tokens = bm25s.tokenize([question], stopwords="en", show_progress=False)
        if tokens.vocab:
            results, scores = retriever.retrieve(tokens, k=2, show_progress=False)
            top = scores[0]
            found = ids[int(results[0][0])] if top[0] > 0 and top[0] != top[1] else None
        else:
            found = None
        latencies.append((time.perf_counter() - began) * 1000)
        answered += found is not None
    print(json.dumps({"ready_seconds": ready, "latencies_ms": latencies, "answered": answered}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
