"""Several worker processes for one HTTP MCP server: `mcp --http … --workers N`.

The parent binds the listening socket once and uvicorn's own process supervisor
(`uvicorn.supervisors.Multiprocess`) runs N worker processes on it, each serving the
same app (`worker_app`); the kernel hands each connection to one of them. A worker
that dies is started again by the supervisor. The HTTP app is stateless, so no call
depends on which worker took the one before it.

Every worker opens the same libraries through the same index stores in the data
folder. One of them, the one holding the writer lock (`<data>/mcp-writer.lock`, an
advisory `flock`), is the writer: it alone watches the folders, reads changed files
and embeds. The others follow it (`wiring.follower.follow_writer`): they never watch
or embed, and when the writer commits to a store (its file or write-ahead log
changes) they open the libraries again from it, with the stored vectors. The token
rule, `status` and `gaps` come from the same settings and stores, so they are the same
from any worker.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

import uvicorn
from uvicorn.supervisors import Multiprocess

from tui_assistant import PROG
from tui_assistant.errors import UsageError
from tui_assistant.mcp.http import (
    BearerToken,
    Health,
    HttpAddress,
    check_token_rule,
    listening_socket,
)
from tui_assistant.mcp.server import Serving, build_server, health, http_app
from tui_assistant.settings import load_settings
from tui_assistant.wiring.context import open_context, with_stored_vectors
from tui_assistant.wiring.store_setting import uses_postgres

if TYPE_CHECKING:
    from starlette.types import ASGIApp


MOST_WORKERS: Final = 64
WRITER_LOCK: Final = "mcp-writer.lock"
# The options the workers are started with, as JSON, for `worker_app` to read.
_OPTIONS: Final = "_TUI_ASSISTANT_MCP_WORKER"
# The writer lock's file stays open (and locked) as long as the writer lives.
_held: list[IO[str]] = []


def check_workers(value: int, http: HttpAddress | None) -> None:
    """`UsageError` naming `--workers` for a count out of range or without `--http`."""
    if not 1 <= value <= MOST_WORKERS:
        raise UsageError(f"--workers: {value} is not a number from 1 to {MOST_WORKERS}")
    if value > 1 and http is None:
        raise UsageError("--workers: several workers serve over HTTP only (give --http)")


def serve_workers(
    library: list[str] | None,
    retrieval: str | None,
    http: HttpAddress,
    workers: int,
    store: str | None = None,
) -> int:
    """Serve from `workers` processes on one socket until interrupted."""
    listener = listening_socket(http)
    os.environ[_OPTIONS] = json.dumps(
        {
            "library": library,
            "retrieval": retrieval,
            "store": store,
            "host": http.host,
            "port": http.port,
        }
    )
    config = uvicorn.Config(
        f"{__name__}:worker_app",
        factory=True,
        workers=workers,
        log_level="warning",
        access_log=False,
        lifespan="on",
    )
    print(f"{PROG}: serving MCP at {http.url} from {workers} workers", file=sys.stderr, flush=True)
    Multiprocess(config, sockets=[listener]).run()
    return 0


def worker_app() -> ASGIApp:
    """One worker's app (in its own process): the writer's if it takes the lock first,
    else a follower's."""
    options = json.loads(os.environ[_OPTIONS])
    settings = load_settings(options["library"], options["retrieval"], options.get("store"))
    http = HttpAddress(options["host"], options["port"])
    token = check_token_rule(http, settings)
    # With a shared store the indexer writes: every worker only reads and follows it.
    writer = not uses_postgres(settings) and take_writer_lock(settings.data_dir)
    # Standard output is the protocol's only over stdio; here it is a log, kept quiet.
    with contextlib.redirect_stdout(sys.stderr):
        context = with_stored_vectors(open_context(settings, embed_now=False))
    serving = Serving(context, watching=settings.watch and writer, follower=not writer)
    app = http_app(build_server(serving), http)
    served = BearerToken(app, token) if token is not None else app
    return Health(served, partial(health, serving))


def take_writer_lock(data_dir: Path) -> bool:
    """Whether this process is the writer: the first to lock the data folder's writer
    lock, held until it exits (the lock goes with the process, however it ends)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    stream = (data_dir / WRITER_LOCK).open("a", encoding="utf-8")
    try:
        fcntl.flock(stream, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        stream.close()
        return False
    _held.append(stream)
    return True
