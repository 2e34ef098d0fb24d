"""A listed passage's title at any width: its document's name and its last heading are
what say most, so the headings between them give way first."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from tests.helpers.properties import PROPERTY
from tui_assistant.ui.widgets.candidate_list import TITLE_SEPARATOR, fit_title

MIGRATION = "V5 Migration Guide › Breaking Changes › Remove support for DELETE bodies"


def test_a_title_that_fits_is_whole() -> None:
    assert fit_title(MIGRATION, 80) == MIGRATION


def test_the_middle_headings_give_way_and_the_document_name_stays() -> None:
    title = "Commands › Chaining › Basics › Command Chaining"

    assert fit_title(title, 40) == "Commands › … › Basics › Command Chaining"
    assert fit_title(title, 31) == "Commands › … › Command Chaining"
    assert fit_title(title, 30) == "Commands › Command Chaining"
    assert fit_title(title, 27) == "Commands › Command Chaining"
    assert fit_title(MIGRATION, 60) == "V5 Migration Guide › … › Remove support for DELETE bodies"


def test_with_no_room_for_the_middle_the_last_heading_is_cut_not_the_document() -> None:
    cut = fit_title(MIGRATION, 34)

    assert cut.startswith("V5 Migration Guide › Remove") and cut.endswith("…")
    assert cell_len(cut) <= 34


def test_only_a_document_name_wider_than_the_room_is_cut() -> None:
    cut = fit_title(MIGRATION, 12)

    assert cut.startswith("V5 Migrati") and cell_len(cut) <= 12


@PROPERTY
@given(
    parts=st.lists(
        st.text(st.characters(codec="utf-8", categories=("L", "N")), min_size=1, max_size=20),
        min_size=1,
        max_size=5,
    ),
    width=st.integers(min_value=4, max_value=90),
)
def test_a_fitted_title_fits_and_keeps_its_document_name_when_there_is_room(
    parts: list[str], width: int
) -> None:
    title = TITLE_SEPARATOR.join(parts)

    fitted = fit_title(title, width)

    assert cell_len(fitted) <= width
    if cell_len(parts[0]) + len(TITLE_SEPARATOR) + 8 <= width:
        assert fitted.startswith(parts[0])


def test_a_listed_pdf_passage_says_its_pages_not_its_text_lines() -> None:
    from tui_assistant.core.documents.passage import Passage
    from tui_assistant.ui.widgets.candidate_list import CandidateEntry

    manual = Passage(
        id="boiler#pressure",
        title="Boiler Manual › Pressure",
        text="Keep the pressure between one and two bar.",
        source_path="manuals/boiler.pdf",
        line=40,
        end_line=52,
        page=2,
        end_page=3,
    )
    shown = str(CandidateEntry(1, manual, "Keep the pressure between one and two bar."))
    assert "manuals/boiler.pdf p. 2\N{EN DASH}3" in shown
    assert ":40" not in shown


def test_two_versions_of_one_file_stay_apart_when_the_path_is_shortened() -> None:
    from tui_assistant.core.documents.passage import Passage
    from tui_assistant.ui.widgets.candidate_list import CandidateEntry

    sentence = "Wheels encode the interpreter, ABI and platform in their file names."
    shown = []
    for version in ("21.3", "24.2"):
        tags = Passage(
            id=f"{version}:docs/tags",
            title="Tags",
            text=sentence,
            source_path=f"{version}/docs/reference/tags.rst",
            line=1,
            end_line=9,
        )
        lines = CandidateEntry(1, tags, sentence).content(44).plain.splitlines()
        shown.append(lines[1])
    assert shown[0] != shown[1]
    assert all("\N{HORIZONTAL ELLIPSIS}" in line for line in shown)
    assert shown[0].lstrip().startswith("21.3/")


def test_a_long_document_name_makes_room_for_the_last_heading() -> None:
    # A manual page's title says its name and its purpose; the entry asked about is last.
    title = (
        "git-commit(1) \N{EM DASH} Record changes to the repository › OPTIONS"
        " › -C <commit>, --reuse-message=<commit>"
    )
    cut = fit_title(title, 53)

    assert cut.startswith("git-commit(1)") and " › -C <commit>" in cut
    assert cell_len(cut) <= 53
