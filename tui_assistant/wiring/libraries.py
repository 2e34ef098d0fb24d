"""The libraries the settings name, each read through its index store in the data
folder, as the one library a question searches."""

from __future__ import annotations

from tui_assistant.core.library.combined import combine
from tui_assistant.core.library.library import Library
from tui_assistant.core.progress import Progress
from tui_assistant.core.words import stem
from tui_assistant.registry.libraries import document_kinds_of, with_page_urls
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import open_library
from tui_assistant.wiring.store_setting import uses_postgres


def load_library(settings: Settings, progress: Progress | None = None) -> Library:
    """The library from its folder, through the index store in the data folder; several
    libraries as one (`combined.combine`), each through its own store. With a PostgreSQL
    store, each library's current version as its indexer wrote it (the folder is not
    read)."""
    parts: list[Library] = []
    try:
        for spec in settings.libraries:
            if uses_postgres(settings):
                # psycopg loads only for a PostgreSQL store.
                from tui_assistant.wiring.shared_store import load_part

                part = load_part(settings, spec.name, spec.folder, progress)
            else:
                part = open_library(
                    spec.folder,
                    settings.data_dir,
                    stem,
                    progress,
                    document_kinds_of(spec.folder, settings.document_kinds),
                    name=spec.name,
                )
            # A website's passages cite their pages' URLs, from its fetched record.
            parts.append(with_page_urls(part, spec.folder))
    except BaseException:
        for part in parts:
            part.close()
        raise
    if len(parts) == 1:
        return parts[0]
    return combine(parts)
