"""Extract the fish shell's command reference into eval/fish-api/ as a development library.

- eval/fish-api/cmds/     one reStructuredText page per command fish ships with (builtins,
                          keywords and shipped functions: abbr, argparse, bind, set, string,
                          string-match, path, math, ...), all with the same shape: a title
                          "NAME - what it does", then Synopsis, Description (a list of
                          `**-x** or **--long**` options) and Example(s). Neighbouring pages
                          and sections look alike on purpose.
- eval/fish-api/commands.rst  the overview page that lists the commands by category.

Only those `.rst` files are kept, under their original names; the rest of doc_src/ (the
language guide, tutorial, FAQ, release notes, Sphinx theme and conf.py) is left out.
The licence (COPYING, which points to doc_src/license.rst for the full text) goes to
eval/fish-api.LICENSE with a first line naming the source and version.

The source is the fish-shell GitHub repository, brought onto the machine with the search
tool's `fetch` (github:fish-shell/fish-shell, a bare git directory) and turned into an
archive of the tagged release 4.8.1 (commit acdaf2fbdb62b9af34694ccea7e8cb4c43f22c2f):

    git -C /work/.mirror/fish-shell+fish-shell/repo archive --format=tar.gz \\
        --prefix=fish-shell-4.8.1/ -o fish-shell-4.8.1.tar.gz 4.8.1

then, from the repository root:

    python scripts/build_fish_api_devset.py fish-shell-4.8.1.tar.gz

The cases file (eval/fish-api.jsonl) is written by hand, not by this script.
"""

from __future__ import annotations

import argparse
import shutil
import tarfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"

NAME = "fish-api"
VERSION = "4.8.1"
COMMIT = "acdaf2fbdb62b9af34694ccea7e8cb4c43f22c2f"
UPSTREAM = "https://github.com/fish-shell/fish-shell"


def kept(relative: PurePosixPath) -> PurePosixPath | None:
    """Where a file of the source tree goes in eval/fish-api/, or None if it is left out."""
    parts = relative.parts
    if len(parts) == 3 and parts[:2] == ("doc_src", "cmds") and parts[2].endswith(".rst"):
        return PurePosixPath("cmds", parts[2])
    if relative == PurePosixPath("doc_src/commands.rst"):
        return PurePosixPath("commands.rst")
    return None


def member_bytes(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    stream = tar.extractfile(member)
    if stream is None:
        raise SystemExit(f"{member.name}: not a regular file")
    return stream.read()


def build(archive: Path) -> None:
    target = EVAL / NAME
    if target.exists():
        shutil.rmtree(target)
    files: dict[PurePosixPath, bytes] = {}
    licence: dict[str, bytes] = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            path = PurePosixPath(member.name)
            relative = PurePosixPath(*path.parts[1:])  # drop the fish-shell-<version>/ prefix
            if str(relative) in ("COPYING", "doc_src/license.rst"):
                licence[str(relative)] = member_bytes(tar, member)
                continue
            destination = kept(relative)
            if destination is not None:
                files[destination] = member_bytes(tar, member)
    if not files or "COPYING" not in licence:
        raise SystemExit(
            f"{archive}: no doc_src/cmds/*.rst or COPYING found; is this a fish-shell archive?"
        )
    for destination, data in sorted(files.items()):
        out = target / destination
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    header = (
        f"Extracted from the fish shell {VERSION} source (git tag {VERSION}, commit {COMMIT}; "
        f"its doc_src/cmds/ folder and doc_src/commands.rst; upstream {UPSTREAM}), "
        "by scripts/build_fish_api_devset.py. "
        "The repository's COPYING file, then doc_src/license.rst:\n\n"
    )
    text = header + licence["COPYING"].decode("utf-8")
    if "doc_src/license.rst" in licence:
        text += "\n\n" + licence["doc_src/license.rst"].decode("utf-8")
    (EVAL / f"{NAME}.LICENSE").write_text(text, encoding="utf-8")
    print(f"{NAME}: {len(files)} files")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "archive", type=Path, help="fish-shell-4.8.1.tar.gz (git archive of the tag)"
    )
    args = parser.parse_args()
    build(args.archive)


if __name__ == "__main__":
    main()
