"""Read the settings in a forked child: the TUI imports Textual meanwhile.

Importing pydantic and pydantic-settings takes about 60 ms, close to half of what a
minimal Textual app needs to draw its first screen, and 11 MB that stay resident.
The settings do not depend on Textual, so a child process reads them (with
pydantic-settings, exactly as `load_settings` does) on the second core while the TUI
imports Textual, and sends back the checked values, or the one-line `ConfigError`,
as JSON over a pipe. The app's process never imports pydantic: every command reads
its settings this way, which keeps those 11 MB out of the peak of an `eval` over a
large library.

Where forking is unavailable or unsafe (Windows; a process that already runs threads,
whose locks a child could inherit held), or the child fails or stalls, the settings
are read inline instead, so the result is always what `load_settings` gives.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import threading
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

from tui_assistant.core.secret import Secret
from tui_assistant.settings import ConfigError, Settings, load_settings

# A child that has not answered by then is stuck (a full disk, a stopped process):
# give up on it and read inline rather than keep the user waiting.
CHILD_WAIT_SECONDS = 5.0
_PATH_FIELDS = frozenset({"lessons_dir", "data_dir"})


class SettingsPrefetch:
    """Settings being read; `result()` gives them, or raises `ConfigError`."""

    def __init__(self, lessons_dir: Path | None, child: int | None, pipe: int | None) -> None:
        self._lessons_dir = lessons_dir
        # Whether a child reads them; when False, `result()` reads them inline.
        self.forked = child is not None
        self._child = child
        self._pipe = pipe

    def result(self) -> Settings:
        answer = self._child_answer()
        if answer is None:
            return load_settings(self._lessons_dir)
        if "error" in answer:
            raise ConfigError(str(answer["error"]))
        try:
            return settings_from_json(answer["settings"])
        except (KeyError, TypeError, ValueError):
            return load_settings(self._lessons_dir)  # a garbled answer: read them here

    def _child_answer(self) -> dict[str, Any] | None:
        """The child's JSON answer, or None when there is no child or it failed."""
        child, pipe = self._child, self._pipe
        if child is None or pipe is None:
            return None
        self._child = self._pipe = None
        data: bytes | None = None
        try:
            data = _read_until_closed(pipe, time.monotonic() + CHILD_WAIT_SECONDS)
        finally:
            os.close(pipe)
            _reap(child, stuck=data is None)
        try:
            answer = json.loads(data) if data is not None else None
        except ValueError:
            return None
        return answer if isinstance(answer, dict) else None


def prefetch_settings(lessons_dir: Path | None = None) -> SettingsPrefetch:
    """Start reading the settings beside the caller; see the module docstring."""
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return SettingsPrefetch(lessons_dir, None, None)
    read_end, write_end = os.pipe()
    try:
        child = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return SettingsPrefetch(lessons_dir, None, None)
    if child == 0:  # pragma: no cover - runs in the child, which never returns
        os.close(read_end)
        _answer_and_exit(write_end, lessons_dir)
    os.close(write_end)
    return SettingsPrefetch(lessons_dir, child, read_end)


def _answer_and_exit(pipe: int, lessons_dir: Path | None) -> None:  # pragma: no cover
    status = 1
    try:
        try:
            answer: dict[str, Any] = {"settings": settings_to_json(load_settings(lessons_dir))}
        except ConfigError as error:
            answer = {"error": str(error)}
        data = json.dumps(answer).encode("utf-8")
        while data:
            data = data[os.write(pipe, data) :]
        status = 0
    except BaseException:
        pass  # no answer: the parent reads the settings itself and reports the problem
    finally:
        # No atexit handlers, no flushing of buffers the parent also holds.
        os._exit(status)


def _read_until_closed(pipe: int, deadline: float) -> bytes | None:
    chunks: list[bytes] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([pipe], [], [], remaining)[0]:
            return None
        chunk = os.read(pipe, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(child: int, *, stuck: bool) -> None:
    """Collect the child's exit, so no zombie is left; a stuck child is killed first."""
    if stuck:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)


def settings_to_json(settings: Settings) -> dict[str, Any]:
    """The settings as JSON values; the key in clear, for the pipe to the parent only."""
    values: dict[str, Any] = {}
    for field in fields(settings):
        value = getattr(settings, field.name)
        if isinstance(value, Path):
            value = str(value)
        elif isinstance(value, Secret):
            value = value.get_secret_value()
        values[field.name] = value
    return values


def settings_from_json(values: dict[str, Any]) -> Settings:
    converted = dict(values)
    for name in _PATH_FIELDS:
        if converted.get(name) is not None:
            converted[name] = Path(converted[name])
    if converted.get("api_key") is not None:
        converted["api_key"] = Secret(converted["api_key"])
    return Settings(**converted)
