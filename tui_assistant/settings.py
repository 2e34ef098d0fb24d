"""The settings the app runs with, and the rules every setting must meet.

`Settings` is the one pydantic-settings class: it reads the environment, then `.env`
in the working folder, every name with the `TUI_ASSISTANT_` prefix. Settings built in
code (tests, screenshots, benchmarks) meet the same rules, and read the environment
for whatever they do not set.

`load_settings` is what the commands call: it applies `--library` and turns any
problem into a `ConfigError` of one line that names the variable and what is wrong
with it, and never echoes a value (a mistyped URL may sit next to a key in `.env`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from tui_assistant.compat import library_variables
from tui_assistant.core.checks.support import SupportMode
from tui_assistant.core.display_text import one_line
from tui_assistant.core.documents.formats import DEFAULT_DOCUMENT_KINDS, DOCUMENT_KINDS
from tui_assistant.core.library.names import LibrarySpec, check_distinct, parse_library_entry
from tui_assistant.errors import ConfigError, UsageError, os_error_words
from tui_assistant.locations import bundled_lessons_dir, default_data_dir
from tui_assistant.registry.libraries import with_fetched
from tui_assistant.urls import check_base_url

ENV_PREFIX = "TUI_ASSISTANT_"
ENV_FILE = ".env"
MAX_DEADLINE_SECONDS = 20.0

Provider = Literal["deterministic", "openai"]
Retrieval = Literal["auto", "keyword", "ranked", "hybrid"]
RETRIEVAL_MODES: tuple[str, ...] = get_args(Retrieval)
_TRUE_WORDS = frozenset({"true", "1", "yes", "on"})
_FALSE_WORDS = frozenset({"false", "0", "no", "off"})
MIN_PASSAGES_SENT = 1
MAX_PASSAGES_SENT = 5
MAX_EMBEDDING_BATCH_SIZE = 2048
MAX_EMBEDDING_CONCURRENCY = 64
MAX_EMBEDDING_PREFIX_CHARS = 100
SQLITE_STORE = "sqlite"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


# Measured: benchmarks/pg_dense_agreement.py and docs/performance.md.
PGVECTOR_FROM = 100_000


class Settings(BaseSettings):
    """Every setting the app reads (`TUI_ASSISTANT_*`), checked. Fields are validated in
    this order, so the provider is known when the provider settings are checked."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        extra="ignore",
        frozen=True,
        validate_default=True,
        # A validation error's text would otherwise quote the inputs, key included.
        hide_input_in_errors=True,
        # `Settings(library=...)` in code; the environment uses the prefixed names.
        populate_by_name=True,
    )

    # The libraries: `DIR` or `NAME=DIR` each, `:`-separated in the environment; none
    # means the bundled lessons.
    library: Annotated[tuple[LibrarySpec, ...], NoDecode] = Field(
        default=(),
        validation_alias=AliasChoices(*library_variables(ENV_PREFIX)),
    )
    provider: Provider = "deterministic"
    base_url: str = "https://api.openai.com/v1"
    model: str = "gpt-4o-mini"
    api_key: SecretStr | None = None
    deadline_seconds: float = MAX_DEADLINE_SECONDS
    monthly_call_limit: int | None = None
    # Where the app keeps its data; unset or blank: the user's data folder.
    data_dir: Path = Field(default_factory=default_data_dir)
    retrieval: Retrieval = "auto"
    embedding_model: str | None = None
    # Embeddings from an OpenAI-compatible server instead of a local model.
    embedding_base_url: str | None = None
    embedding_api_key: SecretStr | None = None
    embedding_query_prefix: str = ""
    embedding_document_prefix: str = ""
    embedding_batch_size: int = 64
    embedding_concurrency: int = 4
    passages: int = 3
    support_check: SupportMode = "warn"
    # Which formats of files are documents: a comma list of format names
    # (`core.documents.formats`: `md`, `rst`, `txt`, `html`, `pdf`, `man`, `py`).
    document_types: str = ",".join(DEFAULT_DOCUMENT_KINDS)
    # The TUI re-reads documents that change on disk by itself.
    watch: bool = True
    # Questions that end unsure or with nothing are recorded per library (`gaps`).
    gaps: bool = True
    # The bearer token `mcp --http` requires; needed to serve on a non-loopback address.
    mcp_token: SecretStr | None = None
    # Where `fetch` looks packages up; unset: the index pip and npm are configured with.
    pypi_index_url: str | None = None
    npm_registry: str | None = None
    # Where the libraries' index lives: `sqlite` (a file per library in the data folder)
    # or a `postgresql://` URL shared by servers; secret, since the URL may hold a password.
    store: SecretStr = SecretStr(SQLITE_STORE)
    # With a PostgreSQL store, a library of this many passages or more is ranked by
    # meaning in the database (pgvector HNSW), not from vectors in each server's memory.
    pgvector_from: int = Field(default=PGVECTOR_FROM, ge=1)

    @field_validator(
        "api_key",
        "monthly_call_limit",
        "embedding_model",
        "mcp_token",
        "embedding_base_url",
        "embedding_api_key",
        "pypi_index_url",
        "npm_registry",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("library", mode="before")
    @classmethod
    def _named_libraries(cls, value: object) -> object:
        if value is None or isinstance(value, str | Path):
            return library_specs(value)
        if isinstance(value, Sequence):
            return library_specs(list(value))
        return value

    @field_validator("data_dir", mode="before")
    @classmethod
    def _unset_is_the_user_data_folder(cls, value: object) -> object:
        if value is None or (isinstance(value, str) and not value.strip()):
            return default_data_dir()
        return value

    @field_validator("store", mode="before")
    @classmethod
    def _sqlite_or_postgres_url(cls, value: object) -> object:
        text = value.get_secret_value() if isinstance(value, SecretStr) else value
        if text is None or (isinstance(text, str) and not text.strip()):
            return SQLITE_STORE
        if isinstance(text, str):
            text = text.strip()
            if text != SQLITE_STORE and not text.startswith(POSTGRES_SCHEMES):
                raise ValueError("must be sqlite or a postgresql://USER@HOST[:PORT]/DB URL")
        return text

    @field_validator("api_key", "embedding_api_key", mode="before")
    @classmethod
    def _strip_key(cls, value: object) -> object:
        # A key pasted with a trailing newline or space is the same key.
        return value.strip() if isinstance(value, str) else value

    @field_validator("watch", "gaps", mode="before")
    @classmethod
    def _true_or_false(cls, value: object) -> object:
        if isinstance(value, str):
            word = value.strip().lower()
            if word in _TRUE_WORDS or not word:  # blank: unset, as for the other settings
                return True
            if word in _FALSE_WORDS:
                return False
            raise ValueError("must be true or false")
        return value

    @field_validator("deadline_seconds")
    @classmethod
    def _deadline_in_range(cls, value: float) -> float:
        if not 0 < value <= MAX_DEADLINE_SECONDS:
            raise ValueError(f"must be greater than 0 and at most {MAX_DEADLINE_SECONDS:g}")
        return value

    @field_validator("passages")
    @classmethod
    def _passages_in_range(cls, value: int) -> int:
        if not MIN_PASSAGES_SENT <= value <= MAX_PASSAGES_SENT:
            raise ValueError(f"must be from {MIN_PASSAGES_SENT} to {MAX_PASSAGES_SENT}")
        return value

    @field_validator("embedding_base_url")
    @classmethod
    def _usable_embedding_url(cls, value: str | None) -> str | None:
        if value is not None:
            check_base_url(value)
        return value

    @field_validator("embedding_api_key")
    @classmethod
    def _embedding_key_fits_a_header(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            check_api_key(value.get_secret_value())
        return value

    @field_validator("embedding_query_prefix", "embedding_document_prefix")
    @classmethod
    def _plain_prefix(cls, value: str) -> str:
        # Kept as written: "query: " ends in a space the model expects.
        if len(value) > MAX_EMBEDDING_PREFIX_CHARS:
            raise ValueError(f"must be at most {MAX_EMBEDDING_PREFIX_CHARS} characters")
        if not value.isprintable():
            raise ValueError("must be printable text on one line")
        return value

    @field_validator("embedding_batch_size")
    @classmethod
    def _batch_in_range(cls, value: int) -> int:
        if not 1 <= value <= MAX_EMBEDDING_BATCH_SIZE:
            raise ValueError(f"must be from 1 to {MAX_EMBEDDING_BATCH_SIZE}")
        return value

    @field_validator("embedding_concurrency")
    @classmethod
    def _concurrency_in_range(cls, value: int) -> int:
        if not 1 <= value <= MAX_EMBEDDING_CONCURRENCY:
            raise ValueError(f"must be from 1 to {MAX_EMBEDDING_CONCURRENCY}")
        return value

    @field_validator("pypi_index_url", "npm_registry")
    @classmethod
    def _usable_registry_url(cls, value: str | None) -> str | None:
        if value is not None:
            check_base_url(value)
        return value

    @field_validator("document_types")
    @classmethod
    def _known_document_types(cls, value: str) -> str:
        return ",".join(parse_document_types(value))

    @property
    def libraries(self) -> tuple[LibrarySpec, ...]:
        """The libraries, each with its name (none set: the bundled lessons)."""
        if self.library:
            return self.library
        return (parse_library_entry(str(bundled_lessons_dir())),)

    @property
    def document_kinds(self) -> tuple[str, ...]:
        """The kinds of documents the library reads (`md`, `rst`, `txt`, `pdf`)."""
        return tuple(self.document_types.split(","))

    @field_validator("monthly_call_limit")
    @classmethod
    def _limit_not_negative(cls, value: int | None) -> int | None:
        if value is not None and value < 0:
            raise ValueError("must be 0 or more")
        return value

    # The provider settings matter (and are checked) only when a provider is used.
    @field_validator("base_url")
    @classmethod
    def _usable_base_url(cls, value: str, info: ValidationInfo) -> str:
        if _openai(info):
            check_base_url(value)
        return value

    @field_validator("model")
    @classmethod
    def _model_named(cls, value: str, info: ValidationInfo) -> str:
        if _openai(info) and not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("api_key")
    @classmethod
    def _key_fits_a_header(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        if _openai(info) and value is not None:
            check_api_key(value.get_secret_value())
        return value


def parse_document_types(value: str) -> tuple[str, ...]:
    """`md, .RST` -> `("md", "rst")`: format names, in the order of `formats.FORMATS`.
    Raises ValueError for an unknown name or an empty list."""
    asked = {part.strip().lower().removeprefix(".") for part in value.split(",")} - {""}
    unknown = sorted(asked - set(DOCUMENT_KINDS))
    if unknown:
        shown = one_line(unknown[0])[:20]
        raise ValueError(f"unknown document type {shown!r} (use {', '.join(DOCUMENT_KINDS)})")
    if not asked:
        raise ValueError(f"must name at least one of {', '.join(DOCUMENT_KINDS)}")
    return tuple(kind for kind in DOCUMENT_KINDS if kind in asked)


def _openai(info: ValidationInfo) -> bool:
    return info.data.get("provider") == "openai"


def check_api_key(key: str) -> None:
    """Visible ASCII only. Anything else cannot go into an HTTP header, and the HTTP
    library's complaint about an illegal header value would quote the key itself."""
    if not all("!" <= char <= "~" for char in key):
        raise ValueError("must be visible ASCII characters only (no spaces)")


def library_specs(
    value: str | Path | Sequence[str | Path | LibrarySpec] | None,
) -> tuple[LibrarySpec, ...]:
    """The libraries a setting names: a `:`-separated string (the environment), one
    folder (a `Path`, as code gives it) or one entry per item (`--library`, repeated).
    Raises ValueError with one line: a name that is not a slug, two of one name."""
    if value is None:
        return ()
    if isinstance(value, Path):
        entries: list[str | LibrarySpec] = [str(value)]
    elif isinstance(value, str):
        entries = [part for part in value.split(":") if part.strip()]
    else:
        entries = [entry if isinstance(entry, LibrarySpec) else str(entry) for entry in value]
    # `.` and `..` take the name of the folder they stand for.
    specs = [
        entry
        if isinstance(entry, LibrarySpec)
        else parse_library_entry(entry, lambda folder: os.path.basename(os.path.abspath(folder)))
        for entry in entries
    ]
    check_distinct(specs)
    return tuple(specs)


def load_settings(
    library: Sequence[str | Path] | Path | None = None,
    retrieval: str | None = None,
    store: str | None = None,
) -> Settings:
    """Read settings from the environment and `.env` in the working folder;
    `library` (from `--library`, maybe repeated), `retrieval` (`--retrieval`) and
    `store` (`--store`) override them.

    Raises `ConfigError` with one line naming the variable or the file, `UsageError`
    for `--library` values that cannot be libraries.
    """
    try:
        overrides: dict[str, object] = {}
        if library is not None:
            try:
                overrides["library"] = library_specs(
                    [library] if isinstance(library, Path) else library
                )
            except ValueError as error:
                raise UsageError(f"--library: {error}") from None
        if retrieval is not None:
            overrides["retrieval"] = retrieval
        if store is not None:
            overrides["store"] = store
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        raise ConfigError(describe(error)) from None
    except UnicodeDecodeError as error:
        # Only the position: the bytes around it may be a key.
        raise ConfigError(
            f"{ENV_FILE} in the working folder is not UTF-8 text (byte {error.start + 1})"
        ) from None
    except OSError as error:
        raise ConfigError(
            f"{ENV_FILE} in the working folder cannot be read ({os_error_words(error)})"
        ) from None
    try:
        fetched = with_fetched(settings.library, settings.data_dir)
    except ValueError as error:
        raise UsageError(f"--library: {error}") from None
    return settings.model_copy(update={"library": fetched})


def describe(error: ValidationError) -> str:
    """The first problem as one line, `TUI_ASSISTANT_NAME: what is wrong`."""
    first = error.errors(include_url=False, include_input=False)[0]
    location = [str(part) for part in first.get("loc", ())]
    message = " ".join(str(first.get("msg", "is invalid")).split())
    message = message.removeprefix("Value error, ")
    name = location[0].upper() if location else "SETTINGS"
    variable = name if name.startswith(ENV_PREFIX) else ENV_PREFIX + name
    return f"{variable}: {message}"
