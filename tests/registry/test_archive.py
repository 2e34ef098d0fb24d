"""Unpacking a release's archive as hostile input: only documents and sources kept,
the whole archive refused for what no honest release holds, nothing outside the
target ever written, nothing run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.fake_registry import Member, tar_of, zip_of
from tui_assistant.errors import ArchiveError
from tui_assistant.registry.archive import Limits, keep_path, unpack

DOCSTRING = '"""Tools."""\n\n\ndef run(app):\n    """Run the app on the built-in server."""\n'


def unpacked(
    tmp_path: Path,
    members: list[Member],
    name: str = "pkg-1.0.tar.gz",
    limits: Limits | None = None,
    python: bool = True,
) -> tuple[Path, tuple[str, ...]]:
    archive = tmp_path / name
    archive.write_bytes(zip_of(members) if name.endswith(".zip") else tar_of(members))
    target = tmp_path / "library"
    target.mkdir()
    result = unpack(archive, name, target, python, limits or Limits())
    return target, result.files


def files_under(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


def test_a_release_keeps_its_docs_readme_changelog_and_documented_source(tmp_path: Path) -> None:
    target, kept = unpacked(
        tmp_path,
        [
            Member("pkg-1.0/README.md", b"# pkg\n\nA package.\n"),
            Member("pkg-1.0/CHANGES.rst", b"Changes\n=======\n\n1.0: first.\n"),
            Member("pkg-1.0/docs/guide.rst", b"Guide\n=====\n\nHow to.\n"),
            Member("pkg-1.0/docs/conf.py", b"project = 'pkg'\n"),
            Member("pkg-1.0/docs/logo.png", b"\x89PNG"),
            Member("pkg-1.0/src/pkg/cli.py", DOCSTRING.encode()),
            Member("pkg-1.0/src/pkg/_private.py", b"x = 1\n"),
            Member("pkg-1.0/tests/test_cli.py", DOCSTRING.encode()),
            Member("pkg-1.0/setup.py", b"import os; os.system('echo owned')\n"),
            Member("pkg-1.0/.github/notes.md", b"# hidden\n\ntext\n"),
        ],
    )
    assert files_under(target) == ["CHANGES.rst", "README.md", "docs/guide.rst", "src/pkg/cli.py"]
    assert sorted(kept) == files_under(target)


def test_a_docs_build_s_theme_static_files_and_requirements_are_left_out(
    tmp_path: Path,
) -> None:
    target, _ = unpacked(
        tmp_path,
        [
            Member("babel-2.0/docs/index.rst", b"Babel\n=====\n\nDates.\n"),
            Member("babel-2.0/docs/api/dates.rst", b"Dates\n=====\n\nFormat.\n"),
            Member("babel-2.0/docs/_themes/babel/layout.html", b"{% block body %}{% endblock %}"),
            Member("babel-2.0/docs/_templates/sidebar-logo.html", b"<img src='logo.png'>"),
            Member("babel-2.0/docs/_static/logo.pdf", b"%PDF-1.4\n"),
            Member("babel-2.0/docs/requirements.txt", b"sphinx~=5.3\n"),
            Member("babel-2.0/docs/notes.txt", b"Plain notes.\n"),
        ],
        python=False,
    )
    assert files_under(target) == ["docs/api/dates.rst", "docs/index.rst", "docs/notes.txt"]


def test_a_package_s_re_exports_and_the_private_modules_they_name_are_kept(
    tmp_path: Path,
) -> None:
    init = b"from structlog._config import configure\n\n__all__ = ['configure']\n"
    config = b'def configure(processors=None):\n    """Configure the global defaults."""\n'
    compat = b'def text_type(value):\n    """Text on every Python."""\n'
    target, _ = unpacked(
        tmp_path,
        [
            Member("structlog-1.0/src/structlog/__init__.py", init),
            Member("structlog-1.0/src/structlog/_config.py", config),
            Member("structlog-1.0/src/structlog/_compat.py", compat),  # imported by none
            Member(
                "structlog-1.0/src/structlog/_utils.py",
                b"def until_not_interrupted(f):\n    pass\n",
            ),
            Member(
                "structlog-1.0/src/structlog/_empty/__init__.py",
                b"from __future__ import annotations\n",
            ),
        ],
    )
    assert files_under(target) == ["src/structlog/__init__.py", "src/structlog/_config.py"]


def test_npm_keeps_no_source_but_its_docs(tmp_path: Path) -> None:
    target, _ = unpacked(
        tmp_path,
        [
            Member("package/README.md", b"# lib\n\ntext\n"),
            Member("package/index.js", b"module.exports = 1\n"),
            Member("package/tool.py", DOCSTRING.encode()),
            Member("package/website/docs/api.md", b"# API\n\ntext\n"),
        ],
        name="lib-1.0.0.tgz",
        python=False,
    )
    assert files_under(target) == ["README.md", "website/docs/api.md"]


@pytest.mark.parametrize(
    ("member", "said"),
    [
        (Member("/etc/cron.d/evil", b"x"), "absolute path"),
        (Member("pkg-1.0/../../evil.md", b"# x\n\ny\n"), "'..'"),
        (Member("pkg-1.0/docs/dev.md", kind="device"), "device or pipe"),
        (Member("pkg-1.0/docs/pipe.md", kind="fifo"), "device or pipe"),
    ],
)
def test_a_hostile_entry_refuses_the_whole_archive_writing_nothing(
    tmp_path: Path, member: Member, said: str
) -> None:
    with pytest.raises(ArchiveError, match=said) as raised:
        unpacked(tmp_path, [Member("pkg-1.0/README.md", b"# ok\n\ntext\n"), member])
    assert "\n" not in str(raised.value)
    assert not (tmp_path.parent / "evil.md").exists()
    assert not (tmp_path / "evil.md").exists()


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
def test_links_are_never_made_nor_followed(tmp_path: Path, kind: str) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's secret\n")
    target, kept = unpacked(
        tmp_path,
        [
            Member("pkg-1.0/README.md", b"# ok\n\ntext\n"),
            Member("pkg-1.0/docs/secret.md", kind=kind, target=str(secret)),
            Member("pkg-1.0/docs/up.md", kind=kind, target="../../../secret.txt"),
        ],
    )
    assert kept == ("README.md",)
    assert not any(path.is_symlink() for path in target.rglob("*"))
    assert "secret" not in "".join(path.read_text() for path in target.rglob("*.md"))


def test_a_zip_symlink_is_left_out(tmp_path: Path) -> None:
    target, kept = unpacked(
        tmp_path,
        [
            Member("pkg-1.0/README.md", b"# ok\n\ntext\n"),
            Member("pkg-1.0/docs/passwd.md", kind="symlink", target="/etc/passwd"),
        ],
        name="pkg-1.0.zip",
    )
    assert kept == ("README.md",)
    assert files_under(target) == ["README.md"]


def test_too_many_entries_stop_with_one_line(tmp_path: Path) -> None:
    members = [Member(f"pkg-1.0/docs/p{i}.md", b"# p\n\nx\n") for i in range(30)]
    with pytest.raises(ArchiveError, match="more than 20 entries"):
        unpacked(tmp_path, members, limits=Limits(members=20))


def test_a_decompression_bomb_stops_before_it_is_inflated(tmp_path: Path) -> None:
    # 32 MiB of zeros compress to a few dozen KiB: the cap counts what they expand to.
    bomb = [
        Member("pkg-1.0/README.md", b"# ok\n\ntext\n"),
        Member("pkg-1.0/docs/z.txt", bytes(32 << 20)),
    ]
    archive = tar_of(bomb)
    assert len(archive) < 200_000
    with pytest.raises(ArchiveError, match="decompression bomb"):
        unpacked(tmp_path, bomb, limits=Limits(expanded_bytes=8 << 20))
    assert files_under(tmp_path / "library") in ([], ["README.md"])


def test_a_zip_bomb_stops_too(tmp_path: Path) -> None:
    bomb = [Member("pkg-1.0/docs/z.txt", bytes(32 << 20))]
    with pytest.raises(ArchiveError, match="decompression bomb"):
        unpacked(tmp_path, bomb, name="pkg-1.0.zip", limits=Limits(expanded_bytes=8 << 20))


def test_a_file_over_the_cap_is_left_out_and_the_rest_kept(tmp_path: Path) -> None:
    target, kept = unpacked(
        tmp_path,
        [
            Member("pkg-1.0/README.md", b"# ok\n\ntext\n"),
            Member("pkg-1.0/docs/huge.md", b"# big\n\n" + b"x" * 5000),
        ],
        limits=Limits(file_bytes=1000),
    )
    assert kept == ("README.md",)
    assert files_under(target) == ["README.md"]


def test_not_an_archive_is_one_line(tmp_path: Path) -> None:
    archive = tmp_path / "pkg-1.0.tar.gz"
    archive.write_bytes(b"<html>not a tarball</html>")
    (tmp_path / "t").mkdir()
    with pytest.raises(ArchiveError, match="not a readable tar archive"):
        unpack(archive, archive.name, tmp_path / "t", True, Limits())


def test_nothing_in_the_archive_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    payload = f"open({str(marker)!r}, 'w').write('x')\n".encode()
    unpacked(
        tmp_path,
        [
            Member("pkg-1.0/setup.py", payload),
            Member("pkg-1.0/src/pkg/__init__.py", b'"""Pkg."""\n' + payload),
            Member("pkg-1.0/README.md", b"# ok\n\ntext\n"),
        ],
    )
    assert not marker.exists()
    assert not os.path.exists(marker)


@pytest.mark.parametrize(
    ("path", "python", "kept"),
    [
        ("docs/index.md", False, True),
        ("doc/api.rst", False, True),
        ("documentation/guide.html", False, True),
        ("website/docs/intro.md", False, True),
        ("docs/conf.py", True, False),
        ("README.rst", False, True),
        ("CHANGELOG.md", False, True),
        ("HISTORY.txt", False, True),
        ("pkg/core.py", True, True),
        ("pkg/core.py", False, False),
        ("tests/test_core.py", True, False),
        ("pkg/tests/test_core.py", True, False),
        ("setup.py", True, False),
        ("lib/index.js", False, False),
        ("notes/README.md", False, False),
        ("docs/_static/logo.pdf", False, False),
        ("docs/_themes/babel/layout.html", False, False),
        ("docs/_templates/sidebar.html", False, False),
        ("doc/requirements-docs.txt", False, False),
    ],
)
def test_which_files_are_kept(path: str, python: bool, kept: bool) -> None:
    assert keep_path(path, python) is kept
