"""The main screen's keys as the help lists them: the screen's own, then those of the
widgets on it, each group read from its bindings, so the help cannot drift from them."""

from __future__ import annotations

from tui_assistant.ui import keys
from tui_assistant.ui.dialogs.help_screen import KeyGroup
from tui_assistant.ui.widgets.candidate_list import CandidateList
from tui_assistant.ui.widgets.evidence_panel import EvidencePanel
from tui_assistant.ui.widgets.library_browser import LibraryTree
from tui_assistant.ui.widgets.question_box import QuestionBox


def key_groups() -> list[KeyGroup]:
    """The keys of the main screen and of the widgets on it, for the help."""
    return [
        ("Main screen", keys.MAIN_SCREEN),
        ("Question box", QuestionBox.BINDINGS),
        ("Evidence panel", EvidencePanel.BINDINGS),
        ("Listed passages", CandidateList.BINDINGS),
        ("Library tree", LibraryTree.BINDINGS),
    ]
