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
import sqlite3
from pathlib import Path

from benchmarks.engine_common import TOKEN, Answer, lesson_id, read_lesson, run_engine, signature


def open_index(folder: Path, database: Path) -> sqlite3.Connection:
    files = signature(folder)
    stamp = json.dumps(files)
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
                (lesson_id(name), *read_lesson(os.path.join(folder, name)))
                for name, _size, _mtime in files
            ),
        )
        connection.execute("INSERT INTO meta VALUES ('signature', ?)", (stamp,))
    return connection


def answer(connection: sqlite3.Connection, question: str) -> str | None:
    tokens = TOKEN.findall(question.lower())
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


def open_engine(folder: Path, workdir: Path) -> Answer:
    connection = open_index(folder, workdir / "fts5.sqlite")
    return lambda question: answer(connection, question)


if __name__ == "__main__":
    raise SystemExit(run_engine(open_engine))
