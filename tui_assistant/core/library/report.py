"""What a library holds, as a report's facts: documents and passages by kind, the files
that were skipped and why, the index store's place and size, and the vectors' state.

Pure: the shell gathers what is on disk (`wiring.report.describe_library`); the report
is given as one JSON object by `report_records` and as readable lines by `report_text`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from tui_assistant.core.documents.formats import DOCUMENT_KINDS, document_kind
from tui_assistant.core.library.library import FileProblem, Library

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
    "source_only": "Python source documenting nothing public (read by autodoc)",
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
    ("documents nothing public", "source_only"),
    ("is not a regular file", "not_regular"),
    ("cannot be read", "unreadable"),
)
HIDDEN = "hidden (name starts with '.')"

VectorState = Literal["off", "complete", "incomplete"]


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
