"""A real MyST tree (attrs' documentation with its source, eval/attrs-docs) read as its
pages show it: no raw role, label or directive in any passage or title, no passage made
of markup only, and the API reference read from the source."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tui_assistant.core.library.library import Library
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library

DEVSET = Path(__file__).resolve().parents[2] / "eval" / "attrs-docs"

# Markup a built page never shows, outside code.
RAW_MARKUP = {
    "role": re.compile(r"\{[A-Za-z][\w:.+-]*\}`|(?<![\w`]):[A-Za-z][\w.+-]*(?::[\w.+-]+)*:`"),
    "label": re.compile(r"^\s*\([^()\s]+\)=\s*$|^\s*\.\. _[^:]+:\s*$", re.MULTILINE),
    "directive": re.compile(r"^\s*\.\. [\w:.+-]+::", re.MULTILINE),
    "myst fence": re.compile(r"^\s*(?:```|~~~)\s*\{", re.MULTILINE),
    "colon fence": re.compile(r"^\s*:::", re.MULTILINE),
    "attribute line": re.compile(r"^\s*\{[.#][^{}]*\}\s*$", re.MULTILINE),
}
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
# A code span, unless it is a role's (`` {func}`x` ``, `` :func:`x` ``).
_CODE_SPAN = re.compile(r"(?<![}:`])(`+)(?:.*?[^`])?\1(?!`)")


def prose(text: str) -> str:
    """`text` without its code blocks and code spans, where markup is an example."""
    kept: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        found = _FENCE.match(line)
        if fence is not None:
            if found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence):
                fence = None
            continue
        if found:
            fence = found.group(1)
            continue
        kept.append(_CODE_SPAN.sub("", line))
    return "\n".join(kept)


@pytest.fixture(scope="module")
def library() -> Library:
    if not DEVSET.is_dir():
        pytest.fail(f"{DEVSET} is missing: python -m scripts.devsets.build attrs-docs")
    return open_library(DEVSET, None, key=stem)


def test_no_passage_or_title_shows_raw_markup(library: Library) -> None:
    found = []
    for number in range(len(library)):
        passage = library.passage(number)
        for name, pattern in RAW_MARKUP.items():
            for field in (passage.title, prose(passage.text)):
                hit = pattern.search(field)
                if hit:
                    found.append(f"{passage.id}: {name}: {field[hit.start() : hit.end() + 30]!r}")
    assert found == []


def test_no_passage_is_markup_only(library: Library) -> None:
    empty = [
        library.info(number).id
        for number in range(len(library))
        if not re.search(r"\w{2,}", library.passage(number).text)
    ]
    assert empty == []


def test_the_api_reference_is_read_from_the_source(library: Library) -> None:
    (evolve,) = [info for info in library if info.id == "docs/api#attrs-evolve"]
    assert evolve.title == "API Reference › Helpers › attrs.evolve(*args, **changes)"
    assert evolve.source_path == "attrs-docs/src/attr/_make.py"
    text = library.get(evolve.id).text  # type: ignore[union-attr]
    assert text.startswith("Create a new instance, based on the first positional argument")
    from_source = [info for info in library if info.source_path.endswith(".py")]
    assert len(from_source) > 60


def test_the_check_finds_the_markup_the_files_hold() -> None:
    # The same patterns on the files as written: each kind of markup is there to find.
    raw = "\n".join(
        prose(path.read_text(encoding="utf-8")) for path in sorted(DEVSET.glob("docs/*.*"))
    )
    assert {name for name, pattern in RAW_MARKUP.items() if pattern.search(raw)} >= {
        "role",
        "label",
        "directive",
    }
