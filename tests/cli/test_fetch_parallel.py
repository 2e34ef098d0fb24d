"""`tui-assistant fetch` of several SPECs at once: archives read in worker processes,
each SPEC's outcome on its own line, in the order the SPECs were given."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.fake_registry import FakeRegistry, Member, tar_of
from tui_assistant import cli
from tui_assistant.registry import readers


@pytest.fixture
def registry(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeRegistry]:
    with FakeRegistry() as fake:
        monkeypatch.setenv("TUI_ASSISTANT_PYPI_INDEX_URL", fake.index_url)
        monkeypatch.setenv("TUI_ASSISTANT_NPM_REGISTRY", fake.npm_url)
        # A pool of worker processes whatever the machine's cores.
        monkeypatch.setattr(readers, "usable_cores", lambda: 3)
        yield fake


def docs(name: str, version: str) -> dict[str, str]:
    return {
        "README.md": f"# {name}\n\n{name} {version} in a sentence.\n",
        "docs/guide.md": f"# Guide\n\nHow {name} turns a frobnicator.\n",
    }


def test_several_specs_keep_their_order_and_a_bad_archive_stops_no_other(
    registry: FakeRegistry, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("alpha", "beta", "gamma"):
        registry.add_sdist(name, "1.0", docs(name, "1.0"))
    escaping = [Member("bad-1.0/README.md", b"# bad\n\nx\n"), Member("bad-1.0/../../evil.md")]
    registry.add_pypi_archive("bad", "bad-1.0.tar.gz", tar_of(escaping))
    registry.add_npm("delta", "2.0.0", docs("delta", "2.0.0"))
    specs = ["pypi:gamma==1.0", "pypi:bad==1.0", "npm:delta@2.0.0", "pypi:none==1.0"]
    specs.append("pypi:alpha==1.0")
    assert cli.main(["fetch", *specs, "pypi:beta==1.0"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines] == [
        ["fetched", "gamma@1.0:"],
        ["failed", "pypi:bad==1.0:"],
        ["fetched", "delta@2.0.0:"],
        ["failed", "pypi:none==1.0:"],
        ["fetched", "alpha@1.0:"],
        ["fetched", "beta@1.0:"],
    ]
    assert "'..'" in lines[1] and "404" in lines[3]
    assert all("2 documents" in line for line in lines if line.startswith("fetched"))
    assert not (clean_env.parent / "evil.md").exists()
    fetched = sorted(p.name for p in (clean_env / "fetched").iterdir())
    assert fetched == ["alpha@1.0", "beta@1.0", "delta@2.0.0", "gamma@1.0"]


def test_libraries_fetched_in_workers_answer_like_one_fetched_alone(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("alpha", "beta"):
        registry.add_sdist(name, "1.0", docs(name, "1.0"))
    assert cli.main(["fetch", "--json", "pypi:alpha==1.0", "pypi:beta==1.0"]) == 0
    both = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["library"], r["documents"], r["passages"]) for r in both] == [
        ("alpha@1.0", 2, 2),
        ("beta@1.0", 2, 2),
    ]
    assert (
        cli.main(["search", "--json", "--library", "beta@1.0", "how does beta turn a frobnicator"])
        == 0
    )
    [first, *_] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first["id"] == "docs/guide"
