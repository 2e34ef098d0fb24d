"""Fixtures for the in-process CLI tests (`cli.main([...])`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.helpers import ScriptedProvider
from tui_assistant.wiring import context, library_vectors
from tui_assistant.wiring.retrieval_choice import RetrievalChoice

if TYPE_CHECKING:
    from tests.cli.held_model import HeldEmbedder


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No stray TUI_ASSISTANT_* settings or `.env`, `ranked` retrieval (so no test
    depends on whether this machine has an embedding model), and a data folder of its
    own, which is returned."""
    for name in [name for name in os.environ if name.startswith("TUI_ASSISTANT_")]:
        monkeypatch.delenv(name)
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "ranked")
    monkeypatch.setenv("TUI_ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def model_mode(
    monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> Callable[[str, Mapping[str, str]], ScriptedProvider]:
    """Switch to TUI_ASSISTANT_PROVIDER=openai with a scripted provider and a support mode."""

    def switch(support_mode: str, script: Mapping[str, str]) -> ScriptedProvider:
        provider = ScriptedProvider(script)
        monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
        monkeypatch.setenv("TUI_ASSISTANT_SUPPORT_CHECK", support_mode)
        monkeypatch.setattr(context, "build_provider", lambda *args, **kwargs: provider)
        return provider

    return switch


@pytest.fixture
def held_hybrid(monkeypatch: pytest.MonkeyPatch, clean_env: Path) -> Iterator[HeldEmbedder]:
    """`TUI_ASSISTANT_RETRIEVAL=hybrid` with a held fake model in place of a real one."""
    # numpy is the `semantic` extra's: only the tests that use this fixture need it.
    held_model = pytest.importorskip("tests.cli.held_model")
    embedder: HeldEmbedder = held_model.HeldEmbedder()
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "hybrid")
    monkeypatch.setattr(
        context, "choose_retrieval", lambda *args, **kwargs: RetrievalChoice("hybrid")
    )
    monkeypatch.setattr(context, "load_embedder", lambda choice: embedder)
    monkeypatch.setattr(library_vectors, "load_embedder", lambda choice: embedder)
    yield embedder
    embedder.release()  # a background run still held ends
