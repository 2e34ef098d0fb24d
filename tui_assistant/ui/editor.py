"""Opening the evidence passage's file in the user's editor, at the passage's line."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path

from textual.app import SuspendNotSupported

from tui_assistant.core.display_text import one_line
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.errors import os_error_words
from tui_assistant.ui.keys import RELOAD, key_name

# Short, so it fits after the outcome on an 80-column status bar.
BACK_FROM_EDITOR = f"back from the editor; {key_name(RELOAD.key)} reloads"


def editor_command(environ: Mapping[str, str], path: Path, line: int) -> list[str] | None:
    """`$VISUAL` (else `$EDITOR`) split like a shell would, plus `+LINE FILE`; None
    when neither is set. The path is the library's own, never one a model wrote."""
    for variable in ("VISUAL", "EDITOR"):
        value = environ.get(variable, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError:  # an unbalanced quote: take the words as they are
                words = value.split()
            if words:
                return [*words, f"+{line}", os.fspath(path)]
    return None


def passage_file(library: Library, passage: Passage) -> Path | None:
    """The passage's file: the library folder joined with the document path the library
    itself recorded; None when the passage is no longer in the library."""
    number = library.number_of(passage.id)
    if number is None:
        return None
    info = library.info(number)
    return Path(library.part_of(info).folder) / info.document


def open_in_editor(
    library: Library, passage: Passage, run_in_terminal: Callable[[list[str]], int]
) -> str:
    """Open `passage` in the editor with `run_in_terminal`; what to tell the user after."""
    path = passage_file(library, passage)
    if path is None:
        return "that passage is no longer in the library"
    argv = editor_command(os.environ, path, passage.line)
    if argv is None:
        return "no editor: set $VISUAL or $EDITOR"
    try:
        status = run_in_terminal(argv)
    except SuspendNotSupported:
        return "cannot open an editor: this terminal cannot be suspended"
    except OSError as error:
        return f"editor {one_line(argv[0])} did not start: {os_error_words(error)}"
    if status != 0:
        return f"editor exited with status {status}"
    return BACK_FROM_EDITOR
