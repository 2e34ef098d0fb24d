"""A credential that is kept, used, and never shown."""

from __future__ import annotations


class Secret:
    """A credential that never shows itself: repr and str are masked, so a settings
    object can be logged, printed or put in a traceback without leaking the key."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    def __str__(self) -> str:
        return "**********"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)
