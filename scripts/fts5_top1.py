"""Reference peer: SQLite FTS5's top-1 on the same cases and lessons.

Lessons go into an in-memory FTS5 table (porter tokenizer, columns title and text);
each question becomes an OR of its words, ranked by FTS5's bm25 with the title
weighted 2 and the text 1, and the best row is the answer. FTS5 has no notion of
confidence, so it refuses only when no lesson shares a word with the question: its
answerable accuracy is the number to match, its refusals are near zero by design.

    python scripts/fts5_top1.py eval/django-faq.jsonl --lessons eval/django-faq-lessons
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_assistant.core.library import Library
from tui_assistant.core.passages import Passage
from tui_assistant.core.store import open_library
from tui_assistant.core.text import STOPWORDS, stem, words

TITLE_WEIGHT = 2.0
TEXT_WEIGHT = 1.0


class Fts5TopOne:
    """FTS5's best match for a question, or None when no lesson shares a word with it."""

    def __init__(self, lessons: tuple[Passage, ...], drop_stopwords: bool = False) -> None:
        self.lessons = lessons
        self.drop_stopwords = drop_stopwords
        self.database = sqlite3.connect(":memory:")
        self.database.execute(
            "CREATE VIRTUAL TABLE lesson USING fts5(title, text, tokenize='porter unicode61')"
        )
        self.database.executemany(
            "INSERT INTO lesson(rowid, title, text) VALUES (?, ?, ?)",
            [(number, lesson.title, lesson.text) for number, lesson in enumerate(lessons)],
        )

    def retrieve(self, question: str) -> Passage | None:
        terms = [word for word in words(question) if word.replace("'", "").isalnum()]
        if self.drop_stopwords:
            terms = [word for word in terms if word not in STOPWORDS]
        # Quoted terms: a question word such as "or" or "not" must not become an operator.
        query = " OR ".join('"' + word.replace('"', "") + '"' for word in dict.fromkeys(terms))
        if not query:
            return None
        row = self.database.execute(
            "SELECT rowid FROM lesson WHERE lesson MATCH ? ORDER BY bm25(lesson, ?, ?) LIMIT 1",
            (query, TITLE_WEIGHT, TEXT_WEIGHT),
        ).fetchone()
        return None if row is None else self.lessons[row[0]]


def all_passages(library: Library) -> tuple[Passage, ...]:
    """Every passage of the library, text included, in library order."""
    return tuple(library.passage(number) for number in range(len(library)))


def load_cases(path: Path) -> list[dict[str, str | None]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="SQLite FTS5 top-1 on an eval cases file")
    parser.add_argument("cases", type=Path)
    parser.add_argument("--lessons", type=Path, required=True)
    parser.add_argument(
        "--drop-stopwords",
        action="store_true",
        help="remove the app's stopwords from the question first",
    )
    args = parser.parse_args(argv)
    library = open_library(args.lessons, None, stem)  # indexed in memory
    peer = Fts5TopOne(all_passages(library), drop_stopwords=args.drop_stopwords)
    answerable = correct_answerable = unanswerable = refused = 0
    for case in load_cases(args.cases):
        found = peer.retrieve(str(case["question"]))
        if case["expect_lesson"] is None:
            unanswerable += 1
            refused += found is None
        else:
            answerable += 1
            correct_answerable += found is not None and found.id == case["expect_lesson"]
    print(
        f"FTS5 top-1 on {len(library)} lessons: answerable {correct_answerable}/{answerable} "
        f"({correct_answerable / max(answerable, 1):.1%}), "
        f"unanswerable refused {refused}/{unanswerable} ({refused / max(unanswerable, 1):.1%})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
