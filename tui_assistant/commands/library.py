"""`library`: what the library holds. Embeds nothing."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from tui_assistant.commands.common import add_command, settings_of
from tui_assistant.core.library.report_records import LibraryRecord, LibraryRecords
from tui_assistant.core.library.report_text import format_report
from tui_assistant.output import ProgressLine
from tui_assistant.wiring.context import load_library
from tui_assistant.wiring.report import describe_library
from tui_assistant.wiring.retrieval_choice import choose_retrieval

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands


def register(subparsers: Subcommands) -> None:
    add_command(
        subparsers,
        "library",
        run,
        "print one JSON object",
        help="report what the library holds",
        description="Report the library's documents and passages by kind, the files skipped "
        "and why, the index store's place and size, and the vectors' state. Embeds nothing.",
    )


def run(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    # Never fetches a model: the report says it is not fetched yet.
    choice = choose_retrieval(settings, settings.data_dir, fetch=False)
    with ProgressLine("indexing", "file") as indexing:
        library = load_library(settings, indexing)
    # The skipped files are part of the report, not warnings before it.
    try:
        reports = [
            describe_library(settings, part, choice, choice.mode) for part in library.parts.values()
        ]
    finally:
        library.close()
    if args.json:
        records = [LibraryRecord.of(report) for report in reports]
        shown = records[0] if len(records) == 1 else LibraryRecords(libraries=records)
        print(json.dumps(shown.model_dump(mode="json"), indent=2))
    else:
        print("\n\n".join(map(format_report, reports)))
    return 0
