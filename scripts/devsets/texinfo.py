"""Development sets typeset from a GNU manual's Texinfo source: one manual, as one HTML
page (`makeinfo --html --no-split`) or as PDF (`texi2pdf`), so that the two forms of it
ask the same questions of the same text.

A release tarball carries files its repository does not (`version.texi`, made at build
time; a chapter shared with another manual): each row says what stands in for them, so
the set is built from one commit of the repository alone. Typesetting runs Texinfo's own
tools on the manual's text; nothing else in the archive is run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from scripts.devsets.archives import ArchiveError, Files

Form = Literal["html", "pdf"]
GFDL = Path("/usr/share/common-licenses/GFDL-1.3")
# A fixed date for pdfTeX's timestamps and the PDF's id, so a rebuild gives the same file.
SOURCE_DATE = "1700000000"


@dataclass(frozen=True)
class Manual:
    title: str  # "The GNU sed manual"
    texi: str  # the main file's path in the archive, e.g. "doc/sed.texi"
    release: str  # the release the commit is or precedes: "GNU sed 4.9"
    values: Mapping[str, str]  # what the release's version.texi sets (VERSION, UPDATED…)
    # An included file the repository lacks -> the Texinfo put in its place.
    stand_ins: Mapping[str, str] = field(default_factory=dict)
    makeinfo_options: tuple[str, ...] = ()

    @property
    def stem(self) -> str:
        return PurePosixPath(self.texi).stem


def version_texi(values: Mapping[str, str]) -> str:
    return "".join(f"@set {name} {value}\n" for name, value in values.items())


def texinfo_tree(manual: Manual, found: Files) -> dict[str, bytes]:
    """The files to typeset, by name in one folder: the main file's folder's .texi files,
    version.texi and the stand-ins."""
    folder = str(PurePosixPath(manual.texi).parent) + "/"
    tree = {
        path.removeprefix(folder): content
        for path, content in found.items()
        if path.startswith(folder) and path.endswith(".texi") and "/" not in path[len(folder) :]
    }
    if PurePosixPath(manual.texi).name not in tree:
        raise ArchiveError(f"no {manual.texi}")
    tree["version.texi"] = version_texi(manual.values).encode()
    for name, text in manual.stand_ins.items():
        tree[name] = text.encode()
    return tree


def command(form: Form, main: str, output: str, options: tuple[str, ...] = ()) -> list[str]:
    if form == "html":
        return ["makeinfo", "--html", "--no-split", *options, "-o", output, main]
    return ["texi2pdf", "--batch", "--quiet", "--clean", "-o", output, main]


def texinfo_version() -> str:
    """The installed Texinfo's version (`texi2any (GNU texinfo) 6.8` -> `6.8`)."""
    first = subprocess.run(["makeinfo", "--version"], capture_output=True, text=True).stdout
    return first.splitlines()[0].rsplit(" ", 1)[-1] if first else "unknown"


def typeset(manual: Manual, found: Files, form: Form) -> bytes:
    """The manual as one HTML page or a PDF, made in a temporary folder."""
    main = PurePosixPath(manual.texi).name
    output = f"{manual.stem}.{form}"
    environment = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE, "FORCE_SOURCE_DATE": "1"}
    with tempfile.TemporaryDirectory() as work:
        for name, content in texinfo_tree(manual, found).items():
            (Path(work) / name).write_bytes(content)
        try:
            subprocess.run(
                command(form, main, output, manual.makeinfo_options),
                cwd=work,
                env=environment,
                check=True,
                capture_output=True,
            )
        except FileNotFoundError as error:
            raise ArchiveError(f"{error.filename} is not installed (Debian: texinfo)") from error
        except subprocess.CalledProcessError as error:
            last = (error.stderr or error.stdout or b"").decode(errors="replace").strip()
            tail = last.splitlines()[-1] if last else f"exit status {error.returncode}"
            raise ArchiveError(f"{error.cmd[0]} failed: {tail}") from error
        return (Path(work) / output).read_bytes()


_SET = re.compile(r"^@set (\S+) (.+)$", re.M)
_COMMANDS = re.compile(r"@(?:code|cite|command|samp|file|emph|strong|var|w)\{([^{}]*)\}")


def copying_notice(manual: Manual, found: Files) -> str:
    """The manual's @copying block as plain text."""
    source = found[manual.texi].decode("utf-8")
    match = re.search(r"^@copying\n(.*?)^@end copying", source, re.M | re.S)
    if match is None:
        raise ArchiveError(f"{manual.texi} has no @copying block")
    values = dict(manual.values)
    for path, content in found.items():
        if path.endswith(".texi"):
            values |= dict(_SET.findall(content.decode("utf-8", errors="replace")))
    text = re.sub(
        r"@value\{([^}]*)\}", lambda m: values.get(m.group(1), m.group(0)), match.group(1)
    )
    text = _COMMANDS.sub(r"\1", _COMMANDS.sub(r"\1", text))
    text = text.replace("@copyright{}", "(C)").replace("@@", "@").replace("@{", "{")
    text = text.replace("@}", "}").replace("``", '"').replace("''", '"')
    lines = [line for line in text.splitlines() if not re.match(r"^@(?:end )?\w+\s*$", line)]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


def licence_text(
    manual: Manual, form: Form, origin: str, name: str, found: Files, version: str
) -> str:
    main = PurePosixPath(manual.texi).name
    run = " ".join(command(form, main, f"{manual.stem}.{form}", manual.makeinfo_options))
    how = "converted to one HTML page" if form == "html" else "typeset to PDF"
    lines = [
        f"{manual.title} ({manual.texi} of {manual.release}, from {origin}), {how} with "
        f"`{run}` (Texinfo {version}), by `python -m scripts.devsets.build {name}`.",
        "",
        "version.texi, which a release makes, was written as:",
        "",
        version_texi(manual.values).rstrip(),
    ]
    for included, text in manual.stand_ins.items():
        lines += ["", f"{included}, which is not in that tree, was replaced by:", "", text.rstrip()]
    lines += ["", "The manual's copying notice:", "", copying_notice(manual, found).rstrip()]
    if GFDL.is_file():
        lines += ["", "-" * 72, "", GFDL.read_text(encoding="utf-8").rstrip()]
    return "\n".join(lines) + "\n"


def make(name: str, manual: Manual, form: Form, origin: str, found: Files, eval_dir: Path) -> str:
    """Replace eval/<name>/ with the typeset manual and write its licence file."""
    content = typeset(manual, found, form)
    folder = eval_dir / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / f"{manual.stem}.{form}").write_bytes(content)
    licence = licence_text(manual, form, origin, name, found, texinfo_version())
    (eval_dir / f"{name}.LICENSE").write_text(licence, encoding="utf-8")
    return f"1 file, {len(content):,} bytes"
