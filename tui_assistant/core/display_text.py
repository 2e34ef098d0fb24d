"""Untrusted text made safe for a terminal: escape sequences, control characters and
bidirectional overrides removed, and folded onto one line where a line is wanted."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from tui_assistant.errors import StartupError

if TYPE_CHECKING:
    from pydantic import ValidationError

ELLIPSIS = "\u2026"

# Escape sequences, in their 7-bit (ESC-introduced) and 8-bit (C1) forms: CSI
# (ESC [ or 0x9b ... final byte), OSC (ESC ] or 0x9d ... BEL or ST), DCS/SOS/PM/APC
# strings, two-byte escapes, and a lone ESC. Only CSI can fail part-way; its classes
# are disjoint and its parameters never contain a sequence start, so a failed attempt
# gives up one step per character and the cost stays linear in the text's length.
_ESCAPE_SEQUENCE = re.compile(
    r"""
    (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]                     # CSI
    | (?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC, ended by BEL or ST (or cut off)
    | (?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?  # DCS, SOS, PM, APC
    | \x1b[@-Z\\-_]                                     # other two-byte escapes
    | \x1b                                              # a lone ESC
    """,
    re.VERBOSE,
)
_ESCAPE_START = re.compile("[\x1b\x90\x98\x9b\x9d\x9e\x9f]")

# Two or more line breaks with only spaces or tabs between them.
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n)+")

_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Every character `clean_display_text` removes or changes: control characters (C0 and
# C1, escape sequences start with one) but newline and tab, bidirectional controls,
# surrogates. A passage's many lines need no character-by-character pass.
_CHANGED = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def clean_display_text(text: str) -> str:
    """Make untrusted text safe to put on a terminal: no escape sequence survives.

    Removes ANSI/OSC escape sequences, C0/C1 control characters other than newline
    and tab, and bidirectional overrides that could make text display in a different
    order than it is stored. Everything else, markup-looking brackets included, is kept
    literally: rendering it without markup is the display layer's job.
    """
    if _CHANGED.search(text) is None:
        return text  # nothing below would remove or change a character
    text = _ESCAPE_SEQUENCE.sub("", text.replace("\r\n", "\n"))
    return "".join(
        ch
        for ch in text
        if ch in "\n\t"
        or (ch not in _BIDI_CONTROLS and unicodedata.category(ch) not in ("Cc", "Cs"))
    )


def one_line(text: str) -> str:
    """Untrusted text made safe for the terminal and folded onto one line (titles,
    list entries, status and error lines)."""
    return " ".join(clean_display_text(text).split())


def collapse_blank_lines(text: str) -> str:
    """`text` with each run of blank lines made one empty line, and none at either end:
    a passage keeps one line per file line, so markup the page does not show leaves
    runs of them."""
    return _BLANK_RUN.sub("\n\n", text).strip("\n")


def shortened(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: a longer one is cut after the last whole
    word that fits (mid-word when there is none) and marked with `…`."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > 0 else limit - 1].rstrip() + ELLIPSIS


def without_escape_sequences(text: str) -> str:
    """`text` minus terminal escape sequences (cheap when there are none)."""
    if _ESCAPE_START.search(text):
        return _ESCAPE_SEQUENCE.sub("", text)
    return text


def error_line(error: BaseException) -> str:
    """An error as one line for users: ours that stop a start (`StartupError`) speak for
    themselves, anything else is named (`OperationalError: disk I/O error`)."""
    if isinstance(error, StartupError):
        return one_line(str(error))
    return one_line(f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)


def validation_problems(error: ValidationError) -> str:
    """`limit: Input should be less than or equal to 10`, for each problem pydantic
    found, on one line (the rejected values are left out: they may be long or secret)."""
    parts = []
    for detail in error.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in detail["loc"]) or "arguments"
        parts.append(f"{where}: {detail['msg']}")
    return one_line("; ".join(dict.fromkeys(parts)))
