"""One real fetch from PyPI and one from npm (opt-in: FETCH_NETWORK_TESTS=1)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tui_assistant import cli

# Off by default and in CI: it needs PyPI and the npm registry.
pytestmark = [
    pytest.mark.network,
    pytest.mark.skipif(
        os.environ.get("FETCH_NETWORK_TESTS") != "1",
        reason="reaches the real registries: set FETCH_NETWORK_TESTS=1",
    ),
]


def test_a_small_real_package_from_each_registry(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["fetch", "--json", "pypi:iniconfig==2.0.0", "npm:ms@2.1.3"]) == 0
    python, node = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (python["library"], node["library"]) == ("iniconfig@2.0.0", "ms@2.1.3")
    assert python["passages"] > 0 and node["passages"] > 0
    assert (clean_env / "fetched" / "iniconfig@2.0.0" / ".fetched.json").is_file()
