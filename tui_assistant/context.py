"""Assemble the app from settings: library, retriever, provider, service.

The CLI and the TUI both start here, so they cannot be wired differently. The
provider module (and httpx) is imported only in model mode, to keep start-up fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.index import InvertedIndex
from tui_assistant.core.index_cache import open_library
from tui_assistant.core.lessons import LessonLibrary
from tui_assistant.core.ranked import RankedRetriever
from tui_assistant.core.retrieval import KeywordRetriever, Retriever
from tui_assistant.core.service import AnswerProvider, AnswerService
from tui_assistant.locations import bundled_lessons_dir, default_data_dir
from tui_assistant.settings import Settings


@dataclass
class AppContext:
    settings: Settings
    library: LessonLibrary
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

    async def aclose(self) -> None:
        closer = getattr(self.service.provider, "aclose", None)
        if closer is not None:
            await closer()


def lessons_folder(settings: Settings) -> Path:
    return settings.lessons_dir if settings.lessons_dir is not None else bundled_lessons_dir()


def build_retriever(
    settings: Settings, library: LessonLibrary, index: InvertedIndex | None = None
) -> Retriever:
    # `index` comes from the on-disk cache when open_context has one.
    index = index if index is not None else InvertedIndex(library.lessons)
    if settings.retrieval == "ranked":
        return RankedRetriever(index)
    return KeywordRetriever(index)


def build_provider(settings: Settings, data_dir: Path) -> AnswerProvider | None:
    """The model provider in `openai` mode, else None (deterministic answers).

    Its one `httpx.AsyncClient` lives as long as the app run; `AppContext.aclose`
    closes it. The ledger exists only when a monthly limit is set.
    """
    if settings.provider != "openai":
        return None
    from tui_assistant.core.ledger import CallLedger
    from tui_assistant.core.provider import OpenAIProvider, new_http_client

    limit = settings.monthly_call_limit
    return OpenAIProvider(
        client=new_http_client(settings.deadline_seconds),
        base_url=settings.base_url,
        model=settings.model,
        api_key=settings.api_key,
        deadline_seconds=settings.deadline_seconds,
        ledger=CallLedger(data_dir, limit) if limit is not None else None,
    )


def open_context(settings: Settings) -> AppContext:
    """Load the library and build the service; raises `LibraryError` or `ConfigError`."""
    data_dir = settings.data_dir or default_data_dir()
    # The library plus its index, the index from the data folder's cache when valid.
    loaded = open_library(lessons_folder(settings), data_dir)
    library = loaded.library
    service = AnswerService(
        retriever=build_retriever(settings, library, loaded.index),
        provider=build_provider(settings, data_dir),
        support_mode=settings.support_check,
    )
    return AppContext(settings=settings, library=library, service=service)
