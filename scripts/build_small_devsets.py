"""Extract a small real documentation tree into eval/ as a development library.

- eval/nox-small/   the Nox test-automation tool's documentation as shipped in its PyPI
                    source distribution (docs/): six pages (tutorial, configuration,
                    command-line usage, cookbook, index, contributing) in
                    reStructuredText with Sphinx directives, about 70 passages. The
                    sdist's docs/CONTRIBUTING.md is a symbolic link to the top-level
                    file, which is read in its place; docs/CHANGELOG.md (also a link)
                    is left out, being longer than all the other pages together.

The other small libraries (eval/notes-small/, eval/runbook-small/) are written by hand
and committed as they are; this script does not touch them.

Download the package once (this needs the network; the script itself does not):

    pip download --no-deps --no-binary :all: nox==2026.10.20

then, from the repository root:

    python scripts/build_small_devsets.py --nox-sdist nox-2026.10.20.tar.gz

The cases file (eval/nox-small.jsonl) is written by hand, not by this script.
"""

from __future__ import annotations

import argparse
import re
import shutil
import tarfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"

NOX_NAME = "nox-small"
NOX_VERSION = "2026.10.20"
# Documentation pages to keep; anything else in docs/ (conf.py, Makefile, _static/
# images and CSS, the changelog) is left out.
DOC_SUFFIXES = (".rst", ".md", ".txt")
LEFT_OUT = {"CHANGELOG.md"}


def sdist_pages(archive: Path) -> tuple[str, dict[str, bytes], bytes, str | None]:
    """(top folder, {docs-relative path: bytes}, LICENSE bytes, PKG-INFO version)."""
    with tarfile.open(archive) as tar:
        members = {member.name: member for member in tar.getmembers()}
        top = next(iter(members)).split("/", 1)[0]
        docs = f"{top}/docs/"

        def read(name: str) -> bytes:
            member = members[name]
            if member.issym():
                target = PurePosixPath(name).parent / member.linkname
                parts: list[str] = []
                for part in target.parts:
                    if part == "..":
                        parts.pop()
                    elif part != ".":
                        parts.append(part)
                return read("/".join(parts))
            extracted = tar.extractfile(member)
            if extracted is None:
                raise SystemExit(f"{archive}: cannot read {name}")
            return extracted.read()

        pages: dict[str, bytes] = {}
        for name, member in members.items():
            if not name.startswith(docs) or not (member.isfile() or member.issym()):
                continue
            relative = name.removeprefix(docs)
            if "/" in relative or relative in LEFT_OUT or not relative.endswith(DOC_SUFFIXES):
                continue
            if relative == "requirements.txt":
                continue
            pages[relative] = read(name)
        licence = read(f"{top}/LICENSE")
        pkg_info = read(f"{top}/PKG-INFO").decode("utf-8")
        found = re.search(r"^Version: (\S+)$", pkg_info, re.MULTILINE)
        return top, pages, licence, found.group(1) if found else None


def write_tree(name: str, pages: dict[str, bytes]) -> tuple[int, int]:
    """Replace eval/<name>/ with `pages` ({relative path: bytes}); returns (files, bytes)."""
    folder = EVAL / name
    if folder.exists():
        shutil.rmtree(folder)
    total = 0
    for relative, content in sorted(pages.items()):
        path = folder / PurePosixPath(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        total += len(content)
    return len(pages), total


def build_nox(archive: Path) -> None:
    _top, pages, licence, version = sdist_pages(archive)
    if version is not None and version != NOX_VERSION:
        print(f"warning: expected nox {NOX_VERSION}, got {version}")
    count, size = write_tree(NOX_NAME, pages)
    header = (
        f"Extracted from the PyPI package nox {version or NOX_VERSION} (its source "
        "distribution's docs/ folder, the changelog left out; upstream "
        "https://github.com/wntrblm/nox), by scripts/build_small_devsets.py. "
        "The package's LICENSE file:\n\n"
    )
    (EVAL / f"{NOX_NAME}.LICENSE").write_text(header + licence.decode("utf-8"), encoding="utf-8")
    print(f"{NOX_NAME}: {count} files, {size} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--nox-sdist",
        type=Path,
        required=True,
        help=f"the downloaded source distribution of nox {NOX_VERSION}",
    )
    args = parser.parse_args(argv)
    build_nox(args.nox_sdist)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
