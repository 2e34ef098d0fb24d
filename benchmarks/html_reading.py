"""Reading a built HTML site against reading the same text as Markdown.

Run from the repository root:

    python -m benchmarks.html_reading              # 1,000 pages
    python -m benchmarks.html_reading --pages 200

Generates two libraries under benchmarks/data/ (git-ignored) from the passages of the
HTML development sets (eval/bidict-html, eval/mkdocs-html, eval/lua-manual-html, read
as the library reads them): a site of N pages as a documentation generator writes them
(a head with its title, styles and scripts, an inline icon sprite, a sidebar of links,
breadcrumbs, the page's content under `role="main"` with `<h1>`/`<h2>` headings,
paragraphs and code, and a footer) and N Markdown files with the same headings and
words. Each library is then read by the real library code (`open_library`, no store:
listing, reading, decoding, splitting and indexing, before any embedding) in its own
process, three times; the table gives the best wall time, the pages per second, the
passages, and the process's peak resident memory. The exit status is 1 when the HTML
site takes more than 20 s or 500 MB.
"""

from __future__ import annotations

import argparse
import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

DATA = HERE / "data" / "html_reading"
SOURCES = ("eval/bidict-html", "eval/mkdocs-html", "eval/lua-manual-html")
LIMIT_SECONDS = 20.0
LIMIT_MB = 500.0
RUNS = 3
SECTIONS_PER_PAGE = 4

_SPRITE = "".join(
    f'<symbol id="icon-{n}" viewBox="0 0 24 24"><title>icon {n}</title>'
    f'<path d="M{n} 2L{n + 3} 5v6c0 5.5-3.8 10.7-9 12-5.2-1.3-9-6.5-9-12V5l9-4z"/></symbol>'
    for n in range(40)
)


def source_sections() -> list[tuple[str, str]]:
    """(heading, text) of every passage of the HTML development sets."""
    from tests.helpers import memory_library

    sections = []
    for folder in SOURCES:
        library = memory_library(ROOT / folder)
        for info in library.passages:
            passage = library.get(info.id)
            if passage is not None:
                sections.append(
                    (
                        info.title.rsplit(" \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} ", 1)[
                            -1
                        ],
                        passage.text,
                    )
                )
    return sections


def html_page(number: int, title: str, sections: list[tuple[str, str]], pages: int) -> str:
    links = "\n".join(
        f'<li class="toctree-l1"><a class="reference internal" href="page-{n:04d}.html">'
        f"Page {n}</a></li>"
        for n in range(max(0, number - 30), min(pages, number + 30))
    )
    body = []
    for heading, text in sections:
        anchor = f"s{len(body)}"
        body.append(
            f'<section id="{anchor}">\n<h2>{html.escape(heading)}'
            f'<a class="headerlink" href="#{anchor}" title="Link to this heading">¶</a></h2>'
        )
        for paragraph in text.split("\n\n"):
            escaped = html.escape(paragraph)
            if paragraph.startswith((" ", ">>>", "$")):
                body.append(f'<div class="highlight"><pre><span></span>{escaped}</pre></div>')
            else:
                body.append(f"<p>{escaped}</p>")
        body.append("</section>")
    content = "\n".join(body)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>{html.escape(title)} &#8212; Benchmark 1.0 documentation</title>
<link rel="stylesheet" href="_static/pygments.css" type="text/css" />
<script src="_static/documentation_options.js"></script>
<script>document.documentElement.dataset.theme = localStorage.getItem("theme") || "auto";</script>
<style>.sidebar {{ width: 15em }} .body {{ max-width: 50em }}</style>
</head>
<body>
<svg xmlns="http://www.w3.org/2000/svg" style="display: none;">{_SPRITE}</svg>
<div class="related" role="navigation" aria-label="related navigation"><ul>
<li class="right"><a href="genindex.html" title="General Index">index</a></li>
<li><a href="page-{max(0, number - 1):04d}.html">previous</a> |</li></ul></div>
<div class="sphinxsidebar" role="navigation" aria-label="main navigation">
<form class="search" action="search.html" method="get"><input type="text" name="q" /></form>
<ul class="current">
{links}
</ul></div>
<div class="document"><div class="body" role="main">
<ul class="breadcrumbs"><li><a href="index.html">Docs</a> &raquo;</li>
<li>{html.escape(title)}</li></ul>
<section id="page">
<h1>{html.escape(title)}<a class="headerlink" href="#page">¶</a></h1>
{content}
</section>
</div></div>
<div class="footer" role="contentinfo">&#169; Copyright 2024. Created using Sphinx.</div>
</body>
</html>
"""


def markdown_page(title: str, sections: list[tuple[str, str]]) -> str:
    parts = [f"# {title}\n"]
    for heading, text in sections:
        parts.append(f"## {heading}\n\n{text}\n")
    return "\n".join(parts)


def generate(pages: int) -> tuple[Path, Path, int, int]:
    sections = source_sections()
    site, notes = DATA / "site", DATA / "markdown"
    for folder in (site, notes):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    html_bytes = markdown_bytes = 0
    for number in range(pages):
        start = (number * SECTIONS_PER_PAGE) % len(sections)
        chosen = [sections[(start + k) % len(sections)] for k in range(SECTIONS_PER_PAGE)]
        title = f"Page {number}: {chosen[0][0]}"
        page = html_page(number, title, chosen, pages).encode()
        text = markdown_page(title, chosen).encode()
        (site / f"page-{number:04d}.html").write_bytes(page)
        (notes / f"page-{number:04d}.md").write_bytes(text)
        html_bytes += len(page)
        markdown_bytes += len(text)
    return site, notes, html_bytes, markdown_bytes


_READ = """
import json, resource, sys, time
from pathlib import Path
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library
started = time.perf_counter()
library = open_library(Path({folder!r}), None, stem)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "passages": len(library), "peak_mb": peak}}))
"""


def read_once(folder: Path) -> dict[str, float]:
    code = _READ.format(folder=str(folder))
    # `-c` puts the working folder first on the path: the child imports the app from ROOT.
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    measured: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return measured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pages", type=int, default=1000)
    args = parser.parse_args()
    site, notes, html_bytes, markdown_bytes = generate(args.pages)
    sizes = f"HTML {html_bytes / 1e6:.1f} MB, Markdown {markdown_bytes / 1e6:.1f} MB"
    print(f"{args.pages:,} pages: {sizes}")
    print(f"{'reader':<10} {'best s':>8} {'pages/s':>8} {'passages':>9} {'peak MB':>8}")
    results = {}
    for name, folder in (("HTML", site), ("Markdown", notes)):
        runs = [read_once(folder) for _ in range(RUNS)]
        best = min(runs, key=lambda run: run["seconds"])
        peak = max(run["peak_mb"] for run in runs)
        results[name] = (best["seconds"], peak)
        print(
            f"{name:<10} {best['seconds']:>8.2f} {args.pages / best['seconds']:>8.0f}"
            f" {int(best['passages']):>9,} {peak:>8.0f}"
        )
    seconds, peak = results["HTML"]
    print(f"HTML / Markdown time: {seconds / results['Markdown'][0]:.2f}x")
    return 0 if seconds <= LIMIT_SECONDS and peak <= LIMIT_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())
