"""`tui-assistant changes OLD NEW`: what changed between two fetched versions of one
library, for someone about to upgrade.

The package's own changelog entries for the versions after OLD up to NEW come first,
then the documentation's sections changed, moved, added and removed, each citing its
passages in their version (`file:lines`). `--json` prints one object per change. Exit
status 0, or 2 (one line) when OLD and NEW are not two fetched versions of one library.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from tui_assistant.commands.common import add_command
from tui_assistant.errors import UsageError
from tui_assistant.output import ProgressLine, format_changes
from tui_assistant.settings import load_settings
from tui_assistant.wiring.version_changes import VersionPair, compare, fetched_version, records

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands


def register(subparsers: Subcommands) -> None:
    # Reads the two fetched libraries it is given: no --library or --retrieval.
    command = add_command(
        subparsers,
        "changes",
        run,
        "one JSON object per change, changelog entries first",
        common=False,
        help="what changed between two fetched versions of a library",
        description="Show what changed from OLD to NEW, two fetched versions of one "
        "library (requests@2.31.0 requests@2.32.3): the changelog's entries for the "
        "versions after OLD up to NEW, then the documentation's sections changed, moved, "
        "added and removed, each with its title and file:lines in its version.",
    )
    command.add_argument(
        "old",
        metavar="OLD",
        help="NAME@VERSION, or NAME@RANGE for the newest fetched version in it",
    )
    command.add_argument("new", metavar="NEW", help="NAME@VERSION or NAME@RANGE, the newer one")


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    folders = []
    for label, entry in (("OLD", args.old), ("NEW", args.new)):
        try:
            folders.append(fetched_version(entry, settings.data_dir))
        except ValueError as error:
            raise UsageError(f"{label}: {error}") from None
    try:
        pair = VersionPair.of(*folders)
    except ValueError as error:
        raise UsageError(f"OLD and NEW: {error}") from None
    with ProgressLine("reading", "file") as progress:
        changes = compare(pair, settings, progress)
    if args.json:
        for record in records(changes):
            print(json.dumps(record.model_dump(mode="json")), flush=True)
    else:
        print(format_changes(changes, *pair.names), flush=True)
    return 0
