"""The forward pass of a BERT encoder with mean pooling, in numpy (float32).

This is the model's arithmetic and nothing else: `BertEncoder.from_weights` takes the
tensors of a Hugging Face `BertModel` (as `safetensors` loads them) and its
`config.json`, and `encode(tokens, lengths)` turns a batch of padded token rows into
unit-length, mean-pooled sentence vectors, as Sentence-Transformers computes them.
Padding never changes a vector: padded keys get no attention and are left out of the
mean. Imported only when a model is loaded (numpy is the `semantic` extra).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tui_assistant.errors import WeightsError

Matrix = NDArray[np.float32]

# Rows of the feed-forward step done at once, so its 4x wider middle stays in the cache.
FEED_FORWARD_ROWS = 256
# exp(60) times 512 keys is far below float32's largest, exp(-60) far above its smallest.
SOFTMAX_UNSHIFTED = 60.0


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv: Matrix  # (hidden, 3 * hidden); the query part is pre-scaled by 1/sqrt(head size)
    qkv_bias: Matrix
    out: Matrix
    out_bias: Matrix
    norm1: tuple[Matrix, Matrix]
    up: Matrix
    up_bias: Matrix
    down: Matrix
    down_bias: Matrix
    norm2: tuple[Matrix, Matrix]


@dataclass(frozen=True, slots=True)
class BertEncoder:
    words: Matrix
    positions: Matrix
    token_type: Matrix
    embedding_norm: tuple[Matrix, Matrix]
    layers: tuple[_Layer, ...]
    heads: int
    eps: float

    @property
    def dimensions(self) -> int:
        return int(self.words.shape[1])

    @classmethod
    def from_weights(cls, weights: Mapping[str, Any], config: Mapping[str, Any]) -> BertEncoder:
        """Raises `WeightsError` naming the first tensor that is missing or misshapen."""
        hidden, inner = int(config["hidden_size"]), int(config["intermediate_size"])
        heads = int(config["num_attention_heads"])
        scale = np.float32(1.0 / math.sqrt(hidden // heads))

        def tensor(name: str, *shape: int) -> Matrix:
            # A BertModel saved inside a larger model prefixes its tensors with "bert.".
            array = weights.get(name, weights.get("bert." + name))
            if array is None:
                raise WeightsError(f"has no tensor {name}")
            if array.ndim != len(shape) or any(
                want not in (-1, got) for want, got in zip(shape, array.shape, strict=True)
            ):
                raise WeightsError(f"tensor {name} has shape {array.shape}, expected {shape}")
            return np.ascontiguousarray(array, dtype=np.float32)

        def linear(name: str, rows: int, columns: int) -> tuple[Matrix, Matrix]:
            """(input x output) weights and bias of a torch Linear layer."""
            weight = tensor(name + ".weight", rows, columns)
            return np.ascontiguousarray(weight.T), tensor(name + ".bias", rows)

        def norm(name: str) -> tuple[Matrix, Matrix]:
            return tensor(name + ".weight", hidden), tensor(name + ".bias", hidden)

        layers = []
        for number in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{number}."
            q, q_bias = linear(p + "attention.self.query", hidden, hidden)
            k, k_bias = linear(p + "attention.self.key", hidden, hidden)
            v, v_bias = linear(p + "attention.self.value", hidden, hidden)
            out, out_bias = linear(p + "attention.output.dense", hidden, hidden)
            up, up_bias = linear(p + "intermediate.dense", inner, hidden)
            down, down_bias = linear(p + "output.dense", hidden, inner)
            layers.append(
                _Layer(
                    qkv=np.ascontiguousarray(np.concatenate([q * scale, k, v], axis=1)),
                    qkv_bias=np.concatenate([q_bias * scale, k_bias, v_bias]),
                    out=out,
                    out_bias=out_bias,
                    norm1=norm(p + "attention.output.LayerNorm"),
                    up=up,
                    up_bias=up_bias,
                    down=down,
                    down_bias=down_bias,
                    norm2=norm(p + "output.LayerNorm"),
                )
            )
        return cls(
            words=tensor("embeddings.word_embeddings.weight", -1, hidden),
            positions=tensor(
                "embeddings.position_embeddings.weight",
                int(config["max_position_embeddings"]),
                hidden,
            ),
            token_type=tensor("embeddings.token_type_embeddings.weight", -1, hidden)[0],
            embedding_norm=norm("embeddings.LayerNorm"),
            layers=tuple(layers),
            heads=heads,
            eps=float(config.get("layer_norm_eps", 1e-12)),
        )

    def encode(self, tokens: NDArray[np.int64], lengths: NDArray[np.int64]) -> Matrix:
        """Unit-length mean-pooled vectors of `tokens` rows, each real for `lengths[i]`."""
        count, width = tokens.shape
        hidden = self.dimensions
        h = self.words[tokens] + self.positions[:width] + self.token_type
        h = self._layer_norm(h.reshape(count * width, hidden), self.embedding_norm)
        mask = np.arange(width) < lengths[:, None]
        padding = None
        if not mask.all():
            # exp(-1e4 + score) is exactly 0 in float32: padding gets no attention.
            padding = np.where(mask, np.float32(0), np.float32(-1e4))[:, None, None, :]
        for layer in self.layers:
            attended = self._attention(h, layer, count, width, padding)
            attended += h
            h = self._layer_norm(attended, layer.norm1)
            h = self._layer_norm(self._feed_forward(h, layer), layer.norm2)
        weights = mask.astype(np.float32)
        pooled: Matrix = np.einsum("bt,btd->bd", weights, h.reshape(count, width, hidden))
        pooled /= lengths[:, None].astype(np.float32)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
        return pooled

    def _attention(
        self, h: Matrix, layer: _Layer, count: int, width: int, padding: Matrix | None
    ) -> Matrix:
        size = self.dimensions // self.heads
        qkv = h @ layer.qkv
        qkv += layer.qkv_bias
        q, k, v = qkv.reshape(count, width, 3, self.heads, size).transpose(2, 0, 3, 1, 4)
        scores = q @ k.transpose(0, 1, 3, 2)
        # Softmax needs no shift by each row's maximum while every score is within
        # ±SOFTMAX_UNSHIFTED: exp neither overflows nor underflows a row's sum in float32,
        # and the shift's row-wise pass costs ten times the bounds' whole-array one.
        shift = max(float(scores.max()), -float(scores.min())) > SOFTMAX_UNSHIFTED
        if padding is not None:
            scores += padding
        if shift:
            scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        # Dividing the (width x size) context is cheaper than the (width x width) weights.
        context = scores @ v
        context /= scores.sum(axis=-1, keepdims=True)
        merged = context.transpose(0, 2, 1, 3).reshape(count * width, self.dimensions)
        out: Matrix = merged @ layer.out
        out += layer.out_bias
        return out

    def _feed_forward(self, h: Matrix, layer: _Layer) -> Matrix:
        """`h + down(gelu(up(h)))`, in blocks of rows."""
        out = np.empty_like(h)
        for start in range(0, h.shape[0], FEED_FORWARD_ROWS):
            block = h[start : start + FEED_FORWARD_ROWS]
            inner = block @ layer.up
            inner += layer.up_bias
            part = out[start : start + FEED_FORWARD_ROWS]
            np.matmul(gelu(inner), layer.down, out=part)
            part += layer.down_bias
            part += block
        return out

    def _layer_norm(self, x: Matrix, norm: tuple[Matrix, Matrix]) -> Matrix:
        x = x - x.mean(axis=-1, keepdims=True)
        variance = np.einsum("ij,ij->i", x, x)[:, None] / np.float32(x.shape[-1])
        x *= norm[0] / np.sqrt(variance + np.float32(self.eps))
        x += norm[1]
        return x


# Abramowitz & Stegun 7.1.26 for 1 - erf, its coefficients halved: the polynomial then
# gives 1 - Φ(|x|) = erfc(|x| / sqrt 2) / 2 directly.
_ERF_P = 0.3275911 / math.sqrt(2)
_ERF_HALF_COEFFICIENTS = tuple(
    np.float32(c / 2) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)
)


def gelu(x: Matrix) -> Matrix:
    """BERT's exact GELU, x Φ(x), with erf to within 1.5e-7 (Abramowitz & Stegun 7.1.26),
    in as few passes over `x` as numpy allows (it is a tenth of the model's time)."""
    size = np.abs(x)
    t = np.multiply(size, np.float32(_ERF_P))
    t += np.float32(1)
    np.reciprocal(t, out=t)
    first, *rest = _ERF_HALF_COEFFICIENTS
    tail = np.multiply(t, first)
    for coefficient in rest:
        tail += coefficient
        tail *= t
    # exp(-x² / 2), in t's place.
    np.square(size, out=t)
    t *= np.float32(-0.5)
    np.exp(t, out=t)
    tail *= t  # now 1 - Φ(|x|)
    # Φ(x) = 1 - tail for x >= 0 and tail for x < 0, so x Φ(x) = max(x, 0) - |x| tail.
    tail *= size
    result: Matrix = np.maximum(x, np.float32(0), out=size)
    result -= tail
    return result
