"""A package whose public names are re-exported from private modules (structlog's
`configure` is `structlog._config.configure`): its API page finds the docstrings through
the package's `__init__`, by parsing only, and the sources that document nothing public
themselves are not warned about."""

from __future__ import annotations

from pathlib import Path

from tui_assistant.core.documents.formats.python import SOURCE_ONLY
from tui_assistant.core.library.report import skip_reason
from tui_assistant.core.library.start_warnings import start_warning_lines
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library

INIT = """from slog._config import configure, get_logger

__all__ = ["configure", "get_logger"]
"""
CONFIG = '''import sys


def configure(processors=None):
    """Set the processors every new logger uses."""


def get_logger(*args):
    """A logger bound to the configured processors."""
'''
API = """API Reference
=============

.. module:: slog

Configuration
-------------

.. autofunction:: configure

.. autofunction:: slog.get_logger
"""


def test_autodoc_finds_a_re_exported_name_in_its_private_module(
    tmp_path: Path, data_dir: Path
) -> None:
    folder = tmp_path / "slog-1.0"
    (folder / "docs").mkdir(parents=True)
    (folder / "src" / "slog").mkdir(parents=True)
    (folder / "src" / "slog" / "__init__.py").write_text(INIT)
    (folder / "src" / "slog" / "_config.py").write_text(CONFIG)
    (folder / "docs" / "api.rst").write_text(API)

    library = open_library(folder, data_dir, stem, kinds=("rst", "py"))

    found = {info.title: info for info in library}
    configure = found["API Reference › Configuration › slog.configure(processors=None)"]
    assert (configure.source_path, configure.line, configure.end_line) == (
        "slog-1.0/src/slog/_config.py",
        4,
        5,
    )
    assert "API Reference › Configuration › slog.get_logger(*args)" in found
    skipped = {problem.path: problem.reason for problem in library.problems}
    assert skipped == {"src/slog/__init__.py": SOURCE_ONLY, "src/slog/_config.py": SOURCE_ONLY}
    assert skip_reason(SOURCE_ONLY) == "source_only"
    assert start_warning_lines(library.problems, "`tui-assistant library`") == []
