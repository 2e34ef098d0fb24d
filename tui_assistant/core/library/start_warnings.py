"""What a start says of the library's reading problems: at most one line, so a first
start with many does not fill a screen; the library report lists each with its reason."""

from __future__ import annotations

from collections.abc import Iterable

from tui_assistant.core.documents.formats.python import SOURCE_ONLY
from tui_assistant.core.library.library import FileProblem, printable_file_name

# The files a start's one line names among its new problems.
START_NAMED = 2


def start_warning_lines(problems: Iterable[object], see: str) -> list[str]:
    """What a start says of the library's problems, in at most one line, so a first start
    with many does not fill a screen: one problem is its own line (naming its file and
    why); several are counted, the new ones among them named (a few), and `see` (``
    `tui-assistant library` ``) says where each is listed with its reason. A Python
    source that documents nothing public is not said: autodoc reads it, nothing is lost."""
    said = [
        p
        for p in problems
        if not (isinstance(p, FileProblem) and p.skipped and p.reason == SOURCE_ONLY)
    ]
    if len(said) <= 1:
        return [str(problem) for problem in said]
    new = [p for p in said if not isinstance(p, FileProblem) or p.new]
    line = f"{len(said):,} reading notes"
    if new:
        names = list(dict.fromkeys(_named(problem) for problem in new))
        shown = ", ".join(names[:START_NAMED])
        more = len(names) - START_NAMED
        shown += f" and {more:,} more" if more > 0 else ""
        line += f" ({len(new):,} new: {shown})"
    return [f"{line}, see {see}"]


def _named(problem: object) -> str:
    if isinstance(problem, FileProblem):
        return printable_file_name(problem.path)
    return str(problem)
