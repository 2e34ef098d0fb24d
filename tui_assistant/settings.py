"""Every setting of the contract, read once from the environment and `.env`.

Errors become one line that names the variable and what is wrong with it, and never
echo a value (a mistyped URL may sit next to a key in the same `.env`).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ENV_PREFIX = "TUI_ASSISTANT_"
MAX_DEADLINE_SECONDS = 20.0


class ConfigError(Exception):
    """A setting or path the app cannot start with; the message is one line for users."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        validate_default=True,
        # A validation error's text would otherwise quote the inputs, key included.
        hide_input_in_errors=True,
    )

    lessons_dir: Path | None = None
    provider: Literal["deterministic", "openai"] = "deterministic"
    base_url: str = "https://api.openai.com/v1"
    model: str = "gpt-4o-mini"
    api_key: SecretStr | None = None
    deadline_seconds: float = Field(default=MAX_DEADLINE_SECONDS, gt=0, le=MAX_DEADLINE_SECONDS)
    monthly_call_limit: int | None = Field(default=None, ge=0)
    data_dir: Path | None = None
    retrieval: Literal["keyword", "ranked"] = "keyword"
    support_check: Literal["off", "warn", "strict"] = "warn"

    @field_validator("api_key", "monthly_call_limit", "lessons_dir", "data_dir", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("api_key", mode="before")
    @classmethod
    def _strip_key(cls, value: object) -> object:
        # A key pasted with a trailing newline or space is the same key.
        return value.strip() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _check_provider(self) -> Settings:
        if self.provider == "openai":
            check_base_url(self.base_url)
            if self.api_key is not None:
                check_api_key(self.api_key.get_secret_value())
            if not self.model.strip():
                raise ValueError("model: must not be empty")
        return self


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
    """Read settings; `lessons_dir` (from `--lessons`) overrides the environment.

    Raises `ConfigError` with one line naming the variable.
    """
    try:
        settings = Settings()
    except ValidationError as error:
        raise ConfigError(_describe(error)) from None
    if lessons_dir is not None:
        settings = settings.model_copy(update={"lessons_dir": lessons_dir})
    return settings


def _describe(error: ValidationError) -> str:
    first = error.errors(include_url=False, include_input=False)[0]
    location = [str(part) for part in first.get("loc", ())]
    message = str(first.get("msg", "is invalid"))
    message = message.removeprefix("Value error, ")
    # Model-level checks name their field as "field: message".
    if not location and ": " in message:
        name, message = message.split(": ", 1)
        location = [name]
    variable = ENV_PREFIX + (location[0].upper() if location else "SETTINGS")
    return f"{variable}: {message}"
