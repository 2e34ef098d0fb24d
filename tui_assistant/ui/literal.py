"""Untrusted text (lessons, model answers, questions) made safe to put on screen.

`Content(text)` never interprets markup, so `[bold]`, `[@click=app.quit]` and a stray
`[/` show as typed; `clean_display_text` removes the escape sequences and control
characters that `Content` would otherwise pass to the terminal.
"""

from __future__ import annotations

from textual.content import Content

from tui_assistant.core.text import clean_display_text
from tui_assistant.core.text import one_line as one_line  # the widgets' import of it


def literal(text: str, style: str = "") -> Content:
    """Cleaned text as Content, shown exactly as written (optionally in one style)."""
    content = Content(clean_display_text(text))
    return content.stylize(style) if style else content
