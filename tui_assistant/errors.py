"""Every error the app raises on purpose, in one place, under one base class.

`TuiAssistantError` is the root: `except TuiAssistantError` means "any of ours". Below
it, `StartupError` is what stops a command before it runs (exit status 2: a setting, a
path, the command line, the library). Each message is one line for users: it names the
file or setting and what is wrong, and never holds a secret or text from a document or
a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tui_assistant.core.display_text import one_line

if TYPE_CHECKING:
    from pydantic import ValidationError

    from tui_assistant.core.library.library import FileProblem
    from tui_assistant.core.outcome import Reason


class TuiAssistantError(Exception):
    """Any error the app raises on purpose."""


class StartupError(TuiAssistantError):
    """What stops a command before it runs: the CLI prints its one line and exits 2."""


class ConfigError(StartupError):
    """A setting or path the app cannot start with (exit status 2)."""


class UsageError(StartupError):
    """Bad command-line usage (exit status 2)."""


class LibraryError(StartupError):
    """The library as a whole is unusable (missing folder, no passage at all).

    `problems` lists the files that were skipped, so a user whose every file was
    rejected learns why each one was, not only that none was left.
    """

    def __init__(self, message: str, problems: Sequence[FileProblem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


class CasesError(TuiAssistantError):
    """An `eval` cases file that cannot be evaluated; the message names the line."""

    def __init__(self, line_number: int, problem: str) -> None:
        super().__init__(f"line {line_number}: {problem}")
        self.line_number = line_number
        self.problem = problem


class StoreProblem(TuiAssistantError):
    """The index store cannot be trusted (damaged, foreign, another version)."""


class LedgerUnavailable(TuiAssistantError):
    """The call ledger could not be read or written, so the limit cannot be checked."""


class ProviderFailure(TuiAssistantError):
    """A provider call ended without a usable answer, for a known reason.

    `detail` is shown to users: plain words, never provider text or secrets.
    """

    def __init__(self, reason: Reason, detail: str | None = None) -> None:
        super().__init__(detail or reason.value)
        self.reason = reason
        self.detail = detail


class ModelError(TuiAssistantError):
    """The sentence-embedding model cannot be used (missing, incomplete, wrong hash)."""


class EmbeddingUnavailable(TuiAssistantError):
    """Texts cannot be embedded now: retrieval answers by words alone meanwhile, and
    says so. The message is one line naming where and why; `short` is a few words for
    a status bar."""

    def __init__(self, message: str, short: str) -> None:
        super().__init__(message)
        self.short = short


class EmbeddingServerError(EmbeddingUnavailable):
    """The embedding server cannot be reached, refuses, or answers badly. Never holds
    the server's own text or the key."""


def error_line(error: BaseException) -> str:
    """An error as one line for users: ours that stop a start (`StartupError`) speak for
    themselves, anything else is named (`OperationalError: disk I/O error`)."""
    if isinstance(error, StartupError):
        return one_line(str(error))
    return one_line(f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)


def validation_problems(error: ValidationError) -> str:
    """`limit: Input should be less than or equal to 10`, for each problem pydantic
    found, on one line (the rejected values are left out: they may be long or secret)."""
    parts = []
    for detail in error.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in detail["loc"]) or "arguments"
        parts.append(f"{where}: {detail['msg']}")
    return one_line("; ".join(dict.fromkeys(parts)))
