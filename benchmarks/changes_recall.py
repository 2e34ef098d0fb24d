"""How much of what changed between two versions `tui-assistant changes` finds.

    python -m benchmarks.changes_recall [--json]

The development set is `eval/changes/`: two fetched versions each of attrs, packaging
and dotenv (`fetched/NAME@VERSION/`, their documentation and changelog as `fetch` kept
them, with their licences), and per package the changes a user upgrading would notice,
written down by reading both versions (`NAME.expected.jsonl`: `old`, `new`, `change`,
`title`, for a move `old_title`, and a note). For each package this reports the recall
(expected changes reported with the same kind and title, a move from the same old
title) and the sections reported `changed` whose text is in fact the same in both
versions (there should be none). The folders are copied into a temporary data folder,
so the index stores built to read them are thrown away.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tui_assistant.core.changes.diff import Change, sections
from tui_assistant.settings import Settings
from tui_assistant.wiring.version_changes import compare, fetched_pair, library_passages

SET = Path(__file__).resolve().parent.parent / "eval" / "changes"
RECALL_TARGET = 0.9


def found(expected: dict[str, str], changes: list[Change]) -> bool:
    for change in changes:
        if change.kind != expected["change"] or change.title != expected["title"]:
            continue
        old_title = expected.get("old_title")
        if old_title is None or (change.old is not None and change.old.title == old_title):
            return True
    return False


def same_text_reported(
    changes: list[Change], old: Path, new: Path, settings: Settings
) -> list[str]:
    """The titles reported `changed` whose whole section reads the same in both."""
    texts = [
        {(s.document, s.title): s.text for s in sections(library_passages(folder, settings))}
        for folder in (old, new)
    ]
    same = []
    for change in changes:
        if change.kind == "changed" and change.old is not None and change.new is not None:
            old_key = (change.old.source_path.partition("/")[2], change.old.title)
            new_key = (change.new.source_path.partition("/")[2], change.new.title)
            if texts[0].get(old_key) == texts[1].get(new_key):
                same.append(change.title)
    return same


def measure(data_dir: Path) -> list[dict[str, object]]:
    settings = Settings(data_dir=data_dir)
    rows = []
    for path in sorted(SET.glob("*.expected.jsonl")):
        expected = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        old, new = expected[0]["old"], expected[0]["new"]
        pair = fetched_pair(old, new, data_dir)
        started = time.perf_counter()
        changes = compare(pair, settings)
        seconds = time.perf_counter() - started
        missed = [row for row in expected if not found(row, changes)]
        kinds = {kind: sum(c.kind == kind for c in changes) for kind in
                 ("changelog", "changed", "moved", "added", "removed")}  # fmt: skip
        rows.append(
            {
                "package": path.name.removesuffix(".expected.jsonl"),
                "old": old,
                "new": new,
                "expected": len(expected),
                "found": len(expected) - len(missed),
                "recall": round((len(expected) - len(missed)) / len(expected), 3),
                "missed": [f"{row['change']}: {row['title']}" for row in missed],
                "reported": kinds,
                "changed_with_same_text": same_text_reported(changes, pair.old, pair.new, settings),
                "seconds": round(seconds, 2),
            }
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        data_dir = Path(temporary)
        shutil.copytree(SET / "fetched", data_dir / "fetched")
        rows = measure(data_dir)
    expected = sum(int(str(row["expected"])) for row in rows)
    found_all = sum(int(str(row["found"])) for row in rows)
    same = [title for row in rows for title in row["changed_with_same_text"]]  # type: ignore[attr-defined]
    summary = {"recall": round(found_all / expected, 3), "changed_with_same_text": len(same)}
    if args.json:
        print(json.dumps({"packages": rows, **summary}, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            reported = ", ".join(f"{count} {kind}" for kind, count in row["reported"].items())  # type: ignore[attr-defined]
            print(
                f"{row['old']} -> {row['new']}: recall {row['recall']:.0%} "
                f"({row['found']}/{row['expected']}), reported {reported}, "
                f"{len(row['changed_with_same_text'])} changed with the same text, "  # type: ignore[arg-type]
                f"{row['seconds']} s"
            )
            for missed in row["missed"]:  # type: ignore[attr-defined]
                print(f"  missed {missed}")
        print(
            f"all: recall {summary['recall']:.0%} ({found_all}/{expected}, target "
            f"{RECALL_TARGET:.0%}), {len(same)} reported changed with the same text (target: none)"
        )
    return 0 if summary["recall"] >= RECALL_TARGET and not same else 1


if __name__ == "__main__":
    sys.exit(main())
