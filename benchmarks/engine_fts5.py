"""The SQLite FTS5 peer: read the lesson files, index them, answer every question.

Run by `run.py` in its own process. Same pipeline as ours: files are read directly
from the folder (`*.md`, title = first `# ` line, text = the rest), indexed with the
porter tokenizer into an on-disk database, and each question is an OR of its words
ranked by bm25 with the title weighted 2. A second start on an unchanged folder
reopens the database after checking every file's size and mtime, like our cache.

Prints one JSON object: ready_seconds, latencies_ms, answered.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import sys
import time
from pathlib import Path

_TOKEN = re.compile(r"\w+")


def _signature(folder: Path) -> list[tuple[str, int, int]]:
    rows = []
    for entry in os.scandir(folder):
        if entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
            info = entry.stat(follow_symlinks=False)
            rows.append((entry.name, info.st_size, info.st_mtime_ns))
    rows.sort()
    return rows


def _read(path: str) -> tuple[str, str]:
    with open(path, encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    for number, line in enumerate(lines):
        if line.startswith("# "):
            return line[2:].strip(), "\n".join(lines[:number] + lines[number + 1 :]).strip()
    return "", "\n".join(lines)


def open_index(folder: Path, database: Path) -> sqlite3.Connection:
    signature = _signature(folder)
    stamp = json.dumps(signature)
    if database.exists():
        connection = sqlite3.connect(database)
        row = connection.execute("SELECT value FROM meta WHERE key = 'signature'").fetchone()
        if row is not None and row[0] == stamp:
            return connection
        connection.close()
        database.unlink()
    connection = sqlite3.connect(database)
    connection.executescript(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
        "CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, title, body,"
        " tokenize='porter unicode61');"
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
    )
    with connection:
        connection.executemany(
            "INSERT INTO docs(id, title, body) VALUES (?, ?, ?)",
            (
                (name[: -len(".md")], *_read(os.path.join(folder, name)))
                for name, _size, _mtime in signature
            ),
        )
        connection.execute("INSERT INTO meta VALUES ('signature', ?)", (stamp,))
    return connection


def answer(connection: sqlite3.Connection, question: str) -> str | None:
    tokens = _TOKEN.findall(question.lower())
    if not tokens:
        return None
    query = " OR ".join(f'"{token}"' for token in tokens)
    rows = connection.execute(
        "SELECT id, bm25(docs, 0.0, 2.0, 1.0) AS rank FROM docs WHERE docs MATCH ?"
        " ORDER BY rank LIMIT 2",
        (query,),
    ).fetchall()
    if not rows or (len(rows) == 2 and rows[0][1] == rows[1][1]):
        return None
    return str(rows[0][0])


def main(argv: list[str]) -> int:
    folder, cases, workdir = Path(argv[0]), Path(argv[1]), Path(argv[2])
    workdir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    connection = open_index(folder, workdir / "fts5.sqlite")
    ready = time.perf_counter() - start
    questions = [json.loads(line)["question"] for line in cases.open(encoding="utf-8")]
    latencies = []
    answered = 0
    for question in questions:
        began = time.perf_counter()
        found = answer(connection, question)
        latencies.append((time.perf_counter() - began) * 1000)
        answered += found is not None
    print(json.dumps({"ready_seconds": ready, "latencies_ms": latencies, "answered": answered}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
