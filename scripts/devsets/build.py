"""Build the development libraries under eval/ from their downloaded sources.

Every library is a row of `scripts.devsets.sources.TREES` (documentation sites built by
a distribution: `sites.SITE_TREES`; a reference manual typeset from Texinfo:
`manuals.MANUALS`): its source (a PyPI, npm or Debian package, or a `git archive` of
one commit of a public repository), which files are kept and its licence. The builder
reads the downloaded archives offline (nothing in them is run; a manual's Texinfo source
is typeset by Texinfo's own tools) and replaces eval/<name>/ and eval/<name>.LICENSE.

    python -m scripts.devsets.build --list              # every set, its source, how to get it
    python -m scripts.devsets.build --fetch fastify-docs  # download what is missing, then build
    python -m scripts.devsets.build                     # every set whose archive is downloaded
    python -m scripts.devsets.build attrs-docs --downloads ~/archives

Archives are looked for in --downloads (default eval/downloads/, not committed); --fetch
downloads a missing registry or Debian package there (this needs the network); a
repository's archive is made from a clone with the `git archive` command --list shows.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

from scripts.devsets import sources
from scripts.devsets.archives import Archive, ArchiveError, read_deb, read_tarball
from scripts.devsets.manuals import MANUALS
from scripts.devsets.sites import SITE_TREES
from scripts.devsets.sources import Tree, decompress

ROOT = Path(__file__).resolve().parents[2]
DOWNLOADS = ROOT / "eval" / "downloads"
TREES = (*sources.TREES, *SITE_TREES, *MANUALS)


def read(tree: Tree, archive: Path) -> Archive:
    if tree.source.kind == "deb":
        return read_deb(archive)
    return read_tarball(archive, follow_links=tree.follow_links)


def mismatch(tree: Tree, archive: Archive) -> str | None:
    """What the archive says it is, when that is not the source the table names."""
    source = tree.source
    if source.kind == "git":
        if archive.commit is not None and archive.commit != source.version:
            return f"expected commit {source.version}, the archive says {archive.commit}"
    elif archive.version is not None and archive.version != source.version:
        return f"expected {source.package} {source.version}, the archive says {archive.version}"
    return None


def build(tree: Tree, archive: Archive, eval_dir: Path) -> str:
    """Replace eval/<name>/ and its licence file; returns a one-line summary."""
    if tree.make is not None:
        return tree.make(archive.files, eval_dir)
    assert tree.keep is not None and tree.licence is not None
    pages = {}
    for path, content in archive.files.items():
        destination = tree.keep(path)
        if destination is not None:
            pages[destination] = decompress(path, content, destination)
    if not pages:
        raise ArchiveError("none of its files is one the set keeps")
    folder = eval_dir / tree.name
    if folder.exists():
        shutil.rmtree(folder)
    for relative, content in sorted(pages.items()):
        target = folder / PurePosixPath(relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    what, text = tree.licence(archive.files)
    header = (
        f"Extracted from {tree.source.describe()} ({tree.kept}), by "
        f"`python -m scripts.devsets.build {tree.name}`. {what}:"
    )
    (eval_dir / f"{tree.name}.LICENSE").write_text(f"{header}\n\n{text}", encoding="utf-8")
    return f"{len(pages)} files, {sum(map(len, pages.values())):,} bytes"


def fetch(tree: Tree, downloads: Path) -> None:
    """Download the archive into `downloads` with the registry's or Debian's own client."""
    if tree.source.kind == "git":
        raise ArchiveError(f"make it from a clone: {tree.source.fetch_command()}")
    downloads.mkdir(parents=True, exist_ok=True)
    command = tree.source.fetch_command().split()
    if command[0] == "pip":
        command = [sys.executable, "-m", *command]
    subprocess.run(command, cwd=downloads, check=True)


def listing(downloads: Path) -> str:
    lines = []
    for tree in TREES:
        present = "downloaded" if (downloads / tree.source.archive).is_file() else "missing"
        lines.append(
            f"{tree.name}: {tree.source.describe()}\n"
            f"    keeps: {tree.kept}\n"
            f"    archive: {tree.source.archive} ({present})\n"
            f"    get it: {tree.source.fetch_command()}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.devsets.build", description=__doc__.splitlines()[0]
    )
    parser.add_argument("names", nargs="*", help="sets to build (default: every downloaded one)")
    parser.add_argument("--downloads", type=Path, default=DOWNLOADS, help="the archives' folder")
    parser.add_argument("--eval", type=Path, default=ROOT / "eval", help="where sets are written")
    parser.add_argument("--fetch", action="store_true", help="download missing archives first")
    parser.add_argument("--list", action="store_true", help="list the sets and their sources")
    args = parser.parse_args(argv)
    known = {tree.name: tree for tree in TREES}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"unknown set {', '.join(unknown)}; known: {', '.join(known)}")
    if args.list:
        print(listing(args.downloads))
        return 0
    chosen = [known[name] for name in args.names] or list(TREES)
    failed = 0
    for tree in chosen:
        path = args.downloads / tree.source.archive
        try:
            if not path.is_file() and args.fetch:
                fetch(tree, args.downloads)
            if not path.is_file():
                if args.names:
                    raise ArchiveError(f"missing; get it with: {tree.source.fetch_command()}")
                print(f"{tree.name}: skipped, {path} is not downloaded")
                continue
            archive = read(tree, path)
            warning = mismatch(tree, archive)
            if warning:
                print(f"warning: {path.name}: {warning}", file=sys.stderr)
            print(f"{tree.name}: {build(tree, archive, args.eval)}")
        except (ArchiveError, KeyError, OSError, subprocess.CalledProcessError) as error:
            reason = f"no {error}" if isinstance(error, KeyError) else str(error)
            print(f"error: {path}: {reason}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
