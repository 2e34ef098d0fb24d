"""The rows of the development-set table for reference manuals: GNU manuals typeset from
their Texinfo source (one manual as one HTML page and as PDF) and a command reference of
man pages as HTML. `scripts.devsets.build` reads them after `sources.TREES`."""

from __future__ import annotations

from pathlib import Path

from scripts.devsets import texinfo
from scripts.devsets.archives import Files
from scripts.devsets.sources import Source, Tree, copyright_file, deb, folder

MAKE = texinfo.Manual(
    "The GNU Make manual",
    "doc/make.texi",
    "GNU make 4.4.90",
    {"UPDATED": "4 August 2024", "UPDATED-MONTH": "August 2024", "VERSION": "4.4.90"},
    stand_ins={
        # Both come from gnulib when a release is made; the PDF set has the same stand-ins.
        "make-stds.texi": "@node Makefile Conventions\n@chapter Makefile Conventions\n\n"
        "This chapter is the GNU Coding Standards' chapter on makefile conventions, "
        "published at @url{https://www.gnu.org/prep/standards/html_node/Makefile-Conventions.html}.\n",
        "fdl.texi": "The GNU Free Documentation License, Version 1.3, is published at "
        "@url{https://www.gnu.org/licenses/fdl-1.3.html}.\n",
    },
    # The stand-in lacks the nodes the manual refers to; the PDF prints those references
    # as unresolved, and makeinfo, told not to check them, keeps them as text as well.
    makeinfo_options=("--no-validate",),
)
MAKE_SOURCE = Source(
    "git",
    "mirror/make",
    "c63a5bc6a2881d515bb3020ed477fcba08fb2f3d",
    "make-c63a5bc6a288.tar.gz",
    paths=("doc/make.texi",),
)
SED = texinfo.Manual(
    "The GNU sed manual",
    "doc/sed.texi",
    "GNU sed 4.9",
    {"UPDATED": "6 November 2022", "UPDATED-MONTH": "November 2022", "EDITION": "4.9"}
    | {"VERSION": "4.9"},
)
SED_SOURCE = Source(
    "git",
    "mirror/sed",
    "7e2e575a36bc88c0f3f3d6d8083c5f5b0ed44009",
    "sed-4.9.tar.gz",
    tag="v4.9",
    paths=("doc/sed.texi", "doc/config.texi", "doc/fdl.texi"),
)


def typeset(name: str, source: Source, manual: texinfo.Manual, form: texinfo.Form) -> Tree:
    kept = "one HTML page, by makeinfo" if form == "html" else "PDF, by texi2pdf"
    origin = source.describe()

    def make(found: Files, eval_dir: Path) -> str:
        return texinfo.make(name, manual, form, origin, found, eval_dir)

    return Tree(name, source, f"{manual.texi} typeset as {kept}", make=make)


# Commands people look up, each page a synopsis, a description and a list of options; the
# plumbing, the foreign-system bridges and the guides are left out.
GIT_COMMANDS = (
    "add am apply archive bisect blame branch bundle cat-file checkout cherry-pick clean "
    "clone commit config describe diff fetch format-patch gc grep help init log ls-files "
    "ls-remote maintenance merge mv notes pull push range-diff rebase reflog remote reset "
    "restore rev-parse revert rm send-email shortlog show sparse-checkout stash status "
    "submodule switch tag worktree"
).split()
GIT_DOC = "usr/share/doc/git-doc/"


def git_page(path: str) -> str | None:
    name = folder(GIT_DOC, (".html",), top_level=True)(path)
    if name is None or name.removeprefix("git-").removesuffix(".html") not in GIT_COMMANDS:
        return None
    return name


MANUALS: tuple[Tree, ...] = (
    typeset("make-html", MAKE_SOURCE, MAKE, "html"),
    typeset("sed-html", SED_SOURCE, SED, "html"),
    typeset("sed-pdf", SED_SOURCE, SED, "pdf"),
    Tree(
        "manpages-git",
        deb("git-doc", "1:2.39.5-0+deb12u3"),
        f"the HTML manual pages of {len(GIT_COMMANDS)} everyday commands, git-<command>.html",
        git_page,
        copyright_file("git-doc", then="GPL-2"),
    ),
)
