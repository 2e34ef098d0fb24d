"""One ref of a git repository: its commit's documents, fetched without running anything.

`git+https://…@REF`: one shallow fetch (depth 1) of that ref over `git_http`'s bounded
client (blobs over the file cap are asked to be left out where the server supports
filters); the pack is read entry by entry (`git_pack.check_pack`) before dulwich
indexes it in a bare repository inside the staging folder. `git+file:///PATH@REF`:
the local repository's objects are read in place, each object's size from its header
first. Either way `git_tree` writes the documents. No hook, no checkout, no submodule,
no LFS download, no `git` program: dulwich is pure Python and reads objects only.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dulwich import errors as git_errors
from dulwich.object_store import ObjectStoreGraphWalker
from dulwich.objects import Commit, ObjectID, Tag
from dulwich.repo import Repo

from tui_assistant.errors import FetchError
from tui_assistant.registry.archive import Limits
from tui_assistant.registry.git_http import BoundedHttpGitClient
from tui_assistant.registry.git_pack import PackLimits, check_pack, stored_size
from tui_assistant.registry.git_tree import write_documents
from tui_assistant.registry.transport import host_of

if TYPE_CHECKING:
    from dulwich.object_store import BaseObjectStore

    from tui_assistant.registry.git_spec import GitSpec

# The pack of one commit's files, as sent (compressed).
MAX_PACK_BYTES = 200 << 20
_MAX_PEELS = 10
_DULWICH_ERRORS = (
    git_errors.GitProtocolError,
    git_errors.ChecksumMismatch,
    git_errors.ApplyDeltaError,
    git_errors.WrongObjectException,
    git_errors.ObjectMissing,
    git_errors.FileFormatException,
    git_errors.NotGitRepository,
    zlib.error,
    EOFError,
    ValueError,
    KeyError,
)


@dataclass(frozen=True, slots=True)
class GitFetched:
    """A ref's commit and what of it was kept (paths relative to the library folder)."""

    commit: str
    files: tuple[str, ...]
    documentation: bool
    notes: tuple[str, ...]


def fetch_ref(
    spec: GitSpec, staging: Path, target: Path, limits: Limits, stopping: threading.Event
) -> GitFetched:
    """Write the documents of `spec`'s ref into `target` (an empty folder); `staging`
    holds the fetched objects meanwhile. Raises FetchError with one line."""
    try:
        if spec.local:
            return _from_local(spec, target, limits)
        return _over_http(spec, staging, target, limits, stopping)
    except _DULWICH_ERRORS as error:
        if isinstance(error, FetchError):
            raise
        where = spec.path if spec.local else host_of(spec.url)
        text = (str(error).strip() or type(error).__name__).splitlines()[0][:120]
        raise FetchError(f"{where}: {text}") from None


def _from_local(spec: GitSpec, target: Path, limits: Limits) -> GitFetched:
    if not Path(spec.path).is_dir():
        raise FetchError(f"{spec.path}: no such folder")
    try:
        repo = Repo(spec.path)
    except git_errors.NotGitRepository:
        raise FetchError(f"{spec.path} is not a git repository") from None
    with repo:
        refs = {bytes(name): bytes(sha) for name, sha in repo.get_refs().items()}
        wanted = _wanted(spec, refs)
        return _write(repo.object_store, wanted, spec, target, limits)


def _over_http(
    spec: GitSpec, staging: Path, target: Path, limits: Limits, stopping: threading.Event
) -> GitFetched:
    client = _Client(spec.url)
    pack = staging / "fetched.pack"
    chosen: list[bytes] = []
    received = 0
    try:
        with pack.open("wb") as out:

            def pack_data(data: bytes) -> None:
                nonlocal received
                if stopping.is_set():
                    raise FetchError("interrupted")
                received += len(data)
                if received > MAX_PACK_BYTES:
                    raise FetchError(f"the ref's pack is over {MAX_PACK_BYTES >> 20} MiB")
                out.write(data)

            def determine_wants(refs: dict[bytes, bytes], depth: int | None = None) -> list[bytes]:
                chosen.append(_wanted(spec, refs))
                return chosen[-1:]

            client.fetch_pack(
                "",
                determine_wants,  # type: ignore[arg-type]
                ObjectStoreGraphWalker([], lambda _: []),
                pack_data,  # type: ignore[arg-type]
                depth=1,
                filter_spec=f"blob:limit={limits.file_bytes}".encode(),
            )
    finally:
        client.close()
    if not received:
        raise FetchError(f"{host_of(spec.url)} sent no objects for {spec.ref}")
    check_pack(pack, PackLimits(expanded_bytes=limits.expanded_bytes))
    repo = Repo.init_bare(str(staging / "objects.git"), mkdir=True)
    with repo, pack.open("rb") as source:
        repo.object_store.add_thin_pack(source.read, None)
        pack.unlink()
        return _write(repo.object_store, chosen[-1], spec, target, limits)


class _Client(BoundedHttpGitClient):
    @staticmethod
    def _warn_filter_objects() -> None:
        """A server without filters sends big blobs: they are left out when read."""


def _ref_names(ref: str) -> list[bytes]:
    """Where a ref by this name is looked for: a tag first, as `git clone -b` does."""
    name = ref.encode("utf-8")
    return [b"refs/tags/" + name, b"refs/heads/" + name]


def _wanted(spec: GitSpec, refs: Mapping[bytes, Any]) -> bytes:
    """The object the ref names among `refs` (a full commit id is taken as given)."""
    for name in _ref_names(spec.ref):
        if refs.get(name):
            return bytes(refs[name])
    if spec.is_commit:
        return spec.ref.encode("ascii")
    tags = sorted(
        n.removeprefix(b"refs/tags/").decode("utf-8", "replace")
        for n in refs
        if n.startswith(b"refs/tags/") and not n.endswith(b"^{}")
    )
    known = f" (tags: {', '.join(tags[-5:])})" if tags else ""
    raise FetchError(f"no tag or branch {spec.ref} in the repository{known}")


def _write(
    store: BaseObjectStore, wanted: bytes, spec: GitSpec, target: Path, limits: Limits
) -> GitFetched:
    commit = _peel(store, wanted, spec.ref)
    written = write_documents(store, commit.tree, spec.subdirectory, target, limits)
    return GitFetched(
        commit.id.decode("ascii"),
        tuple(written.files),
        written.documentation,
        tuple(written.notes),
    )


def _peel(store: BaseObjectStore, sha: bytes, ref: str) -> Commit:
    """The commit an annotated tag (or a chain of them) points at."""
    for _ in range(_MAX_PEELS):
        size = stored_size(store, sha)
        if size is None:
            raise FetchError(f"{ref}: commit {sha[:12].decode('ascii')} was not fetched")
        if size > 1 << 20:
            raise FetchError(f"{ref}: a commit or tag of over 1 MiB: not kept")
        found = store[ObjectID(sha)]
        if isinstance(found, Commit):
            return found
        if not isinstance(found, Tag):
            raise FetchError(f"{ref} names a {found.type_name.decode()}, not a commit")
        sha = found.object[1]
    raise FetchError(f"{ref}: tags point at tags more than {_MAX_PEELS} deep")
