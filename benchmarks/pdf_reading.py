"""Reading a 500-page PDF manual, beside the Markdown reader on the same text.

    python -m benchmarks.pdf_reading [--pages 500] [--runs 3] [--pdf REAL.pdf ...]

A manual of `--pages` pages (chapters and sections, 45 lines of made-up words a page,
a running header and a page-numbered footer, an outline of every chapter and section)
is written twice from one seed: as one PDF (Helvetica, compressed content streams, the
headings set larger) and as Markdown, a file per chapter (one file would pass the
1 MiB limit of a text document). Each library is then read as the app reads it before
any embedding (listed, split into passages, indexed; `open_library` with the store in
memory), in a fresh process, and timed; the process's peak memory (its maximum resident
set) is reported beside it. `--pdf` adds real PDFs, each read as a one-document library.
Prints the median of `--runs` runs.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.helpers.pdf_files import Bookmark, Line, PdfSpec, pdf_bytes

ROOT = Path(__file__).resolve().parent.parent


SEED = 20261201
LINES_PER_PAGE = 45
PAGES_PER_SECTION = 2
SECTIONS_PER_CHAPTER = 5

_SYLLABLES = "ba ce di fo gu ka le mi no pu ra se ti vo zu bri cla dre flo gra".split()

READ = """
import json, resource, sys, time
from pathlib import Path
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library
started = time.perf_counter()
library = open_library(Path(sys.argv[1]), None, stem)
elapsed = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"seconds": elapsed, "passages": len(library), "peak": peak}))
"""


def words(rng: random.Random, count: int) -> str:
    return " ".join(
        "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 3))) for _ in range(count)
    )


def manual(pages: int) -> list[tuple[str, str, list[str]]]:
    """(chapter, section, lines) for every section, `PAGES_PER_SECTION` pages each."""
    rng = random.Random(SEED)
    sections = []
    chapter_title = ""
    for number in range(pages // PAGES_PER_SECTION):
        chapter = number // SECTIONS_PER_CHAPTER + 1
        section = number % SECTIONS_PER_CHAPTER + 1
        if section == 1:
            chapter_title = f"{chapter} {words(rng, 3).title()}"
        lines = [
            words(rng, rng.randint(9, 13)) + ("." if rng.random() < 0.3 else "")
            for _ in range(LINES_PER_PAGE * PAGES_PER_SECTION - 2)
        ]
        sections.append((chapter_title, f"{chapter}.{section} {words(rng, 4)}", lines))
    return sections


def write_pdf(folder: Path, sections: list[tuple[str, str, list[str]]]) -> Path:
    pages: list[list[Line]] = []
    outline: list[Bookmark] = []
    current_chapter = ""
    for chapter, section, lines in sections:
        first = [Line(section, 14, gap=6)]
        if chapter != current_chapter:
            current_chapter = chapter
            outline.append(Bookmark(chapter, len(pages), level=1))
            first.insert(0, Line(chapter, 18))
        outline.append(Bookmark(section, len(pages), level=2))
        body = [Line(text) for text in lines]
        half = LINES_PER_PAGE - len(first)
        pages.append(first + body[:half])
        pages.append(body[half:])
    spec = PdfSpec(
        pages=pages,
        header="A Made-up Manual",
        footer="Page {page}",
        outline=outline,
        title="A Made-up Manual",
    )
    path = folder / "pdf" / "manual.pdf"
    path.parent.mkdir(parents=True)
    path.write_bytes(pdf_bytes(spec))
    return path


def write_markdown(folder: Path, sections: list[tuple[str, str, list[str]]]) -> Path:
    tree = folder / "markdown"
    tree.mkdir()
    chapters: dict[str, list[str]] = {}
    for chapter, section, lines in sections:
        text = chapters.setdefault(chapter, [f"# {chapter}", ""])
        text += [f"## {section}", "", *lines, ""]
    for number, text in enumerate(chapters.values(), start=1):
        (tree / f"chapter-{number:03d}.md").write_text("\n".join(text), encoding="utf-8")
    return tree


def measure(folder: Path, runs: int) -> dict[str, float]:
    results = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", READ, str(folder)],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        results.append(json.loads(done.stdout))
    return {
        "seconds": statistics.median(r["seconds"] for r in results),
        "passages": results[0]["passages"],
        "peak_mb": max(r["peak"] for r in results) / 1e6,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pdf", type=Path, action="append", default=[])
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pdf-reading-"))
    try:
        sections = manual(options.pages)
        pdf = write_pdf(work, sections)
        markdown = write_markdown(work, sections)
        md_bytes = sum(path.stat().st_size for path in markdown.iterdir())
        rows = [
            (f"PDF, {options.pages} pages", pdf.stat().st_size, measure(pdf.parent, options.runs)),
            (
                f"Markdown, same text ({len(list(markdown.iterdir()))} files)",
                md_bytes,
                measure(markdown, options.runs),
            ),
        ]
        for number, real in enumerate(options.pdf):
            folder = work / f"real-{number}"
            folder.mkdir()
            shutil.copy(real, folder / real.name)
            rows.append((real.name, real.stat().st_size, measure(folder, options.runs)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("| library | size | passages | read (s) | peak memory (MB) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, size, measured in rows:
        print(
            f"| {name} | {size / 1e6:.1f} MB | {measured['passages']:,} "
            f"| {measured['seconds']:.2f} | {measured['peak_mb']:.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
