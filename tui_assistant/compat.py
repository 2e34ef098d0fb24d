"""The old names, in one place: they keep working for users' scripts and files.

The library was once "lessons" and a passage a "lesson". These names are still read
(and `lesson_id` still written) beside the new ones; the new name wins where both are
given. Pure: names and small lookups, no disk.

| old name | new name | where |
| --- | --- | --- |
| `--lessons DIR` | `--library DIR` | every command's option |
| `lessons` | `passages` | the command |
| `TUI_ASSISTANT_LESSONS_DIR` | `TUI_ASSISTANT_LIBRARY` | the setting |
| `lesson_id` | `passage_id` | `ask --json` output (both written), history records (read) |
| `expect_lesson` | `expect_passage` | `eval` cases |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LIBRARY_OPTIONS = ("--library", "--lessons")
PASSAGES_COMMAND_ALIASES = ("lessons",)
EXPECT_KEYS = ("expect_passage", "expect_lesson")
_PASSAGE_ID_KEYS = ("passage_id", "lesson_id")


def library_variables(prefix: str) -> tuple[str, str]:
    """The library setting's environment variables, the new name first."""
    return f"{prefix}LIBRARY", f"{prefix}LESSONS_DIR"


def passage_id_fields(passage_id: str | None) -> dict[str, str | None]:
    """The passage id as `ask --json` writes it: under its name and its old name."""
    return dict.fromkeys(_PASSAGE_ID_KEYS, passage_id)


def passage_id_key(record: Mapping[str, Any]) -> str:
    """The key holding a stored record's passage id (older records say `lesson_id`)."""
    return next((key for key in _PASSAGE_ID_KEYS if key in record), _PASSAGE_ID_KEYS[0])


def expect_key(case: Mapping[str, Any]) -> str | None:
    """The key of an `eval` case naming its expected passage, or None."""
    return next((key for key in EXPECT_KEYS if key in case), None)
