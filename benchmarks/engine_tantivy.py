"""The tantivy peer (optional `bench` extra): same pipeline as engine_fts5.py.

English stemming tokenizer, title boosted 2, an on-disk index reopened on a second
start when every file's size and mtime match.
Prints one JSON object: ready_seconds, latencies_ms, answered.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

import tantivy
from engine_fts5 import _read, _signature

_TOKEN = re.compile(r"\w+")


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    builder.add_text_field("title", tokenizer_name="en_stem")
    builder.add_text_field("body", tokenizer_name="en_stem")
    return builder.build()


def open_index(folder: Path, workdir: Path) -> tantivy.Index:
    signature = _signature(folder)
    stamp = json.dumps(signature)
    path = workdir / "tantivy"
    stamp_file = workdir / "tantivy.stamp"
    if stamp_file.exists() and stamp_file.read_text() == stamp:
        return tantivy.Index(_schema(), path=str(path))
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    index = tantivy.Index(_schema(), path=str(path))
    writer = index.writer(heap_size=64_000_000, num_threads=1)
    for name, _size, _mtime in signature:
        title, body = _read(os.path.join(folder, name))
        writer.add_document(tantivy.Document(id=name[:-3], title=title, body=body))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    stamp_file.write_text(stamp)
    return index


def main(argv: list[str]) -> int:
    folder, cases, workdir = Path(argv[0]), Path(argv[1]), Path(argv[2])
    workdir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    index = open_index(folder, workdir)
    searcher = index.searcher()
    ready = time.perf_counter() - start
    questions = [json.loads(line)["question"] for line in cases.open(encoding="utf-8")]
    latencies = []
    answered = 0
    for question in questions:
        began = time.perf_counter()
        words = " ".join(_TOKEN.findall(question.lower()))
        found = None
        if words:
            query = index.parse_query(words, ["title", "body"], field_boosts={"title": 2.0})
            hits = searcher.search(query, 2).hits
            if hits and (len(hits) == 1 or hits[0][0] != hits[1][0]):
                found = searcher.doc(hits[0][1])["id"][0]
        latencies.append((time.perf_counter() - began) * 1000)
        answered += found is not None
    print(json.dumps({"ready_seconds": ready, "latencies_ms": latencies, "answered": answered}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
