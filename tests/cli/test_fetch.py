"""`tui-assistant fetch` against a fake index and registry on loopback serving real
archives: libraries named NAME@VERSION, kept offline, side by side, and used by name."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.fake_registry import FakeRegistry
from tui_assistant import cli

SHOP_SOURCE = '''"""The shop: carts and checkout."""


def checkout(cart, *, coupon=None):
    """Charge the cart's total, less the coupon, and empty the cart."""


class Cart:
    """Items a customer means to buy."""

    def add(self, item, quantity=1):
        """Put `quantity` of `item` in the cart."""
'''


def shop_files(version: str, extra: str = "") -> dict[str, str]:
    return {
        "README.md": f"# shop\n\nCarts and checkout, version {version}.\n",
        "CHANGES.md": f"# Changes\n\n## {version}\n\nReleased.\n",
        "docs/refunds.md": f"# Refunds\n\nRefunds in shop {version} go back to the card. {extra}\n",
        "src/shop/__init__.py": SHOP_SOURCE,
        "tests/test_shop.py": '"""Tests."""\n',
        "setup.py": "raise SystemExit('never run')\n",
    }


@pytest.fixture
def registry(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeRegistry]:
    with FakeRegistry() as fake:
        monkeypatch.setenv("TUI_ASSISTANT_PYPI_INDEX_URL", fake.index_url)
        monkeypatch.setenv("TUI_ASSISTANT_NPM_REGISTRY", fake.npm_url)
        yield fake


def fetch_json(
    capsys: pytest.CaptureFixture[str], *args: str, code: int = 0
) -> list[dict[str, Any]]:
    assert cli.main(["fetch", "--json", *args]) == code
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_release_becomes_the_library_name_at_version_with_its_api_reference(
    registry: FakeRegistry, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.add_sdist("shop", "1.0", shop_files("1.0"))
    [result] = fetch_json(capsys, "pypi:shop==1.0")
    assert set(result) == {
        "spec",
        "library",
        "package",
        "version",
        "status",
        "documents",
        "passages",
        "detail",
        "origin",
        "fetched_at",
    }
    assert (result["spec"], result["library"], result["status"]) == (
        "pypi:shop==1.0",
        "shop@1.0",
        "fetched",
    )
    assert result["origin"] == "pypi" and result["fetched_at"].endswith("+00:00")
    folder = clean_env / "fetched" / "shop@1.0"
    kept = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert kept == [
        ".fetched.json",
        "CHANGES.md",
        "README.md",
        "docs/refunds.md",
        "src/shop/__init__.py",
    ]
    metadata = json.loads((folder / ".fetched.json").read_text())
    assert metadata["package"] == "shop" and metadata["version"] == "1.0"
    assert metadata["registry"] == "pypi" and len(metadata["sha256"]) == 64
    assert metadata["archive_url"].endswith("/files/shop-1.0.tar.gz")

    assert cli.main(["passages", "--json", "--library", "shop@1.0"]) == 0
    rows = json.loads(capsys.readouterr().out)
    titles = {row["title"]: row for row in rows}
    assert "shop.checkout(cart, *, coupon=None)" in titles
    assert (
        titles["shop.checkout(cart, *, coupon=None)"]["source_path"]
        == "shop@1.0/src/shop/__init__.py"
    )
    assert result["passages"] == len(rows)


def test_a_fetched_library_is_read_offline_and_a_second_fetch_is_present(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.add_sdist("shop", "1.0", shop_files("1.0"))
    fetch_json(capsys, "pypi:shop==1.0")
    asked = len(registry.requests)
    [again] = fetch_json(capsys, "pypi:shop==1.0")
    assert again["status"] == "present" and again["library"] == "shop@1.0"
    assert cli.main(["ask", "--json", "--library", "shop", "where do refunds go?"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["outcome"] == "answered" and answer["passage_id"] == "docs/refunds"
    assert len(registry.requests) == asked  # nothing asked of the network


def test_versions_side_by_side_are_two_libraries_and_a_bare_name_is_the_newest(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.add_sdist("shop", "1.10", shop_files("1.10"))
    registry.add_sdist("shop", "1.9", shop_files("1.9"))
    [newest] = fetch_json(capsys, "pypi:shop")
    assert newest["library"] == "shop@1.10"
    fetch_json(capsys, "pypi:shop==1.9")
    assert cli.main(["status", "--json", "--library", "shop", "--library", "shop@1.9"]) == 0
    status = json.loads(capsys.readouterr().out)["libraries"]
    assert [(s["name"], s["package"], s["version"]) for s in status] == [
        ("shop@1.10", "shop", "1.10"),
        ("shop@1.9", "shop", "1.9"),
    ]
    assert all(s["origin"] == "pypi" and s["fetched_at"] for s in status)
    assert cli.main(["passages", "--json", "--library", "shop@1.9", "--library", "shop@1.10"]) == 0
    ids = [row["id"] for row in json.loads(capsys.readouterr().out)]
    assert "shop@1.9:docs/refunds" in ids and "shop@1.10:docs/refunds" in ids


def test_from_a_requirements_file_each_pin_says_what_became_of_it(
    registry: FakeRegistry, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.add_sdist("shop", "1.0", shop_files("1.0"))
    registry.add_sdist("plain", "2.0", {"README.rst": "plain\n=====\n\nOnly a README.\n"})
    registry.add_npm(
        "leftpad",
        "1.3.0",
        {
            "README.md": "# leftpad\n\nPads strings.\n",
            "docs/api.md": "# API\n\nleftpad(str, len) pads.\n",
        },
    )
    requirements = clean_env.parent / "requirements.txt"
    requirements.write_text("shop==1.0\nplain==2.0\nmissing==0.1\nloose>=1\n")
    assert cli.main(["fetch", "--json", "--from", str(requirements)]) == 1
    out, err = capsys.readouterr()
    results = [json.loads(line) for line in out.splitlines()]
    assert "not pinned, not fetched: loose>=1" in err
    assert [(r["package"], r["status"]) for r in results] == [
        ("shop", "fetched"),
        ("plain", "no_docs"),
        ("missing", "failed"),
    ]
    assert "404" in results[2]["detail"]
    assert (
        "no documentation folder" in results[1]["detail"] and results[1]["library"] == "plain@2.0"
    )
    [npm] = fetch_json(capsys, "npm:leftpad")
    assert (npm["library"], npm["status"], npm["documents"]) == ("leftpad@1.3.0", "fetched", 2)


def test_a_wrong_sha256_unpacks_nothing_and_leaves_no_half_library(
    registry: FakeRegistry, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.wrong_digest.add("shop-1.0.tar.gz")
    registry.add_sdist("shop", "1.0", shop_files("1.0"))
    [result] = fetch_json(capsys, "pypi:shop==1.0", code=1)
    assert result["status"] == "failed" and "sha256 does not match" in result["detail"]
    assert [p.name for p in (clean_env / "fetched").iterdir()] == []


def test_a_redirect_to_another_host_is_not_followed(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers.fake_registry import Route

    registry.routes["/simple/shop/"] = Route(
        302, headers={"Location": "https://evil.example/simple/shop/"}
    )
    [result] = fetch_json(capsys, "pypi:shop", code=1)
    assert result["status"] == "failed"
    assert "redirected to another host, evil.example" in result["detail"]


def test_readable_lines_and_usage_errors(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    registry.add_sdist("shop", "1.0", shop_files("1.0"))
    assert cli.main(["fetch", "pypi:shop==1.0"]) == 0
    assert capsys.readouterr().out.startswith("fetched shop@1.0: 4 documents, 7 passages")
    assert cli.main(["fetch", "pip:shop"]) == 2
    assert "SPEC 'pip:shop'" in capsys.readouterr().err
    assert cli.main(["fetch"]) == 2
    assert "--from FILE" in capsys.readouterr().err
    monkeypatch.setenv("TUI_ASSISTANT_PYPI_INDEX_URL", "http://pypi.example/simple")
    assert cli.main(["fetch", "pypi:shop"]) == 2
    assert "TUI_ASSISTANT_PYPI_INDEX_URL: https is required" in capsys.readouterr().err


def test_a_question_naming_a_function_answers_from_its_api_reference(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.add_sdist("shop", "1.0", shop_files("1.0"))
    fetch_json(capsys, "pypi:shop==1.0")
    assert cli.main(["ask", "--json", "--library", "shop", "what does Cart.add do?"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["outcome"] == "answered"
    assert answer["title"] == "shop.Cart.add(item, quantity=1)"
    assert answer["source_path"] == "shop@1.0/src/shop/__init__.py"


HOSTILE = {
    "absolute path": ([("/etc/evil.md", "file", "")], "absolute path"),
    "dot-dot": ([("shop-1.0/../../evil.md", "file", "")], "'..'"),
    "device": ([("shop-1.0/docs/dev.md", "device", "")], "device or pipe"),
    "too many files": ([(f"shop-1.0/docs/p{i}.md", "file", "") for i in range(40)], "more than 30"),
    "bomb": ([("shop-1.0/docs/zeros.txt", "zeros", "")], "decompression bomb"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_archive_served_by_the_index_is_refused_and_leaves_nothing(
    case: str,
    registry: FakeRegistry,
    clean_env: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.helpers.fake_registry import Member, tar_of
    from tui_assistant.registry import fetcher

    small = fetcher.Limits(members=30, expanded_bytes=4 << 20)
    monkeypatch.setattr(fetcher, "Limits", lambda: small)
    entries, said = HOSTILE[case]
    members = [Member("shop-1.0/README.md", b"# shop\n\nCarts.\n")]
    for name, kind, target in entries:
        if kind == "zeros":
            members.append(Member(name, bytes(16 << 20)))
        else:
            members.append(Member(name, b"# x\n\ny\n", kind=kind, target=target))
    registry.add_pypi_archive("shop", "shop-1.0.tar.gz", tar_of(members))
    [result] = fetch_json(capsys, "pypi:shop==1.0", code=1)
    assert result["status"] == "failed" and said in result["detail"]
    assert list((clean_env / "fetched").iterdir()) == []
    assert not (clean_env.parent / "evil.md").exists()
