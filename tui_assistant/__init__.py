"""tui-assistant: answers from a library of Markdown documents, and refuses what it cannot check."""

__version__ = "0.1.0"
# The command, as every line the app writes to a terminal names it.
PROG = "tui-assistant"
