"""Extract real Markdown documentation trees into eval/ as development libraries.

- eval/docker-docs/      the Docker (moby + docker CLI) reference documentation that Debian
                         ships in its `docker-doc` package: a nested tree (api/,
                         extend/, reference/commandline/, ...) whose pages start with a
                         YAML front-matter block holding `title:`.
- eval/fastify-docs/     the Fastify web framework's documentation as shipped in its npm
                         package (docs/Guides, docs/Reference): few, large files
                         (Server.md is over 80 KB) with many sections.
- eval/undici-docs/      the undici HTTP client's (Node.js) documentation as shipped in
                         its npm package (docs/docs/api, docs/docs/best-practices): one
                         file per class or topic, a few with many `###` sections
                         (Dispatcher.md, MockAgent.md, SnapshotAgent.md).
- eval/serverless-docs/  the Serverless Framework's documentation as shipped in its npm
                         package (docs/): near-duplicate pages, the same guide written
                         once per provider (providers/aws, azure, google, openwhisk, ...).
- eval/npm-cli-docs/     npm's own CLI reference as shipped in the npm package
                         (docs/content/): one page per command (commands/npm-*.md) plus
                         the configuration pages (config, npmrc, package.json, scripts).
- eval/starlette-docs/   the Starlette web library's API documentation from its PyPI
                         source distribution (docs/): one page per component (requests,
                         responses, routing, middleware, ...) and long release notes.

Each tree keeps only its `.md` files, under their original names and folders. Debian
compresses larger documentation files (`run.md.gz`); those are decompressed to the
name the project gave them (`run.md`). The licence of each project goes to
eval/<name>.LICENSE with a first line naming the package and version.

Download the packages once (this needs the network; the script itself does not):

    apt-get update && apt-get download docker-doc=20.10.24+dfsg1-1+deb12u1
    npm pack fastify@5.12.8 undici@7.30.2 serverless@3.40.0 npm@10.9.9
    pip download --no-deps --no-binary :all: starlette==1.10.0

then, from the repository root:

    python scripts/build_docs_devsets.py \\
        --docker-deb docker-doc_20.10.24+dfsg1-1+deb12u1_all.deb \\
        --fastify-tgz fastify-5.12.8.tgz \\
        --undici-tgz undici-7.30.2.tgz \\
        --serverless-tgz serverless-3.40.0.tgz \\
        --npm-tgz npm-10.9.9.tgz \\
        --starlette-sdist starlette-1.10.0.tar.gz

Any of the options may be given alone to rebuild one tree. The Debian package's copyright
file says the documentation is under the Apache License 2.0 and points to Debian's copy
of its text (/usr/share/common-licenses/Apache-2.0, from `base-files`); that copy is
read from the local machine, or from --apache-license PATH.

The cases files (eval/<name>.jsonl) are written by hand, not by this script.
"""

from __future__ import annotations

import argparse
import gzip
import io
import re
import shutil
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"

DOCKER_NAME = "docker-docs"
DOCKER_PACKAGE = "docker-doc"
DOCKER_VERSION = "20.10.24+dfsg1-1+deb12u1"
DOCKER_DOC_PREFIX = "usr/share/doc/docker-doc/"

APACHE_LICENSE = Path("/usr/share/common-licenses/Apache-2.0")


def ar_members(data: bytes) -> dict[str, bytes]:
    """The members of a Unix `ar` archive (the container format of a .deb)."""
    if not data.startswith(b"!<arch>\n"):
        raise SystemExit("not a Debian package (no ar header)")
    members: dict[str, bytes] = {}
    offset = 8
    while offset + 60 <= len(data):
        header = data[offset : offset + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        start = offset + 60
        members[name] = data[start : start + size]
        offset = start + size + (size % 2)
    return members


def deb_files(deb: Path) -> dict[str, bytes]:
    """`{path without leading ./: content}` for every regular file in the package."""
    members = ar_members(deb.read_bytes())
    data_name = next((name for name in members if name.startswith("data.tar")), None)
    if data_name is None:
        raise SystemExit(f"{deb}: no data.tar member")
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(members[data_name])) as tar:
        for member in tar.getmembers():
            if member.isfile():
                extracted = tar.extractfile(member)
                if extracted is not None:
                    files[member.name.removeprefix("./")] = extracted.read()
    return files


def tgz_files(archive: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile():
                extracted = tar.extractfile(member)
                if extracted is not None:
                    files[member.name] = extracted.read()
    return files


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


def build_docker(deb: Path, apache_license: Path) -> None:
    match = re.match(r"docker-doc_(.+)_all\.deb$", deb.name)
    if match and match.group(1) != DOCKER_VERSION:
        print(f"warning: expected docker-doc {DOCKER_VERSION}, got {match.group(1)}")
    files = deb_files(deb)
    pages: dict[str, bytes] = {}
    for path, content in files.items():
        if not path.startswith(DOCKER_DOC_PREFIX):
            continue
        relative = path.removeprefix(DOCKER_DOC_PREFIX)
        if relative.endswith(".md.gz"):
            pages[relative.removesuffix(".gz")] = gzip.decompress(content)
        elif relative.endswith(".md"):
            pages[relative] = content
    count, size = write_tree(DOCKER_NAME, pages)
    copyright_text = files[DOCKER_DOC_PREFIX + "copyright"].decode("utf-8")
    notice = files.get(DOCKER_DOC_PREFIX + "NOTICE", b"").decode("utf-8")
    # The stanza for the documentation itself ("Files: *").
    stanza = re.search(r"^Files: \*\n(?:[^\n]+\n)+", copyright_text, re.MULTILINE)
    header = (
        f"Extracted from the Debian package {DOCKER_PACKAGE} {DOCKER_VERSION} "
        f"(Docker/moby documentation, upstream https://github.com/moby/moby), "
        f"by scripts/build_docs_devsets.py.\n"
        "Licence as stated by the package's copyright file:\n\n"
    )
    text = header + (stanza.group(0) if stanza else "License: Apache-2.0\n")
    if notice:
        text += "\nNOTICE (from the package):\n\n" + notice.rstrip() + "\n"
    text += "\n" + "-" * 72 + "\n\n" + apache_license.read_text(encoding="utf-8")
    (EVAL / f"{DOCKER_NAME}.LICENSE").write_text(text, encoding="utf-8")
    print(f"{DOCKER_NAME}: {count} files, {size} bytes")


@dataclass(frozen=True)
class TarballTree:
    """A documentation tree shipped inside an npm tarball or a PyPI sdist."""

    name: str  # eval/<name>/
    registry: str  # "npm" or "PyPI" (a source distribution)
    package: str
    version: str
    doc_prefix: str  # the tree's folder inside the archive
    licence_member: str  # the package's licence file inside the archive
    origin: str  # how the licence header names the folder (and upstream)
    option: str  # the command-line option taking the downloaded archive


TARBALL_TREES = (
    TarballTree(
        name="fastify-docs",
        registry="npm",
        package="fastify",
        version="5.12.8",
        doc_prefix="package/docs/",
        licence_member="package/LICENSE",
        origin="its docs/ folder",
        option="--fastify-tgz",
    ),
    TarballTree(
        name="undici-docs",
        registry="npm",
        package="undici",
        version="7.30.2",
        doc_prefix="package/docs/docs/",
        licence_member="package/LICENSE",
        origin="its docs/docs/ folder; upstream https://github.com/nodejs/undici",
        option="--undici-tgz",
    ),
    TarballTree(
        name="serverless-docs",
        registry="npm",
        package="serverless",
        version="3.40.0",
        doc_prefix="package/docs/",
        licence_member="package/LICENSE.txt",
        origin="its docs/ folder; upstream https://github.com/serverless/serverless",
        option="--serverless-tgz",
    ),
    TarballTree(
        name="npm-cli-docs",
        registry="npm",
        package="npm",
        version="10.9.9",
        doc_prefix="package/docs/content/",
        licence_member="package/LICENSE",
        origin="its docs/content/ folder; upstream https://github.com/npm/cli",
        option="--npm-tgz",
    ),
    TarballTree(
        name="starlette-docs",
        registry="PyPI",
        package="starlette",
        version="1.10.0",
        doc_prefix="starlette-1.10.0/docs/",
        licence_member="starlette-1.10.0/LICENSE.md",
        origin="its source distribution's docs/ folder; upstream https://github.com/Kludex/starlette",
        option="--starlette-sdist",
    ),
)


def archive_version(files: dict[str, bytes]) -> str | None:
    """The version an npm tarball's package.json or an sdist's PKG-INFO states."""
    for path, content in files.items():
        if path == "package/package.json":
            found = re.search(r'"version"\s*:\s*"([^"]+)"', content.decode("utf-8"))
            return found.group(1) if found else None
        if path.count("/") == 1 and path.endswith("/PKG-INFO"):
            found = re.search(r"^Version: (\S+)$", content.decode("utf-8"), re.MULTILINE)
            return found.group(1) if found else None
    return None


def build_tarball_tree(tree: TarballTree, archive: Path) -> None:
    files = tgz_files(archive)
    version = archive_version(files)
    if version is not None and version != tree.version:
        print(f"warning: expected {tree.package} {tree.version}, got {version}")
    pages = {
        path.removeprefix(tree.doc_prefix): content
        for path, content in files.items()
        if path.startswith(tree.doc_prefix) and path.endswith(".md")
    }
    count, size = write_tree(tree.name, pages)
    header = (
        f"Extracted from the {tree.registry} package {tree.package} "
        f"{version or tree.version} ({tree.origin}), "
        f"by scripts/build_docs_devsets.py. The package's LICENSE file:\n\n"
    )
    (EVAL / f"{tree.name}.LICENSE").write_text(
        header + files[tree.licence_member].decode("utf-8"), encoding="utf-8"
    )
    print(f"{tree.name}: {count} files, {size} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docker-deb", type=Path, help="the downloaded docker-doc .deb")
    for tree in TARBALL_TREES:
        parser.add_argument(
            tree.option,
            type=Path,
            help=f"the downloaded {tree.registry} archive of {tree.package} {tree.version}",
        )
    parser.add_argument(
        "--apache-license",
        type=Path,
        default=APACHE_LICENSE,
        help="the Apache License 2.0 text (default: Debian's copy)",
    )
    args = parser.parse_args(argv)
    archives = {
        tree: getattr(args, tree.option.removeprefix("--").replace("-", "_"))
        for tree in TARBALL_TREES
    }
    if args.docker_deb is None and all(path is None for path in archives.values()):
        options = ", ".join(["--docker-deb", *(tree.option for tree in TARBALL_TREES)])
        parser.error(f"give at least one of {options}")
    if args.docker_deb is not None:
        build_docker(args.docker_deb, args.apache_license)
    for tree, archive in archives.items():
        if archive is not None:
            build_tarball_tree(tree, archive)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
