"""Extract attrs' MyST documentation, with its Python source, into eval/attrs-docs/.

- eval/attrs-docs/   the attrs package's Sphinx documentation as shipped in its PyPI source
                     distribution: MyST Markdown pages (overview, examples, init, hashing,
                     extending, why...) and two reStructuredText API references made only of
                     autodoc directives (`autoclass`, `autofunction`, `autodata`), which are
                     read from the package's Python source (src/attr/, src/attrs/), and a
                     changelog page that is one `{include}` of the top-level CHANGELOG.md.
                     The tree keeps the sdist's layout (docs/, src/, README.md,
                     CHANGELOG.md), so includes and autodoc find their files inside it.

Kept: docs/*.md and docs/*.rst, README.md, CHANGELOG.md and the `.py` files under src/.
Dropped: conf.py, images and static files, the type stubs (.pyi), tests, benchmarks,
changelog.d/ (fragments of the next release) and the packaging files.

Download the source distribution once (this needs the network; the script does not):

    pip download --no-deps --no-binary :all: attrs==26.1.0

then, from the repository root:

    python scripts/build_attrs_docs_devset.py attrs-26.1.0.tar.gz

The package's licence (MIT) goes to eval/attrs-docs.LICENSE, under a first line naming the
package and version. The cases file (eval/attrs-docs.jsonl) is written by hand.
"""

from __future__ import annotations

import argparse
import re
import shutil
import tarfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"

NAME = "attrs-docs"
PACKAGE = "attrs"
VERSION = "26.1.0"
TOP_FILES = ("README.md", "CHANGELOG.md")


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
    if relative in TOP_FILES:
        return True
    if relative.startswith("docs/") and relative.count("/") == 1:
        return relative.endswith((".md", ".rst"))
    return relative.startswith("src/") and relative.endswith(".py")


def build(archive: Path) -> None:
    files = sdist_files(archive)
    top = next(iter(files)).split("/", 1)[0]
    version = sdist_version(files)
    if version is not None and version != VERSION:
        print(f"warning: expected {PACKAGE} {VERSION}, got {version}")
    prefix = f"{top}/"
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
        f"distribution's docs/*.md and docs/*.rst, README.md, CHANGELOG.md and the .py files "
        f"under src/; upstream https://github.com/python-attrs/attrs), by "
        f"scripts/build_attrs_docs_devset.py. The package's LICENSE file:\n\n"
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
