"""Sizes of git objects read from their headers, before any object is inflated whole.

dulwich inflates an object whole to read it (and every object of a pack to index it),
so a 2 GB blob would be 2 GB of memory. Every object's size is written before its
data: in a pack, each entry's header (a delta's first bytes give the size it makes);
in a loose object, the first bytes of its zlib stream (`blob 123\\0`). `check_pack`
reads a received pack that way, entry by entry, and refuses the whole pack (one line)
when one object or the sum passes the caps, inflating nothing past what the headers
declared; `stored_size` gives one object's size in a repository on disk.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from tui_assistant.errors import FetchError

if TYPE_CHECKING:
    from dulwich.object_store import BaseObjectStore

_COMMIT, _TREE, _BLOB, _TAG, _OFS_DELTA, _REF_DELTA = 1, 2, 3, 4, 6, 7
_CHUNK = 1 << 16
# At most this much is inflated at a time, so a small input cannot make a big output.
_STEP = 1 << 20


@dataclass(frozen=True, slots=True)
class PackLimits:
    objects: int = 500_000
    object_bytes: int = 512 << 20
    expanded_bytes: int = 512 << 20


class _Reader:
    """A file read forward through a buffer."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.buffer = b""

    def take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            more = self.file.read(_CHUNK)
            if not more:
                raise FetchError("the pack ends early: not kept")
            self.buffer += more
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def header(self) -> tuple[int, int]:
        """An entry's type and size (its data's size once inflated)."""
        byte = self.take(1)[0]
        kind, size, shift = (byte >> 4) & 7, byte & 15, 4
        while byte & 0x80:
            byte = self.take(1)[0]
            size |= (byte & 0x7F) << shift
            shift += 7
            if shift > 70:
                raise FetchError("a pack entry's size is not a number: not kept")
        return kind, size

    def skip_base(self, kind: int) -> None:
        if kind == _OFS_DELTA:
            while self.take(1)[0] & 0x80:
                pass
        elif kind == _REF_DELTA:
            self.take(20)

    def inflate(self, declared: int, keep: int) -> bytes:
        """Inflate one zlib stream, discarding all but its first `keep` bytes; refused
        when it makes more than `declared` bytes."""
        stream = zlib.decompressobj()
        pending, self.buffer = self.buffer, b""
        made, head = 0, b""
        while not stream.eof:
            if not pending:
                pending = self.file.read(_CHUNK)
                if not pending:
                    raise FetchError("the pack ends early: not kept")
            try:
                out = stream.decompress(pending, _STEP)
            except zlib.error:
                raise FetchError("the pack holds data that does not inflate: not kept") from None
            pending = stream.unconsumed_tail
            made += len(out)
            if made > declared:
                raise FetchError("a pack entry is larger than its header says: not kept")
            if len(head) < keep:
                head += out[: keep - len(head)]
        self.buffer = stream.unused_data + pending
        return head


def delta_target_size(head: bytes) -> int:
    """The size a delta makes: the second of the two sizes it starts with."""
    position = 0
    for _ in range(2):
        size = shift = 0
        while True:
            if position >= len(head):
                raise FetchError("a delta's header is cut short: not kept")
            byte = head[position]
            position += 1
            size |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
    return size


def check_pack(path: Path, limits: PackLimits) -> int:
    """Read the pack at `path` entry by entry; its object count. Raises FetchError for
    a pack that is not one, or an object or sum of objects past `limits`, each said
    by the size its header declares, before that object is inflated."""
    with path.open("rb") as file:
        reader = _Reader(file)
        head = reader.take(12)
        if head[:4] != b"PACK" or int.from_bytes(head[4:8], "big") not in (2, 3):
            raise FetchError("the server's answer is not a git pack: not kept")
        count = int.from_bytes(head[8:12], "big")
        if count > limits.objects:
            raise FetchError(f"the pack holds more than {limits.objects:,} objects: not kept")
        expanded = 0
        for _ in range(count):
            kind, size = reader.header()
            if kind not in (_COMMIT, _TREE, _BLOB, _TAG, _OFS_DELTA, _REF_DELTA):
                raise FetchError(f"the pack holds an entry of unknown type {kind}: not kept")
            _check_size(size, limits)
            expanded += size
            reader.skip_base(kind)
            if expanded > limits.expanded_bytes:
                raise FetchError(_too_much(limits))
            made = reader.inflate(size, 20 if kind in (_OFS_DELTA, _REF_DELTA) else 0)
            if kind in (_OFS_DELTA, _REF_DELTA):
                target = delta_target_size(made)
                _check_size(target, limits)
                expanded += target
                if expanded > limits.expanded_bytes:
                    raise FetchError(_too_much(limits))
    return count


def stored_size(store: BaseObjectStore, sha: bytes) -> int | None:
    """The size of the object `sha` (hex) in a repository on disk, from its header
    alone; None when the store does not hold it."""
    for pack in getattr(store, "packs", ()):
        try:
            offset = pack.index.object_offset(sha)
        except KeyError:
            continue
        with open(pack.data.path, "rb") as file:
            file.seek(offset)
            reader = _Reader(file)
            kind, size = reader.header()
            if kind not in (_OFS_DELTA, _REF_DELTA):
                return size
            reader.skip_base(kind)
            return delta_target_size(_inflate_head(reader, 20))
    root = getattr(store, "path", None)
    text = sha.decode("ascii")
    if root is None or len(text) != 40:
        return None
    try:
        with open(Path(root) / text[:2] / text[2:], "rb") as file:
            head = _inflate_head(_Reader(file), 64)
    except FileNotFoundError:
        return None
    kind_and_size, nul, _ = head.partition(b"\0")
    words = kind_and_size.split(b" ")
    if not nul or len(words) != 2 or not words[1].isdigit():
        raise FetchError(f"object {text[:12]} has no header: not kept")
    return int(words[1])


def _inflate_head(reader: _Reader, keep: int) -> bytes:
    """The first `keep` bytes of the zlib stream at the reader, and no more."""
    stream = zlib.decompressobj()
    pending, head = reader.buffer, b""
    while len(head) < keep and not stream.eof:
        if not pending:
            pending = reader.file.read(4096)
            if not pending:
                break
        try:
            head += stream.decompress(pending, keep - len(head))
        except zlib.error:
            raise FetchError("an object does not inflate: not kept") from None
        pending = stream.unconsumed_tail
    return head


def _check_size(size: int, limits: PackLimits) -> None:
    if size > limits.object_bytes:
        raise FetchError(
            f"the repository holds an object of {_mib(size)}, over the"
            f" {_mib(limits.object_bytes)} cap: nothing kept"
        )


def _too_much(limits: PackLimits) -> str:
    return f"the ref's files expand past {_mib(limits.expanded_bytes)}: nothing kept"


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MiB"
