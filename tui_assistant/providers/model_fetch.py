"""Fetching a sentence-embedding model once into the data folder.

A model named by the user (`all-MiniLM-L6-v2`, or `sentence-transformers/all-MiniLM-L6-v2`)
is downloaded from a hub with the Hugging Face URL layout,
`{hub}/{repo}/resolve/{revision}/{filename}`, into `<data_dir>/models/<owner>/<name>/`.

- The default model is pinned: a fixed revision, and its `model.safetensors` must have the
  known SHA-256 before the folder is used (and again at each load, with
  `LocalSentenceEmbedder.load(folder, pinned_sha256(name))`). Any other name is fetched at
  revision `main` and not hash-checked: it is the user's choice, and safetensors and JSON
  files hold data, never code, so a wrong file makes a wrong model but runs nothing.
- Files go into a hidden temporary folder beside the target, which is renamed into place
  only once every file is there and checked: an interrupted fetch never leaves a folder
  that looks complete, and a complete folder is never fetched again.
- `progress(done, total)` reports bytes. The weights come first, so `total` is nearly
  right from the start; it grows by the small files' sizes as they come.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import uuid
from pathlib import Path

import httpx

from tui_assistant.core.progress import Progress
from tui_assistant.errors import ModelError, os_error_words
from tui_assistant.providers.embedding import (
    DEFAULT_MODEL_NAME,
    DEFAULT_MODEL_SHA256,
    REQUIRED_FILES,
)

DEFAULT_HUB = "https://huggingface.co"
DEFAULT_REPO = f"sentence-transformers/{DEFAULT_MODEL_NAME}"
DEFAULT_REVISION = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
UNPINNED_REVISION = "main"
WEIGHTS = "model.safetensors"
OPTIONAL_FILES = (
    "modules.json",
    "sentence_bert_config.json",
    "1_Pooling/config.json",
    "special_tokens_map.json",
    "tokenizer_config.json",
    "vocab.txt",
)
# (revision, SHA-256 of model.safetensors) of the models whose weights are known.
PINNED: dict[str, tuple[str, str]] = {DEFAULT_REPO: (DEFAULT_REVISION, DEFAULT_MODEL_SHA256)}

_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")
_CHUNK = 1 << 20


def repo_id(name: str) -> str:
    """The hub repository a model name means: a bare name is a sentence-transformers one."""
    name = name.strip()
    full = name if "/" in name else f"sentence-transformers/{name}"
    if not _REPO.match(full) or ".." in full:
        raise ModelError(
            f"{name!r} is not a model name like sentence-transformers/{DEFAULT_MODEL_NAME}"
        )
    return full


def pinned_sha256(name: str) -> str | None:
    """The SHA-256 the weights of this model must have, when the model is pinned."""
    pin = PINNED.get(repo_id(name))
    return pin[1] if pin else None


def model_folder(data_dir: Path, name: str) -> Path:
    """Where a fetched model lives: `<data_dir>/models/<owner>/<name>`."""
    return Path(data_dir) / "models" / repo_id(name)


def is_fetched(data_dir: Path, name: str) -> bool:
    folder = model_folder(data_dir, name)
    return all((folder / file).is_file() for file in REQUIRED_FILES)


def fetch_model(
    name: str,
    data_dir: Path,
    *,
    hub: str = DEFAULT_HUB,
    progress: Progress | None = None,
    timeout: float = 30.0,
) -> Path:
    """The model's folder, downloading it first unless a complete one is there."""
    repo = repo_id(name)
    folder = model_folder(data_dir, name)
    if is_fetched(data_dir, name):
        return folder
    revision, expected = PINNED.get(repo, (UNPINNED_REVISION, None))
    partial = folder.parent / f".{folder.name}.partial-{uuid.uuid4().hex}"
    try:
        partial.mkdir(parents=True)
    except OSError as error:
        raise ModelError(f"cannot create {partial.parent}: {os_error_words(error)}") from None
    try:
        with httpx.Client(
            follow_redirects=True,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            headers={"User-Agent": "tui-assistant"},
        ) as client:
            _Download(
                client, f"{hub.rstrip('/')}/{repo}/resolve/{revision}", partial, progress
            ).run(expected)
        _move_into_place(partial, folder)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return folder


class _Download:
    def __init__(
        self, client: httpx.Client, base: str, partial: Path, progress: Progress | None
    ) -> None:
        self._client = client
        self._base = base
        self._partial = partial
        self._progress = progress
        self._done = 0
        self._total = 0

    def run(self, expected_sha256: str | None) -> None:
        digest = self._required(WEIGHTS)
        if expected_sha256 is not None and digest != expected_sha256:
            raise ModelError(
                f"{WEIGHTS} from {self._base} has SHA-256 {digest[:16]}…, "
                f"expected {expected_sha256[:16]}…"
            )
        for file in REQUIRED_FILES:
            if file != WEIGHTS:
                self._required(file)
        for file in OPTIONAL_FILES:
            self._file(file, required=False)

    def _required(self, file: str) -> str:
        digest = self._file(file, required=True)
        if digest is None:
            raise ModelError(f"cannot fetch {file} from {self._base}")
        return digest

    def _file(self, file: str, *, required: bool) -> str | None:
        """Download one file; its SHA-256, or None when an optional file is absent."""
        url = f"{self._base}/{file}"
        target = self._partial / file
        digest = hashlib.sha256()
        try:
            with self._client.stream("GET", url) as response:
                if response.status_code == 404 and not required:
                    return None
                if response.status_code != 200:
                    raise ModelError(f"cannot fetch {file}: HTTP {response.status_code} from {url}")
                target.parent.mkdir(parents=True, exist_ok=True)
                length = _content_length(response)
                self._total += length if length is not None else 0
                received = 0
                with target.open("wb") as stream:
                    for block in response.iter_bytes(_CHUNK):
                        stream.write(block)
                        digest.update(block)
                        received += len(block)
                        self._report(len(block), unknown_length=length is None)
        except httpx.HTTPError as error:
            raise ModelError(
                f"cannot fetch {file} from {url}: {str(error) or type(error).__name__}"
            ) from None
        except OSError as error:
            raise ModelError(f"cannot write {target}: {os_error_words(error)}") from None
        if length is not None and received != length:
            raise ModelError(f"cannot fetch {file}: got {received} of {length} bytes from {url}")
        return digest.hexdigest()

    def _report(self, count: int, *, unknown_length: bool) -> None:
        self._done += count
        if unknown_length:
            self._total += count
        if self._progress is not None:
            self._progress(self._done, self._total)


def _content_length(response: httpx.Response) -> int | None:
    if response.headers.get("Content-Encoding", "identity") != "identity":
        return None  # the header counts compressed bytes
    try:
        length = int(response.headers["Content-Length"])
    except (KeyError, ValueError):
        return None
    return length if length >= 0 else None


def _move_into_place(partial: Path, folder: Path) -> None:
    """Rename the finished download to its final name, replacing an incomplete folder."""
    if folder.exists():
        stale = folder.parent / f".{folder.name}.stale-{uuid.uuid4().hex}"
        try:
            os.replace(folder, stale)
        except OSError as error:
            raise ModelError(f"cannot replace incomplete model folder {folder}: {error}") from None
        shutil.rmtree(stale, ignore_errors=True)
    try:
        os.replace(partial, folder)
    except OSError as error:
        if all((folder / file).is_file() for file in REQUIRED_FILES):
            return  # another process finished the same fetch first
        raise ModelError(f"cannot create model folder {folder}: {os_error_words(error)}") from None
