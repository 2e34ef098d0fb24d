"""What an OpenAI-compatible embeddings server answers, read without I/O: the vectors
of an answer (`parse_embeddings`: by each item's `index`, float32 numbers in base64 or
written out, every row checked and scaled to unit length), the pause a `Retry-After`
header asks for, and the pause before the next try."""

from __future__ import annotations

import base64
import binascii
import email.utils
import json
import math
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from tui_assistant.errors import BadAnswer

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Vector = NDArray[np.float32]

# Pauses between tries: the first, doubled each time up to the longest.
FIRST_PAUSE_SECONDS: Final = 0.5
LONGEST_PAUSE_SECONDS: Final = 30.0


def embeddings_url(base_url: str) -> str:
    """`{base_url}/embeddings` without doubling or losing a slash."""
    return base_url.rstrip("/") + "/embeddings"


def parse_embeddings(body: bytes, count: int, dimensions: int | None) -> dict[int, Vector]:
    """Pure: the unit vectors of an embeddings answer to `count` texts, by the `index`
    each item carries (a short answer lacks some). `dimensions` is what the model gave
    before (None: not known yet). Raises `BadAnswer`."""
    try:
        data: Any = json.loads(body)
    except ValueError:  # also bytes that are not UTF-8
        raise BadAnswer("the answer is not JSON") from None
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise BadAnswer("the answer has no data list")
    indexes: list[int] = []
    embeddings: list[Any] = []
    for item in items:
        index = item.get("index") if isinstance(item, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise BadAnswer("an item has no index, or one outside the batch")
        embedding = item.get("embedding")
        if isinstance(embedding, str):
            embedding = _from_base64(embedding)
        else:
            _check_numbers(embedding)
        size = len(embedding)
        if dimensions is None:
            dimensions = size
        elif size != dimensions:
            raise BadAnswer(f"a vector of {size:,} numbers, where the model gave {dimensions:,}")
        indexes.append(index)
        embeddings.append(embedding)
    if len(set(indexes)) < len(indexes):
        twice = next(index for index in indexes if indexes.count(index) > 1)
        raise BadAnswer(f"two vectors for text {twice}")
    if not embeddings:
        return {}
    rows = _unit_rows(np.array(embeddings, dtype=np.float64))
    return dict(zip(indexes, rows, strict=True))


_NUMBERS: Final = frozenset({int, float})


def _from_base64(text: str) -> NDArray[np.float32]:
    """The float32 numbers (little-endian, as OpenAI's API sends them) of a base64 text."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise BadAnswer("an embedding is neither numbers nor base64") from None
    if not raw or len(raw) % 4:
        raise BadAnswer("an embedding in base64 is not float32 numbers")
    return np.frombuffer(raw, dtype="<f4")


def _check_numbers(embedding: object) -> None:
    """Raise `BadAnswer` unless `embedding` is a non-empty list of numbers."""
    if isinstance(embedding, list) and embedding and isinstance(embedding[0], list):
        # llama-server without a pooling mode answers one vector per token.
        raise BadAnswer("one vector per token, not per text (llama-server needs --pooling mean)")
    # The types checked at C speed: a vector is hundreds of numbers, a run millions.
    if (
        not isinstance(embedding, list)
        or not embedding
        or not set(map(type, embedding)) <= _NUMBERS
    ):
        raise BadAnswer("an embedding is not a list of numbers")


def _unit_rows(matrix: NDArray[np.float64]) -> NDArray[np.float32]:
    """Each row scaled to unit length (all rows at once)."""
    if not np.isfinite(matrix).all():
        raise BadAnswer("an embedding holds a number that is not finite")
    largest = np.abs(matrix).max(axis=1, keepdims=True)
    if not largest.all():
        raise BadAnswer("an embedding is all zeros")
    # Scaled first, so numbers near the float limit do not overflow the length.
    matrix = matrix / largest
    unit: NDArray[np.float32] = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(
        np.float32
    )
    return unit


def retry_after_seconds(value: str | None, now: datetime) -> float | None:
    """Pure: the pause a `Retry-After` header asks for, as seconds or an HTTP date;
    None when absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return max(0.0, (when - now).total_seconds())
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def pause_before_try(tries: int, retry_after: float | None) -> float:
    """Pure: seconds to wait before try number `tries + 1`, after `tries` failed."""
    backoff = min(LONGEST_PAUSE_SECONDS, FIRST_PAUSE_SECONDS * 2 ** (tries - 1))
    return retry_after if retry_after is not None else backoff
