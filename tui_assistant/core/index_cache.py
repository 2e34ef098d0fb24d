"""A persistent cache of the inverted index, so a second start skips the index build.

One cache file per lesson folder lives in `<data dir>/index-cache/`. It is used only
when everything it was built from is unchanged: the folder, the cache format, the
normaliser's version, and the exact list of lesson files with their sizes and
modification times (nanoseconds). Any difference, a file changed, added or removed,
means a rebuild. The file carries a checksum and is checked for consistency before
use; a cache that is corrupt, truncated or from another version is rebuilt, never
trusted. It holds only JSON and raw integer arrays (no pickle), and is replaced
atomically, so a crash mid-write leaves the old cache or none.

The files are stat'ed *before* the library is read: if a file changes in between,
the recorded stamp is the old one and the next start rebuilds, never the reverse.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import itertools
import json
import os
import sys
import tempfile
import zlib
from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from tui_assistant.core.index import FieldSnapshot, IndexBuilder, IndexSnapshot, InvertedIndex
from tui_assistant.core.lessons import LessonLibrary
from tui_assistant.core.text import NORMALISER_VERSION

# 2: the manifest holds digests of the lessons' and all files' stamps.
CACHE_FORMAT = 2
CACHE_FOLDER = "index-cache"
_MAGIC = b"TUIA-INDEX\n"
_LENGTH_BYTES = 8
_CHECKSUM_BYTES = 4
_INTEGER_TYPECODES = frozenset("bBhHiIlLqQ")
_READ_SLICE_BYTES = 1024 * 1024
# The header holds every distinct word; far below this for any real library.
_MAX_HEADER_BYTES = 1024 * 1024 * 1024
# Above this many bytes of lesson files, lesson texts stay on disk until used.
TEXT_IN_MEMORY_BYTES = 16 * 1024 * 1024


class FileStamps(Mapping[str, tuple[int, int]]):
    """File name -> (size in bytes, mtime in nanoseconds), sorted by name.

    Compact on purpose: a folder of a hundred thousand files costs one name string
    and sixteen bytes per file, not a tuple and two integer objects as well.
    """

    __slots__ = ("_mtimes", "_names", "_sizes")

    def __init__(self, stamps: Iterable[tuple[str, int, int]] = ()) -> None:
        names: list[str] = []
        sizes, mtimes = array("q"), array("q")
        for name, size, mtime in stamps:
            names.append(name)
            sizes.append(size)
            mtimes.append(mtime)
        order = sorted(range(len(names)), key=names.__getitem__)
        self._names = [names[place] for place in order]
        self._sizes = array("q", map(sizes.__getitem__, order))
        self._mtimes = array("q", map(mtimes.__getitem__, order))

    def __getitem__(self, name: str) -> tuple[int, int]:
        place = bisect.bisect_left(self._names, name)
        if place == len(self._names) or self._names[place] != name:
            raise KeyError(name)
        return self._sizes[place], self._mtimes[place]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def total_size(self) -> int:
        return sum(self._sizes)


@dataclass(frozen=True)
class LoadedLibrary:
    library: LessonLibrary
    index: InvertedIndex
    from_cache: bool


def stamp_folder(folder: Path) -> FileStamps:
    """Size and mtime of every regular `*.md` file directly in `folder` (no symlinks)."""
    try:
        listing = os.scandir(folder)
    except OSError:
        return FileStamps()  # LessonLibrary.load reports the folder problem
    # Streamed, not listed first: each entry caches its stat result (about a
    # kilobyte), and a list of a hundred thousand of them would hold all at once.
    try:
        with listing:
            return FileStamps(_stamps(listing))
    except OSError:
        return FileStamps()


def _stamps(listing: Iterator[os.DirEntry[str]]) -> Iterator[tuple[str, int, int]]:
    for entry in listing:
        if not entry.name.endswith(".md"):
            continue
        try:
            if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
                continue
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        yield entry.name, info.st_size, info.st_mtime_ns


def cache_path(cache_dir: Path, folder: Path) -> Path:
    """The cache file for one lesson folder: one file per folder, named by its path."""
    digest = hashlib.sha256(os.fsencode(_folder_key(folder))).hexdigest()[:24]
    return cache_dir / CACHE_FOLDER / f"{digest}.index"


def open_library(folder: Path, cache_dir: Path) -> LoadedLibrary:
    """Load the library at `folder` and its index, from the cache when it is still valid.

    Raises `LibraryError` like `LessonLibrary.load`. Cache problems never raise: an
    unreadable or unwritable cache only means building the index in memory.

    When the files' stamps already show the cache is stale (or there is none), the
    index is built while the files are read, in one pass; a library larger than
    TEXT_IN_MEMORY_BYTES then keeps its texts on disk (`Lesson.on_disk`). The stamps
    only predict: the cache is used only after the full check against the library
    as loaded, and a wrong prediction costs a second read of the texts, not a wrong
    index.
    """
    stamps = stamp_folder(folder)
    keep_text = stamps.total_size() <= TEXT_IN_MEMORY_BYTES
    path = cache_path(cache_dir, folder)
    header = read_header(path)
    builder = None if header is not None and _stamps_match(header, stamps) else IndexBuilder()
    library = LessonLibrary.load(
        folder, keep_text=keep_text, on_lesson=builder.add if builder is not None else None
    )
    manifest = _manifest(library, stamps)
    del stamps  # not needed again; freed before the index arrays are made
    if manifest is not None and builder is None:
        snapshot = read_cache(path, manifest, len(library))
        if snapshot is not None:
            index = InvertedIndex.from_snapshot(library.lessons, snapshot)
            return LoadedLibrary(library, index, from_cache=True)
    if builder is None:  # the prediction was wrong: read the texts again
        builder = IndexBuilder()
        for lesson in library.lessons:
            builder.add(lesson)
    index = InvertedIndex.from_snapshot(library.lessons, builder.finish())
    if manifest is not None:
        write_cache(path, manifest, index.snapshot())
    return LoadedLibrary(library, index, from_cache=False)


def _stamps_match(header: dict[str, Any], stamps: FileStamps) -> bool:
    """Whether the cache was built from exactly these files, going by their stamps."""
    expected = {**_fixed_manifest(), "stamps": _stamps_digest(stamps)}
    return all(header.get(key) == value for key, value in expected.items())


def _folder_key(folder: Path) -> str:
    return str(Path(folder).absolute())


def _fixed_manifest() -> dict[str, Any]:
    return {
        "format": CACHE_FORMAT,
        "normaliser": NORMALISER_VERSION,
        "byteorder": sys.byteorder,
    }


def _stamps_digest(stamps: FileStamps) -> str:
    """One digest of every file's name, size and mtime: a folder of a hundred
    thousand files is then a short string in the header, not a list to parse."""
    digest = hashlib.sha256()
    for name in sorted(stamps):
        size, mtime = stamps[name]
        digest.update(os.fsencode(name) + b"\0" + f"{size}:{mtime}\n".encode())
    return digest.hexdigest()


def _manifest(library: LessonLibrary, stamps: FileStamps) -> dict[str, Any] | None:
    """What the index depends on; None when a lesson's file could not be stamped.

    `lessons` is a digest of the lessons in library order with their files' stamps
    (which files the postings' lesson numbers refer to); `stamps` a digest of every
    stamped file, skipped ones included, so the next start can tell from the stamps
    alone whether the folder is unchanged.
    """
    digest = hashlib.sha256()
    for lesson in library.lessons:
        stamp = stamps.get(f"{lesson.id}.md")
        if stamp is None:
            return None  # appeared after the scan: build, but do not cache
        digest.update(f"{lesson.id}:{stamp[0]}:{stamp[1]}\n".encode())
    return {
        **_fixed_manifest(),
        "folder": _folder_key(library.folder),
        "lessons": digest.hexdigest(),
        "lesson_count": len(library),
        "stamps": _stamps_digest(stamps),
    }


_ARRAY_NAMES = (
    "title.starts",
    "title.lessons",
    "title.counts",
    "body.starts",
    "body.lessons",
    "body.counts",
    "title_lengths",
    "body_lengths",
)


def _arrays(snapshot: IndexSnapshot) -> list[array[int]]:
    title, body = snapshot.title, snapshot.body
    return [
        title.starts,
        title.lessons,
        title.counts,
        body.starts,
        body.lessons,
        body.counts,
        snapshot.title_lengths,
        snapshot.body_lengths,
    ]


def write_cache(path: Path, manifest: dict[str, Any], snapshot: IndexSnapshot) -> bool:
    """Write the cache atomically; False (and no file change) when it cannot be written."""
    arrays = _arrays(snapshot)
    header = dict(manifest)
    header["title_words"] = list(snapshot.title.words)
    header["body_words"] = list(snapshot.body.words)
    header["arrays"] = [[values.typecode, len(values)] for values in arrays]
    header_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".writing-")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as stream:
            checksum = 0
            # memoryviews: the arrays are written straight from memory, never copied.
            chunks: list[memoryview] = [
                memoryview(_MAGIC),
                memoryview(len(header_bytes).to_bytes(_LENGTH_BYTES, "little")),
                memoryview(header_bytes),
                *(memoryview(values).cast("B") for values in arrays),
            ]
            for chunk in chunks:
                stream.write(chunk)
                checksum = zlib.crc32(chunk, checksum)
            stream.write(checksum.to_bytes(_CHECKSUM_BYTES, "little"))
        os.replace(temporary, path)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False


def read_header(path: Path) -> dict[str, Any] | None:
    """The cache's JSON header, unchecked (a hint only), or None when unreadable."""
    try:
        with path.open("rb") as stream:
            if stream.read(len(_MAGIC)) != _MAGIC:
                return None
            length = int.from_bytes(stream.read(_LENGTH_BYTES), "little")
            if length > _MAX_HEADER_BYTES:
                return None
            header = json.loads(stream.read(length))
    except (OSError, ValueError):
        return None
    return header if isinstance(header, dict) else None


def read_cache(path: Path, manifest: dict[str, Any], lesson_count: int) -> IndexSnapshot | None:
    """The cached snapshot when it is intact and matches `manifest`, else None."""
    try:
        with path.open("rb") as stream:
            return _parse(stream, os.fstat(stream.fileno()).st_size, manifest, lesson_count)
    except (OSError, ValueError, KeyError, TypeError, IndexError, OverflowError, EOFError):
        return None


def _read_exactly(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError
    return data


def _parse(
    stream: BinaryIO, file_size: int, manifest: dict[str, Any], lesson_count: int
) -> IndexSnapshot | None:
    """Read the cache piece by piece (never the whole file at once, which would double
    the memory of a large index), checking the checksum over what was read."""
    if file_size < len(_MAGIC) + _LENGTH_BYTES + _CHECKSUM_BYTES:
        return None
    end = file_size - _CHECKSUM_BYTES
    magic = _read_exactly(stream, len(_MAGIC))
    if magic != _MAGIC:
        return None
    length_bytes = _read_exactly(stream, _LENGTH_BYTES)
    header_length = int.from_bytes(length_bytes, "little")
    position = len(_MAGIC) + _LENGTH_BYTES
    if header_length > end - position:
        return None
    header_bytes = _read_exactly(stream, header_length)
    checksum = zlib.crc32(header_bytes, zlib.crc32(length_bytes, zlib.crc32(magic)))
    position += header_length
    header = json.loads(header_bytes)
    if not isinstance(header, dict):
        return None
    if any(header.get(key) != value for key, value in manifest.items()):
        return None  # built from other files, or by another version
    arrays: list[array[int]] = []
    for typecode, length in header["arrays"]:
        if typecode not in _INTEGER_TYPECODES or not isinstance(length, int) or length < 0:
            return None
        values = array(typecode)
        size = values.itemsize * length
        if position + size > end:
            return None
        remaining = length
        while remaining:  # in slices, so no temporary copy as big as the array
            step = min(remaining, _READ_SLICE_BYTES // values.itemsize)
            values.fromfile(stream, step)
            remaining -= step
        checksum = zlib.crc32(memoryview(values).cast("B"), checksum)
        arrays.append(values)
        position += size
    if position != end or len(arrays) != len(_ARRAY_NAMES):
        return None
    if checksum != int.from_bytes(_read_exactly(stream, _CHECKSUM_BYTES), "little"):
        return None
    title_starts, title_lessons, title_counts, body_starts, body_lessons, body_counts = arrays[:6]
    title = _field(header["title_words"], title_starts, title_lessons, title_counts, lesson_count)
    body_field = _field(header["body_words"], body_starts, body_lessons, body_counts, lesson_count)
    title_lengths, body_lengths = arrays[6], arrays[7]
    if title is None or body_field is None:
        return None
    if not len(title_lengths) == len(body_lengths) == lesson_count:
        return None
    return IndexSnapshot(title, body_field, title_lengths, body_lengths)


def _field(
    words: list[str],
    starts: array[int],
    lessons: array[int],
    counts: array[int],
    lesson_count: int,
) -> FieldSnapshot | None:
    """A field snapshot, if its arrays are consistent enough to index safely."""
    if not all(isinstance(word, str) for word in words):
        return None
    if len(starts) != len(words) + 1 or starts[0] != 0 or starts[-1] != len(lessons):
        return None
    if len(counts) != len(lessons):
        return None
    if lessons and (min(lessons) < 0 or max(lessons) >= lesson_count):
        return None
    if any(later < earlier for earlier, later in itertools.pairwise(starts)):
        return None
    return FieldSnapshot(tuple(words), starts, lessons, counts)
