"""A documentation website fetched over loopback: answer quality and time.

    python -m benchmarks.site_fetch

1. Quality: the SQLite pages of `eval/sqlite-site/` (28 pages of the Debian package
   sqlite3-doc) are served at `/docs/` with an `llms.txt` and a `sitemap.xml` made from
   them; `fetch` reads them into a library, and `eval eval/sqlite-site.jsonl` runs on
   that library and on the same folder read from disk. The first passage shown should
   be right as often on both (the pages are kept byte for byte, so the passages are the
   same).
2. Time: a 300-page site (those pages copied under numbered folders) fetched whole,
   then fetched again with `--refresh` while nothing changed (every page answers 304 to
   its ETag and is copied): the same day (today's version replaced) and the next day
   (a new version beside the old, its index store carried over).

Every command is the real CLI in a subprocess with its own data folder; ranked
retrieval. Prints a Markdown table.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tui_assistant.registry.site_urls import today
from tui_assistant.store.index_store import store_path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "eval" / "sqlite-site"
CASES = ROOT / "eval" / "sqlite-site.jsonl"
LARGE_PAGES = 300


def site_files(folder: Path) -> dict[str, bytes]:
    """The site's files by URL path: every page under `/docs/`, an llms.txt listing
    them and a sitemap.xml."""
    pages = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.html"))
    files = {f"/docs/{page}": (folder / page).read_bytes() for page in pages}
    links = "\n".join(f"- [{page}](/docs/{page})" for page in pages)
    files["/llms.txt"] = f"# SQLite\n\n> The SQLite documentation.\n\n## Docs\n\n{links}\n".encode()
    locs = "".join(f"<url><loc>/docs/{page}</loc></url>" for page in pages)
    files["/sitemap.xml"] = (
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'.encode()
    )
    return files


@contextmanager
def serve(files: dict[str, bytes]) -> Iterator[str]:
    """`files` on 127.0.0.1, each with an ETag answered with 304 when it matches."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            body = files.get(self.path)
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            etag = '"' + hashlib.sha1(body).hexdigest() + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            kind = "text/plain" if self.path.endswith(".txt") else "text/html; charset=utf-8"
            if self.path.endswith(".xml"):
                kind = "application/xml"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def cli(data_dir: Path, *args: str) -> tuple[float, str]:
    """Seconds the command took and what it printed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env |= {"TUI_ASSISTANT_DATA_DIR": str(data_dir), "TUI_ASSISTANT_RETRIEVAL": "ranked"}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "tui_assistant", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return time.perf_counter() - started, done.stdout


def quality(work: Path) -> list[str]:
    data = work / "quality"
    _, on_disk = cli(data, "eval", str(CASES), "--library", str(PAGES), "--json")
    with serve(site_files(PAGES)) as url:
        _, fetched = cli(data, "fetch", "--json", f"{url}/docs/")
    library = json.loads(fetched)["library"]
    _, on_site = cli(data, "eval", str(CASES), "--library", library, "--json")
    disk, site = json.loads(on_disk), json.loads(on_site)
    rows = [
        "| read from | cases | first right | precision | coverage |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, report in (("disk (eval/sqlite-site)", disk), ("the fetched site", site)):
        rows.append(
            f"| {name} | {report['cases']} | {report['first_right']:.2f} | "
            f"{report['precision']:.2f} | {report['coverage']:.2f} |"
        )
    rows.append(f"\nfirst right, site - disk: {site['first_right'] - disk['first_right']:+.2f}")
    return rows


def large_site(work: Path) -> Path:
    """LARGE_PAGES pages: the development pages copied under numbered folders."""
    folder = work / "large"
    pages = sorted(PAGES.glob("*.html"))
    for number in range(LARGE_PAGES):
        copy = folder / f"part{number // len(pages):02d}" / pages[number % len(pages)].name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pages[number % len(pages)], copy)
    return folder


def timing(work: Path) -> list[str]:
    data = work / "timing"
    rows = ["| run | pages | seconds | detail |", "| --- | --- | --- | --- |"]
    with serve(site_files(large_site(work))) as url:
        for run, args in (
            ("first fetch", ()),
            ("refresh, same day", ("--refresh",)),
            ("refresh, next day", ("--refresh",)),
        ):
            if run == "refresh, next day":
                _make_yesterday(data, url)
            seconds, out = cli(data, "fetch", "--json", *args, f"{url}/docs/")
            result = json.loads(out)
            rows.append(f"| {run} | {result['documents']} | {seconds:.1f} | {result['detail']} |")
    return rows


def _make_yesterday(data: Path, url: str) -> None:
    """Today's version renamed as an older one, its index store with it, so the next
    refresh makes a new version as it would the next day."""
    host = url.split("//", 1)[1].replace(":", "-")
    fetched = data / "fetched"
    now = fetched / f"{host}-docs@{today()}"
    older = fetched / f"{host}-docs@2000-01-01"
    store = store_path(data, now)
    for sidecar in store.parent.glob(store.name + "*"):
        sidecar.rename(store_path(data, older).with_name(
            store_path(data, older).name + sidecar.name[len(store.name):]
        ))  # fmt: skip
    now.rename(older)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="site-fetch-") as folder:
        work = Path(folder)
        print("\n".join(quality(work)))
        print()
        print("\n".join(timing(work)))


if __name__ == "__main__":
    main()
