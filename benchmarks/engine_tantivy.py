"""The tantivy peer (optional `bench` extra): same pipeline as engine_fts5.py.

English stemming tokenizer, title boosted 2, an on-disk index reopened on a second
start when every file's size and mtime match.
Prints one JSON object: ready_seconds, latencies_ms, answered.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import tantivy

from benchmarks.engine_common import (
    TOKEN,
    Answer,
    lesson_id,
    read_lesson,
    run_engine,
    signature,
    stamp_matches,
)


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    builder.add_text_field("title", tokenizer_name="en_stem")
    builder.add_text_field("body", tokenizer_name="en_stem")
    return builder.build()


def open_index(folder: Path, workdir: Path) -> tantivy.Index:
    files = signature(folder)
    stamp = json.dumps(files)
    path = workdir / "tantivy"
    stamp_file = workdir / "tantivy.stamp"
    if stamp_matches(stamp_file, stamp):
        return tantivy.Index(_schema(), path=str(path))
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    index = tantivy.Index(_schema(), path=str(path))
    writer = index.writer(heap_size=64_000_000, num_threads=1)
    for name, _size, _mtime in files:
        title, body = read_lesson(os.path.join(folder, name))
        writer.add_document(tantivy.Document(id=lesson_id(name), title=title, body=body))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    stamp_file.write_text(stamp)
    return index


def open_engine(folder: Path, workdir: Path) -> Answer:
    index = open_index(folder, workdir)
    searcher = index.searcher()

    def answer(question: str) -> str | None:
        words = " ".join(TOKEN.findall(question.lower()))
        if not words:
            return None
        query = index.parse_query(words, ["title", "body"], field_boosts={"title": 2.0})
        hits = searcher.search(query, 2).hits
        if hits and (len(hits) == 1 or hits[0][0] != hits[1][0]):
            return str(searcher.doc(hits[0][1])["id"][0])
        return None

    return answer


if __name__ == "__main__":
    raise SystemExit(run_engine(open_engine))
