"""Extract Vite's documentation into eval/vite-docs/.

Vite (https://github.com/vitejs/vite) is a JavaScript build tool. Its docs/ folder is a
VitePress site: guide pages (guide/: "Dependency Pre-Bundling", "Server-Side Rendering",
"Building for Production", the plugin and JavaScript APIs), a configuration reference
(config/: one page per group of options), breaking-change notes (changes/) and a blog of
release announcements (blog/announcing-vite*.md) that mention most features again.

Only docs/**/*.md is kept, under their original folders; the VitePress theme and
configuration (docs/.vitepress/), data loaders (docs/_data/), images and the other
non-Markdown files are left out. The licence (MIT) goes to eval/vite-docs.LICENSE with a
first line naming the repository and commit.

The archive was made from a public snapshot of the repository (the search tool's `fetch`
of github:vitejs/vite, which gave a bare git directory) with:

    git -C /work/.mirror/vitejs+vite/repo archive --format=tar.gz --prefix=vite/ \\
        -o vite-a98c8d95d552.tar.gz a98c8d95d552c6fa98ab66fb810f5b39ad5abf49 docs LICENSE

then, from the repository root (no network needed):

    python scripts/build_vite_docs_devset.py vite-a98c8d95d552.tar.gz

The cases file (eval/vite-docs.jsonl) is written by hand, not by this script.
"""

from __future__ import annotations

import argparse
import shutil
import tarfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"

NAME = "vite-docs"
REPOSITORY = "vitejs/vite"
COMMIT = "a98c8d95d552c6fa98ab66fb810f5b39ad5abf49"
COMMIT_DATE = "2026-08-22"
PREFIX = "vite/"


def archive_files(archive: Path) -> tuple[dict[str, bytes], str | None]:
    """`{path below the archive's top folder: content}` and the commit `git archive` noted."""
    files: dict[str, bytes] = {}
    with tarfile.open(archive) as tar:
        # `git archive` of a commit stores its id in a pax global header ("comment").
        commit = tar.pax_headers.get("comment")
        for member in tar.getmembers():
            if member.isfile():
                extracted = tar.extractfile(member)
                if extracted is not None:
                    path = PurePosixPath(member.name).as_posix().removeprefix(PREFIX)
                    files[path] = extracted.read()
    if "LICENSE" not in files or not any(path.startswith("docs/") for path in files):
        raise SystemExit(f"{archive}: no docs/ and LICENSE (is it an archive of {REPOSITORY}?)")
    return files, commit


def kept(path: str) -> bool:
    """A Markdown page of the site, not its theme, data loaders or assets."""
    parts = PurePosixPath(path).parts
    return (
        path.startswith("docs/")
        and path.endswith(".md")
        and not any(part.startswith((".", "_")) for part in parts)
    )


def build(archive: Path) -> None:
    files, commit = archive_files(archive)
    if commit is not None and commit != COMMIT:
        print(f"warning: expected commit {COMMIT}, the archive says {commit}")
    pages = {path.removeprefix("docs/"): content for path, content in files.items() if kept(path)}
    folder = EVAL / NAME
    if folder.exists():
        shutil.rmtree(folder)
    total = 0
    for relative, content in sorted(pages.items()):
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        total += len(content)
    header = (
        f"Extracted from the public GitHub repository {REPOSITORY} (Vite's documentation), "
        f"commit {commit or COMMIT} of {COMMIT_DATE}, its docs/**/*.md files, by "
        "scripts/build_vite_docs_devset.py from a `git archive` of that commit.\n"
        "The repository's LICENSE file:\n\n"
    )
    licence = files["LICENSE"].decode("utf-8").rstrip() + "\n"
    (EVAL / f"{NAME}.LICENSE").write_text(header + licence, encoding="utf-8")
    print(f"{NAME}: {len(pages)} files, {total} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive", type=Path, help="a `git archive` tar(.gz) of vitejs/vite")
    args = parser.parse_args(argv)
    build(args.archive)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
