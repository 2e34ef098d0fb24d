"""The one credential type: pydantic's `SecretStr`, masked in repr and str, so a
settings object or a provider can be logged or shown in a traceback without the key."""

from __future__ import annotations

from pydantic import SecretStr

Secret = SecretStr

__all__ = ["Secret"]
