"""The library report as readable lines (`library`, the TUI's report screen), safe for
a terminal."""

from __future__ import annotations

from tui_assistant.core.display_text import clean_display_text, one_line
from tui_assistant.core.library.library import printable_file_name
from tui_assistant.core.library.report import SKIP_REASONS, LibraryReport, SkippedFile, StoreFacts

# Paths listed per reason in the readable report (`--json` lists them all).
SHOWN_PER_REASON = 10


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
        f" {kept.embedded:,}/{_count(report.passage_count, 'passage')}"
        for kept in report.vectors.kept
    )
    return clean_display_text("\n".join(lines))


def _shown_file(file: SkippedFile) -> str:
    """A skipped file's line: its name, and for a built site's folder what it holds."""
    name = printable_file_name(file.path)
    if file.reason == "built_site":
        holds = file.detail.removeprefix(SKIP_REASONS["built_site"] + ": ")
        return f"{name} ({printable_file_name(holds)})"  # it names files too
    return name


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
    counted = f"{vectors.embedded:,}/{_count(report.passage_count, 'passage')} embedded"
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
