"""Assemble the app from settings: library, retriever, provider, service.

The CLI and the TUI both start here, so they cannot be wired differently. The
provider module (and httpx) is imported only in model mode, to keep start-up fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.library import Library
from tui_assistant.core.ranked import RankedRetriever
from tui_assistant.core.retrieval import KeywordRetriever, Retriever
from tui_assistant.core.service import AnswerProvider, AnswerService
from tui_assistant.locations import bundled_lessons_dir, default_data_dir
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress, open_library


@dataclass
class AppContext:
    settings: Settings
    library: Library
    service: AnswerService

    @property
    def data_dir(self) -> Path:
        return self.settings.data_dir or default_data_dir()

    @property
    def mode_label(self) -> str:
        """`deterministic`, or the model and the provider's host."""
        if self.settings.provider != "openai":
            return "deterministic"
        from urllib.parse import urlsplit

        return f"{self.settings.model} @ {urlsplit(self.settings.base_url).hostname}"

    def use_library(self, library: Library) -> None:
        """Answer from `library` from now on (after a reload)."""
        self.library = library
        self.service.retriever = build_retriever(self.settings, library)

    async def aclose(self) -> None:
        closer = getattr(self.service.provider, "aclose", None)
        if closer is not None:
            await closer()


def library_folder(settings: Settings) -> Path:
    return settings.library if settings.library is not None else bundled_lessons_dir()


def retriever_class(settings: Settings) -> type[KeywordRetriever] | type[RankedRetriever]:
    return RankedRetriever if settings.retrieval == "ranked" else KeywordRetriever


def load_library(settings: Settings, progress: Progress | None = None) -> Library:
    """The library from its folder, through the index store in the data folder, indexed
    with the keys of the configured retrieval mode."""
    data_dir = settings.data_dir or default_data_dir()
    key = retriever_class(settings).key
    return open_library(library_folder(settings), data_dir, key, progress)


def build_retriever(settings: Settings, library: Library) -> Retriever:
    return retriever_class(settings)(library)


def build_provider(settings: Settings, data_dir: Path) -> AnswerProvider | None:
    """The model provider in `openai` mode, else None (deterministic answers).

    Its one `httpx.AsyncClient` lives as long as the app run; `AppContext.aclose`
    closes it. The ledger exists only when a monthly limit is set.
    """
    if settings.provider != "openai":
        return None
    from tui_assistant.providers.openai import OpenAIProvider, new_http_client
    from tui_assistant.store.ledger import CallLedger

    limit = settings.monthly_call_limit
    return OpenAIProvider(
        client=new_http_client(settings.deadline_seconds),
        base_url=settings.base_url,
        model=settings.model,
        api_key=settings.api_key,
        ledger=CallLedger(data_dir, limit) if limit is not None else None,
    )


def open_context(settings: Settings, progress: Progress | None = None) -> AppContext:
    """Load the library and build the service; raises `LibraryError` or `ConfigError`."""
    library = load_library(settings, progress)
    data_dir = settings.data_dir or default_data_dir()
    service = AnswerService(
        retriever=build_retriever(settings, library),
        provider=build_provider(settings, data_dir),
        support_mode=settings.support_check,
        deadline_seconds=settings.deadline_seconds,
        passages_sent=settings.passages,
    )
    return AppContext(settings=settings, library=library, service=service)
