"""The text of a manual page's troff lines as `man` shows it on a terminal.

- escapes are rendered (`\\-` a hyphen, `\\(em` a dash, `\\(aq` an apostrophe, `\\e` a
  backslash) or dropped (`\\&`, `\\|`, font changes `\\fB`/`\\f(CW`, sizes, motions);
  `\\*(Aq` is the string the page defined (`.ds`), `\\"` starts a comment;
- `arguments` splits a request's arguments as troff does, `"quoted words"` one;
- `condition` says whether an `.if`/`.ie` condition holds for a terminal (`n` and
  groff's `\\n(.g` hold; `t`, odd or even pages and unknown tests do not).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# Named characters (`\(xx`, `\[name]`) as a terminal shows them.
CHARACTERS: dict[str, str] = {
    "em": "\N{EM DASH}",
    "en": "\N{EN DASH}",
    "hy": "-",
    "mi": "-",
    "aq": "'",
    "dq": '"',
    "cq": "\N{RIGHT SINGLE QUOTATION MARK}",
    "oq": "\N{LEFT SINGLE QUOTATION MARK}",
    "lq": "\N{LEFT DOUBLE QUOTATION MARK}",
    "rq": "\N{RIGHT DOUBLE QUOTATION MARK}",
    "Fo": "\N{LEFT-POINTING DOUBLE ANGLE QUOTATION MARK}",
    "Fc": "\N{RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK}",
    "bu": "\N{BULLET}",
    "co": "\N{COPYRIGHT SIGN}",
    "rg": "\N{REGISTERED SIGN}",
    "tm": "\N{TRADE MARK SIGN}",
    "de": "\N{DEGREE SIGN}",
    "mu": "\N{MULTIPLICATION SIGN}",
    "di": "\N{DIVISION SIGN}",
    "pl": "+",
    "eq": "=",
    "ti": "~",
    "ha": "^",
    "ga": "`",
    "aa": "\N{ACUTE ACCENT}",
    "rs": "\\",
    "sl": "/",
    "ba": "|",
    "or": "|",
    "lB": "[",
    "rB": "]",
    "lC": "{",
    "rC": "}",
    "la": "\N{MATHEMATICAL LEFT ANGLE BRACKET}",
    "ra": "\N{MATHEMATICAL RIGHT ANGLE BRACKET}",
    "->": "\N{RIGHTWARDS ARROW}",
    "<-": "\N{LEFTWARDS ARROW}",
    ">=": "\N{GREATER-THAN OR EQUAL TO}",
    "<=": "\N{LESS-THAN OR EQUAL TO}",
    "!=": "\N{NOT EQUAL TO}",
    "==": "\N{IDENTICAL TO}",
    "+-": "\N{PLUS-MINUS SIGN}",
    "sc": "\N{SECTION SIGN}",
    "ps": "\N{PILCROW SIGN}",
    "dg": "\N{DAGGER}",
    "ss": "\N{LATIN SMALL LETTER SHARP S}",
    "Eu": "\N{EURO SIGN}",
    "sq": "\N{WHITE SQUARE}",
    "ci": "\N{WHITE CIRCLE}",
    "at": "@",
    "sh": "#",
    "Do": "$",
    "ct": "\N{CENT SIGN}",
}
# Strings every man page may use without defining them.
STRINGS: dict[str, str] = {"R": "\N{REGISTERED SIGN}", "Tm": "\N{TRADE MARK SIGN}"}
STRINGS |= {"lq": "\N{LEFT DOUBLE QUOTATION MARK}", "rq": "\N{RIGHT DOUBLE QUOTATION MARK}"}

# One-character escapes and what they show.
_SIMPLE = {
    "e": "\\",
    "\\": "\\",
    "-": "-",
    ".": ".",
    "'": "\N{ACUTE ACCENT}",
    "`": "`",
    " ": " ",
    "~": " ",
    "0": " ",
    "t": "\t",
}
# Escapes that show nothing: `\&` (zero width), `\|` `\^` (thin spaces), `\%` (hyphenation),
# `\c` (joins lines), `\:`, `\/`, `\,`, `\a`, `\d`, `\u`, `\r`, `\p`, `\{`, `\}`, `\z`.
_NOTHING = frozenset("&|^%c:/,adurp{}zE)")
# Escapes with a delimited argument that show nothing (motions, sizes drawn, output).
_DELIMITED = frozenset("hvwlLDXobHSxZRAB")
# Escapes with a one-character, `(xx` or `[name]` argument that show nothing.
_NAMED = frozenset("fFgkmMnVY")
_NAME_ARGUMENT = re.compile(r"\((..)|\[([^\]]*)\]|(.)", re.DOTALL)
_SIZE = re.compile(r"[-+]?(?:\(\d\d|\[[^\]]*\]|\d)")
_UNICODE = re.compile(r"u([0-9A-Fa-f]{4,6})")
_CONDITION = re.compile(r"(!?)(?:([ntoev])(?=[\s\\]|$)|\\n(?:\(\.g|\[\.g\])|d\s*(\S+))")


def render(text: str, strings: Mapping[str, str] | None = None) -> str:
    """One line of troff text as shown: escapes rendered or dropped, a comment left out."""
    return _render(text, strings or {}, depth=0)


def _render(text: str, strings: Mapping[str, str], depth: int) -> str:
    shown: list[str] = []
    position, length = 0, len(text)
    while position < length:
        slash = text.find("\\", position)
        if slash < 0:
            shown.append(text[position:])
            break
        shown.append(text[position:slash])
        if slash + 1 >= length:
            break  # a trailing backslash joins the next line
        kind = text[slash + 1]
        position = slash + 2
        if kind in ('"', "#"):
            break  # a comment to the end of the line
        if kind in _SIMPLE:
            shown.append(_SIMPLE[kind])
        elif kind in _NOTHING:
            pass
        elif kind == "(":
            shown.append(_character(text[position : position + 2]))
            position += 2
        elif kind == "[":
            end = text.find("]", position)
            end = length if end < 0 else end
            shown.append(_character(text[position:end]))
            position = end + 1
        elif kind == "*":
            name, position = _name(text, position)
            value = strings.get(name, STRINGS.get(name, ""))
            shown.append(_render(value, strings, depth + 1) if depth < 8 else "")
        elif kind == "N":
            argument, position = _delimited(text, position)
            shown.append(
                chr(int(argument)) if argument.isdigit() and int(argument) < 0x110000 else ""
            )
        elif kind in _DELIMITED:
            _, position = _delimited(text, position)
        elif kind in _NAMED:
            _, position = _name(text, position)
        elif kind == "s":
            size = _SIZE.match(text, position)
            position = size.end() if size else position
        elif kind == "$":
            _, position = _name(text, position)
        else:
            shown.append(kind)  # an unknown escape shows its character, as troff does
    return "".join(shown)


def _character(name: str) -> str:
    if name in CHARACTERS:
        return CHARACTERS[name]
    code = _UNICODE.fullmatch(name)
    if code:
        value = int(code.group(1), 16)
        return chr(value) if value < 0x110000 else ""
    return ""


def _name(text: str, position: int) -> tuple[str, int]:
    found = _NAME_ARGUMENT.match(text, position)
    if found is None:
        return "", position
    return next(group for group in found.groups() if group is not None), found.end()


def _delimited(text: str, position: int) -> tuple[str, int]:
    if position >= len(text):
        return "", position
    end = text.find(text[position], position + 1)
    end = len(text) if end < 0 else end
    return text[position + 1 : end], end + 1


def arguments(text: str) -> list[str]:
    """A request's arguments, unrendered: separated by spaces, `"two words"` one, `""`
    inside quotes a quote; a comment (`\\"`) ends them."""
    found: list[str] = []
    position, length = 0, len(text)
    while position < length:
        while position < length and text[position] in " \t":
            position += 1
        if position >= length or text.startswith('\\"', position):
            break
        word: list[str] = []
        if text[position] == '"':
            position += 1
            while position < length:
                if text.startswith('""', position):
                    word.append('"')
                    position += 2
                elif text[position] == '"':
                    position += 1
                    break
                else:
                    position = _take(text, position, word)
        else:
            while position < length and text[position] not in " \t":
                position = _take(text, position, word)
        found.append("".join(word))
    return found


def _take(text: str, position: int, word: list[str]) -> int:
    # An escape is taken whole, so a quote or space inside it ends nothing.
    step = 2 if text[position] == "\\" and position + 1 < len(text) else 1
    word.append(text[position : position + step])
    return position + step


def condition(text: str, strings: Mapping[str, str]) -> tuple[bool, str]:
    """Whether an `.if`/`.ie` condition holds on a terminal, and the rest of the line:
    `n` (nroff) and groff's `\\n(.g` hold, `d name` when the string is defined; `t`,
    odd or even pages and any test not known here do not."""
    text = text.lstrip()
    found = _CONDITION.match(text)
    if found is None:
        # An expression or string comparison: its extent is the first word.
        rest = text.split(None, 1)
        return False, rest[1] if len(rest) > 1 else ""
    negated, mode, defined = found.groups()
    # `d name`: the string is defined; else `n` (or groff's `\n(.g`, no mode) holds.
    known = defined is not None and (defined in strings or defined in STRINGS)
    holds = known if defined is not None else mode in (None, "n")
    return holds != bool(negated), text[found.end() :].lstrip()
