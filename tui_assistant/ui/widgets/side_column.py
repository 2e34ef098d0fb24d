"""The side column: the evidence panel over the library panel.

While the evidence lists passages to choose from (an unsure question's possible
passages, a refusal's closest ones) the column is `-listing`: the stylesheet gives it
more of the width and, on a narrow screen, folds the library to its title until it is
focused (`ctrl+l`), so the list and the best passage's text fit at 80 columns.
"""

from __future__ import annotations

from textual.containers import Vertical

from tui_assistant.ui.widgets.evidence_panel import EvidencePanel
from tui_assistant.ui.widgets.library_panel import LibraryPanel


class SideColumn(Vertical):
    def __init__(self, evidence: EvidencePanel, library: LibraryPanel) -> None:
        super().__init__(evidence, library, id="side")
        self._evidence = evidence

    def on_mount(self) -> None:
        self.watch(self._evidence, "listing", self._follow_listing)

    def _follow_listing(self, listing: bool) -> None:
        self.set_class(listing, "-listing")
