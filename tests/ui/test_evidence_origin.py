"""Where a fetched library's passage comes from, on a line of the evidence panel's
header: the package, its version, where it was fetched from and when; a website's page
by its URL; nothing for a folder library. Untrusted text shown as written, wrapped
whole at 80x24, and with two versions loaded each passage says its own."""

from __future__ import annotations

import json
from pathlib import Path

from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget

from tests.helpers.tui import (
    ask,
    concluded,
    drawn_lines,
    make_app,
    make_context,
    running,
    wait_until,
)
from tui_assistant.core.documents.passage import Passage
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.widgets.evidence_panel import EvidencePanel
from tui_assistant.ui.widgets.evidence_view import origin_line
from tui_assistant.ui.widgets.whole_words import whole_word_lines
from tui_assistant.wiring.origins import FetchedOrigin, LibraryOrigins

FETCHED_AT = "2026-12-05T07:54:16+00:00"
SMALL = (80, 24)
GUIDE = (
    "# Validators\n\nAttach validators to a field with the validator decorator; "
    "each runs when the instance is created.\n"
)
QUESTION = "how do I attach validators to a field?"


def fetched(root: Path, name: str, record: dict[str, object], files: dict[str, str]) -> Path:
    """A library folder as `fetch` leaves it: its documents and `.fetched.json`."""
    folder = root / "fetched" / name
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    (folder / ".fetched.json").write_text(json.dumps(record), encoding="utf-8")
    return folder


def package_record(package: str, version: str, registry: str = "pypi") -> dict[str, object]:
    return {
        "package": package,
        "version": version,
        "registry": registry,
        "index_url": "https://pypi.org/simple/",
        "archive_url": f"https://files.example/{package}-{version}.tar.gz",
        "sha256": "0" * 64,
        "fetched_at": FETCHED_AT,
        "documentation": True,
    }


def origin_of(app: AssistantApp) -> Widget:
    return app.main.evidence.query_one("#evidence-origin")


def shown_origin(app: AssistantApp) -> str:
    """The origin line as drawn, its wrapped lines joined again."""
    return " ".join(drawn_lines(origin_of(app)))


async def answered(app: AssistantApp, pilot: Pilot[int], question: str = QUESTION) -> None:
    await ask(pilot, question)
    await wait_until(pilot, lambda: concluded(app))
    await wait_until(pilot, lambda: app.main.evidence.passage is not None)


def assert_whole_words(lines: list[str], text: str, width: int) -> None:
    """Every drawn line fits, and every word on it is a word of `text`, uncut."""
    assert lines and all(len(line) <= width for line in lines)
    assert all(word in text.split() for line in lines for word in line.split())


# -- the line, as text ------------------------------------------------------------


def test_a_package_says_its_version_origin_and_day_fetched() -> None:
    attrs = FetchedOrigin("attrs", "24.2.0", "pypi", FETCHED_AT)
    assert origin_line(attrs) == "from attrs 24.2.0 (pypi, fetched 2026-12-05)"
    tool = FetchedOrigin("tool", "v2.0", "git", FETCHED_AT)
    assert origin_line(tool) == "from tool@v2.0 (git, fetched 2026-12-05)"
    site = FetchedOrigin("docs.example.com-guide", "2026-12-05", "web", FETCHED_AT)
    page = "https://docs.example.com/guide/install.html"
    assert origin_line(site, page) == f"from {page} (web, fetched 2026-12-05)"
    assert origin_line(None) == ""


def test_a_record_that_says_less_says_only_what_it_knows() -> None:
    assert origin_line(FetchedOrigin("kit", "1.0")) == "from kit 1.0"
    assert origin_line(FetchedOrigin("kit", None, "npm", "yesterday")) == (
        "from kit (npm, fetched yesterday)"
    )


def test_a_url_wider_than_the_line_breaks_after_its_slashes() -> None:
    text = "from https://www.attrs.org/en/stable/api-reference/index.html (web, fetched 2026)"
    lines = whole_word_lines(text, 30)
    assert lines == [
        "from https://www.attrs.org/en/",
        "stable/api-reference/",
        "index.html (web, fetched 2026)",
    ]
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


# -- in the app -------------------------------------------------------------------


async def test_a_pypi_librarys_passage_says_where_it_comes_from_at_80x24(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    folder = fetched(data, "attrs@24.2.0", package_record("attrs", "24.2.0"), {"v.md": GUIDE})
    app = make_app(make_context(folder, data))
    async with running(app, SMALL) as pilot:
        await answered(app, pilot)
        expected = "from attrs 24.2.0 (pypi, fetched 2026-12-05)"
        await wait_until(pilot, lambda: shown_origin(app) == expected)
        lines = drawn_lines(origin_of(app))
        assert_whole_words(lines, expected, origin_of(app).region.width)
        assert origin_of(app).region.height == len(lines)


async def test_a_website_passage_shows_its_pages_url_whole_at_80x24(tmp_path: Path) -> None:
    data = tmp_path / "data"
    url = "https://docs.example.com/en/stable/reference/validators.html"
    record = {
        **package_record("docs.example.com-en", "2026-12-05"),
        "registry": "web",
        "origin": "web",
        "pages": {"validators.md": {"url": url}},
    }
    folder = fetched(data, "docs.example.com-en@2026-12-05", record, {"validators.md": GUIDE})
    app = make_app(make_context(folder, data))
    async with running(app, SMALL) as pilot:
        await answered(app, pilot)
        origin = origin_of(app)
        await wait_until(pilot, lambda: "(web, fetched 2026-12-05)" in shown_origin(app))
        lines = drawn_lines(origin)
        assert "".join(lines).replace(" ", "") == f"from{url}(web,fetched2026-12-05)"
        assert all(len(line) <= origin.region.width for line in lines)
        # Wider than the panel: broken after a slash, never inside a name.
        assert len(lines) > 1 and lines[0].endswith("/")


async def test_a_folder_librarys_passage_has_no_origin_line(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SMALL) as pilot:
        await answered(app, pilot, "how much salt for the pasta water?")
        await pilot.pause()
        assert not origin_of(app).display
        assert app.main.evidence.query_one("#evidence-location").display


async def test_with_two_versions_loaded_each_passage_says_its_own(tmp_path: Path) -> None:
    data = tmp_path / "data"
    older = fetched(data, "attrs@23.2.0", package_record("attrs", "23.2.0"), {"v.md": GUIDE})
    newer = fetched(data, "attrs@24.2.0", package_record("attrs", "24.2.0"), {"v.md": GUIDE})
    app = make_app(make_context([str(older), str(newer)], data))
    async with running(app, (100, 32)) as pilot:
        await answered(app, pilot)
        panel = app.main.evidence
        assert len(panel.passages) == 2
        seen: dict[str, str] = {}
        for _ in panel.passages:
            passage = panel.passage
            assert passage is not None
            await wait_until(pilot, lambda: shown_origin(app).startswith("from attrs"))
            seen[passage.library] = shown_origin(app)
            panel.step(1)
            await pilot.pause()
        assert seen == {
            "attrs-23-2-0": "from attrs 23.2.0 (pypi, fetched 2026-12-05)",
            "attrs-24-2-0": "from attrs 24.2.0 (pypi, fetched 2026-12-05)",
        }


# -- untrusted text -----------------------------------------------------------------


class PanelApp(App[object]):
    def compose(self) -> ComposeResult:
        panel = EvidencePanel()
        panel.styles.width = 40
        yield panel


async def test_a_hostile_name_and_url_show_as_written() -> None:
    name = "[bold red]evil[/]\x1b[31m"
    url = "https://x.example/[@click=app.quit]\x1b]8;;https://y\x07page"
    passage = Passage(id="guide", title="Guide", text="Some text.", source_path="guide.md", url=url)
    app = PanelApp()
    async with app.run_test(size=SMALL) as pilot:
        panel = app.query_one(EvidencePanel)
        panel.origins = LibraryOrigins(single=FetchedOrigin(name, "1.0", "web", FETCHED_AT))
        panel.show_passage(passage)
        origin = panel.query_one("#evidence-origin")
        await wait_until(pilot, lambda: bool(origin.display and origin.region.height))
        shown = "".join(drawn_lines(origin))
        assert "https://x.example/[@click=app.quit]" in shown
        assert "\x1b" not in shown and "\x07" not in shown
        panel.origins = LibraryOrigins(single=FetchedOrigin(name, "1.0", "pypi", FETCHED_AT))
        panel.show_passage(Passage(id="g", title="G", text="Text.", source_path="g.md"))
        await pilot.pause()
        shown = " ".join(drawn_lines(origin))
        assert shown.startswith("from [bold red]evil[/]")
        assert "\x1b" not in shown and "1.0 (pypi, fetched 2026-12-05)" in shown
