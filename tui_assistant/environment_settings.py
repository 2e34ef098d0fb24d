"""Settings as pydantic-settings reads them: the environment, then `.env` in the
working folder, every name with the `TUI_ASSISTANT_` prefix.

This module turns text into typed values (numbers, choices, paths, a hidden key);
the rules the values must meet are `Settings`' own. Importing it costs pydantic's
import, so the app imports it only to read settings (see `settings_prefetch`).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from tui_assistant.core.secret import Secret
from tui_assistant.settings import (
    ENV_PREFIX,
    ConfigError,
    Provider,
    Retrieval,
    Settings,
    SupportCheck,
)

_DEFAULTS = Settings()
ENV_FILE = ".env"


class EnvironmentSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        extra="ignore",
        validate_default=True,
        # A validation error's text would otherwise quote the inputs, key included.
        hide_input_in_errors=True,
    )

    lessons_dir: Path | None = _DEFAULTS.lessons_dir
    provider: Provider = _DEFAULTS.provider
    base_url: str = _DEFAULTS.base_url
    model: str = _DEFAULTS.model
    api_key: SecretStr | None = None
    deadline_seconds: float = _DEFAULTS.deadline_seconds
    monthly_call_limit: int | None = _DEFAULTS.monthly_call_limit
    data_dir: Path | None = _DEFAULTS.data_dir
    retrieval: Retrieval = _DEFAULTS.retrieval
    support_check: SupportCheck = _DEFAULTS.support_check

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
    def _meets_the_rules(self) -> EnvironmentSettings:
        self.to_settings()  # raises ValueError("field: message"), reported as a validation error
        return self

    def to_settings(self) -> Settings:
        key = self.api_key
        return Settings(
            lessons_dir=self.lessons_dir,
            provider=self.provider,
            base_url=self.base_url,
            model=self.model,
            api_key=Secret(key.get_secret_value()) if key is not None else None,
            deadline_seconds=self.deadline_seconds,
            monthly_call_limit=self.monthly_call_limit,
            data_dir=self.data_dir,
            retrieval=self.retrieval,
            support_check=self.support_check,
        )


def read_settings() -> Settings:
    """The settings from the environment and `.env`; raises `ConfigError` (one line)."""
    try:
        return EnvironmentSettings().to_settings()
    except ValidationError as error:
        raise ConfigError(_describe(error)) from None
    except UnicodeDecodeError as error:
        # Only the position: the bytes around it may be a key.
        raise ConfigError(
            f"{ENV_FILE} in the working folder is not UTF-8 text (byte {error.start + 1})"
        ) from None
    except OSError as error:
        raise ConfigError(
            f"{ENV_FILE} in the working folder cannot be read ({error.strerror or error})"
        ) from None


def _describe(error: ValidationError) -> str:
    first = error.errors(include_url=False, include_input=False)[0]
    location = [str(part) for part in first.get("loc", ())]
    message = str(first.get("msg", "is invalid"))
    message = message.removeprefix("Value error, ")
    # The rules in `Settings` name their field as "field: message".
    if not location and ": " in message:
        name, message = message.split(": ", 1)
        location = [name]
    variable = ENV_PREFIX + (location[0].upper() if location else "SETTINGS")
    return f"{variable}: {message}"
