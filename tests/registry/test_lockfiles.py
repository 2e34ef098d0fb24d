"""A project's pinned dependencies, read from the files it already has."""

from __future__ import annotations

import json

import pytest

from tui_assistant.errors import LockfileError
from tui_assistant.registry.lockfiles import read_dependencies
from tui_assistant.registry.specs import PackageSpec


def pinned(filename: str, text: str) -> list[str]:
    return [str(spec) for spec in read_dependencies(filename, text).pinned]


def test_requirements_keep_exact_pins_and_list_the_rest() -> None:
    text = "\n".join(
        [
            "# tools",
            "requests==2.32.3",
            "Jinja2 == 3.1.4 ; python_version >= '3.8'",
            "rich[jupyter]==13.9.4 \\",
            "    --hash=sha256:abc",
            "attrs>=23",
            "-r other.txt",
            "-e .",
            "git+https://example.com/x.git",
            "httpx===0.27.2  # exact",
        ]
    )
    found = read_dependencies("requirements-dev.txt", text)
    assert [str(spec) for spec in found.pinned] == [
        "pypi:requests==2.32.3",
        "pypi:Jinja2==3.1.4",
        "pypi:rich==13.9.4",
        "pypi:httpx==0.27.2",
    ]
    assert found.unpinned == ("attrs>=23",)


def test_uv_lock_gives_the_projects_direct_dependencies() -> None:
    text = """
version = 1
[[package]]
name = "myapp"
version = "0.1.0"
source = { editable = "." }
dependencies = [{ name = "httpx" }, { name = "rich" }]

[[package]]
name = "httpx"
version = "0.28.1"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "rich"
version = "13.9.4"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "anyio"
version = "4.6.0"
source = { registry = "https://pypi.org/simple" }
"""
    assert pinned("uv.lock", text) == ["pypi:httpx==0.28.1", "pypi:rich==13.9.4"]


def test_poetry_lock_gives_every_locked_package() -> None:
    text = '[[package]]\nname = "attrs"\nversion = "24.2.0"\n\n[[package]]\nname = "six"\nversion = "1.16.0"\n'
    assert pinned("poetry.lock", text) == ["pypi:attrs==24.2.0", "pypi:six==1.16.0"]


def test_pyproject_gives_its_exact_pins() -> None:
    text = """
[project]
name = "x"
dependencies = ["httpx==0.28.1", "rich>=13"]
[project.optional-dependencies]
docs = ["sphinx==8.1.3"]
"""
    found = read_dependencies("pyproject.toml", text)
    assert [str(s) for s in found.pinned] == ["pypi:httpx==0.28.1", "pypi:sphinx==8.1.3"]
    assert found.unpinned == ("rich>=13",)


def test_package_lock_gives_the_roots_direct_dependencies_at_their_locked_versions() -> None:
    lock = {
        "lockfileVersion": 3,
        "packages": {
            "": {"dependencies": {"express": "^4.19.0"}, "devDependencies": {"@types/node": "^22"}},
            "node_modules/express": {"version": "4.21.1"},
            "node_modules/@types/node": {"version": "22.9.0"},
            "node_modules/accepts": {"version": "1.3.8"},
        },
    }
    assert pinned("package-lock.json", json.dumps(lock)) == [
        "npm:express@4.21.1",
        "npm:@types/node@22.9.0",
    ]


def test_package_json_gives_exact_versions_only() -> None:
    package = {"dependencies": {"lodash": "4.17.21", "axios": "^1.7.0", "chalk": "=5.3.0"}}
    found = read_dependencies("package.json", json.dumps(package))
    assert found.pinned == (
        PackageSpec("npm", "lodash", "4.17.21"),
        PackageSpec("npm", "chalk", "5.3.0"),
    )
    assert found.unpinned == ("axios@^1.7.0",)


@pytest.mark.parametrize(
    ("filename", "text", "said"),
    [
        ("uv.lock", "[[package]\nname=", "not valid TOML"),
        ("package.json", "{nope", "not valid JSON"),
        ("Gemfile.lock", "", "not a file dependencies are read from"),
    ],
)
def test_a_file_that_cannot_be_read_is_one_line(filename: str, text: str, said: str) -> None:
    with pytest.raises(LockfileError, match=said) as raised:
        read_dependencies(filename, text)
    assert "\n" not in str(raised.value)


def test_what_no_index_has_is_listed_with_why_not_skipped_in_silence() -> None:
    text = "\n".join(
        [
            "requests==2.32.3",
            "-e ./localpkg",
            "--editable git+https://example.com/repo.git#egg=repo",
            "./vendor/pkg",
            "file:///srv/wheels/thing-1.0.tar.gz",
            "https://example.com/thing-1.0.tar.gz",
            "mylib @ file:///src/mylib",
            "other @ git+https://example.com/other.git@v1",
            "-r base.txt",
            "--index-url https://pypi.example/simple",
        ]
    )
    found = read_dependencies("requirements.txt", text)
    assert [str(spec) for spec in found.pinned] == ["pypi:requests==2.32.3"]
    assert [(item.text, item.why) for item in found.local] == [
        ("-e ./localpkg", "an editable install, not a release on an index"),
        (
            "--editable git+https://example.com/repo.git#egg=repo",
            "an editable install, not a release on an index",
        ),
        ("./vendor/pkg", "a local path, not a release on an index"),
        ("file:///srv/wheels/thing-1.0.tar.gz", "a local path, not a release on an index"),
        ("https://example.com/thing-1.0.tar.gz", "a URL, not a release on an index"),
        (
            "mylib @ file:///src/mylib",
            "a direct reference to a URL or path, not a release on an index",
        ),
        (
            "other @ git+https://example.com/other.git@v1",
            "a direct reference to a URL or path, not a release on an index",
        ),
        ("-r base.txt", "another requirements file: give it to --from on its own"),
    ]
    assert found.unpinned == ()


def test_pipfile_lock_gives_default_and_develop_pins_and_lists_local_ones() -> None:
    lock = {
        "_meta": {"hash": {"sha256": "x"}},
        "default": {
            "requests": {"version": "==2.32.3", "hashes": ["sha256:abc"]},
            "mine": {"path": ".", "editable": True},
            "forked": {"git": "https://example.com/forked.git", "ref": "abc123"},
        },
        "develop": {"pytest": {"version": "==8.3.3"}, "loose": {"version": "*"}},
    }
    found = read_dependencies("Pipfile.lock", json.dumps(lock))
    assert [str(spec) for spec in found.pinned] == ["pypi:requests==2.32.3", "pypi:pytest==8.3.3"]
    assert [item.text for item in found.local] == [
        "mine (path: .)",
        "forked (git: https://example.com/forked.git)",
    ]
    assert found.unpinned == ("loose*",)
