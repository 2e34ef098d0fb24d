"""A website fetched as hostile input: every cap stops the crawl with one line naming
its option, a crawl trap ends, a redirect to another host, a 1 GB page, a gzip bomb and
a server that answers a byte at a time are each refused with one line, a page in another
charset is read in it, and nothing is written outside the data folder."""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.fake_site import FakeSite, Page, html
from tui_assistant import cli
from tui_assistant.registry.site_urls import today


@pytest.fixture
def site(clean_env: Path) -> Iterator[FakeSite]:
    with FakeSite() as fake:
        yield fake


def fetch(
    capsys: pytest.CaptureFixture[str], *args: str, code: int = 0
) -> tuple[dict[str, Any], str]:
    assert cli.main(["fetch", "--json", *args]) == code
    out, err = capsys.readouterr()
    [result] = [json.loads(line) for line in out.splitlines()]
    return result, err


def folder_of(clean_env: Path, site: FakeSite) -> Path:
    return clean_env / "fetched" / f"127.0.0.1-{site.port}-docs@{today()}"


def many_pages(site: FakeSite, count: int, text: str = "Some words.") -> None:
    links = [f"p{number}.html" for number in range(count)]
    site.pages["/docs/"] = Page(html("Home", "Start.", *links))
    for number in range(count):
        site.pages[f"/docs/p{number}.html"] = Page(html(f"Page {number}", text))


def test_the_page_cap_stops_the_crawl_with_one_line(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many_pages(site, 10)
    result, _ = fetch(capsys, "--max-pages", "3", f"{site.url}/docs/")
    assert result["detail"] == "3 pages from its links; stopped at 3 pages (--max-pages)"
    assert len(list(folder_of(clean_env, site).glob("*.html"))) == 3


def test_the_total_size_cap_stops_the_crawl_with_one_line(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many_pages(site, 10, "word " * 600)
    result, _ = fetch(capsys, "--max-total-size", "8K", f"{site.url}/docs/")
    assert result["detail"].endswith("; stopped at 8 KiB in all (--max-total-size)")
    kept = sum(path.stat().st_size for path in folder_of(clean_env, site).glob("*.html"))
    assert kept <= 8 << 10


def test_the_crawl_deadline_stops_it_with_one_line(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    links = [f"p{number}.html" for number in range(40)]
    site.pages["/docs/"] = Page(html("Home", "Start.", *links))

    def slowly(handler: BaseHTTPRequestHandler) -> None:
        time.sleep(0.25)
        body = html("Slow", "A page that takes its time.").encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    for link in links:
        site.routes[f"/docs/{link}"] = slowly
    started = time.monotonic()
    result, _ = fetch(capsys, "--max-seconds", "1", f"{site.url}/docs/")
    assert result["detail"].endswith("; stopped after 1 s (--max-seconds)")
    assert time.monotonic() - started < 15


def test_a_crawl_trap_ends_at_the_depth_cap_and_queries_are_dropped(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def trap(handler: BaseHTTPRequestHandler) -> None:
        path = handler.path.split("?", 1)[0]
        body = html("Calendar", "Another month.", path + "more/", "?month=13", "?month=14")
        data = body.encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    site.pages["/docs/"] = Page(html("Home", "Start.", "cal/"))
    path = "/docs/cal/"
    for _ in range(40):
        site.routes[path] = trap
        path += "more/"
    result, _ = fetch(capsys, "--max-depth", "5", f"{site.url}/docs/")
    assert result["detail"] == (
        "6 pages from its links; 1 link more than 5 deep not followed (--max-depth)"
    )
    assert not any("?" in asked for asked, _ in site.requests)


def test_a_redirect_to_another_host_is_refused_with_one_line(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def moved(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(302)
        handler.send_header("Location", f"http://localhost:{site.port}/docs/landing.html")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    site.pages["/docs/"] = Page(html("Home", "Start.", "moved.html"))
    site.routes["/docs/moved.html"] = moved
    site.pages["/docs/landing.html"] = Page(html("Landing", "Elsewhere."))
    _, err = fetch(capsys, f"{site.url}/docs/")
    assert f"/docs/moved.html: redirected to another host, localhost:{site.port}\n" in err
    assert not site.asked("/docs/landing.html")


def test_a_1_gb_page_is_cut_at_the_page_cap_without_being_read(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def huge(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", str(1 << 30))
        handler.end_headers()
        chunk = b"<p>" + b"a" * 65530 + b"</p>"
        try:
            for _ in range((1 << 30) // len(chunk)):
                handler.wfile.write(chunk)
                site.add_sent(len(chunk))
        except OSError:
            pass  # the client hung up at its cap

    many_pages(site, 2)
    site.routes["/docs/p1.html"] = huge
    result, err = fetch(capsys, "--max-page-size", "1M", f"{site.url}/docs/")
    assert "/docs/p1.html: over 1 MiB (--max-page-size): cut there\n" in err
    assert result["status"] == "fetched" and result["detail"] == "2 pages from its links"
    assert site.sent < 64 << 20


def test_a_gzip_bomb_stops_at_the_page_cap_counted_decompressed(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = b"\0" * (1 << 20)
    bomb = b"".join(packer.compress(zeros) for _ in range(256)) + packer.flush()
    assert len(bomb) < 1 << 20  # 256 MiB once inflated

    def bombed(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Encoding", "gzip")
        handler.send_header("Content-Length", str(len(bomb)))
        handler.end_headers()
        handler.wfile.write(bomb)

    many_pages(site, 2)
    site.routes["/docs/p0.html"] = bombed
    _, err = fetch(capsys, "--max-page-size", "2M", f"{site.url}/docs/")
    assert "/docs/p0.html: over 2 MiB (--max-page-size): cut there\n" in err
    assert not (folder_of(clean_env, site) / "p0.html").exists()


def test_a_server_that_answers_a_byte_at_a_time_meets_the_page_deadline(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def trickle(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", "100000")
        handler.end_headers()
        try:
            for _ in range(100000):
                handler.wfile.write(b"a")
                handler.wfile.flush()
                time.sleep(0.1)
        except OSError:
            pass

    many_pages(site, 2)
    site.routes["/docs/p0.html"] = trickle
    started = time.monotonic()
    _, err = fetch(capsys, "--page-seconds", "1", f"{site.url}/docs/")
    assert "/docs/p0.html: not read before the page's deadline (--page-seconds)\n" in err
    assert time.monotonic() - started < 10


def test_a_page_in_a_declared_charset_is_read_in_it(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin = html("Café", "Un café crème coûte deux euros.").encode("iso-8859-1")
    meta = (
        '<html><head><meta charset="windows-1252"><title>Thé</title></head>'
        "<body><h1>Thé</h1><p>Le thé vert infuse trois minutes.</p></body></html>"
    ).encode("cp1252")
    site.pages["/docs/"] = Page(html("Home", "Start.", "cafe.html", "the.html"))
    site.pages["/docs/cafe.html"] = Page(latin, "text/html; charset=ISO-8859-1")
    site.pages["/docs/the.html"] = Page(meta, "text/html")
    fetch(capsys, f"{site.url}/docs/")
    name = folder_of(clean_env, site).name
    assert cli.main(["search", "--json", "--library", name, "combien coûte un café crème"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["id"] == "cafe" and "café crème coûte" in first["text"]
    assert cli.main(["search", "--json", "--library", name, "thé vert infuse"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["id"] == "the" and "thé vert" in first["text"]


def test_other_content_types_are_skipped_with_one_line(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.pages["/docs/"] = Page(html("Home", "Start.", "manual.pdf", "logo.png"))
    site.pages["/docs/manual.pdf"] = Page(b"%PDF-1.4 not really", "application/pdf")
    site.pages["/docs/logo.png"] = Page(b"\x89PNG", "image/png")
    _, err = fetch(capsys, f"{site.url}/docs/")
    assert "/docs/manual.pdf: is application/pdf, not a page: skipped\n" in err
    assert "/docs/logo.png: is image/png, not a page: skipped\n" in err


def test_no_url_names_a_file_outside_the_library_and_nothing_is_run(
    site: FakeSite, clean_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def outside() -> set[Path]:
        return {path for path in tmp_path.rglob("*") if not path.is_relative_to(clean_env)}

    before = outside()
    hostile = [
        "%2e%2e/%2e%2e/escaped.html",
        "..%2F..%2Fescaped2.html",
        ".hidden/page.html",
        "a%00b.html",
        "deep/%2E%2E%2F%2E%2E%2Fx.html",
    ]
    site.pages["/docs/"] = Page(
        html("Home", "Start.", *hostile) + "<script>document.location='file:///etc/passwd'</script>"
    )
    for link in hostile:
        site.routes[f"/docs/{link}"] = lambda handler: _page(handler, "Hostile", "Came back.")
    fetch(capsys, f"{site.url}/docs/")
    assert outside() == before
    folder = folder_of(clean_env, site)
    for path in folder.rglob("*"):
        relative = path.relative_to(folder)
        assert path.resolve().is_relative_to(folder.resolve())
        assert str(relative) == ".fetched.json" or not relative.name.startswith(".")


def _page(handler: BaseHTTPRequestHandler, title: str, text: str) -> None:
    data = html(title, text).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def test_a_site_that_cannot_be_read_fails_with_one_line_and_leaves_nothing(
    site: FakeSite, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(503)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    site.routes["/robots.txt"] = broken
    site.pages["/docs/"] = Page(html("Home", "Start."))
    result, _ = fetch(capsys, f"{site.url}/docs/", code=1)
    assert (result["status"], result["library"], result["origin"]) == ("failed", None, "web")
    assert result["detail"] == (
        f"{site.url}/robots.txt: HTTP 503: nothing fetched (robots.txt decides)"
    )
    assert not site.asked("/docs/")
    site.routes.clear()
    site.pages["/robots.txt"] = Page("User-agent: *\nDisallow: /docs/\n", "text/plain")
    result, _ = fetch(capsys, f"{site.url}/docs/", code=1)
    assert result["detail"] == "no page kept (1 page robots.txt disallows: not read)"
    assert list((clean_env / "fetched").iterdir()) == []
