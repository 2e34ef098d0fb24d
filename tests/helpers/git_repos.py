"""Bare git repositories made with dulwich for the fetch tests, and a loopback server.

`GitRepo` commits trees of files (`bytes`), symbolic links (`Link`) and submodule
entries (`Submodule`) and tags them; `add_hooks` puts hooks in the repository that
would create a marker file if anything ran them; `add_loose_claim` writes a loose
object whose header claims a size its data does not have. `serve` runs dulwich's own
smart-HTTP server (`dulwich.web`) on 127.0.0.1 in a thread, with `routes` to answer a
path otherwise (a redirect, a plain-file answer).
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from dulwich.objects import Blob, Commit, ObjectID, Tag, Tree
from dulwich.repo import Repo
from dulwich.server import DictBackend
from dulwich.web import make_wsgi_chain

AUTHOR = b"Docs Writer <docs@example.com>"
LFS_POINTER = (
    b"version https://git-lfs.github.com/spec/v1\n"
    b"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
    b"size 2147483648\n"
)


@dataclass(frozen=True)
class Link:
    target: str


@dataclass(frozen=True)
class Submodule:
    commit: bytes = b"1" * 40


Entry = bytes | Link | Submodule


@dataclass
class GitRepo:
    """A bare repository at `path` whose commits are whole trees given as files."""

    path: Path
    repo: Repo = field(init=False)
    head: bytes | None = None
    clock: int = 1_700_000_000

    def __post_init__(self) -> None:
        self.repo = Repo.init_bare(str(self.path), mkdir=True)

    def commit(
        self, files: Mapping[str, Entry], tag: str | None = None, branch: str = "main"
    ) -> bytes:
        tree = self._tree(_nested(files))
        commit = Commit()
        commit.tree = tree
        commit.parents = [self.head] if self.head else []
        commit.author = commit.committer = AUTHOR
        self.clock += 60
        commit.author_time = commit.commit_time = self.clock
        commit.author_timezone = commit.commit_timezone = 0
        commit.message = f"release {tag or branch}\n".encode()
        self.repo.object_store.add_object(commit)
        self.head = commit.id
        self.repo.refs[b"refs/heads/" + branch.encode()] = commit.id
        self.repo.refs.set_symbolic_ref(b"HEAD", b"refs/heads/" + branch.encode())
        if tag:
            annotated = Tag()
            annotated.name = tag.encode()
            annotated.object = (Commit, commit.id)
            annotated.tagger = AUTHOR
            annotated.tag_time, annotated.tag_timezone = self.clock, 0
            annotated.message = b"tagged\n"
            self.repo.object_store.add_object(annotated)
            self.repo.refs[b"refs/tags/" + tag.encode()] = annotated.id
        return commit.id

    def add_hooks(self, marker: Path) -> None:
        """Every hook git knows of for a fetch or checkout, each creating `marker`."""
        hooks = self.path / "hooks"
        hooks.mkdir(exist_ok=True)
        for name in ("post-checkout", "post-merge", "pre-upload-pack", "post-update"):
            hook = hooks / name
            hook.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
            hook.chmod(0o755)

    def add_loose_claim(self, size: int) -> bytes:
        """A loose blob whose header says `size` bytes, with only its first bytes
        present: read whole, it fails; read by its header, it is `size` bytes."""
        sha = b"f" * 40
        folder = self.path / "objects" / "ff"
        folder.mkdir(parents=True, exist_ok=True)
        squeeze = zlib.compressobj()
        data = squeeze.compress(b"blob %d\0" % size + b"\0" * 4096) + squeeze.flush(
            zlib.Z_SYNC_FLUSH
        )
        (folder / ("f" * 38)).write_bytes(data)
        return sha

    def _tree(self, nested: dict[str, Any]) -> ObjectID:
        tree = Tree()
        for name, value in nested.items():
            if isinstance(value, dict):
                tree.add(name.encode(), 0o040000, self._tree(value))
            elif isinstance(value, Submodule):
                tree.add(name.encode(), 0o160000, ObjectID(value.commit))
            elif isinstance(value, Link):
                tree.add(name.encode(), 0o120000, self._blob(value.target.encode()))
            elif isinstance(value, _Raw):
                tree.add(name.encode(), 0o100644, ObjectID(value.sha))
            else:
                tree.add(name.encode(), 0o100644, self._blob(value))
        self.repo.object_store.add_object(tree)
        return tree.id

    def _blob(self, data: bytes) -> ObjectID:
        blob = Blob.from_string(data)
        self.repo.object_store.add_object(blob)
        return blob.id


@dataclass(frozen=True)
class _Raw:
    sha: bytes


def existing(sha: bytes) -> _Raw:
    """A tree entry pointing at an object already in the repository (by id)."""
    return _Raw(sha)


def _nested(files: Mapping[str, Any]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path, value in files.items():
        *folders, name = path.split("/")
        here = root
        for folder in folders:
            here = here.setdefault(folder, {})
        here[name] = value
    return root


class _Quiet(WSGIRequestHandler):
    def log_message(self, *_: object) -> None:
        pass


@dataclass
class Served:
    base: str
    requests: list[str]
    routes: dict[str, tuple[str, list[tuple[str, str]], bytes]]


@contextmanager
def serve(repos: Mapping[str, GitRepo]) -> Iterator[Served]:
    """`repos` (by URL path, `/proj.git`) over git's smart HTTP on 127.0.0.1."""
    git_app = make_wsgi_chain(DictBackend({path: r.repo for path, r in repos.items()}))
    served = Served("", [], {})

    def app(environ: dict[str, Any], start: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO", "")
        served.requests.append(path)
        for prefix, (status, headers, body) in served.routes.items():
            if path.startswith(prefix):
                start(status, headers)
                return [body]
        return git_app(environ, start)

    server: WSGIServer = make_server("127.0.0.1", 0, app, handler_class=_Quiet)
    served.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
