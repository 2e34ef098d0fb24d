"""TUI_ASSISTANT_DOCUMENT_TYPES: which kinds of files are documents, and its one-line
errors. (The other settings: `test_settings.py`.)"""

from __future__ import annotations

import pytest

from tui_assistant.errors import ConfigError
from tui_assistant.settings import load_settings

pytestmark = pytest.mark.usefixtures("no_settings_from_outside")


def test_every_kind_is_read_by_default() -> None:
    assert load_settings().document_kinds == ("md", "rst", "txt", "html", "pdf", "man")


@pytest.mark.parametrize(
    ("value", "kinds"),
    [
        ("md", ("md",)),
        ("txt, MD", ("md", "txt")),
        (".rst,.txt", ("rst", "txt")),
        ("PDF,md", ("md", "pdf")),
        ("md,,md", ("md",)),
        ("HTML,md", ("md", "html")),
        (".html", ("html",)),
    ],
)
def test_document_types_are_a_comma_list(
    monkeypatch: pytest.MonkeyPatch, value: str, kinds: tuple[str, ...]
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_DOCUMENT_TYPES", value)
    assert load_settings().document_kinds == kinds


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("md,docx", "unknown document type 'docx' (use md, rst, txt, html, pdf, man, py)"),
        ("", "must name at least one of md, rst, txt, html, pdf, man, py"),
        (" , ", "must name at least one of md, rst, txt, html, pdf, man, py"),
    ],
)
def test_bad_document_types_are_one_line_naming_the_setting(
    monkeypatch: pytest.MonkeyPatch, value: str, message: str
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_DOCUMENT_TYPES", value)
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert str(raised.value) == f"TUI_ASSISTANT_DOCUMENT_TYPES: {message}"


def test_python_source_is_a_kind_asked_for_not_a_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TUI_ASSISTANT_DOCUMENT_TYPES", raising=False)
    assert "py" not in load_settings().document_kinds
    monkeypatch.setenv("TUI_ASSISTANT_DOCUMENT_TYPES", "md,py")
    assert load_settings().document_kinds == ("md", "py")
