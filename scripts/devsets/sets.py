"""The development sets: each a cases file and its library folder, in one list that
`held_out.py`, `retrieval_curve.py` and `benchmarks/retrieval_quality.py` read.

A set whose folder is missing (django-large is built by a download) is skipped by
every reader.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# (name, cases file, library folder), relative to the repository.
SETS: list[tuple[str, str, str]] = [
    ("docker-docs", "eval/docker-docs.jsonl", "eval/docker-docs"),
    ("fastify-docs", "eval/fastify-docs.jsonl", "eval/fastify-docs"),
    ("undici-docs", "eval/undici-docs.jsonl", "eval/undici-docs"),
    ("django-faq", "eval/django-faq.jsonl", "eval/django-faq-lessons"),
    ("bundled", "eval/bundled.jsonl", "lessons"),
    ("serverless-docs", "eval/serverless-docs.jsonl", "eval/serverless-docs"),
    ("npm-cli-docs", "eval/npm-cli-docs.jsonl", "eval/npm-cli-docs"),
    ("starlette-docs", "eval/starlette-docs.jsonl", "eval/starlette-docs"),
    ("pytest-docs", "eval/pytest-docs.jsonl", "eval/pytest-docs"),
    ("attrs-docs", "eval/attrs-docs.jsonl", "eval/attrs-docs"),
    ("rust-book-guide", "eval/rust-book-guide.jsonl", "eval/rust-book-guide"),
    ("fish-api", "eval/fish-api.jsonl", "eval/fish-api"),
    ("notes-small", "eval/notes-small.jsonl", "eval/notes-small"),
    ("runbook-small", "eval/runbook-small.jsonl", "eval/runbook-small"),
    ("nox-small", "eval/nox-small.jsonl", "eval/nox-small"),
    ("bidict-html", "eval/bidict-html.jsonl", "eval/bidict-html"),
    ("mkdocs-html", "eval/mkdocs-html.jsonl", "eval/mkdocs-html"),
    ("lua-manual-html", "eval/lua-manual-html.jsonl", "eval/lua-manual-html"),
    ("autoconf-html", "eval/autoconf-html.jsonl", "eval/autoconf-html"),
    ("autoconf-pdf", "eval/autoconf-pdf.jsonl", "eval/autoconf-pdf"),
    ("make-pdf", "eval/make-pdf.jsonl", "eval/make-pdf"),
    ("fhs-pdf", "eval/fhs-pdf.jsonl", "eval/fhs-pdf"),
    ("devref-pdf", "eval/devref-pdf.jsonl", "eval/devref-pdf"),
    ("vite-docs", "eval/vite-docs.jsonl", "eval/vite-docs"),
    ("itsdangerous-docs", "eval/itsdangerous-docs.jsonl", "eval/itsdangerous-docs"),
    ("babel-docs", "eval/babel-docs.jsonl", "eval/babel-docs"),
    ("structlog-html", "eval/structlog-html.jsonl", "eval/structlog-html"),
    ("postgres-manual", "eval/postgres-manual.jsonl", "eval/postgres-manual"),
    ("make-html", "eval/make-html.jsonl", "eval/make-html"),
    ("sed-html", "eval/sed-html.jsonl", "eval/sed-html"),
    ("sed-pdf", "eval/sed-pdf.jsonl", "eval/sed-pdf"),
    ("manpages-git", "eval/manpages-git.jsonl", "eval/manpages-git"),
    ("django-large", "eval/django-large.jsonl", "eval/django/large-lessons"),
]


def available(only: list[str] | tuple[str, ...] = ()) -> list[tuple[str, Path, Path]]:
    """The sets present on disk (those named in `only`, when given), with full paths."""
    found = []
    for name, cases, folder in SETS:
        if only and name not in only:
            continue
        if (ROOT / folder).is_dir() and (ROOT / cases).is_file():
            found.append((name, ROOT / cases, ROOT / folder))
    return found
