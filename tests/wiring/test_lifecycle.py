"""The library's one lifecycle, without a surface: its events, a read-only follower, and
a replaced library closed once no call holds it."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers import BUNDLED_LESSONS
from tui_assistant.settings import Settings
from tui_assistant.wiring import library_events as events
from tui_assistant.wiring.context import open_context
from tui_assistant.wiring.lifecycle import LibraryLifecycle
from tui_assistant.wiring.retrieval_choice import RetrievalChoice


def settings_for(tmp_path: Path) -> Settings:
    folder = tmp_path / "lessons"
    shutil.copytree(BUNDLED_LESSONS, folder)
    return Settings(library=folder, data_dir=tmp_path / "data", retrieval="ranked", watch=False)  # type: ignore[arg-type]


async def test_load_and_reload_tell_their_events_and_swap_the_context(tmp_path: Path) -> None:
    told: list[events.LifecycleEvent] = []
    lifecycle = LibraryLifecycle(settings_for(tmp_path), told.append)
    loaded = await lifecycle.load()
    assert loaded is lifecycle.context
    assert isinstance(told[-1], events.Loaded) and told[-1].context is loaded
    (tmp_path / "lessons" / "rice.md").write_text("# Rice\n\nRinse it first.\n")
    assert await lifecycle.reload()
    reloaded = told[-1]
    assert isinstance(reloaded, events.Reloaded)
    assert reloaded.context is lifecycle.context is not loaded
    assert str(reloaded.changes) == "+1 \N{MINUS SIGN}0 passages"
    await lifecycle.aclose()


async def test_a_replaced_library_is_closed_once_no_call_holds_it(tmp_path: Path) -> None:
    lifecycle = LibraryLifecycle(settings_for(tmp_path), lambda event: None)
    await lifecycle.load()
    with lifecycle.lease() as held:
        await lifecycle.reload()
        assert held is not lifecycle.context
        assert held.library.passage(0).text  # still readable while the call holds it
    with pytest.raises(sqlite3.ProgrammingError):
        held.library.passage(0).text  # noqa: B018 - closed once released
    await lifecycle.aclose()


async def test_a_read_only_follower_never_embeds_nor_watches(tmp_path: Path) -> None:
    from tests.helpers.embedding import FakeEmbedder

    pytest.importorskip("numpy")
    context = open_context(settings_for(tmp_path), embed_now=False)
    lexical = replace(context, choice=RetrievalChoice("hybrid"), embedder=FakeEmbedder())
    told: list[events.LifecycleEvent] = []
    follower = LibraryLifecycle.of(lexical, told.append, writer=False)
    await follower.embed()
    await follower.watch()  # returns at once
    assert told == [] and follower.context.retrieval == "ranked"
    writer = LibraryLifecycle.of(lexical, told.append)
    await writer.embed()
    assert isinstance(told[-1], events.HybridOn)
    assert writer.context.retrieval == "hybrid"
    await writer.aclose()
