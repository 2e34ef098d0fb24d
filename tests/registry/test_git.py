"""One ref of a git repository read as hostile input: specs, pack sizes from headers,
documents written out of a commit with links, submodules, LFS pointers and big blobs
left out, and the shallow fetch over loopback HTTP through the bounded client."""

from __future__ import annotations

import re
import struct
import tempfile
import threading
import zlib
from pathlib import Path

import httpx
import pytest
from dulwich.repo import Repo

from tests.helpers.git_repos import LFS_POINTER, GitRepo, Link, Submodule, existing, serve
from tui_assistant.errors import FetchError
from tui_assistant.registry.archive import Limits
from tui_assistant.registry.git import fetch_ref
from tui_assistant.registry.git_hint import repository_url, suggestion
from tui_assistant.registry.git_http import BoundedHttpGitClient, BoundedResponse
from tui_assistant.registry.git_pack import PackLimits, check_pack
from tui_assistant.registry.git_spec import GitSpec, parse_git_spec
from tui_assistant.registry.git_tree import write_documents
from tui_assistant.registry.npm import repository_urls as npm_urls
from tui_assistant.registry.pypi import repository_urls as pypi_urls
from tui_assistant.registry.specs import parse_spec


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if not p.is_dir())


# Specs


def test_a_git_spec_names_the_library_repo_at_ref() -> None:
    spec = parse_spec("git+https://github.com/encode/httpx@0.27.2")
    assert spec == GitSpec("https://github.com/encode/httpx", "0.27.2")
    assert isinstance(spec, GitSpec) and spec.library == "httpx@0.27.2"
    slashed = parse_git_spec(
        "git+https://gitlab.com/Org/Site.Docs.git@release/2.0#subdirectory=site/docs"
    )
    assert (slashed.library, slashed.subdirectory) == ("site.docs@release-2.0", "site/docs")
    local = parse_git_spec("git+file:///srv/repos/manual.git@v1")
    assert (local.local, local.path, local.library) == (True, "/srv/repos/manual.git", "manual@v1")
    assert str(slashed).endswith("@release/2.0#subdirectory=site/docs")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("git+https://github.com/encode/httpx", "no @REF"),
        ("git+ftp://example.com/repo@1", "not an https:// or file://"),
        ("git+http://example.com/org/repo@1", "https is required"),
        ("git+https://user:secret@github.com/o/r@1", "user name or password"),
        ("git+https://github.com/o/r@a..b", "not a tag, branch or commit"),
        ("git+https://github.com/o/r@v1#subdirectory=../etc", "not a folder inside"),
        ("git+https://github.com/o/r@v1#egg=r", "#subdirectory=DIR"),
        ("git+file://host/srv/repo@v1", "absolute path on this machine"),
    ],
)
def test_a_bad_git_spec_says_how_to_write_one(text: str, words: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_spec(text)
    assert words in str(raised.value) and "\n" not in str(raised.value)


# The repository a release's metadata names


def test_repository_urls_as_metadata_writes_them() -> None:
    assert repository_url("git+https://github.com/acme/shop.git") == "https://github.com/acme/shop"
    assert repository_url("git://github.com/acme/shop.git") == "https://github.com/acme/shop"
    assert repository_url("git@github.com:acme/shop.git") == "https://github.com/acme/shop"
    assert (
        repository_url("https://github.com/acme/shop/tree/main/docs")
        == "https://github.com/acme/shop"
    )
    assert repository_url("github:acme/shop") == "https://github.com/acme/shop"
    assert repository_url("acme/shop") == "https://github.com/acme/shop"
    assert repository_url("gitlab:acme/shop") == "https://gitlab.com/acme/shop"
    assert repository_url("https://shop.example.com/") is None
    assert repository_url("https://github.com/acme") is None
    pkg_info = (
        "Metadata-Version: 2.1\nName: shop\nHome-page: https://shop.example.com\n"
        "Project-URL: Documentation, https://shop.readthedocs.io\n"
        "Project-URL: Source, https://github.com/acme/shop\n\nProject-URL: Source, https://evil.example\n"
    )
    assert pypi_urls(pkg_info)[0] == "https://github.com/acme/shop"
    assert "https://evil.example" not in pypi_urls(pkg_info)
    assert npm_urls('{"repository": {"type": "git", "url": "git+https://github.com/a/b.git"}}') == [
        "git+https://github.com/a/b.git"
    ]
    assert npm_urls("not json") == []
    assert suggestion("https://github.com/a/b", "1.2.0", "npm").endswith(
        "try fetch git+https://github.com/a/b@v1.2.0 (or @1.2.0)"
    )


# Packs read by their headers


def entry_header(kind: int, size: int) -> bytes:
    out = bytearray()
    byte = (kind << 4) | (size & 15)
    size >>= 4
    while size:
        out.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    out.append(byte)
    return bytes(out)


def pack_of(*entries: bytes) -> bytes:
    body = b"".join(entries)
    return b"PACK" + struct.pack(">II", 2, len(entries)) + body + b"\0" * 20


def test_a_pack_claiming_a_2_gib_blob_is_refused_by_its_header_before_inflating(
    tmp_path: Path,
) -> None:
    # Only 10 bytes of data follow the header: inflating it would fail, not refuse.
    claim = entry_header(3, 2 << 30) + zlib.compress(b"x" * 10)
    pack = tmp_path / "claim.pack"
    pack.write_bytes(pack_of(claim))
    with pytest.raises(FetchError, match="an object of 2,048 MiB, over the 512 MiB cap"):
        check_pack(pack, PackLimits())


def test_a_pack_entry_larger_than_its_header_and_a_sum_past_the_cap_are_refused(
    tmp_path: Path,
) -> None:
    pack = tmp_path / "lying.pack"
    pack.write_bytes(pack_of(entry_header(3, 5) + zlib.compress(b"y" * 5000)))
    with pytest.raises(FetchError, match="larger than its header says"):
        check_pack(pack, PackLimits())
    blob = entry_header(3, 3000) + zlib.compress(b"z" * 3000)
    pack.write_bytes(pack_of(blob, blob))
    assert check_pack(pack, PackLimits(expanded_bytes=6000)) == 2
    with pytest.raises(FetchError, match="expand past"):
        check_pack(pack, PackLimits(expanded_bytes=5000))
    # A delta's own bytes are small; the size it makes is in its first bytes.
    delta = entry_header(6, 8) + b"\x05" + zlib.compress(b"\x05\x80\x80\x80\x10xy")
    pack.write_bytes(pack_of(delta))
    with pytest.raises(FetchError, match="an object of 32 MiB"):
        check_pack(pack, PackLimits(object_bytes=1 << 20))
    pack.write_bytes(b"<html>not a pack</html>")
    with pytest.raises(FetchError, match="not a git pack"):
        check_pack(pack, PackLimits())


# Documents out of a commit


@pytest.fixture
def hostile(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "hostile.git")
    claim = repo.add_loose_claim(2 << 30)
    repo.commit(
        {
            ".gitmodules": b'[submodule "theme"]\n\tpath = docs/theme\n\turl = https://u:p@example.com/theme.git\n',
            "README.md": b"# Hostile\n\nA repository of traps.\n",
            "docs/guide.md": b"# Guide\n\nThe one honest page.\n",
            "docs/huge.md": existing(claim),
            "docs/big.md": b"# Big\n\n" + b"words " * 400,
            "docs/video.md": LFS_POINTER,
            "docs/passwd.md": Link("../../../../../etc/passwd"),
            "docs/alias.md": Link("guide.md"),
            "docs/theme": Submodule(),
            "src/app.py": b"raise SystemExit('never run')\n",
        },
        tag="v1",
    )
    return repo


def test_links_submodules_lfs_pointers_and_big_blobs_are_left_out_with_one_line_each(
    hostile: GitRepo, tmp_path: Path
) -> None:
    target = tmp_path / "out"
    target.mkdir()
    store = hostile.repo.object_store
    tree = hostile.repo[hostile.head].tree  # type: ignore[index, attr-defined]
    written = write_documents(store, tree, None, target, Limits(file_bytes=1024))
    assert files_under(target) == ["README.md", "docs/guide.md"]
    assert written.documentation
    notes = "\n".join(written.notes)
    assert "docs/huge.md: 2,048 MiB, over the 1,024 bytes cap, left out" in notes
    assert "docs/big.md: 2,407 bytes, over the 1,024 bytes cap, left out" in notes
    assert "docs/video.md: a Git LFS pointer (the file is kept elsewhere), left out" in notes
    assert (
        "docs/passwd.md: a symbolic link out of the repository (../../../../../etc/passwd), refused"
        in notes
    )
    assert "docs/theme: a submodule (https://example.com/theme.git), not fetched" in notes
    assert "alias" not in notes and ":p@" not in notes
    assert all("\n" not in note for note in written.notes)


def test_folders_nested_past_the_depth_cap_are_left_out_with_one_line(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "deep.git")
    repo.commit({"docs/" + "d/" * 70 + "deep.md": b"# Deep\n", "docs/top.md": b"# Top\n"}, tag="v1")
    target = tmp_path / "out"
    target.mkdir()
    tree = repo.repo[repo.head].tree  # type: ignore[index, attr-defined]
    written = write_documents(repo.repo.object_store, tree, None, target, Limits())
    assert written.files == ["docs/top.md"]
    assert [note.endswith("folders nested over 64 deep, left out") for note in written.notes] == [
        True
    ]


def test_a_path_named_dot_dot_refuses_the_whole_commit(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "escape.git")
    repo.commit({"docs/../escape.md": b"# Out\n"}, tag="v1")  # a tree entry named `..`
    target = tmp_path / "out"
    target.mkdir()
    tree = repo.repo[repo.head].tree  # type: ignore[index, attr-defined]
    with pytest.raises(FetchError, match=r"a path named '\.\.': nothing kept"):
        write_documents(repo.repo.object_store, tree, None, target, Limits())
    assert files_under(tmp_path / "out") == []


# Fetching a ref


def two_releases(path: Path) -> GitRepo:
    repo = GitRepo(path)
    repo.commit(
        {"README.md": b"# Kit\n", "docs/setup.md": b"# Setup\n\nKit 1 reads kit.ini.\n"}, tag="v1.0"
    )
    repo.commit(
        {
            "README.md": b"# Kit\n",
            "docs/setup.md": b"# Setup\n\nKit 2 reads kit.toml.\n",
            "site/content/intro.md": b"# Intro\n\nThe site's own pages.\n",
        },
        tag="v2.0",
    )
    return repo


def fetched(spec: str, tmp_path: Path, limits: Limits | None = None) -> tuple[Path, list[str]]:
    staging = Path(tempfile.mkdtemp(dir=tmp_path))
    target = staging / "library"
    target.mkdir()
    got = fetch_ref(parse_git_spec(spec), staging, target, limits or Limits(), threading.Event())
    return staging, list(got.files)


def test_a_shallow_fetch_over_loopback_takes_only_the_refs_commit(tmp_path: Path) -> None:
    repo = two_releases(tmp_path / "kit.git")
    with serve({"/kit.git": repo}) as server:
        staging, files = fetched(
            f"git+{server.base}/kit.git@v2.0#subdirectory=site/content", tmp_path
        )
    assert files == ["site/content/intro.md"]
    # Depth 1: the first release's page is not among the fetched objects.
    fetched_repo = Repo(str(staging / "objects.git"))
    old = repo.repo[repo.repo.refs[b"refs/tags/v1.0"]]
    old_commit = repo.repo[old.object[1]]  # type: ignore[attr-defined]
    assert old_commit.id not in fetched_repo.object_store
    assert (staging / "library" / "site/content/intro.md").read_text().startswith("# Intro")


def test_a_ref_the_repository_lacks_names_its_tags(tmp_path: Path) -> None:
    two_releases(tmp_path / "kit.git")
    with pytest.raises(
        FetchError, match=r"no tag or branch v3.0 in the repository \(tags: v1.0, v2.0\)"
    ):
        fetched(f"git+file://{tmp_path}/kit.git@v3.0", tmp_path)
    with pytest.raises(FetchError, match="is not a git repository"):
        fetched(f"git+file://{tmp_path}@v1", tmp_path)


# The HTTP rules, whatever a git server answers


def client_answering(answer: httpx.Response) -> BoundedHttpGitClient:
    transport = httpx.MockTransport(lambda request: answer)
    return BoundedHttpGitClient("https://git.example/org/repo", httpx.Client(transport=transport))


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (
            httpx.Response(302, headers={"Location": "http://git.example/org/repo/info/refs"}),
            "from https to plain http",
        ),
        (
            httpx.Response(302, headers={"Location": "https://git.example/again"}),
            "redirected more than 5 times",
        ),
        (httpx.Response(401), "asks for a login (HTTP 401): only public repositories"),
        (httpx.Response(200, headers={"Content-Type": "text/plain"}, content=b"x"), "smart HTTP"),
    ],
)
def test_the_git_client_refuses_with_one_line(answer: httpx.Response, words: str) -> None:
    client = client_answering(answer)
    with pytest.raises(FetchError, match=re.escape(words)):
        client._http_request("https://git.example/org/repo/info/refs?service=git-upload-pack")


def test_an_answer_is_capped_while_it_is_read() -> None:
    def answer() -> httpx.Response:
        return httpx.Response(
            200,
            headers={"Content-Type": "application/x-git-upload-pack-result"},
            content=b"p" * 5000,
        )

    url = "https://git.example/org/repo/git-upload-pack"
    within, _ = client_answering(answer())._http_request(url)
    assert within.read(10) == b"p" * 10 and len(within.read()) == 4990
    streamed = client_answering(answer())._client.send(httpx.Request("GET", url), stream=True)
    capped = BoundedResponse(streamed, url, url, cap=4096)
    with pytest.raises(FetchError, match=r"git\.example's answer is over"):
        capped.read(10)
