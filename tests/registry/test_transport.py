"""The network rules of `fetch`, with respx standing in for the registry: https only,
the registry's hosts only, redirects checked, digests checked, failures as one line."""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx
import pytest
import respx

from tests.helpers.fake_registry import sdist
from tui_assistant.registry.fetcher import Fetcher, Registries

INDEX = "https://pypi.example/simple"
FILES = "https://files.example/packages"


def page(filename: str, digest: str) -> dict[str, object]:
    return {
        "meta": {"api-version": "1.1"},
        "name": "shop",
        "files": [
            {"filename": filename, "url": f"{FILES}/{filename}", "hashes": {"sha256": digest}}
        ],
    }


@pytest.fixture
def fetcher(tmp_path: Path) -> Fetcher:
    made = Fetcher(tmp_path / "data", Registries(INDEX, "https://npm.example/"))
    yield made
    made.close()


def archive() -> tuple[str, bytes]:
    return sdist("shop", "1.0", {"README.md": "# shop\n\nCarts.\n", "docs/a.md": "# A\n\ntext\n"})


@respx.mock
def test_the_archive_comes_from_the_host_the_metadata_names(fetcher: Fetcher) -> None:
    filename, data = archive()
    respx.get(f"{INDEX}/shop/").respond(json=page(filename, hashlib.sha256(data).hexdigest()))
    respx.get(f"{FILES}/{filename}").respond(content=data)
    from tui_assistant.registry.specs import parse_spec

    result = fetcher.fetch(parse_spec("pypi:shop"))
    assert (result.status, result.library) == ("fetched", "shop@1.0")
    asked = respx.calls.last.request
    assert asked.headers["User-Agent"] == "tui-assistant-fetch"


@respx.mock
def test_a_redirect_on_the_registrys_host_is_followed_elsewhere_not(fetcher: Fetcher) -> None:
    from tui_assistant.registry.specs import parse_spec

    filename, data = archive()
    respx.get(f"{INDEX}/shop/").respond(
        302, headers={"Location": "https://pypi.example/simple2/shop/"}
    )
    respx.get("https://pypi.example/simple2/shop/").respond(
        json=page(filename, hashlib.sha256(data).hexdigest())
    )
    respx.get(f"{FILES}/{filename}").respond(
        302, headers={"Location": "https://cdn.evil.example/x.tar.gz"}
    )
    result = fetcher.fetch(parse_spec("pypi:shop"))
    assert result.status == "failed"
    assert result.detail == "files.example redirected to another host, cdn.evil.example"


@respx.mock
def test_a_redirect_down_to_plain_http_is_refused(fetcher: Fetcher) -> None:
    from tui_assistant.registry.specs import parse_spec

    respx.get(f"{INDEX}/shop/").respond(
        301, headers={"Location": "http://pypi.example/simple/shop/"}
    )
    result = fetcher.fetch(parse_spec("pypi:shop"))
    assert result.status == "failed" and "http" in (result.detail or "")


@respx.mock
def test_a_wrong_sha256_is_refused_before_unpacking(fetcher: Fetcher, tmp_path: Path) -> None:
    from tui_assistant.registry.specs import parse_spec

    filename, data = archive()
    respx.get(f"{INDEX}/shop/").respond(json=page(filename, "ab" * 32))
    respx.get(f"{FILES}/{filename}").respond(content=data)
    result = fetcher.fetch(parse_spec("pypi:shop"))
    assert result.detail == "shop-1.0.tar.gz's sha256 does not match the registry's: not unpacked"
    assert list((tmp_path / "data" / "fetched").iterdir()) == []


@respx.mock
def test_a_404_and_a_timeout_are_one_line_each(fetcher: Fetcher) -> None:
    from tui_assistant.registry.specs import parse_spec

    respx.get(f"{INDEX}/nothing/").respond(404)
    respx.get(f"{INDEX}/slow/").mock(side_effect=httpx.ReadTimeout("timed out"))
    missing = fetcher.fetch(parse_spec("pypi:nothing"))
    slow = fetcher.fetch(parse_spec("pypi:slow"))
    assert missing.detail == "not found on pypi.example (HTTP 404)"
    assert slow.detail == "pypi.example did not answer in time"


@respx.mock
def test_an_archive_url_over_plain_http_is_refused(fetcher: Fetcher) -> None:
    from tui_assistant.registry.specs import parse_spec

    respx.get(f"{INDEX}/shop/").respond(
        json={
            "files": [
                {
                    "filename": "shop-1.0.tar.gz",
                    "url": "http://files.example/shop-1.0.tar.gz",
                    "hashes": {"sha256": "00" * 32},
                }
            ]
        }
    )
    result = fetcher.fetch(parse_spec("pypi:shop"))
    assert result.status == "failed" and "https is required" in (result.detail or "")


@respx.mock
def test_npm_integrity_is_checked(fetcher: Fetcher) -> None:
    from tests.helpers.fake_registry import npm_tarball
    from tui_assistant.registry.specs import parse_spec

    filename, data = npm_tarball("lib", "1.0.0", {"README.md": "# lib\n\nA lib.\n"})
    respx.get("https://npm.example/lib").respond(
        json={
            "dist-tags": {"latest": "1.0.0"},
            "versions": {
                "1.0.0": {
                    "dist": {
                        "tarball": f"https://npm.example/lib/-/{filename}",
                        "integrity": "sha512-" + "A" * 86 + "==",
                    }
                }
            },
        }
    )
    respx.get(f"https://npm.example/lib/-/{filename}").respond(content=data)
    result = fetcher.fetch(parse_spec("npm:lib"))
    assert result.status == "failed" and "sha512 does not match" in (result.detail or "")


def test_proxies_come_from_the_environment() -> None:
    from tui_assistant.registry.transport import new_client

    with new_client() as client:
        assert client.trust_env is True


def test_ctrl_c_during_a_download_leaves_no_half_library(tmp_path: Path) -> None:
    from tests.helpers.fake_registry import FakeRegistry
    from tui_assistant.registry.specs import parse_spec

    with FakeRegistry() as registry:
        registry.add_sdist("shop", "1.0", {"README.md": "# shop\n\nCarts.\n"})
        fetcher = Fetcher(tmp_path / "data", Registries(registry.index_url, registry.npm_url))

        def interrupted(done: int, total: int | None) -> None:
            raise KeyboardInterrupt

        try:
            with pytest.raises(KeyboardInterrupt):
                fetcher.fetch(parse_spec("pypi:shop==1.0"), interrupted)
        finally:
            fetcher.close()
    assert list((tmp_path / "data" / "fetched").iterdir()) == []
