"""Shared test helpers: the project's folders, temporary libraries, and the
result of the real CLI run in a subprocess.

Fixtures live in `tests/conftest.py`; the loopback fake model server, child processes,
the provider fault list and the full-screen app drivers are modules of this package."""

from __future__ import annotations

import json
import os
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.evaluation import EvalCase, parse_cases
from tui_assistant.core.library.library import DocumentInfo, Library, PassageInfo
from tui_assistant.core.retrieval.index import (
    NUMBER_TYPECODE,
    InvertedIndex,
    KeyFunction,
    Postings,
    add_postings,
)
from tui_assistant.core.retrieval.types import Evidence, Mode, NoEvidence
from tui_assistant.core.words import content_words, stem
from tui_assistant.store.index_store import open_library

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent
BUNDLED_LESSONS = PROJECT_ROOT / "lessons"


class FixedRetriever:
    """Retrieval whose result is given: what is made of a result is tested, not a ranking."""

    mode: Mode = "hybrid"

    def __init__(self, library: Library, result: Evidence | NoEvidence) -> None:
        self.library = library
        self.result = result

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        return self.result


class IndexBuilder:
    """Builds an index in memory, one passage at a time, numbered from 0 (the store
    builds the app's own; tests need one without a disk)."""

    def __init__(self, key: KeyFunction) -> None:
        self._key = key
        self._title: dict[str, Postings] = {}
        self._body: dict[str, Postings] = {}
        self._title_lengths = array(NUMBER_TYPECODE)
        self._body_lengths = array(NUMBER_TYPECODE)

    def add(self, title_words: Iterable[str], body_words: Iterable[str]) -> None:
        number = len(self._title_lengths)
        self._title_lengths.append(add_postings(self._title, number, title_words))
        self._body_lengths.append(add_postings(self._body, number, body_words))

    def finish(self) -> InvertedIndex:
        return InvertedIndex(
            self._title, self._body, self._title_lengths, self._body_lengths, self._key
        )


def library_of(
    passages: Iterable[Passage], key: KeyFunction = stem, folder: Path = Path("lessons")
) -> Library:
    """A library held in memory, indexed with `key`, no files: each passage is its own
    document, at its source path."""
    kept = list(passages)
    builder = IndexBuilder(key)
    infos: list[PassageInfo] = []
    documents: list[DocumentInfo] = []
    for number, passage in enumerate(kept):
        builder.add(content_words(passage.title), content_words(passage.text))
        document = passage.source_path.split("/", 1)[-1]
        infos.append(
            PassageInfo(
                passage.id,
                passage.title,
                passage.source_path,
                passage.line,
                passage.end_line,
                document,
            )
        )
        documents.append(DocumentInfo(document, passage.title, number, 1))
    texts = [passage.text for passage in kept]
    return Library(folder, infos, documents, builder.finish(), texts.__getitem__)


def memory_library(folder: Path) -> Library:
    """The library at `folder`, indexed in memory (no store on disk) with the keyword keys."""
    return open_library(folder, None, stem)


def write_lesson(folder: Path, lesson_id: str, title: str, text: str) -> Path:
    path = folder / f"{lesson_id}.md"
    path.write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
    return path


@dataclass
class CliResult:
    returncode: int
    stdout: str
    stderr: str

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


def cli_env(data_dir: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a user's script would have: no stray TUI_ASSISTANT_* settings.

    Retrieval is `ranked` unless `extra` says otherwise: `auto` would be `hybrid` or
    `ranked` depending on whether this machine has an embedding model installed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    env["TUI_ASSISTANT_DATA_DIR"] = str(data_dir)
    env["TUI_ASSISTANT_RETRIEVAL"] = "ranked"
    env.update(extra or {})
    return env


RunCli = Callable[..., CliResult]


# Six lessons that all mention knives: "knife" says little here, "ceramic" a lot.
KNIFE_LESSONS = {
    "ceramic-knives": (
        "Brittle blades",
        "A ceramic knife keeps its edge for a long time but chips if you twist it.",
    ),
    "whetstones": (
        "Whetstones",
        "Sharpen a steel knife on a whetstone, keeping the same angle on every stroke.",
    ),
    "honing": ("Honing", "Hone a knife on a steel rod; honing is not the same as sharpening."),
    "storage": ("Knife storage", "Keep each knife in a block or on a magnetic strip."),
    "boards": ("Cutting boards", "Cut on wood so the knife edge lasts; glass dulls a knife."),
    "bread": ("Bread knives", "A serrated knife saws through crust without crushing the crumb."),
}


def read_cases(path: Path) -> list[EvalCase]:
    """The cases of an eval file, read as `eval` reads them (either name of the key)."""
    return parse_cases(path.read_text(encoding="utf-8").splitlines())


# -- model mode in process, with a scripted provider instead of the network ----------

SALT_FAITHFUL = "Use about 10 grams of salt per litre of water [source:pasta-water]."


SALT_INVENTED = "Rub butter around the rim of the pot so it never boils over [source:pasta-water]."


class ScriptedProvider:
    """An AnswerProvider that answers from a script, by the best passage's id."""

    def __init__(self, script: Mapping[str, str]) -> None:
        self.script = script
        self.calls: list[str] = []

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        self.calls.append(question)
        return ModelAnswer(self.script[passages[0].id])


SCRIPT = {
    "pasta-water": f"{SALT_FAITHFUL} {SALT_INVENTED}",
    "boiled-eggs": "For a runny yolk, cook large eggs for 6 minutes [source:boiled-eggs].",
    "knife-care": "Hone the edge with a steel every few uses.",  # no citation
}


def library_report(capsys: Any, *args: str) -> dict[str, Any]:
    """`tui-assistant library --json` run in process (`capsys`: pytest's fixture), its
    report read back."""
    from tui_assistant import cli

    assert cli.main(["library", "--json", *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data
