"""Extract two PDF manuals, each also shipped as HTML, from Debian packages into eval/.

- eval/fhs-pdf/      the Filesystem Hierarchy Standard 3.0 as a PDF without an outline
                     (50 pages; its sections are told by their headings' font size),
                     from Debian's `debian-policy` package;
- eval/fhs-html/     the same standard as the single HTML page the package ships beside it;
- eval/devref-pdf/   the Debian Developer's Reference as a PDF with an outline (114
                     pages, 281 bookmarks), from the `developers-reference` package;
- eval/devref-html/  the same manual as its single HTML page.

The HTML copies are the other half of `scripts/same_manual.py`, which compares the
first passage shown for each question in the two copies of one manual.

Download the packages once (this needs Debian's package lists; the script itself does
not use the network):

    apt-get download debian-policy=4.6.2.0 developers-reference=12.18

then, from the repository root:

    python scripts/build_pdf_devsets.py --policy-deb debian-policy_4.6.2.0_all.deb \\
        --devref-deb developers-reference_12.18_all.deb

A `.deb` is an `ar` archive holding `data.tar.*`; it is read here with the standard
library (no `dpkg` needed). The cases files (eval/fhs-pdf.jsonl, eval/devref-pdf.jsonl)
are written by hand, not by this script.
"""

from __future__ import annotations

import argparse
import io
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"

# (eval folder, path inside the package, file name in eval/)
POLICY_FILES = (
    ("fhs-pdf", "usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz", "fhs-3.0.pdf"),
    ("fhs-html", "usr/share/doc/debian-policy/fhs/fhs-3.0.html", "fhs-3.0.html"),
)
DEVREF_FILES = (
    (
        "devref-pdf",
        "usr/share/developers-reference/developers-reference.pdf",
        "developers-reference.pdf",
    ),
    (
        "devref-html",
        "usr/share/developers-reference/developers-reference.html",
        "developers-reference.html",
    ),
)
POLICY_COPYRIGHT = "usr/share/doc/debian-policy/copyright"
DEVREF_COPYRIGHT = "usr/share/doc/developers-reference/copyright"


def deb_members(deb: Path) -> dict[str, bytes]:
    """Every regular file of a .deb's data archive, by path without the leading `./`."""
    data = deb.read_bytes()
    if not data.startswith(b"!<arch>\n"):
        raise SystemExit(f"{deb}: not a Debian package")
    position = 8
    while position < len(data):
        header = data[position : position + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        body = data[position + 60 : position + 60 + size]
        position += 60 + size + (size % 2)
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body)) as archive:
                found: dict[str, bytes] = {}
                for member in archive.getmembers():
                    if member.isfile():
                        extracted = archive.extractfile(member)
                        assert extracted is not None
                        found[member.name.removeprefix("./")] = extracted.read()
                return found
    raise SystemExit(f"{deb}: no data archive")


def fhs_licence(copyright_text: str) -> str:
    """The FHS paragraph of debian-policy's copyright file."""
    start = copyright_text.index("Files:\n fhs-3.0*")
    end = copyright_text.index("\nFiles:", start + 1)
    return copyright_text[start:end].strip() + "\n"


def write(members: dict[str, bytes], files: tuple[tuple[str, str, str], ...], licence: str) -> None:
    import gzip

    for folder_name, inside, name in files:
        folder = EVAL / folder_name
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            old.unlink()
        data = members[inside]
        if inside.endswith(".gz"):
            data = gzip.decompress(data)
        (folder / name).write_bytes(data)
        (EVAL / f"{folder_name}.LICENSE").write_text(licence, encoding="utf-8")
        print(f"{folder_name}/{name}: {len(data):,} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy-deb", type=Path, required=True)
    parser.add_argument("--devref-deb", type=Path, required=True)
    args = parser.parse_args(argv)

    policy = deb_members(args.policy_deb)
    header = (
        "Extracted from Debian's debian-policy 4.6.2.0 package (upstream: the Linux "
        "Foundation's FHS 3.0, https://refspecs.linuxfoundation.org/FHS_3.0/) by "
        "scripts/build_pdf_devsets.py, unmodified. From the package's copyright file:\n\n"
    )
    write(policy, POLICY_FILES, header + fhs_licence(policy[POLICY_COPYRIGHT].decode()))

    devref = deb_members(args.devref_deb)
    header = (
        "Extracted from Debian's developers-reference 12.18 package (upstream: "
        "https://salsa.debian.org/debian/developers-reference) by "
        "scripts/build_pdf_devsets.py, unmodified. The package's copyright file:\n\n"
    )
    write(devref, DEVREF_FILES, header + devref[DEVREF_COPYRIGHT].decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
