"""A small library on disk and what the index store makes of it, for the store's tests."""

from __future__ import annotations

import gc
import os
from pathlib import Path

from tui_assistant.core.library.library import Library
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library, store_path

PASTA = "# Pasta water\n\nSalt the pasta water with ten grams per litre.\n"
EGGS = "# Boiled eggs\n\nBoil the eggs for six minutes for a runny yolk.\n"
KNIVES = "# Knife care\n\nHone the knife blade before each use.\n\n## Storage\n\nKeep knives in a block.\n"

EXPECTED = {
    "boiled-eggs": ("Boiled eggs", "Boil the eggs for six minutes for a runny yolk."),
    "kitchen/knife-care": ("Knife care", "Hone the knife blade before each use."),
    "kitchen/knife-care#storage": (
        "Knife care \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} Storage",
        "Keep knives in a block.",
    ),
    "pasta-water": ("Pasta water", "Salt the pasta water with ten grams per litre."),
}


def write(folder: Path, relative: str, text: str) -> Path:
    """Write a document and give it a fresh stamp (size may not change, mtime does)."""
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    stamp = max(path.stat().st_mtime_ns, old + 1_000_000_000)
    os.utime(path, ns=(stamp, stamp))
    return path


def write_kitchen(folder: Path) -> Path:
    """Three documents, one in a sub-folder with two passages."""
    write(folder, "pasta-water.md", PASTA)
    write(folder, "boiled-eggs.md", EGGS)
    write(folder, "kitchen/knife-care.md", KNIVES)
    return folder


def open_(folder: Path, data_dir: Path | None) -> Library:
    return open_library(folder, data_dir, key=stem)


def contents(library: Library) -> dict[str, tuple[str, str]]:
    """id -> (title, text) of every passage."""
    found = {}
    for info in library:
        passage = library.get(info.id)
        assert passage is not None
        found[info.id] = (info.title, passage.text)
    return found


def problems(library: Library) -> dict[str, str]:
    return {problem.path: problem.reason for problem in library.problems}


def closed(library: Library) -> None:
    """Let go of a library's store connection, as a process that exits does (the
    caller must hold no other reference to it)."""
    del library
    gc.collect()


def contents_once(folder: Path, data_dir: Path) -> dict[str, tuple[str, str]]:
    """Open, read every passage, and let go of the store again."""
    found = contents(open_(folder, data_dir))
    gc.collect()
    return found


def store_file(folder: Path, data_dir: Path) -> Path:
    return store_path(data_dir, folder)
