"""Where each development library under eval/ comes from, in one table: the source (a
registry package, a Debian package, a commit of a public repository), which of its files
are kept and where they go, and its licence text.

The cases files (eval/<name>.jsonl) are written by hand, except Django's; the hand-written
libraries (eval/notes-small/, eval/runbook-small/) are not here.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from scripts.devsets.archives import Files

# A path in the archive -> its path in eval/<name>/, or None when it is left out.
Keep = Callable[[str], str | None]
# The archive's files -> (what the licence text is, the text).
Licence = Callable[[Files], tuple[str, str]]
# Builds the set itself from the archive's files into the eval folder; returns a summary.
Make = Callable[[Files, Path], str]

COMMON_LICENCES = Path("/usr/share/common-licenses")


@dataclass(frozen=True)
class Source:
    kind: Literal["pypi", "npm", "deb", "git"]
    package: str  # the registry's or Debian's package name, or the repository (owner/name)
    version: str  # for `git`, the commit
    archive: str  # the downloaded file's name
    tag: str = ""  # `git`: the release the commit is, if any
    paths: tuple[str, ...] = ()  # `git`: the paths the archive holds (default: all)

    def describe(self) -> str:
        if self.kind == "git":
            tag = f" (tag {self.tag})" if self.tag else ""
            return f"the GitHub repository {self.package} at commit {self.version}{tag}"
        where = {"pypi": "PyPI", "npm": "npm", "deb": "Debian"}[self.kind]
        return f"the {where} package {self.package} {self.version}"

    def fetch_command(self) -> str:
        """How to download the archive (the builder itself reads it offline)."""
        if self.kind == "pypi":
            return f"pip download --no-deps --no-binary :all: {self.package}=={self.version}"
        if self.kind == "npm":
            return f"npm pack {self.package}@{self.version}"
        if self.kind == "deb":
            return f"apt-get download {self.package}={self.version}"
        top = self.archive.removesuffix(".tar.gz")
        paths = "".join(f" {path}" for path in self.paths)
        return (
            f"git -C CLONE_OF_{self.package.replace('/', '_')} archive --format=tar.gz "
            f"--prefix={top}/ -o {self.archive} {self.version}{paths}"
        )


@dataclass(frozen=True)
class Tree:
    name: str  # eval/<name>/
    source: Source
    kept: str  # which files are kept, in words (the licence file's first line says it)
    keep: Keep | None = None
    licence: Licence | None = None
    follow_links: bool = False  # a symbolic link in the archive is read as its target
    make: Make | None = None  # a set built by its own code instead of `keep` and `licence`


def folder(
    prefix: str,
    suffixes: tuple[str, ...],
    *,
    top_level: bool = False,
    skip: tuple[str, ...] = (),
    hidden: bool = True,
    into: str | None = "",
) -> Keep:
    """Files under `prefix` ending in `suffixes`, into `into` in eval/ (None: under their
    whole path): only those directly in it with `top_level`, none whose path below it is
    in `skip` or starts with a `skip` folder (`name/`), none with a part starting `.` or
    `_` unless `hidden`."""

    def keep(path: str) -> str | None:
        relative = path.removeprefix(prefix)
        if not path.startswith(prefix) or not relative.endswith(suffixes):
            return None
        if top_level and "/" in relative:
            return None
        if relative in skip or relative.startswith(tuple(s for s in skip if s.endswith("/"))):
            return None
        if not hidden and any(part[0] in "._" for part in PurePosixPath(relative).parts):
            return None
        return (path if into is None else into + relative).removesuffix(".gz")

    return keep


def files(mapping: dict[str, str]) -> Keep:
    """Exactly these files, each to its own name."""
    return mapping.get


def either(*keeps: Keep) -> Keep:
    def keep(path: str) -> str | None:
        return next((found for found in (k(path) for k in keeps) if found is not None), None)

    return keep


def text(files_: Files, path: str) -> str:
    return files_[path].decode("utf-8")


def member(path: str, what: str = "The package's LICENSE file") -> Licence:
    return lambda found: (what, text(found, path))


def copyright_file(package: str, then: str = "") -> Licence:
    """A Debian package's copyright file, then a common licence's full text."""

    def licence(found: Files) -> tuple[str, str]:
        body = text(found, f"usr/share/doc/{package}/copyright")
        if then:
            full = (COMMON_LICENCES / then).read_text(encoding="utf-8")
            body += f"\n\nThe full text of the {then}:\n\n" + full
        return "The package's copyright file", body

    return licence


def docker_licence(found: Files) -> tuple[str, str]:
    """The copyright file's stanza for the documentation, the NOTICE, the Apache text."""
    doc = "usr/share/doc/docker-doc/"
    stanza = re.search(r"^Files: \*\n(?:[^\n]+\n)+", text(found, doc + "copyright"), re.M)
    body = stanza.group(0) if stanza else "License: Apache-2.0\n"
    notice = found.get(doc + "NOTICE", b"").decode("utf-8")
    if notice:
        body += "\nNOTICE (from the package):\n\n" + notice.rstrip() + "\n"
    apache = (COMMON_LICENCES / "Apache-2.0").read_text(encoding="utf-8")
    body += "\n" + "-" * 72 + "\n\n" + apache
    return "Licence as stated by the package's copyright file", body


def fhs_licence(found: Files) -> tuple[str, str]:
    """The FHS paragraph of debian-policy's copyright file."""
    copyright_text = text(found, "usr/share/doc/debian-policy/copyright")
    start = copyright_text.index("Files:\n fhs-3.0*")
    end = copyright_text.index("\nFiles:", start + 1)
    return "From the package's copyright file", copyright_text[start:end].strip() + "\n"


def fish_licence(found: Files) -> tuple[str, str]:
    body = text(found, "COPYING")
    if "doc_src/license.rst" in found:
        body += "\n\n" + text(found, "doc_src/license.rst")
    return "The repository's COPYING file, then doc_src/license.rst", body


def rust_book_licence(found: Files) -> tuple[str, str]:
    sections = []
    for name in ("COPYRIGHT", "LICENSE-MIT", "LICENSE-APACHE"):
        sections.append("=" * 72 + f"\n{name}\n" + "=" * 72 + "\n\n")
        sections.append(text(found, name).rstrip() + "\n")
    return "MIT OR Apache-2.0, at your option; the repository's licence files", "\n".join(sections)


def bidict_kept(path: str) -> str | None:
    prefix = "usr/share/doc/python-bidict-doc/html/"
    if not path.startswith(prefix):
        return None
    relative = PurePosixPath(path.removeprefix(prefix))
    top = relative.parts[0]
    if top in ("_static", "_images"):
        keep = relative.name == "documentation_options.js"
    elif top == "_modules":
        keep = relative == PurePosixPath("_modules/index.html")
    else:
        keep = relative.suffix in (".html", ".txt") or relative.name == "objects.inv"
    return str(relative) if keep else None


def decompress(path: str, content: bytes, destination: str) -> bytes:
    """Debian gzips larger documentation files: they are kept under their own name."""
    if path.endswith(".gz") and not destination.endswith(".gz"):
        return gzip.decompress(content)
    return content


def _django_make(found: Files, eval_dir: Path) -> str:
    from scripts.devsets import django  # its own module: it writes lessons, not a tree

    return django.make(found, eval_dir)


def sdist(name: str, version: str) -> Source:
    return Source("pypi", name, version, f"{name}-{version}.tar.gz")


def npm(name: str, version: str) -> Source:
    return Source("npm", name, version, f"{name}-{version}.tgz")


def deb(name: str, version: str) -> Source:
    # apt-get download writes an epoch's colon as %3a.
    return Source("deb", name, version, f"{name}_{version.replace(':', '%3a')}_all.deb")


DOCKER = "usr/share/doc/docker-doc/"
POLICY = deb("debian-policy", "4.6.2.0")
DEVREF = deb("developers-reference", "12.18")
DEVREF_DIR = "usr/share/developers-reference/"

TREES: tuple[Tree, ...] = (
    Tree(
        "docker-docs",
        deb("docker-doc", "20.10.24+dfsg1-1+deb12u1"),
        "its usr/share/doc/docker-doc/ Markdown pages, decompressed",
        folder(DOCKER, (".md", ".md.gz")),
        docker_licence,
    ),
    Tree(
        "fastify-docs",
        npm("fastify", "5.12.8"),
        "its docs/ folder, .md files",
        folder("docs/", (".md",)),
        member("LICENSE"),
    ),
    Tree(
        "undici-docs",
        npm("undici", "7.30.2"),
        "its docs/docs/ folder, .md files; upstream https://github.com/nodejs/undici",
        folder("docs/docs/", (".md",)),
        member("LICENSE"),
    ),
    Tree(
        "serverless-docs",
        npm("serverless", "3.40.0"),
        "its docs/ folder, .md files; upstream https://github.com/serverless/serverless",
        folder("docs/", (".md",)),
        member("LICENSE.txt"),
    ),
    Tree(
        "npm-cli-docs",
        npm("npm", "10.9.9"),
        "its docs/content/ folder, .md files; upstream https://github.com/npm/cli",
        folder("docs/content/", (".md",)),
        member("LICENSE"),
    ),
    Tree(
        "starlette-docs",
        sdist("starlette", "1.10.0"),
        "its source distribution's docs/ folder, .md files; upstream https://github.com/Kludex/starlette",
        folder("docs/", (".md",)),
        member("LICENSE.md"),
    ),
    Tree(
        "pytest-docs",
        sdist("pytest", "8.4.2"),
        "its source distribution's doc/en/ folder, .rst files only, without announce/, "
        "changelog.rst and reference/plugin_list.rst; upstream https://github.com/pytest-dev/pytest",
        folder(
            "doc/en/", (".rst",), skip=("announce/", "changelog.rst", "reference/plugin_list.rst")
        ),
        member("LICENSE"),
    ),
    Tree(
        "attrs-docs",
        sdist("attrs", "26.1.0"),
        "its source distribution's docs/*.md and docs/*.rst, README.md, CHANGELOG.md and the "
        ".py files under src/; upstream https://github.com/python-attrs/attrs",
        either(
            files({"README.md": "README.md", "CHANGELOG.md": "CHANGELOG.md"}),
            folder("docs/", (".md", ".rst"), top_level=True, into=None),
            folder("src/", (".py",), into=None),
        ),
        member("LICENSE"),
    ),
    Tree(
        "nox-small",
        sdist("nox", "2026.10.20"),
        "its source distribution's docs/ folder, the changelog left out; upstream "
        "https://github.com/wntrblm/nox",
        folder(
            "docs/",
            (".rst", ".md", ".txt"),
            top_level=True,
            skip=("CHANGELOG.md", "requirements.txt"),
        ),
        member("LICENSE"),
        follow_links=True,  # docs/CONTRIBUTING.md links to the top-level file
    ),
    Tree(
        "rust-book-guide",
        Source(
            "git",
            "rust-lang/book",
            "917544888a55e4da7109bdba8c88c893c0da70f4",
            "rust-book-917544888a55.tar.gz",
        ),
        'the book "The Rust Programming Language", its src/*.md files',
        folder("src/", (".md",), top_level=True),
        rust_book_licence,
    ),
    Tree(
        "vite-docs",
        Source(
            "git",
            "vitejs/vite",
            "a98c8d95d552c6fa98ab66fb810f5b39ad5abf49",
            "vite-a98c8d95d552.tar.gz",
            paths=("docs", "LICENSE"),
        ),
        "Vite's documentation, its docs/**/*.md files but the site's theme and data",
        folder("docs/", (".md",), hidden=False),
        member("LICENSE", "The repository's LICENSE file"),
    ),
    Tree(
        "fish-api",
        Source(
            "git",
            "fish-shell/fish-shell",
            "acdaf2fbdb62b9af34694ccea7e8cb4c43f22c2f",
            "fish-shell-4.8.1.tar.gz",
            tag="4.8.1",
        ),
        "its doc_src/cmds/ folder and doc_src/commands.rst",
        either(
            folder("doc_src/cmds/", (".rst",), top_level=True, into="cmds/"),
            files({"doc_src/commands.rst": "commands.rst"}),
        ),
        fish_licence,
    ),
    Tree(
        "bidict-html",
        deb("python-bidict-doc", "0.22.1-1"),
        "its built Sphinx site, one file of each static folder",
        bidict_kept,
        copyright_file("python-bidict-doc", then="MPL-2.0"),
    ),
    Tree(
        "mkdocs-html",
        deb("mkdocs-doc", "1.4.2+dfsg-2"),
        "its built site's pages, sitemap and search index",
        folder("usr/share/doc/mkdocs/html/", (".html", "sitemap.xml", "search_index.json")),
        copyright_file("mkdocs-doc"),
    ),
    Tree(
        "lua-manual-html",
        deb("lua5.1-doc", "5.1.5-9"),
        "the manual and its contents page",
        files(
            {
                "usr/share/doc/lua5.1-doc/doc/manual.html": "manual.html",
                "usr/share/doc/lua5.1-doc/doc/contents.html": "contents.html",
            }
        ),
        copyright_file("lua5.1-doc"),
    ),
    Tree(
        "fhs-pdf",
        POLICY,
        "the Filesystem Hierarchy Standard 3.0 as PDF, unmodified",
        files({"usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz": "fhs-3.0.pdf"}),
        fhs_licence,
    ),
    Tree(
        "fhs-html",
        POLICY,
        "the Filesystem Hierarchy Standard 3.0 as one HTML page, unmodified",
        files({"usr/share/doc/debian-policy/fhs/fhs-3.0.html": "fhs-3.0.html"}),
        fhs_licence,
    ),
    Tree(
        "devref-pdf",
        DEVREF,
        "the Debian Developer's Reference as PDF, unmodified",
        files({DEVREF_DIR + "developers-reference.pdf": "developers-reference.pdf"}),
        copyright_file("developers-reference"),
    ),
    Tree(
        "devref-html",
        DEVREF,
        "the Debian Developer's Reference as one HTML page, unmodified",
        files({DEVREF_DIR + "developers-reference.html": "developers-reference.html"}),
        copyright_file("developers-reference"),
    ),
    Tree(
        "django-faq",
        sdist("django", "5.2.19"),
        "the FAQ as one lesson per question and, for django-large, every other section of docs/",
        make=_django_make,
    ),
)
