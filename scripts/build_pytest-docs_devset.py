"""Extract pytest's Sphinx documentation (reStructuredText) into eval/pytest-docs/.

- eval/pytest-docs/   the pytest testing framework's documentation as shipped in its PyPI
                      source distribution (doc/en/): getting started, how-to guides
                      (fixtures, parametrize, monkeypatch, capture, logging, plugins, ...),
                      explanations, the reference pages (configuration, exit codes, the
                      API reference with its ini options) and the examples. A Sphinx tree:
                      `.rst` files with directives, roles, labels and literal blocks.

Kept: every `.rst` file under doc/en/ except
- announce/              one release announcement per version (182 short pages),
- changelog.rst          the release notes (450 KB, far longer than the rest),
- reference/plugin_list.rst  a generated list of 1,500 third-party plugins (1 MB).
Dropped as well: conf.py, images, static files, templates, requirements files, the
example test modules (.py) and everything outside doc/en/.

Download the source distribution once (this needs the network; the script does not):

    pip download --no-deps --no-binary :all: pytest==8.4.2

then, from the repository root:

    python scripts/build_pytest-docs_devset.py pytest-8.4.2.tar.gz

The package's licence (MIT) goes to eval/pytest-docs.LICENSE, under a first line naming
the package and version. The cases file (eval/pytest-docs.jsonl) is written by hand.
"""

from __future__ import annotations

import argparse
import re
import shutil
import tarfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"

NAME = "pytest-docs"
PACKAGE = "pytest"
VERSION = "8.4.2"
DOC_FOLDER = "doc/en/"
EXCLUDED_FOLDERS = ("announce/",)
EXCLUDED_FILES = ("changelog.rst", "reference/plugin_list.rst")


def sdist_files(archive: Path) -> dict[str, bytes]:
    """`{path inside the archive: content}` for every regular file of the sdist."""
    files: dict[str, bytes] = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile():
                extracted = tar.extractfile(member)
                if extracted is not None:
                    files[member.name] = extracted.read()
    return files


def sdist_version(files: dict[str, bytes]) -> str | None:
    """The version the sdist's top-level PKG-INFO states."""
    for path, content in files.items():
        if path.count("/") == 1 and path.endswith("/PKG-INFO"):
            found = re.search(r"^Version: (\S+)$", content.decode("utf-8"), re.MULTILINE)
            return found.group(1) if found else None
    return None


def kept(relative: str) -> bool:
    if not relative.endswith(".rst"):
        return False
    if relative.startswith(EXCLUDED_FOLDERS):
        return False
    return relative not in EXCLUDED_FILES


def build(archive: Path) -> None:
    files = sdist_files(archive)
    top = next(iter(files)).split("/", 1)[0]
    version = sdist_version(files)
    if version is not None and version != VERSION:
        print(f"warning: expected {PACKAGE} {VERSION}, got {version}")
    prefix = f"{top}/{DOC_FOLDER}"
    pages = {
        path.removeprefix(prefix): content
        for path, content in files.items()
        if path.startswith(prefix) and kept(path.removeprefix(prefix))
    }
    folder = EVAL / NAME
    if folder.exists():
        shutil.rmtree(folder)
    total = 0
    for relative, content in sorted(pages.items()):
        path = folder / PurePosixPath(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        total += len(content)
    header = (
        f"Extracted from the PyPI package {PACKAGE} {version or VERSION} (its source "
        f"distribution's doc/en/ folder, .rst files only, without announce/, changelog.rst "
        f"and reference/plugin_list.rst; upstream https://github.com/pytest-dev/pytest), "
        f"by scripts/build_pytest-docs_devset.py. The package's LICENSE file:\n\n"
    )
    (EVAL / f"{NAME}.LICENSE").write_text(
        header + files[f"{top}/LICENSE"].decode("utf-8"), encoding="utf-8"
    )
    print(f"{NAME}: {len(pages)} files, {total} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sdist", type=Path, help=f"the downloaded {PACKAGE}-{VERSION}.tar.gz")
    args = parser.parse_args(argv)
    build(args.sdist)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
