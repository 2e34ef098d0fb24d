"""Extract "The Rust Programming Language" book into eval/rust-book-guide/.

The book (https://github.com/rust-lang/book) is a tutorial: prose chapters that teach Rust
step by step, from installing it and a guessing game to a multithreaded web server. Its
Markdown sources live in src/, one file per section (ch04-01-what-is-ownership.md, ...),
plus SUMMARY.md (the table of contents), the foreword, the title page and the appendices.
The code listings are not inlined: the chapters pull them in with mdBook directives such
as `{{#rustdoc_include ../listings/...}}`, which stay in the text as written.

Only src/*.md is kept (112 files); src/img/ (SVG figures) and everything outside src/
(listings/, the older editions, tools, nostarch/) are left out. The licence (MIT OR
Apache-2.0, at the reader's option) goes to eval/rust-book-guide.LICENSE with a first line
naming the repository and commit.

The archive was made from a public snapshot of the repository (the search tool's `fetch`
of github:rust-lang/book, which gave a bare git directory) with:

    git -C /work/.mirror/rust-lang+book/repo archive --format=tar.gz --prefix=book/ \\
        -o rust-book-917544888a55.tar.gz 917544888a55e4da7109bdba8c88c893c0da70f4

then, from the repository root (no network needed):

    python scripts/build_rust_book_guide_devset.py rust-book-917544888a55.tar.gz

The cases file (eval/rust-book-guide.jsonl) is written by hand, not by this script.
"""

from __future__ import annotations

import argparse
import shutil
import tarfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"

NAME = "rust-book-guide"
REPOSITORY = "rust-lang/book"
COMMIT = "917544888a55e4da7109bdba8c88c893c0da70f4"
COMMIT_DATE = "2026-07-13"
LICENCE_MEMBERS = ("COPYRIGHT", "LICENSE-MIT", "LICENSE-APACHE")


def archive_files(archive: Path) -> tuple[dict[str, bytes], str | None]:
    """`{path below the archive's top folder: content}` and the commit `git archive` noted."""
    raw: dict[str, bytes] = {}
    with tarfile.open(archive) as tar:
        # `git archive` of a commit stores its id in a pax global header ("comment").
        commit = tar.pax_headers.get("comment")
        for member in tar.getmembers():
            if member.isfile():
                extracted = tar.extractfile(member)
                if extracted is not None:
                    raw[PurePosixPath(member.name).as_posix()] = extracted.read()
    # The --prefix folder (book/), if any, is whatever stands before the top src/SUMMARY.md
    # (the old editions, 2018-edition/ and so on, have their own src/SUMMARY.md further down).
    summaries = sorted((path for path in raw if path.endswith("src/SUMMARY.md")), key=len)
    summary = summaries[0] if summaries else None
    if summary is None:
        raise SystemExit(f"{archive}: no src/SUMMARY.md (is it an archive of {REPOSITORY}?)")
    prefix = summary.removesuffix("src/SUMMARY.md")
    files = {
        path.removeprefix(prefix): content
        for path, content in raw.items()
        if path.startswith(prefix)
    }
    return files, commit


def build(archive: Path) -> None:
    files, commit = archive_files(archive)
    if commit is not None and commit != COMMIT:
        print(f"warning: expected commit {COMMIT}, the archive says {commit}")
    pages = {
        path.removeprefix("src/"): content
        for path, content in files.items()
        if path.startswith("src/") and path.count("/") == 1 and path.endswith(".md")
    }
    folder = EVAL / NAME
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    total = 0
    for relative, content in sorted(pages.items()):
        (folder / relative).write_bytes(content)
        total += len(content)
    header = (
        f'Extracted from the public GitHub repository {REPOSITORY} ("The Rust Programming '
        f'Language" book), commit {commit or COMMIT} of {COMMIT_DATE}, its src/*.md files, '
        f"by scripts/build_rust_book_guide_devset.py from a `git archive` of that commit.\n"
        "Licensed under MIT OR Apache-2.0 (at your option). The repository's COPYRIGHT, "
        "LICENSE-MIT and LICENSE-APACHE files follow.\n"
    )
    sections = [header]
    for member in LICENCE_MEMBERS:
        sections.append("=" * 72 + f"\n{member}\n" + "=" * 72 + "\n\n")
        sections.append(files[member].decode("utf-8").rstrip() + "\n")
    (EVAL / f"{NAME}.LICENSE").write_text("\n".join(sections), encoding="utf-8")
    print(f"{NAME}: {len(pages)} files, {total} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive", type=Path, help="a `git archive` tar(.gz) of rust-lang/book")
    args = parser.parse_args(argv)
    build(args.archive)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
