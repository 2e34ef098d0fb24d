"""The `status` tool: what the server answers from, per library, as `tui-assistant
status --json` says it (both read `wiring.status`, where its result is)."""

from __future__ import annotations

from tui_assistant.wiring.library_tools import LibraryTools
from tui_assistant.wiring.status import StatusResult, status_of


def status(tools: LibraryTools) -> StatusResult:
    """List the libraries the server answers from, and how far each is read and embedded.

    Per library: its name (to narrow `search`, `ask`, `read` and `gaps`), documents,
    passages, how many passages have vectors and of which model, when its files were
    read, whether changed files are read again by themselves, and the retrieval mode
    answering now.
    """
    return status_of(tools.context, tools.watching)
