"""Reference peer: SQLite FTS5's top-1 over the same passages the app retrieves from.

The library is loaded as the app loads it (`store.open_library`, in memory), and every
passage (title, text) goes into an in-memory FTS5 table (porter tokenizer). Each
question becomes an OR of its words, ranked by FTS5's bm25 with the title weighted 2
and the text 1; the best row is the answer. FTS5 has no notion of confidence, so it
refuses only when no passage shares a word with the question: its answerable accuracy
is the number to match, its refusals are near zero by design.

    python -m scripts.measures.fts5_top1 eval/docker-docs.jsonl --library eval/docker-docs
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

from tui_assistant.core.library.library import Library
from tui_assistant.core.words import STOPWORDS, stem, words
from tui_assistant.store.index_store import open_library

TITLE_WEIGHT = 2.0
TEXT_WEIGHT = 1.0


class Fts5TopOne:
    """FTS5's best passage for a question, or None when no passage shares a word with it."""

    def __init__(self, library: Library, drop_stopwords: bool = False) -> None:
        self.library = library
        self.drop_stopwords = drop_stopwords
        self.database = sqlite3.connect(":memory:")
        self.database.execute(
            "CREATE VIRTUAL TABLE passage USING fts5(title, text, tokenize='porter unicode61')"
        )
        rows = []
        for number in range(len(library)):
            passage = library.passage(number)
            rows.append((number, passage.title, passage.text))
        self.database.executemany("INSERT INTO passage(rowid, title, text) VALUES (?, ?, ?)", rows)

    def retrieve_number(self, question: str) -> int | None:
        terms = [word for word in words(question) if word.replace("'", "").isalnum()]
        if self.drop_stopwords:
            terms = [word for word in terms if word not in STOPWORDS]
        # Quoted terms: a question word such as "or" or "not" must not become an operator.
        query = " OR ".join('"' + word.replace('"', "") + '"' for word in dict.fromkeys(terms))
        if not query:
            return None
        row = self.database.execute(
            "SELECT rowid FROM passage WHERE passage MATCH ? ORDER BY bm25(passage, ?, ?) LIMIT 1",
            (query, TITLE_WEIGHT, TEXT_WEIGHT),
        ).fetchone()
        return None if row is None else int(row[0])

    def retrieve_id(self, question: str) -> str | None:
        number = self.retrieve_number(question)
        return None if number is None else self.library.info(number).id


def load_cases(path: Path) -> list[dict[str, str | None]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="SQLite FTS5 top-1 on an eval cases file")
    parser.add_argument("cases", type=Path)
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument(
        "--drop-stopwords",
        action="store_true",
        help="remove the app's stopwords from the question first",
    )
    args = parser.parse_args(argv)
    library = open_library(args.library, None, stem)
    peer = Fts5TopOne(library, drop_stopwords=args.drop_stopwords)
    answerable = correct_answerable = unanswerable = refused = 0
    for case in load_cases(args.cases):
        found = peer.retrieve_id(str(case["question"]))
        if case["expect_passage"] is None:
            unanswerable += 1
            refused += found is None
        else:
            answerable += 1
            correct_answerable += found == case["expect_passage"]
    print(
        f"FTS5 top-1 on {len(library)} passages: answerable {correct_answerable}/{answerable} "
        f"({correct_answerable / max(answerable, 1):.1%}), "
        f"unanswerable refused {refused}/{unanswerable} ({refused / max(unanswerable, 1):.1%})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
