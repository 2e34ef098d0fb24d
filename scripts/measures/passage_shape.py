"""The shape of each development library's passages, as a reader would check it:

- **shared lines**: passages citing the same file and the same lines (a reader sent to
  those lines cannot tell which of them was meant);
- **long and thin**: passages spanning more than 200 source lines for fewer than 100
  words of text (a citation that points at a whole chapter for a heading's worth of words);
- **autodoc off its section**: a Python object's entry (read from a `.. autoclass::`-style
  directive) whose title does not sit under the section of the page holding the directive.

    python -m scripts.measures.passage_shape                 # every library under eval/
    python -m scripts.measures.passage_shape eval/babel-docs --details
    python -m scripts.measures.passage_shape --json

Each library is read as the app reads it, in memory (no data folder), with every document
type on (`py` too, so a module's own passages meet the API entries read from it;
`--default-types` reads only the default types). The figures are counts of passages;
`--details` lists their ids.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tui_assistant.core.documents.formats import DEFAULT_DOCUMENT_KINDS, DOCUMENT_KINDS
from tui_assistant.core.documents.passage import TITLE_SEPARATOR, Passage
from tui_assistant.core.words import stem
from tui_assistant.errors import LibraryError
from tui_assistant.store.index_store import open_library

ROOT = Path(__file__).resolve().parents[2]
LONG_LINES = 200
THIN_WORDS = 100
_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:py:)?auto\w+::\s*([\w.]+)", re.M)
_WORD = re.compile(r"\w+")
_PART = re.compile(r"-part-\d+$")


@dataclass
class Shape:
    passages: int = 0
    shared_lines: list[str] = field(default_factory=list)
    long_thin: list[str] = field(default_factory=list)
    autodoc: int = 0
    autodoc_off_section: list[str] = field(default_factory=list)
    autodoc_no_directive: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "passages": self.passages,
            "shared_lines": len(self.shared_lines),
            "long_thin": len(self.long_thin),
            "autodoc": self.autodoc,
            "autodoc_off_section": len(self.autodoc_off_section),
            "autodoc_no_directive": len(self.autodoc_no_directive),
        }


def _headings(passage: Passage) -> list[str]:
    """A section's headings, without the `› first words` a later part of it is titled by."""
    parts = passage.title.split(TITLE_SEPARATOR)
    if len(parts) > 1 and _PART.search(passage.id):
        parts = parts[:-1]
    return parts


def _object_name(title: str) -> str:
    """`babel.core.Locale.parse(identifier, ...)` -> `babel.core.Locale.parse`."""
    return title.split(TITLE_SEPARATOR)[-1].split("(", 1)[0].strip()


def _directive_line(text: str, name: str) -> int | None:
    """The line of the directive that documents `name` (its own, else its class's)."""
    best: tuple[int, int] | None = None  # (length of the matched name, line)
    for match in _DIRECTIVE.finditer(text):
        target = match.group(1)
        if name == target or name.endswith("." + target) or f".{target}." in f".{name}":
            line = text.count("\n", 0, match.start()) + 1
            if best is None or len(target) > best[0]:
                best = (len(target), line)
    return best[1] if best else None


def shape(passages: Sequence[Passage], read: Callable[[str], str | None]) -> Shape:
    """`read(source_path)`: the text of a library file, or None when it cannot be read."""
    result = Shape(passages=len(passages))
    places = Counter((p.source_path, p.line, p.end_line) for p in passages)
    for passage in passages:
        if places[(passage.source_path, passage.line, passage.end_line)] > 1:
            result.shared_lines.append(passage.id)
        lines = passage.end_line - passage.line + 1
        if lines > LONG_LINES and len(_WORD.findall(passage.text)) < THIN_WORDS:
            result.long_thin.append(passage.id)
    pages: dict[str, list[Passage]] = {}
    for passage in passages:
        if not passage.source_path.endswith(".py"):
            pages.setdefault(passage.id.split("#", 1)[0], []).append(passage)
    for passage in passages:
        page = pages.get(passage.id.split("#", 1)[0], [])
        if not passage.source_path.endswith(".py") or not page:
            continue  # a module's own passage, not an entry of a documentation page
        result.autodoc += 1
        text = read(page[0].source_path)
        line = _directive_line(text, _object_name(passage.title)) if text else None
        if line is None:
            result.autodoc_no_directive.append(passage.id)
            continue
        above = [p for p in page if p.line <= line]
        section = max(above, key=lambda p: p.line) if above else page[0]
        # The passage above the directive is its section, or an entry of that section
        # (a `.. function::` written by hand before it): its headings, or all but its term.
        held_by = _headings(section)
        if held_by and held_by[-1] in section.index_terms:  # an entry: its section's
            held_by = held_by[:-1]
        if passage.title.split(TITLE_SEPARATOR)[:-1] != held_by:
            result.autodoc_off_section.append(passage.id)
    return result


def measure(folder: Path, kinds: Sequence[str] = DOCUMENT_KINDS) -> Shape:
    library = open_library(folder, None, stem, kinds=kinds)
    passages = [library.passage(number) for number in range(len(library))]
    base = folder.parent

    def read(source_path: str) -> str | None:
        try:
            return (base / source_path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    return shape(passages, read)


def eval_folders() -> list[Path]:
    """Every library folder under eval/ (the bundled lessons too)."""
    found = [ROOT / "lessons"]
    found += sorted(p for p in (ROOT / "eval").iterdir() if p.is_dir() and p.name != "django")
    large = ROOT / "eval" / "django" / "large-lessons"
    return found + ([large] if large.is_dir() else [])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="default: every eval library")
    parser.add_argument("--details", action="store_true", help="list the passages' ids")
    parser.add_argument("--default-types", action="store_true", help="py off, as by default")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args(argv)
    kinds = DEFAULT_DOCUMENT_KINDS if options.default_types else DOCUMENT_KINDS
    folders = options.folders or eval_folders()
    report: dict[str, dict[str, object]] = {}
    for folder in folders:
        if not folder.is_dir():
            parser.error(f"{folder}: not a folder")
        try:
            found = measure(folder, kinds)
        except LibraryError as error:
            report[folder.name] = {"problem": str(error)}
            continue
        report[folder.name] = {**found.counts()}
        if options.details:
            report[folder.name].update(
                shared_lines_ids=found.shared_lines,
                long_thin_ids=found.long_thin,
                autodoc_off_section_ids=found.autodoc_off_section,
                autodoc_no_directive_ids=found.autodoc_no_directive,
            )
    if options.json:
        print(json.dumps(report, indent=2))
        return 0
    columns = ("passages", "shared_lines", "long_thin", "autodoc", "autodoc_off_section")
    print("| library | " + " | ".join(c.replace("_", " ") for c in columns) + " |")
    print("| --- |" + " ---: |" * len(columns))
    for name, row in report.items():
        if "problem" in row:
            print(f"| {name} | {row['problem']} |")
            continue
        print(f"| {name} | " + " | ".join(str(row[c]) for c in columns) + " |")
        if options.details:
            for key in ("shared_lines_ids", "long_thin_ids", "autodoc_off_section_ids"):
                ids = row[key]
                if isinstance(ids, list) and ids:
                    print(f"    {key}: {', '.join(ids)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
