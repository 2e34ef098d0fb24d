"""Every error the app raises on purpose, in one place, under one base class.

`TuiAssistantError` is the root: `except TuiAssistantError` means "any of ours". Below
it, `StartupError` is what stops a command before it runs (exit status 2: a setting, a
path, the command line, the library). Each message is one line for users: it names the
file or setting and what is wrong, and never holds a secret or text from a document or
a model.

Some never reach a user: they are caught where they are raised (a try at an embedding
server another try may mend, a document that is not text and is skipped), and carry
what the catcher needs.

It stands under every other module and imports none of them: the core raises these
errors too. `os_error_words` is the one way an `OSError` is said, `unreadable_file_words`
the one way a file given to a command cannot be read.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Literal

# What went wrong with one try at an embedding server (`TryAgain.trouble`).
Trouble = Literal["rate_limited", "status", "unreachable", "broken", "timeout"]


class TuiAssistantError(Exception):
    """Any error the app raises on purpose."""


class StartupError(TuiAssistantError):
    """What stops a command before it runs: the CLI prints its one line and exits 2."""


class ConfigError(StartupError):
    """A setting or path the app cannot start with (exit status 2)."""


class UsageError(StartupError):
    """Bad command-line usage (exit status 2)."""


class BadArgument(TuiAssistantError, ValueError):
    """An argument the tool cannot use; the message is one line naming it."""


class LibraryError(StartupError):
    """The library as a whole is unusable (missing folder, no passage at all).

    `problems` lists the files that were skipped, so a user whose every file was
    rejected learns why each one was, not only that none was left.
    """

    def __init__(self, message: str, problems: Sequence[object] = ()) -> None:
        # The skipped files (`FileProblem`s), each said by its `str`.
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


class ModelError(TuiAssistantError):
    """The sentence-embedding model cannot be used (missing, incomplete, wrong hash)."""


class EmbeddingUnavailable(TuiAssistantError):
    """Texts cannot be embedded now: retrieval answers by words alone meanwhile, and
    says so. The message is one line naming where and why; `short` is a few words for
    a status bar. `every_text` is True when the fault is not about the texts asked
    (a server down, rate limiting or refusing the key): any text would meet it now, so
    trying the texts one at a time cannot help."""

    def __init__(self, message: str, short: str, *, every_text: bool = False) -> None:
        super().__init__(message)
        self.short = short
        self.every_text = every_text


class EmbeddingServerError(EmbeddingUnavailable):
    """The embedding server cannot be reached, refuses, or answers badly. Never holds
    the server's own text or the key."""


class TryAgain(TuiAssistantError):
    """One try at an embedding server failed in a way another try may mend."""

    def __init__(self, trouble: Trouble, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.trouble = trouble
        self.detail = detail
        self.retry_after = retry_after


class TooBig(TuiAssistantError):
    """The embedding server refused the batch as too large (413, 422, 400)."""

    def __init__(self, status: int) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status


class BadAnswer(TuiAssistantError, ValueError):
    """The server's answer is not the vectors asked for; the message says how, in plain
    words, never quoting the answer."""


class WeightsError(TuiAssistantError, ValueError):
    """A tensor the model needs is missing or has the wrong shape."""


class ProviderFailure(TuiAssistantError):
    """A provider call ended without a usable answer, for a known reason.

    `reason` is the outcome's `Reason` (`core.outcome`). `detail` is shown to users:
    plain words, never provider text or secrets.
    """

    def __init__(self, reason: StrEnum, detail: str | None = None) -> None:
        super().__init__(detail or reason.value)
        self.reason = reason
        self.detail = detail


class NotText(TuiAssistantError, ValueError):
    """A document's bytes are not text it can be read as; the message says why."""


class FetchError(TuiAssistantError):
    """A package that cannot be fetched; the message is one line saying why."""


class CrawlStopped(FetchError):
    """A website's fetch stopped as a whole (Ctrl-C)."""


class PageRefused(TuiAssistantError):
    """A website's page not kept; the message is one line saying why (`status`: the HTTP
    status that refused it, if one did)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class ArchiveError(FetchError):
    """An archive refused as a whole; the message says why in one line."""


class LockfileError(TuiAssistantError, ValueError):
    """A project file that cannot be read as dependencies; one line."""


class YamlSubsetError(TuiAssistantError, ValueError):
    """A line the lock files' YAML reader cannot take as a mapping entry; says which."""


def os_error_words(error: OSError) -> str:
    """What went wrong, in the system's words (`Permission denied`), else the error's
    own text: never `None`, always one line."""
    words = error.strerror or str(error) or type(error).__name__
    return " ".join(words.split())


def unreadable_file_words(error: OSError | UnicodeDecodeError) -> str:
    """Why a file given to a command cannot be read, said after its name: `does not
    exist`, `is not UTF-8 text`, else `cannot be read (Permission denied)`."""
    if isinstance(error, FileNotFoundError):
        return "does not exist"
    if isinstance(error, UnicodeDecodeError):
        return "is not UTF-8 text"
    return f"cannot be read ({os_error_words(error)})"
