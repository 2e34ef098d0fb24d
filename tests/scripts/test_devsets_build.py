"""The development-set builder reads a downloaded archive into eval/<name>/: the files its
row of the table keeps, under the names it gives, and a licence file naming the source."""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

import pytest

from scripts.devsets import build
from scripts.devsets.sources import TREES


def write_tar(path: Path, files: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            tar.addfile(info)
    return path


def write_deb(path: Path, files: dict[str, bytes]) -> Path:
    """A Debian package: an `ar` archive holding `data.tar.gz`."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo("./" + name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    out = bytearray(b"!<arch>\n")
    for name, content in (("debian-binary", b"2.0\n"), ("data.tar.gz", data.getvalue())):
        out += f"{name:<16}{0:<12}{0:<6}{0:<6}{'100644':<8}{len(content):<10}`\n".encode()
        out += content + (b"\n" if len(content) % 2 else b"")
    path.write_bytes(bytes(out))
    return path


def tree_files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file()
    }


def run(tmp_path: Path, *args: str) -> int:
    return build.main(["--downloads", str(tmp_path), "--eval", str(tmp_path / "eval"), *args])


def test_an_sdist_keeps_the_docs_and_source_its_row_names(tmp_path: Path) -> None:
    top = "attrs-26.1.0/"
    kept = {
        "README.md": b"# attrs\n",
        "CHANGELOG.md": b"# Changelog\n",
        "docs/overview.md": b"# Overview\n",
        "docs/api.rst": b"API\n===\n",
        "src/attr/_make.py": b'"""Make classes."""\n',
    }
    dropped = {
        "docs/conf.py": b"",
        "docs/deep/page.md": b"# deep\n",
        "src/attr/__init__.pyi": b"",
        "tests/test_make.py": b"",
        "changelog.d/1.change.md": b"",
    }
    write_tar(
        tmp_path / "attrs-26.1.0.tar.gz",
        {
            **{top + path: data for path, data in {**kept, **dropped}.items()},
            top + "PKG-INFO": b"Name: attrs\nVersion: 26.1.0\n",
            top + "LICENSE": b"The MIT License (MIT)\n",
        },
    )
    assert run(tmp_path, "attrs-docs") == 0
    assert tree_files(tmp_path / "eval" / "attrs-docs") == kept
    licence = (tmp_path / "eval" / "attrs-docs.LICENSE").read_text()
    first, text = licence.split("\n\n", 1)
    assert first.startswith("Extracted from the PyPI package attrs 26.1.0 (")
    assert "`python -m scripts.devsets.build attrs-docs`" in first
    assert text == "The MIT License (MIT)\n"


def test_a_linked_page_is_read_as_the_file_it_links_to(tmp_path: Path) -> None:
    top = "nox-2026.10.20/"
    write_tar(
        tmp_path / "nox-2026.10.20.tar.gz",
        {
            top + "PKG-INFO": b"Version: 2026.10.20\n",
            top + "LICENSE": b"Apache License\n",
            top + "CONTRIBUTING.md": b"# Contributing\n",
            top + "CHANGELOG.md": b"# Changelog\n",
            top + "docs/usage.rst": b"Usage\n=====\n",
            top + "docs/requirements.txt": b"sphinx\n",
        },
        links={top + "docs/CONTRIBUTING.md": "../CONTRIBUTING.md"},
    )
    assert run(tmp_path, "nox-small") == 0
    assert tree_files(tmp_path / "eval" / "nox-small") == {
        "usage.rst": b"Usage\n=====\n",
        "CONTRIBUTING.md": b"# Contributing\n",
    }


def test_a_debian_package_gives_its_page_decompressed(tmp_path: Path) -> None:
    pdf = b"%PDF-1.4 the standard\n"
    copyright_text = (
        "Format: x\n\nFiles: *\nLicense: GPL\n\nFiles:\n fhs-3.0*\nLicense: GFDL\n\n"
        "Files: other\nLicense: MIT\n"
    )
    write_deb(
        tmp_path / "debian-policy_4.6.2.0_all.deb",
        {
            "usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz": gzip.compress(pdf),
            "usr/share/doc/debian-policy/policy.pdf.gz": gzip.compress(b"other"),
            "usr/share/doc/debian-policy/copyright": copyright_text.encode(),
        },
    )
    assert run(tmp_path, "fhs-pdf") == 0
    assert tree_files(tmp_path / "eval" / "fhs-pdf") == {"fhs-3.0.pdf": pdf}
    licence = (tmp_path / "eval" / "fhs-pdf.LICENSE").read_text()
    assert licence.split("\n\n", 1)[1] == "Files:\n fhs-3.0*\nLicense: GFDL\n"


def test_an_archive_of_another_version_is_built_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_tar(
        tmp_path / "fastify-5.12.8.tgz",
        {
            "package/package.json": b'{"name": "fastify", "version": "5.0.0"}',
            "package/LICENSE": b"MIT License\n",
            "package/docs/Guides/Getting-Started.md": b"# Getting started\n",
        },
    )
    assert run(tmp_path, "fastify-docs") == 0
    assert "expected fastify 5.12.8, the archive says 5.0.0" in capsys.readouterr().err
    assert tree_files(tmp_path / "eval" / "fastify-docs") == {
        "Guides/Getting-Started.md": b"# Getting started\n"
    }


def test_a_missing_archive_is_one_line_naming_it_and_how_to_get_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(tmp_path, "pytest-docs") == 1
    error = capsys.readouterr().err.strip()
    assert error == (
        f"error: {tmp_path / 'pytest-8.4.2.tar.gz'}: missing; get it with: "
        "pip download --no-deps --no-binary :all: pytest==8.4.2"
    )


def test_the_listing_names_every_set_and_its_download(capsys: pytest.CaptureFixture[str]) -> None:
    assert build.main(["--list"]) == 0
    listing = capsys.readouterr().out
    for tree in TREES:
        assert f"{tree.name}: {tree.source.describe()}" in listing
        assert tree.source.fetch_command() in listing
