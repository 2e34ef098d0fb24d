"""The library report as JSON (`library --json`): one `LibraryRecord` per library,
every key always present."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tui_assistant.core.library.report import LibraryReport, SkipReason, VectorState


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
