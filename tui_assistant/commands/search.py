"""`tui-assistant search QUESTION`: the best passages for a question, for a person at a
terminal or a script, ranked exactly as the MCP `search` tool ranks them (the same
`LibraryTools.search`).

Each passage is shown with its title and id, `file:lines`, and the sentence of it that
best matches the question; the last line says what the library decided. `--json`
prints one object per passage and a last `{"decision", "reason", "retrieval"}`. Like
`grep`, the exit status says whether anything was found: 0 when a passage is plausibly
about the question (the library answers, or is unsure between candidates), 1 when
nothing is (`no_evidence`), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from tui_assistant.commands.common import add_command, open_for
from tui_assistant.core.display_text import clean_display_text, one_line
from tui_assistant.core.documents.place import location
from tui_assistant.core.excerpt import passage_excerpt
from tui_assistant.core.service import MAX_QUESTION_CHARS
from tui_assistant.core.words import normalise_distinct
from tui_assistant.errors import BadArgument, UsageError
from tui_assistant.wiring.library_tools import LibraryTools, SearchResult

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands
    from tui_assistant.core.library.library import Library

DEFAULT_LIMIT = 5
MAX_LIMIT = 10
FOUND, NOTHING = 0, 1
# What `decision` and `reason` say, in words, on the last line.
_DECIDED = {
    None: "answered: the library is sure of the first passage",
    "ambiguous": "not sure: the passages above are possible, none clearly answers",
    "no_evidence": "nothing in the library is plausibly about this",
}


def register(subparsers: Subcommands) -> None:
    parser = add_command(
        subparsers,
        "search",
        run,
        "one JSON object per passage, then one with the decision",
        help="the best passages for a question",
        description="Show the passages that best match QUESTION, best first, each with "
        "its title, file:lines and the sentence that best matches, ranked as the MCP "
        "search tool ranks them, and what the library decided. Exit status 0 when a "
        "passage is plausibly about it, 1 when nothing is.",
    )
    parser.add_argument("question", metavar="QUESTION")
    parser.add_argument(
        "--limit",
        type=_limit,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"how many passages, 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})",
    )


def _limit(value: str) -> int:
    if not value.strip().isdigit() or not 1 <= int(value) <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number from 1 to {MAX_LIMIT}")
    return int(value)


def run(args: argparse.Namespace) -> int:
    question: str = args.question
    if not question.strip():
        raise UsageError("QUESTION: is blank (ask in words)")
    if len(question) > MAX_QUESTION_CHARS:
        raise UsageError(f"QUESTION: longer than {MAX_QUESTION_CHARS:,} characters")
    context = open_for(args)
    try:
        try:
            result = LibraryTools(context).search(question, args.limit)
        except BadArgument as error:
            raise UsageError(str(error)) from None
        _show(result, question, context.library, args.json)
    finally:
        context.library.close()
    return NOTHING if result.reason == "no_evidence" else FOUND


def _show(result: SearchResult, question: str, library: Library, as_json: bool) -> None:
    keys = normalise_distinct(question)
    passages = [_with_pages(passage.model_dump()) for passage in result.passages]
    if as_json:
        for row in passages:
            print(json.dumps(row), flush=True)
        decided = {"decision": result.decision, "reason": result.reason}
        print(json.dumps({**decided, "retrieval": result.retrieval}), flush=True)
    else:
        lines: list[str] = []
        for number, (row, scored) in enumerate(zip(passages, result.passages, strict=True), 1):
            passage = library.get(scored.id)
            sentence = passage_excerpt(passage, keys, 1) if passage is not None else ""
            lines += [
                f"{number}. {one_line(row['title'])} [{row['id']}]",
                f"   {_place(row)}" + (f"  {row['url']}" if row.get("url") else ""),
                f"   {sentence}",
            ]
        lines.append(f"{_DECIDED.get(result.reason, result.reason)} ({result.retrieval})")
        print(clean_display_text("\n".join(lines)), flush=True)


def _with_pages(row: dict[str, Any]) -> dict[str, Any]:
    """A passage's keys in a fixed order, the place first (`id`, `title`, `source_path`,
    `line`, `end_line`, `page`, `end_page`, `url`), then `library`, `score` and `text`;
    `page` and `end_page` are null for a passage that is not from a PDF, `url` for one
    that is not from a website."""
    keys = ("id", "title", "source_path", "line", "end_line", "page", "end_page", "url")
    ordered = {key: row.get(key) for key in keys}
    return {**ordered, "library": row["library"], "score": row["score"], "text": row["text"]}


def _place(row: dict[str, Any]) -> str:
    """`file:lines`, or a PDF's `file p. 12–13`, written as everywhere else."""
    return location(row["source_path"], row["line"], row["end_line"], row["page"], row["end_page"])
