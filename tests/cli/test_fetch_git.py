"""`tui-assistant fetch git+…@REF`: one ref of a repository as the library REPO@REF, from
a local bare repository (`git+file://`) and from dulwich's own server on loopback
(`git+http://127.0.0.1:PORT/…`); hostile repositories bounded or refused with one line,
nothing run, nothing written outside the data folder; and a registry release without
docs naming its repository's spec to try."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.fake_registry import FakeRegistry
from tests.helpers.git_repos import LFS_POINTER, GitRepo, Link, Submodule, serve
from tui_assistant import cli


def two_releases(path: Path) -> GitRepo:
    repo = GitRepo(path)
    repo.commit(
        {
            "README.md": b"# Kit\n\nA configuration kit.\n",
            "docs/settings.md": b"# Settings file\n\nKit 1 reads its settings from kit.ini in the home folder.\n",
        },
        tag="v1.0",
    )
    repo.commit(
        {
            "README.md": b"# Kit\n\nA configuration kit.\n",
            "docs/settings.md": b"# Settings file\n\nKit 2 reads its settings from kit.toml in the project folder.\n",
        },
        tag="v2.0",
        branch="release/2",
    )
    return repo


def fetch_json(
    capsys: pytest.CaptureFixture[str], *args: str, code: int = 0
) -> list[dict[str, Any]]:
    assert cli.main(["fetch", "--json", *args]) == code
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def files_outside(root: Path, data: Path) -> dict[str, bytes]:
    return {
        str(p): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and not p.is_relative_to(data)
    }


def test_two_tags_are_two_libraries_whose_docs_differ(
    clean_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = two_releases(tmp_path / "kit.git")
    url = f"git+file://{repo.path}"
    results = fetch_json(capsys, f"{url}@v1.0", f"{url}@release/2")
    assert [(r["library"], r["status"], r["package"], r["version"]) for r in results] == [
        ("kit@v1.0", "fetched", "kit", "v1.0"),
        ("kit@release-2", "fetched", "kit", "release-2"),
    ]
    metadata = json.loads((clean_env / "fetched" / "kit@v1.0" / ".fetched.json").read_text())
    assert metadata["origin"] == "git" and metadata["registry"] == "git"
    assert metadata["url"] == f"file://{repo.path}" and metadata["ref"] == "v1.0"
    assert len(metadata["commit"]) == 40
    answers = {}
    for library in ("kit@v1.0", "kit@release-2"):
        assert (
            cli.main(
                [
                    "ask",
                    "--json",
                    "--library",
                    library,
                    "where does kit read its settings file from?",
                ]
            )
            == 0
        )
        answers[library] = json.loads(capsys.readouterr().out)
    assert "kit.ini" in answers["kit@v1.0"]["answer"]
    assert "kit.toml" in answers["kit@release-2"]["answer"]
    [again] = fetch_json(capsys, f"{url}@v1.0")
    assert (again["status"], again["library"]) == ("present", "kit@v1.0")


def hostile_repo(path: Path, marker: Path) -> GitRepo:
    repo = GitRepo(path)
    repo.add_hooks(marker)
    repo.commit(
        {
            ".gitmodules": b'[submodule "theme"]\n\tpath = docs/theme\n\turl = https://example.com/theme.git\n',
            ".githooks/post-checkout": b"#!/bin/sh\ntouch " + str(marker).encode() + b"\n",
            "README.md": b"# Traps\n\nA repository of traps.\n",
            "docs/guide.md": b"# Guide\n\nThe one honest page about traps.\n",
            "docs/big.md": b"# Big\n\n" + b"many words " * (2 << 20),  # 22 MiB
            "docs/video.md": LFS_POINTER,
            "docs/passwd.md": Link("../../../etc/passwd"),
            "docs/theme": Submodule(),
        },
        tag="v1",
    )
    return repo


@pytest.mark.parametrize("over", ["file", "http"])
def test_a_hostile_repository_is_bounded_with_one_line_each_and_runs_nothing(
    over: str, clean_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "a-hook-ran"
    repo = hostile_repo(tmp_path / "traps.git", marker)
    before = files_outside(tmp_path, clean_env)
    if over == "file":
        assert cli.main(["fetch", "--json", f"git+file://{repo.path}@v1"]) == 0
    else:
        with serve({"/traps.git": repo}) as server:
            assert cli.main(["fetch", "--json", f"git+{server.base}/traps.git@v1"]) == 0
    out, err = capsys.readouterr()
    [result] = [json.loads(line) for line in out.splitlines()]
    assert (result["library"], result["status"], result["documents"]) == ("traps@v1", "fetched", 2)
    folder = clean_env / "fetched" / "traps@v1"
    kept = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if not p.is_dir())
    assert kept == [".fetched.json", "README.md", "docs/guide.md"]
    lines = err.splitlines()
    assert "left out traps@v1: docs/big.md: 22 MiB, over the 20 MiB cap, left out" in lines
    assert (
        "left out traps@v1: docs/video.md: a Git LFS pointer (the file is kept elsewhere), left out"
        in lines
    )
    assert (
        "left out traps@v1: docs/passwd.md: a symbolic link out of the repository (../../../etc/passwd), refused"
        in lines
    )
    assert (
        "left out traps@v1: docs/theme: a submodule (https://example.com/theme.git), not fetched"
        in lines
    )
    assert len(lines) == 4
    assert not marker.exists()
    assert files_outside(tmp_path, clean_env) == before


@pytest.fixture
def kit_server(tmp_path: Path) -> Iterator[Any]:
    with serve({"/kit.git": two_releases(tmp_path / "kit.git")}) as server:
        yield server


def test_over_http_a_subdirectory_is_the_library_and_the_transport_rules_hold(
    kit_server: Any, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    [result] = fetch_json(capsys, f"git+{kit_server.base}/kit.git@v2.0#subdirectory=docs")
    assert (result["library"], result["status"], result["documents"]) == ("kit@v2.0", "fetched", 1)
    assert not (clean_env / "fetched" / "kit@v2.0" / "README.md").exists()

    kit_server.routes["/moved.git/"] = (
        "302 Found",
        [("Location", "https://evil.example/kit.git/info/refs?service=git-upload-pack")],
        b"",
    )
    kit_server.routes["/plain.git/"] = (
        "200 OK",
        [("Content-Type", "text/plain")],
        b"abc\trefs/heads/main\n",
    )
    moved, plain, missing = fetch_json(
        capsys,
        f"git+{kit_server.base}/moved.git@v1",
        f"git+{kit_server.base}/plain.git@v1",
        f"git+{kit_server.base}/kit.git@v9",
        code=1,
    )
    assert "redirected to another host, evil.example" in moved["detail"]
    assert "does not speak git's smart HTTP protocol" in plain["detail"]
    assert missing["detail"] == "no tag or branch v9 in the repository (tags: v1.0, v2.0)"
    assert all(r["status"] == "failed" and r["library"] is None for r in (moved, plain, missing))
    assert sorted(p.name for p in (clean_env / "fetched").iterdir()) == ["kit@v2.0"]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("git+https://github.com/encode/httpx", "no @REF after the repository"),
        ("git+http://example.com/encode/httpx@1", "https is required"),
        (
            "git+https://me:token@github.com/encode/httpx@1",
            "must not contain a user name or password",
        ),
    ],
)
def test_a_bad_repository_spec_is_a_usage_error_before_any_network(
    spec: str, words: str, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["fetch", spec]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "token" not in err


@pytest.fixture
def registry(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeRegistry]:
    with FakeRegistry() as fake:
        monkeypatch.setenv("TUI_ASSISTANT_PYPI_INDEX_URL", fake.index_url)
        monkeypatch.setenv("TUI_ASSISTANT_NPM_REGISTRY", fake.npm_url)
        yield fake


def test_a_release_without_docs_names_its_repository_and_does_not_clone_it(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    pkg_info = (
        "Metadata-Version: 2.1\nName: plain\nVersion: 2.0\nHome-page: https://plain.example.com\n"
        "Project-URL: Source, https://github.com/acme/plain\n\nThe long description.\n"
    )
    registry.add_sdist(
        "plain", "2.0", {"README.rst": "plain\n=====\n\nOnly a README.\n", "PKG-INFO": pkg_info}
    )
    registry.add_npm(
        "leftpad",
        "1.3.0",
        {
            "README.md": "# leftpad\n\nPads.\n",
            "package.json": '{"repository": "github:acme/leftpad"}',
        },
    )
    registry.add_sdist("bare", "1.0", {"README.md": "# bare\n"})
    plain, leftpad, bare = fetch_json(
        capsys, "pypi:plain==2.0", "npm:leftpad@1.3.0", "pypi:bare==1.0"
    )
    assert plain["status"] == "no_docs" and plain["detail"].endswith(
        "; its repository may have them: try fetch git+https://github.com/acme/plain@2.0 (or @v2.0)"
    )
    assert leftpad["detail"].endswith(
        "try fetch git+https://github.com/acme/leftpad@v1.3.0 (or @1.3.0)"
    )
    assert "repository" not in bare["detail"]
    assert all(path.startswith(("/simple/", "/npm/", "/files/")) for path in registry.requests)
    assert cli.main(["fetch", "pypi:plain==2.0"]) == 0  # present: no hint asked for again
