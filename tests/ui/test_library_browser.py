"""The library tree: folders, documents and sections, moving, opening, filtering, and
enter to read a passage."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    evidence_text,
    labels,
    make_app,
    make_context,
    running,
    status_line,
    wait_until,
)
from tui_assistant.ui.widgets.library_browser import (
    DocumentData,
    FolderData,
    LibraryTree,
    PassageData,
)

SIZE = (100, 32)


async def test_tree_shows_folders_first_and_opens_them_with_right_and_left(
    nested: Path, tmp_path: Path
) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l")
        tree = app.main.library_panel.library_browser.library_tree
        assert app.focused is tree
        assert labels(tree) == ["cooking/", "kitchen/", "Intro"]
        assert "7 passages" in str(app.main.status_bar.query_one("#status-mode", Static).render())

        await pilot.press("right")  # open cooking/
        assert labels(tree) == ["cooking/", "  Boiled eggs", "  Pasta", "kitchen/", "Intro"]
        await pilot.press("down", "down", "right")  # open Pasta: its sections
        assert labels(tree)[3:6] == ["    Pasta", "    Salting the water", "    Cooking time"]
        await pilot.press("right", "down", "enter")  # first section, then the next
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.id == "cooking/pasta#salting-the-water"
        shown = evidence_text(app)
        assert "Pasta › Salting the water" in shown
        assert "cooking/pasta#salting-the-water" in shown
        assert "library/cooking/pasta.md:5\u20137" in shown
        assert "Ten grams of salt per litre." in shown

        await pilot.press("left")  # on a leaf: up to its document
        assert isinstance(tree.cursor_node and tree.cursor_node.data, DocumentData)
        await pilot.press("left")  # close the document
        assert labels(tree) == ["cooking/", "  Boiled eggs", "  Pasta", "kitchen/", "Intro"]
        await pilot.press("left", "left")  # up to cooking/, then close it
        assert labels(tree) == ["cooking/", "kitchen/", "Intro"]
        assert isinstance(tree.cursor_node and tree.cursor_node.data, FolderData)


async def test_several_libraries_are_each_a_top_node(nested: Path, tmp_path: Path) -> None:
    context = make_context([f"kitchen={BUNDLED_LESSONS}", str(nested)], tmp_path / "data")
    app = make_app(context)
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l")
        tree = app.main.library_panel.library_browser.library_tree
        assert labels(tree) == ["kitchen/", "library/"]
        await pilot.press("down", "right")  # open library/: its own folders and documents
        assert labels(tree) == ["kitchen/", "library/", "  cooking/", "  kitchen/", "  Intro"]
        await pilot.press("down", "right", "down", "down", "enter")  # cooking/ › Pasta
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.id == "library:cooking/pasta"
        assert "library/cooking/pasta.md:1" in evidence_text(app)
        await pilot.press("ctrl+l", *"salting")  # a filter keeps each library's top node
        shown = labels(tree)
        assert shown[:2] == ["kitchen/", "  Salting pasta water"]
        assert shown[shown.index("library/") + 1 :][:2] == ["  cooking/", "    Pasta"]


async def test_enter_on_a_document_shows_its_first_passage(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l", "down", "down", "enter")  # Intro, a leaf
        assert app.main.evidence.passage is not None and app.main.evidence.passage.id == "intro"
        await pilot.press("up", "up", "enter", "down", "down", "enter")  # cooking/, Pasta
        assert app.main.evidence.passage.id == "cooking/pasta"


async def test_typing_filters_the_tree_with_ancestors_opened(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l", *"whet")
        tree = app.main.library_panel.library_browser.library_tree
        assert labels(tree) == ["kitchen/", "  knives/", "    Sharpening", "      Whetstones"]
        assert "filter: whet (1)" in str(app.main.library_panel.library_browser.border_subtitle)
        # The cursor is on the match: enter shows it.
        assert isinstance(tree.cursor_node and tree.cursor_node.data, PassageData)
        await pilot.press("enter")
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.id == "kitchen/knives/sharpening#whetstones"

        await pilot.press("backspace", "backspace", "backspace", "backspace", *"salt")
        assert labels(tree) == ["cooking/", "  Pasta", "    Salting the water"]
        await pilot.press(*"zzz")
        assert labels(tree) == []
        assert "filter: saltzzz (0)" in str(app.main.library_panel.library_browser.border_subtitle)
        for _ in "saltzzz":
            await pilot.press("backspace")
        assert labels(tree) == ["cooking/", "kitchen/", "Intro"]
        assert "type to filter" in str(app.main.library_panel.library_browser.border_subtitle)


@pytest.mark.parametrize("size", [(80, 24), (120, 35)])
async def test_escape_clears_the_filter_then_goes_back_to_the_question(
    nested: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, size) as pilot:
        await pilot.press("ctrl+l", *"whet")
        tree = app.main.library_panel.library_browser.library_tree
        assert labels(tree) == ["kitchen/", "  knives/", "    Sharpening", "      Whetstones"]
        await pilot.press("escape")
        assert labels(tree) == ["cooking/", "kitchen/", "Intro"]
        assert "type to filter" in str(app.main.library_panel.library_browser.border_subtitle)
        assert app.focused is tree  # the first Esc only cleared the filter
        await pilot.press("escape")
        assert app.focused is app.main.question_box
        assert tree.filter_text == ""


@pytest.mark.parametrize("size", [(80, 24), (120, 35)])
async def test_counts_agree_with_their_number(tmp_path: Path, size: tuple[int, int]) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "only.md").write_text("# Only\n\nThe one passage.\n", encoding="utf-8")
    app = make_app(make_context(folder, tmp_path / "data"))
    async with running(app, size) as pilot:
        await wait_until(pilot, lambda: "1 passage" in status_line(app))
        assert "Library (1 passage) " in str(app.main.library_panel.library_browser.border_title)
        assert "1 passages" not in status_line(app)


# -- open in editor -----------------------------------------------------------------


async def test_lesson_browser_arrows_and_enter_change_the_evidence(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l")
        assert isinstance(app.focused, LibraryTree)
        await pilot.press("down", "enter")
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.id == "knife-care"
        assert "Caring for kitchen knives" in evidence_text(app)
        await pilot.press("down", "enter")
        assert app.main.evidence.passage.id == "pasta-water"
        await pilot.press("up", "up", "enter")
        assert app.main.evidence.passage.id == "boiled-eggs"


async def test_typing_in_the_lesson_browser_filters_it(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l", "k", "n", "i")
        tree = app.main.library_panel.library_browser.library_tree
        assert [str(node.label) for node in tree.root.children] == ["Caring for kitchen knives"]
        assert "filter: kni (1)" in str(app.main.library_panel.library_browser.border_subtitle)
        await pilot.press("enter")
        assert (
            app.main.evidence.passage is not None and app.main.evidence.passage.id == "knife-care"
        )
        await pilot.press("backspace", "backspace", "backspace")
        assert len(tree.root.children) == 3
        assert "type to filter" in str(app.main.library_panel.library_browser.border_subtitle)


async def test_parts_of_a_cut_section_are_told_apart_and_labels_read_in_full(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    paragraph = "Set the registry for one scope of packages in the config file. " * 20
    long_section = "\n\n".join([paragraph] * 6)  # over 4,000 characters: cut in parts
    title = "A guide whose title is far too long to fit in the library pane at all"
    (folder / "npm.md").write_text(
        f"# {title}\n\nIntro.\n\n## Configuration\n\n{long_section}\n", encoding="utf-8"
    )
    app = make_app(make_context(folder, tmp_path / "data"))
    async with running(app, (80, 24)) as pilot:
        await pilot.press("ctrl+l", "right")
        tree = app.main.library_panel.library_browser.library_tree
        # A later part's title says what it holds, so no two labels read the same.
        assert labels(tree)[2:] == [
            "  Configuration",
            "  Configuration › Set the registry for one scope …",
        ]
        # The document's label is cut by the pane; its tooltip holds all of it.
        assert tree.tooltip is not None and title in str(tree.tooltip)
        await pilot.press("down", "down", "down")
        lines = str(tree.tooltip).split("\n")
        assert lines[:2] == [
            f"{title} › Configuration › Set the registry for one scope …",
            "npm#configuration-part-2",
        ]
        assert "npm.md:" in lines[2]
        await pilot.press("enter")
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.id == "npm#configuration-part-2"
