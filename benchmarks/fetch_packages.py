"""`tui-assistant fetch` on well-known packages: docs found, passages, seconds, and
whether the library answers a question about the package's API.

    python -m benchmarks.fetch_packages [packages] [requirements] [api] [parallel]
        [--baseline GIT_REF]

- packages: each of ten PyPI and ten npm packages (pinned below) fetched alone into a
  fresh data folder (seconds: the whole command, download, unpacking and indexing),
  then one question asked (`ask --json`, ranked retrieval): `answered` when the answer's
  passage is the expected one, else the rank at which it is listed (answer passages,
  then the nearest), `-` when it is not among them;
- requirements: a `requirements.txt` pinning 20 packages, `fetch --from` into a fresh
  data folder, timed;
- parallel: the twenty packages below in one `fetch` command, cold (a fresh data
  folder: every archive downloaded; `fetch` keeps no archive cache and uses no pip or
  npm cache), then again into another fresh data folder, warm (the registries' CDNs
  and the OS page cache have seen every file); with `--baseline`, the same two runs
  with the code of GIT_REF (`git archive`d into a temporary folder) first;
- api: `eval` over the questions in `benchmarks/fetch_api/` (each names a public
  function, class or method of a package whose release has no documentation folder);
  `first_right` is the share whose first passage shown is that object's.

Needs the network (PyPI, the npm registry). Prints Markdown tables.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (spec, question, expected passage id as a regular expression)
PACKAGES = [
    ("pypi:requests==2.34.2", "how do I set a timeout on requests.get", r"^src/requests/api#get$"),
    ("pypi:attrs==26.1.0", "how do I define validators for an attribute", r"#validators$"),
    ("pypi:httpx==0.28.1", "how do I send a GET request with httpx", r"^readme"),
    ("pypi:rich==15.0.0", "how do I add a row to a Table", r"^rich/table#table-add-row$"),
    ("pypi:pydantic==2.14.4", "how do I serialize a model to JSON", r"model-dump-json$"),
    ("pypi:jinja2==3.1.6", "how do I write a custom filter", r"^docs/api#custom-filters$"),
    ("pypi:pytest==9.2.0", "how do I parametrize a test function", r"how-to/parametrize"),
    ("pypi:sqlalchemy==2.1.9", "how do I create sessions with sessionmaker", r"sessionmaker"),
    ("pypi:marshmallow==4.4.0", "how do I validate a field with a method", r"field-validators"),
    ("pypi:structlog==26.1.0", "how do I bind values to a logger", r"bind"),
    ("npm:express@5.3.0", "how do I start an express server", r"^readme"),
    ("npm:lodash@4.18.1", "how do I install lodash", r"^readme#installation$"),
    ("npm:axios@1.21.1", "how do I cancel a request with AbortController", r"abortcontroller"),
    ("npm:commander@15.1.0", "how do I make an option required", r"^readme#required-option$"),
    ("npm:chalk@6.0.1", "how do I color text with chalk", r"^readme#usage$"),
    ("npm:dayjs@1.11.23", "how do I format a date with dayjs", r"^readme#api$"),
    ("npm:yargs@18.2.0", "how do I define commands with yargs", r"^readme"),
    ("npm:uuid@14.0.3", "how do I create a version 4 uuid", r"v4"),
    ("npm:zod@4.6.7", "how do I parse data with a schema", r"^readme#parsing-data$"),
    ("npm:ws@8.23.0", "how do I create a websocket server", r"server"),
]
REQUIREMENTS = [spec.removeprefix("pypi:") for spec, _, _ in PACKAGES if spec.startswith("pypi:")]
REQUIREMENTS += [
    "idna==3.10",
    "certifi==2024.8.30",
    "urllib3==2.2.3",
    "charset-normalizer==3.4.0",
    "packaging==24.2",
    "six==1.16.0",
    "python-dateutil==2.9.0.post0",
    "pyyaml==6.0.2",
    "markupsafe==3.0.2",
    "iniconfig==2.0.0",
]
API_SETS = {"requests": "requests@2.34.2", "rich": "rich@15.0.0", "pydantic": "pydantic@2.14.4"}


def run(data_dir: Path, *args: str, code: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env.update(TUI_ASSISTANT_DATA_DIR=str(data_dir), TUI_ASSISTANT_RETRIEVAL="ranked")
    env["PYTHONPATH"] = str(code)
    return subprocess.run(
        [sys.executable, "-m", "tui_assistant", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def packages() -> None:
    print("| package | docs folder | documents | passages | seconds | question | found |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for spec, question, expected in PACKAGES:
        with tempfile.TemporaryDirectory() as folder:
            data = Path(folder)
            started = time.monotonic()
            done = run(data, "fetch", "--json", spec)
            seconds = time.monotonic() - started
            [result] = [json.loads(line) for line in done.stdout.splitlines()] or [{}]
            if result.get("status") not in ("fetched", "no_docs"):
                print(f"| {spec} | failed: {result.get('detail') or done.stderr.strip()} |")
                continue
            library = result["library"]
            asked = json.loads(run(data, "ask", "--json", "--library", library, question).stdout)
            shown = [p["id"] for p in asked["passages"] or asked["nearest"]]
            rank = next((i for i, pid in enumerate(shown, 1) if re.search(expected, pid)), None)
            found = (
                "answered"
                if asked["outcome"] == "answered" and rank == 1
                else (f"listed {rank}" if rank else "-")
            )
            docs = "yes" if result["status"] == "fetched" else "no"
            print(
                f"| {library} | {docs} | {result['documents']:,} | {result['passages']:,} "
                f"| {seconds:.1f} | {question} | {found} |"
            )


def requirements() -> None:
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "requirements.txt"
        file.write_text("\n".join(REQUIREMENTS) + "\n")
        started = time.monotonic()
        done = run(Path(folder) / "data", "fetch", "--json", "--from", str(file))
        seconds = time.monotonic() - started
    results = [json.loads(line) for line in done.stdout.splitlines()]
    counts: dict[str, int] = {}
    for result in results:
        counts[result["status"]] = counts.get(result["status"], 0) + 1
    print(f"\n{len(REQUIREMENTS)} pinned packages: {seconds:.0f} s, {counts}")
    for result in results:
        if result["status"] == "failed":
            print(f"  failed {result['spec']}: {result['detail']}")


def api() -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        run(data, "fetch", *(f"pypi:{name.replace('@', '==')}" for name in API_SETS.values()))
        print("\n| package | questions | first right |")
        print("| --- | --- | --- |")
        total = right = 0
        for name, library in API_SETS.items():
            cases = ROOT / "benchmarks" / "fetch_api" / f"{name}.jsonl"
            report = json.loads(
                run(data, "eval", str(cases), "--library", library, "--json").stdout
            )
            hits = round(report["first_right"] * report["cases"])
            total, right = total + report["cases"], right + hits
            print(f"| {library} | {report['cases']} | {report['first_right']:.2f} |")
        print(f"| all | {total} | {right / total:.2f} |")


def exported(ref: str) -> Path:
    """The `tui_assistant` package of git `ref`, in a new temporary folder."""
    archive = subprocess.run(
        ["git", "archive", ref, "tui_assistant"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="tui-baseline-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def parallel(baseline: str | None = None) -> None:
    specs = [spec for spec, _, _ in PACKAGES]
    codes = {f"baseline {baseline}": exported(baseline)} if baseline else {}
    codes["this checkout"] = ROOT
    print(f"\n{len(specs)} pinned packages in one fetch ({os.cpu_count()} cores)")
    print("| code | run | seconds | fetched | failed | load (1 min) before |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, code in codes.items():
        for label in ("cold", "warm"):
            load = os.getloadavg()[0]
            with tempfile.TemporaryDirectory() as folder:
                started = time.monotonic()
                done = run(Path(folder), "fetch", "--json", *specs, code=code)
                seconds = time.monotonic() - started
            results = [json.loads(line) for line in done.stdout.splitlines()]
            failed = [r for r in results if r["status"] == "failed"]
            kept = len(results) - len(failed)
            print(f"| {name} | {label} | {seconds:.0f} | {kept} | {len(failed)} | {load:.1f} |")
            for result in failed:
                print(f"  failed {result['spec']}: {result['detail']}")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    reference = None
    if "--baseline" in arguments:
        at = arguments.index("--baseline")
        reference = arguments[at + 1]
        del arguments[at : at + 2]
    for part in arguments or ["packages", "requirements", "api"]:
        if part == "parallel":
            parallel(reference)
        else:
            {"packages": packages, "requirements": requirements, "api": api}[part]()
