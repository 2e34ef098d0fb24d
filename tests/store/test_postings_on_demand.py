"""A library's postings read word by word from its store rank exactly as the whole
index read into memory does."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.words import stem
from tui_assistant.store.folder import list_library
from tui_assistant.store.index_store import open_library, store_path
from tui_assistant.store.snapshot import begin_snapshot, read_library

EVAL = Path(__file__).resolve().parents[2] / "eval"


def test_ranking_from_postings_on_demand_equals_the_whole_index(data_dir: Path) -> None:
    folder = EVAL / "attrs-docs"
    questions = [
        json.loads(line)["question"]
        for line in (EVAL / "attrs-docs.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    on_demand = open_library(folder, data_dir, stem)
    connection = sqlite3.connect(store_path(data_dir, folder), isolation_level=None)
    begin_snapshot(connection)
    whole = read_library(connection, folder, list_library(folder), stem, all_postings=True)
    try:
        assert sorted(on_demand.index.keys()) == sorted(whole.index.keys())
        fast, full = RankedRetriever(on_demand), RankedRetriever(whole)
        for question in [*questions, "how do I valdiate an atribute", "kubernetes ingress"]:
            got, expected = fast.search(question, 3, 10), full.search(question, 3, 10)
            assert got.scored == expected.scored, question
            assert got.found == expected.found, question
    finally:
        on_demand.close()
        whole.close()
