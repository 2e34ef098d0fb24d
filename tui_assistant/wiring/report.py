"""The library report's facts gathered from the data folder (`library`, the palette's
report); `core.library.report` sorts them, `report_text` and `report_records` say them."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant.core.library.library import Library
from tui_assistant.core.library.report import LibraryReport, StoreFacts, VectorFacts, build_report
from tui_assistant.registry.libraries import fetched_facts
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import store_path
from tui_assistant.wiring.embedding_status import vector_facts
from tui_assistant.wiring.retrieval_choice import RetrievalChoice

if TYPE_CHECKING:
    from tui_assistant.providers.embedding import EmbeddingSource


def describe_library(
    settings: Settings,
    library: Library,
    choice: RetrievalChoice,
    retrieval: str,
    embedder: EmbeddingSource | None = None,
) -> LibraryReport:
    """The report of `library` (read from one folder) as loaded with `settings`, from
    what the data folder holds: nothing is embedded, and no local model is loaded
    (`embedder` is the source in use, if any); an embedding server is asked once for its
    model's dimensions, which also tells whether it can be reached. `retrieval` is the
    mode answering now."""
    store = store_path(settings.data_dir, library.folder)
    size = 0
    for part in (store, Path(f"{store}-wal")):
        with contextlib.suppress(OSError):
            size += part.stat().st_size
    if choice.mode != "hybrid":
        reason = choice.note or f"TUI_ASSISTANT_RETRIEVAL is {settings.retrieval}"
        vectors = VectorFacts(None, reason=reason)
    else:
        vectors = vector_facts(store, library, choice, embedder)
    report = build_report(library, retrieval, StoreFacts(str(store), size), vectors)
    return replace(report, fetched=fetched_facts(library.folder))
