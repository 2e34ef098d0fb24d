"""The old names are read beside the new ones, the new name winning; `ask --json` writes
the passage id under both names."""

from __future__ import annotations

from tui_assistant.compat import (
    expect_key,
    library_variables,
    passage_id_fields,
    passage_id_key,
)


def test_the_library_setting_is_read_under_its_name_then_its_old_name() -> None:
    assert library_variables("TUI_ASSISTANT_") == (
        "TUI_ASSISTANT_LIBRARY",
        "TUI_ASSISTANT_LESSONS_DIR",
    )


def test_the_passage_id_is_written_under_both_names() -> None:
    assert passage_id_fields("pasta-water") == {
        "passage_id": "pasta-water",
        "lesson_id": "pasta-water",
    }
    assert passage_id_fields(None) == {"passage_id": None, "lesson_id": None}


def test_a_record_or_case_is_read_by_its_new_key_before_its_old_one() -> None:
    assert passage_id_key({"lesson_id": "a"}) == "lesson_id"
    assert passage_id_key({"lesson_id": "a", "passage_id": "b"}) == "passage_id"
    assert passage_id_key({}) == "passage_id"
    assert expect_key({"expect_lesson": None}) == "expect_lesson"
    assert expect_key({"expect_lesson": "a", "expect_passage": "b"}) == "expect_passage"
    assert expect_key({"question": "q"}) is None
