"""The questions the documents could not answer, on disk: kept as each question ends
(`AppContext.conclude`), listed for `gaps` (the command and the MCP tool)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.gaps import Gap, GapList, gap_of, group_gaps
from tui_assistant.core.library.library import Library
from tui_assistant.core.outcome import Outcome
from tui_assistant.errors import os_error_words
from tui_assistant.registry.libraries import choose_library
from tui_assistant.settings import Settings
from tui_assistant.store.gaps import gaps_path, read_gaps, record_gap
from tui_assistant.store.history import now
from tui_assistant.wiring.store_setting import uses_postgres

logger = logging.getLogger(__name__)


def gap_to_keep(settings: Settings, outcome: Outcome) -> tuple[str | None, Gap] | None:
    """The gap `outcome` is (`gap_of`), when the settings keep gaps; else None."""
    return gap_of(outcome, now()) if settings.gaps else None


# Appends a gap to a gaps file: `record_gap` at once, or a `GapWriter`'s `put`, soon.
RecordGap = Callable[[Path, Gap], None]


def keep_gap(
    settings: Settings,
    library: Library,
    found: tuple[str | None, Gap],
    name: str | None = None,
    record: RecordGap = record_gap,
) -> None:
    """Write a gap (`gap_to_keep`) where `AppContext.conclude` says it belongs."""
    near, gap = found
    names = [near] if near is not None else [name] if name else list(library.parts)
    for each in names:
        part = library.parts.get(each or "")
        if part is None and not library.combined:
            part = library
        if part is None:
            continue
        if uses_postgres(settings):
            # psycopg loads only for a PostgreSQL store.
            from tui_assistant.wiring.shared_store import keep_gap as keep_shared

            keep_shared(settings, part.name, gap)
            continue
        try:
            record(gaps_path(settings.data_dir, part.folder), gap)
        except OSError as error:
            logger.warning("question not kept in gaps (%s)", os_error_words(error))


def list_gaps(settings: Settings, library: str | None = None, limit: int | None = None) -> GapList:
    """The questions the libraries could not answer, grouped (`gaps`); `library` narrows
    to one of them by name (`LookupError` for an unknown one). Reads no library."""
    specs = settings.libraries
    library = choose_library(library, (spec.name for spec in specs))
    chosen = [spec for spec in specs if library is None or spec.name == library]
    if not chosen:
        names = ", ".join(spec.name for spec in specs)
        raise LookupError(
            f"no library is named {shortened(one_line(library or ''), 60)}"
            f" (the libraries are {names})"
        )
    if uses_postgres(settings):
        # psycopg loads only for a PostgreSQL store.
        from tui_assistant.wiring.shared_store import gaps_of

        found = [(spec.name, gaps_of(settings, spec.name)) for spec in chosen]
    else:
        found = [
            (spec.name, read_gaps(gaps_path(settings.data_dir, spec.folder))) for spec in chosen
        ]
    return group_gaps(
        found,
        prefix_ids=len(specs) > 1,
        limit=limit,
    )
