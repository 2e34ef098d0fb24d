"""`tui-assistant ask` in process: the support check per mode, in JSON and readable
output, with a scripted provider injected instead of the network."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.helpers import SALT_FAITHFUL, SALT_INVENTED, SCRIPT, ScriptedProvider
from tui_assistant import cli


@pytest.mark.parametrize(
    ("mode", "outcome", "reason", "support"),
    [
        ("warn", "answered", None, {"supported": False, "unsupported_sentences": [SALT_INVENTED]}),
        ("strict", "refused", "unsupported", None),
        ("off", "answered", None, None),
    ],
)
def test_ask_json_shows_the_support_check_per_mode(
    model_mode: Callable[[str, Mapping[str, str]], ScriptedProvider],
    capsys: pytest.CaptureFixture[str],
    mode: str,
    outcome: str,
    reason: str | None,
    support: dict[str, Any] | None,
) -> None:
    model_mode(mode, SCRIPT)
    assert cli.main(["ask", "--json", "How much salt goes in pasta water?"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["outcome"], result["reason"], result["support"]) == (outcome, reason, support)
    assert result["lesson_id"] == "pasta-water"


def test_ask_readable_output_lists_unsupported_sentences_in_warn_mode(
    model_mode: Callable[[str, Mapping[str, str]], ScriptedProvider],
    capsys: pytest.CaptureFixture[str],
) -> None:
    model_mode("warn", SCRIPT)
    assert cli.main(["ask", "How much salt goes in pasta water?"]) == 0
    out = capsys.readouterr().out
    assert "not backed by the passage:" in out
    assert f"  ! {SALT_INVENTED}" in out
    assert f"  ! {SALT_FAITHFUL}" not in out
