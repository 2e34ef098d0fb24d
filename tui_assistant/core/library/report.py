"""What a library holds, as a report: documents and passages by kind, the files that
were skipped and why, the index store's place and size, and the vectors' state.

Pure: the shell gathers the facts (`context.describe_library`); this module gives the
report as one JSON object (`LibraryRecord`) or as the lines `library` and the TUI show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from tui_assistant.core.display_text import clean_display_text, one_line
from tui_assistant.core.documents.formats import DOCUMENT_KINDS, document_kind
from tui_assistant.core.library.library import FileProblem, Library, printable_file_name

# Why a file is skipped, in the order the report lists them, with their readable names.
SKIP_REASONS: dict[str, str] = {
    "too_big": "too big (over its kind's size limit)",
    "not_utf8": "not UTF-8",
    "binary": "binary",
    "symlink": "symlink (not followed)",
    "hidden": "hidden (name starts with '.')",
    "empty": "empty",
    "no_text": "no text besides headings",
    "includes_only": "only includes other documents (each read as its own)",
    "built_site": "part of a built site, not a page",
    "index_page": "a page of links only",
    "encrypted": "encrypted PDF (needs a password)",
    "no_text_layer": "PDF without a text layer (scanned; no OCR)",
    "broken_pdf": "not a readable PDF (broken or truncated)",
    "not_regular": "not a regular file",
    "unreadable": "cannot be read",
    "other": "other",
}
SkipReason = str

# The start of each skip message (`store.folder`, `core.library.parse_document`).
_REASON_PREFIXES = (
    ("larger than", "too_big"),
    ("not UTF-8", "not_utf8"),
    ("not in the", "not_utf8"),
    ("declares a charset", "not_utf8"),
    ("part of a built site", "built_site"),
    ("a page of links only", "index_page"),
    ("has a name that is not UTF-8", "not_utf8"),
    ("binary", "binary"),
    ("is a symlink", "symlink"),
    ("empty", "empty"),
    ("is encrypted", "encrypted"),
    ("has no text layer", "no_text_layer"),
    ("is not a readable PDF", "broken_pdf"),
    ("has no text of its own", "includes_only"),
    ("has no text", "no_text"),
    ("is not a regular file", "not_regular"),
    ("cannot be read", "unreadable"),
)
HIDDEN = "hidden (name starts with '.')"

# Paths listed per reason in the readable report (`--json` lists them all).
SHOWN_PER_REASON = 10

VectorState = Literal["off", "complete", "incomplete"]


def _shown_file(file: SkippedFile) -> str:
    """A skipped file's line: its name, and for a built site's folder what it holds."""
    name = printable_file_name(file.path)
    if file.reason == "built_site":
        holds = file.detail.removeprefix(SKIP_REASONS["built_site"] + ": ")
        return f"{name} ({printable_file_name(holds)})"  # it names files too
    return name


def skip_reason(reason: str) -> SkipReason:
    """The group a skip message belongs to (`too_big`, `binary`, ...)."""
    for prefix, group in _REASON_PREFIXES:
        if reason.startswith(prefix):
            return group
    return "other"


@dataclass(frozen=True, slots=True)
class StoreFacts:
    """The index store's file and its size in bytes, its write-ahead log included (0
    when it does not exist: the data folder could not be written, so the library was
    indexed in memory)."""

    path: str
    size: int


@dataclass(frozen=True, slots=True)
class KeptVectors:
    """Vectors of another model the store keeps (used again on switching back)."""

    model: str
    dimensions: int
    embedded: int


@dataclass(frozen=True, slots=True)
class VectorFacts:
    """Hybrid retrieval's vectors: `model` is None when they are off (`reason` says
    why); `embedded` counts the passages whose every piece has a stored vector.
    `source` says where vectors come from (`local`, or `server HOST:PORT`); `problem`
    is one line when that server cannot be reached or answers badly; `kept` lists the
    vectors of other models in the store."""

    model: str | None
    embedded: int = 0
    reason: str | None = None
    source: str | None = None
    problem: str | None = None
    kept: tuple[KeptVectors, ...] = ()


@dataclass(frozen=True, slots=True)
class SkippedFile:
    path: str
    reason: SkipReason
    detail: str


@dataclass(frozen=True, slots=True)
class LibraryReport:
    name: str
    folder: str
    retrieval: str
    documents: dict[str, int]
    passages: dict[str, int]
    skipped: tuple[SkippedFile, ...]
    notices: tuple[FileProblem, ...]
    store: StoreFacts
    vectors: VectorFacts
    # A fetched library's `package`, `version` and `origin` (its archive); None each
    # for a folder.
    fetched: Mapping[str, str | None] = field(default_factory=dict)

    @property
    def passage_count(self) -> int:
        return sum(self.passages.values())

    @property
    def vector_state(self) -> VectorState:
        if self.vectors.model is None:
            return "off"
        return "complete" if self.vectors.embedded >= self.passage_count else "incomplete"

    def skipped_by_reason(self) -> dict[SkipReason, list[SkippedFile]]:
        grouped: dict[SkipReason, list[SkippedFile]] = {reason: [] for reason in SKIP_REASONS}
        for skipped in self.skipped:
            grouped[skipped.reason].append(skipped)
        return grouped


class KindCounts(BaseModel):
    total: int
    by_kind: dict[str, int] = Field(
        description="the count of each document kind, every kind present (0 when none)"
    )


class SkippedFileRecord(BaseModel):
    path: str = Field(description="the file, relative to the library folder")
    reason: SkipReason = Field(description="the group of the reason (a key of `by_reason`)")
    detail: str = Field(description="why it was skipped, in one line")


class SkippedRecord(BaseModel):
    total: int
    by_reason: dict[SkipReason, int] = Field(
        description="how many files each reason skipped, every reason present (0 when none)"
    )
    files: list[SkippedFileRecord] = Field(description="every skipped file, by reason then path")


class NoticeRecord(BaseModel):
    """A file that was read, with something to know about it."""

    path: str
    message: str


class StoreRecord(BaseModel):
    path: str = Field(description="the index store's file")
    bytes: int = Field(
        description="its size with its write-ahead log; 0 when it was not written (in memory)"
    )


class KeptVectorsRecord(BaseModel):
    """Vectors of another model the store keeps, used again on switching back."""

    model: str
    dimensions: int
    embedded: int


class VectorsRecord(BaseModel):
    state: VectorState = Field(
        description="off (no hybrid retrieval), complete or incomplete (not every passage embedded)"
    )
    reason: str | None = Field(description="why the vectors are off; null otherwise")
    model: str | None = Field(description="the sentence-embedding model; null when off")
    source: str | None = Field(description="`local`, or `server HOST:PORT`; null when off")
    problem: str | None = Field(
        description="one line when the embedding server cannot be reached or answers badly"
    )
    embedded: int = Field(description="passages whose every piece has a stored vector")
    total: int = Field(description="the library's passages")
    kept: list[KeptVectorsRecord]


class LibraryRecord(BaseModel):
    """The `library --json` object; every key always present (0, `null` or `[]` when it
    does not apply)."""

    name: str
    library: str = Field(description="the library folder")
    retrieval: str = Field(description="the retrieval mode answering")
    documents: KindCounts
    passages: KindCounts
    skipped: SkippedRecord
    notices: list[NoticeRecord]
    store: StoreRecord
    vectors: VectorsRecord
    package: str | None = Field(
        description="the package a fetched library is of; null for a folder"
    )
    version: str | None = Field(description="the package's version; null for a folder")
    origin: str | None = Field(
        description="the archive a fetched library came from; null for a folder"
    )

    @classmethod
    def of(cls, report: LibraryReport) -> LibraryRecord:
        vectors = report.vectors
        return cls(
            name=report.name,
            library=report.folder,
            retrieval=report.retrieval,
            documents=KindCounts(total=sum(report.documents.values()), by_kind=report.documents),
            passages=KindCounts(total=report.passage_count, by_kind=report.passages),
            skipped=SkippedRecord(
                total=len(report.skipped),
                by_reason={
                    reason: len(files) for reason, files in report.skipped_by_reason().items()
                },
                files=[
                    SkippedFileRecord(path=file.path, reason=file.reason, detail=file.detail)
                    for file in report.skipped
                ],
            ),
            notices=[
                NoticeRecord(path=notice.path, message=notice.reason) for notice in report.notices
            ],
            store=StoreRecord(path=report.store.path, bytes=report.store.size),
            vectors=VectorsRecord(
                state=report.vector_state,
                reason=vectors.reason,
                model=vectors.model,
                source=vectors.source,
                problem=vectors.problem,
                embedded=vectors.embedded,
                total=report.passage_count,
                kept=[
                    KeptVectorsRecord(
                        model=kept.model, dimensions=kept.dimensions, embedded=kept.embedded
                    )
                    for kept in vectors.kept
                ],
            ),
            package=report.fetched.get("package"),
            version=report.fetched.get("version"),
            origin=report.fetched.get("origin"),
        )


class LibraryRecords(BaseModel):
    """`library --json` when several libraries are searched: each one's report."""

    libraries: list[LibraryRecord]


def build_report(
    library: Library,
    retrieval: str,
    store: StoreFacts,
    vectors: VectorFacts,
) -> LibraryReport:
    """The report of a loaded library: its problems, and the hidden names it skipped
    without a warning (`Library.hidden`), are the skipped files."""
    documents: Counter[str] = Counter({kind: 0 for kind in DOCUMENT_KINDS})
    passages: Counter[str] = Counter({kind: 0 for kind in DOCUMENT_KINDS})
    for document in library.documents:
        # Every kind is always in the report (0 when the library has none).
        kind = document_kind(document.path) or "other"
        documents[kind] += 1
        passages[kind] += document.count
    skipped = [
        SkippedFile(problem.path, skip_reason(problem.reason), problem.reason)
        for problem in library.problems
        if problem.skipped
    ]
    skipped.extend(SkippedFile(path, "hidden", HIDDEN) for path in library.hidden)
    skipped.sort(key=lambda file: (list(SKIP_REASONS).index(file.reason), file.path))
    return LibraryReport(
        name=library.name,
        folder=str(library.folder),
        retrieval=retrieval,
        documents=dict(documents),
        passages=dict(passages),
        skipped=tuple(skipped),
        notices=tuple(problem for problem in library.problems if not problem.skipped),
        store=store,
        vectors=vectors,
    )


def format_report(report: LibraryReport) -> str:
    """The report as readable lines, safe for a terminal (file names escaped)."""
    lines = [
        f"library: {report.name} ({report.folder})",
        *(
            [
                f"package: {report.fetched['package']} {report.fetched['version']}"
                f" ({report.fetched['origin']})"
            ]
            if report.fetched.get("package")
            else []
        ),
        f"documents: {_by_kind(report.documents)}",
        f"passages: {_by_kind(report.passages)}",
    ]
    if not report.skipped:
        lines.append("skipped: none")
    else:
        lines.append(f"skipped: {_count(len(report.skipped), 'file')}")
        for reason, files in report.skipped_by_reason().items():
            if not files:
                continue
            lines.append(f"  {SKIP_REASONS[reason]}: {len(files):,}")
            shown = files[:SHOWN_PER_REASON]
            lines.extend(f"    {_shown_file(file)}" for file in shown)
            if len(files) > SHOWN_PER_REASON:
                lines.append(f"    … and {len(files) - SHOWN_PER_REASON:,} more (--json lists all)")
    lines.extend(f"notice: {notice}" for notice in report.notices)
    lines.append(f"store: {_store(report.store)}")
    lines.append(f"retrieval: {report.retrieval}")
    lines.append(f"vectors: {_vectors(report)}")
    if report.vectors.problem:
        lines.append(f"embedding: {one_line(report.vectors.problem)}")
    lines.extend(
        f"kept: {kept.model} ({kept.dimensions:,} dimensions):"
        f" {kept.embedded:,}/{report.passage_count:,} passages"
        for kept in report.vectors.kept
    )
    return clean_display_text("\n".join(lines))


def _by_kind(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    parts = ", ".join(f"{kind} {count:,}" for kind, count in counts.items() if count)
    return f"{total:,} ({parts})" if parts else f"{total:,}"


def _count(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _store(store: StoreFacts) -> str:
    if store.size == 0:
        return f"{store.path} (not written: indexed in memory)"
    return f"{store.path} ({human_size(store.size)})"


def _vectors(report: LibraryReport) -> str:
    vectors = report.vectors
    if vectors.model is None:
        return f"off ({vectors.reason})" if vectors.reason else "off"
    counted = f"{vectors.embedded:,}/{report.passage_count:,} passages embedded"
    source = f" ({vectors.source})" if vectors.source else ""
    return f"{vectors.model}{source}: {counted}"


def human_size(size: int) -> str:
    """`812 bytes`, `4.2 MB` (powers of 1,000, as file managers show them)."""
    if size < 1000:
        return _count(size, "byte")
    value = float(size)
    for unit in ("kB", "MB"):
        value /= 1000
        if value < 1000:
            return f"{value:,.1f} {unit}"
    return f"{value / 1000:,.1f} GB"
