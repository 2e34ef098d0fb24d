"""The settings the app runs with, and the rules every setting must meet.

`Settings` is a plain frozen dataclass, so using settings never imports pydantic:
reading them from the environment and `.env` is pydantic-settings' job
(`environment_settings`), done in a forked child (`settings_prefetch`), beside the
TUI's import of Textual. The rules live here, in `Settings.__post_init__`, so
settings built in code (tests, screenshots, benchmarks) meet them too.

Errors become one line that names the variable and what is wrong with it, and never
echo a value (a mistyped URL may sit next to a key in the same `.env`).
"""

from __future__ import annotations

import dataclasses
import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from tui_assistant.core.secret import Secret

ENV_PREFIX = "TUI_ASSISTANT_"
MAX_DEADLINE_SECONDS = 20.0

Provider = Literal["deterministic", "openai"]
Retrieval = Literal["keyword", "ranked"]
SupportCheck = Literal["off", "warn", "strict"]


class ConfigError(Exception):
    """A setting or path the app cannot start with; the message is one line for users."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Every setting of the contract, checked; see `load_settings` for where they come from."""

    lessons_dir: Path | None = None
    provider: Provider = "deterministic"
    base_url: str = "https://api.openai.com/v1"
    model: str = "gpt-4o-mini"
    api_key: Secret | None = None
    deadline_seconds: float = MAX_DEADLINE_SECONDS
    monthly_call_limit: int | None = None
    data_dir: Path | None = None
    retrieval: Retrieval = "keyword"
    support_check: SupportCheck = "warn"

    def __post_init__(self) -> None:
        """Raises ValueError("field: what is wrong"), never quoting the value."""
        if not 0 < self.deadline_seconds <= MAX_DEADLINE_SECONDS:
            raise ValueError(
                f"deadline_seconds: must be greater than 0 and at most {MAX_DEADLINE_SECONDS:g}"
            )
        if self.monthly_call_limit is not None and self.monthly_call_limit < 0:
            raise ValueError("monthly_call_limit: must be 0 or more")
        # The provider settings matter (and are checked) only when a provider is used.
        if self.provider == "openai":
            check_base_url(self.base_url)
            if self.api_key is not None:
                check_api_key(self.api_key.get_secret_value())
            if not self.model.strip():
                raise ValueError("model: must not be empty")

    def with_lessons_dir(self, lessons_dir: Path) -> Settings:
        return dataclasses.replace(self, lessons_dir=lessons_dir)


def check_base_url(url: str) -> None:
    """https:// anywhere; plain http:// only to a loopback host."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        raise ValueError("base_url: is not a valid URL") from None
    if not host or parts.scheme not in ("http", "https"):
        raise ValueError("base_url: must be an https:// URL with a host")
    if parts.username or parts.password:
        raise ValueError("base_url: must not contain a user name or password")
    if parts.query or parts.fragment:
        raise ValueError("base_url: must not contain a query or fragment")
    if parts.scheme == "http" and not is_loopback(host):
        raise ValueError("base_url: https is required (plain http only to a loopback host)")


def check_api_key(key: str) -> None:
    """Visible ASCII only. Anything else cannot go into an HTTP header, and the HTTP
    library's complaint about an illegal header value would quote the key itself."""
    if not all("!" <= char <= "~" for char in key):
        raise ValueError("api_key: must be visible ASCII characters only (no spaces)")


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def load_settings(lessons_dir: Path | None = None) -> Settings:
    """Read settings from the environment and `.env` in the working folder;
    `lessons_dir` (from `--lessons`) overrides the environment.

    Raises `ConfigError` with one line naming the variable.
    """
    # Imported here: pydantic is a sixth of the TUI's start-up, and only reading needs it.
    from tui_assistant.environment_settings import read_settings

    settings = read_settings()
    return settings if lessons_dir is None else settings.with_lessons_dir(lessons_dir)
