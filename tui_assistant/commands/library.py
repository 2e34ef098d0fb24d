"""`library`: what the library holds. Embeds nothing."""

from __future__ import annotations

import argparse
import json

from tui_assistant.commands.common import settings_of
from tui_assistant.output import ProgressLine


def run(args: argparse.Namespace) -> int:
    from tui_assistant.core.library.report_records import LibraryRecord, LibraryRecords
    from tui_assistant.core.library.report_text import format_report
    from tui_assistant.wiring.context import load_library
    from tui_assistant.wiring.report import describe_library
    from tui_assistant.wiring.retrieval_choice import choose_retrieval

    settings = settings_of(args)
    # Never fetches a model: the report says it is not fetched yet.
    choice = choose_retrieval(settings, settings.data_dir, fetch=False)
    with ProgressLine("indexing", "files") as indexing:
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
