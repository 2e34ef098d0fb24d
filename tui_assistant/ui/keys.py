"""The main screen's keys, and the app's words for keys, read from the bindings.

The core says what happened ("not sure: 3 possible passages, best first"); the screen
says which key to press about it. The main screen binds the bindings below, and every line
that names one of its keys (the status bar, the evidence panel, the help, the library
tree's title) writes it from the binding, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.binding import Binding, BindingType
from textual.keys import key_to_character

CANCEL = Binding(
    "escape",
    "cancel",
    "Stop",
    priority=True,
    tooltip="stop the request in flight (cancelled at once, nothing partial shown)",
    id="app.cancel",
)
FOCUS_QUESTION = Binding(
    "escape",
    "focus_question",
    "Back",
    tooltip="with no request in flight: back to the question box",
    id="app.focus-question",
)
FOCUS_LIBRARY = Binding(
    "ctrl+l",
    "focus_library",
    "Library",
    tooltip="library tree: arrows move, open and close; enter reads; typing filters",
    id="app.focus-library",
)
OPEN_IN_EDITOR = Binding(
    "ctrl+o",
    "open_in_editor",
    "Edit",
    tooltip="open the evidence passage in $VISUAL or $EDITOR, at its line",
    id="app.open-in-editor",
)
NEXT_PASSAGE = Binding(
    "ctrl+down",
    "evidence_step(1)",
    "Next passage",
    tooltip="next passage in the evidence panel (into its list, when it lists passages)",
    id="app.next-passage",
)
PREVIOUS_PASSAGE = Binding(
    "ctrl+up",
    "evidence_step(-1)",
    "Previous passage",
    tooltip="previous passage in the evidence panel",
    id="app.previous-passage",
)

RELOAD = Binding(
    "ctrl+r",
    "reload",
    "Reload",
    tooltip="reload the library (only changed files are read again)",
    id="app.reload",
)
MAIN_SCREEN: list[BindingType] = [
    CANCEL,
    FOCUS_QUESTION,
    FOCUS_LIBRARY,
    OPEN_IN_EDITOR,
    NEXT_PASSAGE,
    PREVIOUS_PASSAGE,
    RELOAD,
]

_ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
# Where a line has little room (the status bar, a placeholder).
_SHORT = {"escape": "esc"}


def key_name(key: str, *, short: bool = False) -> str:
    """`ctrl+l`, `[`, `up / down`: a binding's key as the app writes it (`short`:
    `esc` for escape)."""
    names = []
    for name in key.split(","):
        character = key_to_character(name)
        if character and character.isprintable() and name != "space":
            names.append(character)
        else:
            names.append(_SHORT.get(name, name) if short else name)
    return " / ".join(names)


def arrow_keys(*bindings: Binding) -> str:
    """`ctrl+↓↑`: keys that differ only in their arrow, written short (else each named)."""
    parts = [binding.key.rpartition("+") for binding in bindings]
    modifiers = {modifier for modifier, _, _ in parts}
    if len(modifiers) == 1 and all(name in _ARROWS for _, _, name in parts):
        (modifier,) = modifiers
        return (f"{modifier}+" if modifier else "") + "".join(_ARROWS[name] for *_, name in parts)
    return " / ".join(key_name(binding.key) for binding in bindings)


def keys_for(bindings: Iterable[BindingType], action: str) -> str:
    """Every key bound to `action`, as a list a sentence can hold (`escape, f1 or q`)."""
    names = [
        key_name(binding.key)
        for binding in bindings
        if isinstance(binding, Binding) and binding.action == action
    ]
    return spoken(names)


def spoken(words: Sequence[str]) -> str:
    """`a`, `a or b`, `a, b or c`."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"
