"""`gaps`: the questions the library could not answer. Reads no document."""

from __future__ import annotations

import argparse
import json

from tui_assistant.commands.common import settings_of
from tui_assistant.output import format_gaps


def run(args: argparse.Namespace) -> int:
    from tui_assistant.wiring.gaps import list_gaps

    settings = settings_of(args)
    gaps = list_gaps(settings)
    if args.json:
        print(json.dumps(gaps.model_dump(mode="json"), indent=2))
    else:
        print(format_gaps(gaps, recording=settings.gaps))
    return 0
