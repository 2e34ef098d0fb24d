"""Opening the evidence passage's file in the user's editor, at the passage's line; a
PDF in a PDF viewer, at the passage's page where the viewer takes one.

PDF viewers (`$PDF_VIEWER`, else the system opener: `xdg-open`, `open` on macOS) run
beside the app, not in its terminal. Those known to take a page:

| viewer | command |
| --- | --- |
| zathura | `zathura --page=N FILE` |
| evince | `evince --page-index=N FILE` |
| okular | `okular --page N FILE` |
| mupdf | `mupdf FILE N` |

Any other viewer is given the file alone, and the status bar says which page to open.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from textual.app import SuspendNotSupported

from tui_assistant.core.display_text import one_line
from tui_assistant.core.documents.formats import format_of
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
            words = _split(value)
            if words:
                return [*words, f"+{line}", os.fspath(path)]
    return None


# How each known viewer is told the page (1-based) to open at.
PAGE_ARGUMENTS: dict[str, Callable[[str, int], list[str]]] = {
    "zathura": lambda path, page: [f"--page={page}", path],
    "evince": lambda path, page: [f"--page-index={page}", path],
    "okular": lambda path, page: ["--page", str(page), path],
    "mupdf": lambda path, page: [path, str(page)],
}


def pdf_viewer_command(
    environ: Mapping[str, str], path: Path, page: int, platform: str = sys.platform
) -> tuple[list[str], bool] | None:
    """The command that shows `path` (`$PDF_VIEWER` split like a shell would, else the
    system opener) and whether it opens at `page`; None when there is no viewer."""
    value = environ.get("PDF_VIEWER", "").strip()
    words = _split(value) if value else []
    if not words:
        opener = "open" if platform == "darwin" else "xdg-open"
        found = shutil.which(opener, path=environ.get("PATH"))
        return ([found, os.fspath(path)], False) if found else None
    at_page = PAGE_ARGUMENTS.get(os.path.basename(words[0]))
    if at_page is None:
        return [*words, os.fspath(path)], False
    return [*words, *at_page(os.fspath(path), page)], True


def _split(value: str) -> list[str]:
    try:
        return shlex.split(value)
    except ValueError:  # an unbalanced quote: take the words as they are
        return value.split()


def start_beside(argv: list[str]) -> None:
    """Run a viewer beside the app: its own session, none of the app's terminal."""
    subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def open_pdf(path: Path, page: int, start: Callable[[list[str]], None] = start_beside) -> str:
    """Show a PDF at `page` where the viewer allows; what to tell the user after."""
    name = one_line(path.name)
    found = pdf_viewer_command(os.environ, path, page)
    if found is None:
        return f"no PDF viewer (set $PDF_VIEWER): open {name} at page {page}"
    argv, at_page = found
    try:
        start(argv)
    except OSError as error:
        return f"PDF viewer {one_line(argv[0])} did not start: {os_error_words(error)}"
    return f"opened {name} at page {page}" if at_page else f"opened {name}: go to page {page}"


def passage_file(library: Library, passage: Passage) -> Path | None:
    """The passage's file: the library folder joined with the document path the library
    itself recorded; None when the passage is no longer in the library."""
    number = library.number_of(passage.id)
    if number is None:
        return None
    info = library.info(number)
    return Path(library.part_of(info).folder) / info.document


def open_in_editor(
    library: Library,
    passage: Passage,
    run_in_terminal: Callable[[list[str]], int],
    start: Callable[[list[str]], None] = start_beside,
) -> str:
    """Open `passage` in the editor with `run_in_terminal` (a PDF in a viewer, with
    `start`); what to tell the user after."""
    path = passage_file(library, passage)
    if path is None:
        return "that passage is no longer in the library"
    format = format_of(path.name)
    if format is not None and format.reads_pages:
        return open_pdf(path, passage.page or 1, start)
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
