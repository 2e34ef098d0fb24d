"""The model provider the settings name: `openai` mode's, else none (deterministic
answers)."""

from __future__ import annotations

from pathlib import Path

from tui_assistant.core.service import AnswerProvider
from tui_assistant.settings import Settings
from tui_assistant.store.ledger import CallLedger


def build_provider(settings: Settings, data_dir: Path) -> AnswerProvider | None:
    """The model provider in `openai` mode, else None (deterministic answers).

    Its one `httpx.AsyncClient` lives as long as the app run; `AppContext.aclose`
    closes it. The ledger exists only when a monthly limit is set.
    """
    if settings.provider != "openai":
        return None
    # httpx loads in model mode only: deterministic starts stay quick.
    from tui_assistant.providers.openai import OpenAIProvider, new_http_client

    limit = settings.monthly_call_limit
    return OpenAIProvider(
        client=new_http_client(settings.deadline_seconds),
        base_url=settings.base_url,
        model=settings.model,
        api_key=settings.api_key,
        ledger=CallLedger(data_dir, limit) if limit is not None else None,
    )
