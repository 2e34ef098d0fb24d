"""The passage browser: the library's folders, documents and passages as a tree.

Folders are nodes that open and close (sorted, before the documents beside them); a
document with several passages opens onto its sections; a single-passage document is
a leaf. A folder's or a document's children are added only when it is first opened,
so a library of tens of thousands of documents costs only its top level at start.

Typing while the tree has focus filters it: the passages whose title or id holds
every typed word, with their folders and documents around them, opened; Esc clears
the filter (and a second Esc leaves the tree). At most
`MAX_SHOWN` passages are shown for one filter; the border says how many matched.

Labels are untrusted (titles, file names): cleaned and passed as `rich.text.Text`,
never a str (which `Tree` reads as markup). A label cut by the pane's width is read in
full in the tree's tooltip, set to the node under the cursor.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from tui_assistant.core.library.library import DocumentInfo, Library
from tui_assistant.core.library.tree import Folder, folder_tree, section_labels, tree_path
from tui_assistant.ui.keys import FOCUS_LIBRARY, key_name
from tui_assistant.ui.messages import PassageChosen
from tui_assistant.ui.widgets.status_bar import plural
from tui_assistant.ui.widgets.untrusted_text import one_line

# More matches than this are counted, not shown: a one-letter filter on a large
# library would otherwise build (and lay out) every node of it on each key.
MAX_SHOWN = 1000


@dataclass(frozen=True, slots=True)
class FolderData:
    path: str  # relative to the library folder, '/'-separated, no trailing '/'


@dataclass(frozen=True, slots=True)
class DocumentData:
    index: int  # into `Library.documents`


@dataclass(frozen=True, slots=True)
class PassageData:
    # Its place in `Library.passages` (library order), not its index number.
    position: int


NodeData = FolderData | DocumentData | PassageData


def _label(text: str) -> Text:
    # Text, never a str: Tree parses a str label as markup.
    return Text(one_line(text) or " ")


class LibraryTree(Tree[NodeData]):
    """The tree itself. Printable keys edit the filter; arrows and enter browse."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "open_node", "Open", show=False, id="library.open"),
        Binding("left", "close_node", "Close", show=False, id="library.close"),
        Binding("escape", "clear_filter", "Clear filter", id="library.clear-filter"),
    ]

    def __init__(self) -> None:
        super().__init__("library", id="library-tree")
        self.show_root = False
        self.auto_expand = False
        self.library: Library | None = None
        self.filter_text = ""
        # Positions of the passages matching the filter (all of them, also those not shown).
        self.matches: array[int] = array("I")
        self._folders = Folder("")
        self._populated: set[int] = set()  # ids of nodes whose children were added
        self._document_of: array[int] = array("I")
        self._haystacks: list[str] | None = None
        self._matched_text: str | None = None  # the filter `matches` belongs to

    # -- the library ----------------------------------------------------------

    def set_library(self, library: Library) -> None:
        """Show `library` (at start, and after a reload), keeping the typed filter."""
        self.library = library
        self._folders = folder_tree(library.documents, library.combined)
        self._document_of = array("I", bytes(4 * len(library.passages)))
        for index, document in enumerate(library.documents):
            for position in range(document.first, document.first + document.count):
                self._document_of[position] = index
        self._haystacks = None
        self._matched_text = None
        self.apply_filter(self.filter_text)

    # -- building nodes -------------------------------------------------------

    def _rebuild(self) -> None:
        self.clear()
        self._populated = {self.root.id}
        self._add_folder_contents(self.root, self._folders)
        self.cursor_line = 0

    def _add_folder_contents(self, node: TreeNode[NodeData], folder: Folder) -> None:
        for sub in folder.sorted_folders():
            name = sub.path.rsplit("/", 1)[-1]
            node.add(_label(name + "/"), FolderData(sub.path))
        for index in folder.documents:
            self._add_document(node, index)

    def _add_document(
        self, node: TreeNode[NodeData], index: int, expand: bool = False
    ) -> TreeNode[NodeData]:
        assert self.library is not None
        document = self.library.documents[index]
        if document.count == 1:
            return node.add_leaf(_label(document.title), DocumentData(index))
        return node.add(_label(document.title), DocumentData(index), expand=expand)

    def _add_passages(
        self, node: TreeNode[NodeData], document: DocumentInfo, positions: Iterable[int]
    ) -> None:
        assert self.library is not None
        passages = self.library.passages[document.first : document.first + document.count]
        labels = section_labels([passage.title for passage in passages], document.title)
        for position in positions:
            node.add_leaf(_label(labels[position - document.first]), PassageData(position))

    def _populate(self, node: TreeNode[NodeData]) -> None:
        """Add a folder's or a document's children, the first time it opens."""
        if node.id in self._populated or self.library is None:
            return
        self._populated.add(node.id)
        data = node.data
        if isinstance(data, FolderData):
            self._add_folder_contents(node, self._folder(data.path))
        elif isinstance(data, DocumentData):
            document = self.library.documents[data.index]
            every = range(document.first, document.first + document.count)
            self._add_passages(node, document, every)

    def _folder(self, path: str) -> Folder:
        folder = self._folders
        for part in path.split("/"):
            folder = folder.folders[part]
        return folder

    # -- filtering ------------------------------------------------------------

    def apply_filter(self, text: str) -> None:
        previous, self.filter_text = self._matched_text, text
        if bool(previous) != bool(text.strip()):
            self.refresh_bindings()  # Esc clears a filter, and the footer says so
        library = self.library
        if library is None:
            self._show_subtitle()
            return
        if not text.strip():
            self.matches = array("I")
            self._matched_text = None
            self._rebuild()
            self._show_subtitle()
            return
        words = text.casefold().split()
        haystacks = self._haystacks
        if haystacks is None:
            haystacks = self._haystacks = [
                f"{passage.title} {passage.id}".casefold() for passage in library.passages
            ]
        # A longer filter only narrows the matches of the shorter one it extends.
        narrowing = previous is not None and text.startswith(previous)
        candidates = self.matches if narrowing else range(len(haystacks))
        self.matches = array(
            "I",
            (p for p in candidates if all(word in haystacks[p] for word in words)),
        )
        self._matched_text = text
        self._show_matches()
        self._show_subtitle()

    def _show_matches(self) -> None:
        """The filtered tree: matching passages with their documents and folders, open."""
        assert self.library is not None
        library = self.library
        shown = self.matches[:MAX_SHOWN]
        by_document: dict[int, list[int]] = {}
        for position in shown:
            by_document.setdefault(self._document_of[position], []).append(position)
        needed: set[str] = set()
        for index in by_document:
            parts = tree_path(library.documents[index], library.combined).split("/")[:-1]
            needed.update("/".join(parts[: depth + 1]) for depth in range(len(parts)))
        self.clear()
        self._populated = {self.root.id}
        first_passage_line: list[int] = []
        line = 0

        def add(node: TreeNode[NodeData], folder: Folder) -> None:
            nonlocal line
            for sub in folder.sorted_folders():
                if sub.path in needed:
                    name = sub.path.rsplit("/", 1)[-1]
                    child = node.add(_label(name + "/"), FolderData(sub.path), expand=True)
                    self._populated.add(child.id)
                    line += 1
                    add(child, sub)
            for index in folder.documents:
                positions = by_document.get(index)
                if positions is None:
                    continue
                document = library.documents[index]
                doc_node = self._add_document(node, index, expand=True)
                line += 1
                if document.count == 1:
                    first_passage_line.append(line - 1)
                    continue
                self._populated.add(doc_node.id)
                self._add_passages(doc_node, document, positions)
                first_passage_line.append(line)
                line += len(positions)

        add(self.root, self._folders)
        self.cursor_line = min(first_passage_line, default=0)

    def _show_subtitle(self) -> None:
        browser = self.parent
        if not isinstance(browser, LibraryBrowser):
            return
        if self.library is None:
            browser.border_subtitle = "loading…"
        elif not self.filter_text:
            browser.border_subtitle = "type to filter"
        else:
            found = len(self.matches)
            count = f"{found:,}" if found <= MAX_SHOWN else f"{MAX_SHOWN:,} of {found:,}"
            # Content, not a str: a border subtitle string would be parsed as markup.
            browser.border_subtitle = Content(f"filter: {one_line(self.filter_text)} ({count})")

    # -- keys -----------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if event.key == "backspace" and self.filter_text:
            self.apply_filter(self.filter_text[:-1])
        elif event.is_printable and event.character and event.key != "enter":
            self.apply_filter(self.filter_text + event.character)
        else:
            return
        event.stop()
        event.prevent_default()

    def action_clear_filter(self) -> None:
        """Esc shows the whole tree again; with no filter, Esc keeps its usual meaning."""
        self.apply_filter("")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            return bool(self.filter_text)
        return True

    def action_open_node(self) -> None:
        """Open the folder or document under the cursor; on an open one, go to its first child."""
        node = self.cursor_node
        if node is None or not node.allow_expand:
            return
        self._populate(node)
        if not node.is_expanded:
            node.expand()
        elif node.children:
            self.move_cursor(node.children[0])

    def action_close_node(self) -> None:
        """Close the node under the cursor; on a closed one or a leaf, go to its parent."""
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    @on(Tree.NodeExpanded)
    def _expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        event.stop()
        self._populate(event.node)  # also when opened by mouse or space

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        event.stop()
        node, data, library = event.node, event.node.data, self.library
        if library is None or data is None:
            return
        if isinstance(data, FolderData):
            self._populate(node)
            node.toggle()
            return
        if isinstance(data, DocumentData):
            position = library.documents[data.index].first
            if node.allow_expand and not node.is_expanded:
                self._populate(node)
                node.expand()
        else:
            position = data.position
        self.post_message(PassageChosen(library.passages[position].id))

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted[NodeData]) -> None:
        event.stop()
        self.tooltip = self._full_label(event.node.data)

    def _full_label(self, data: NodeData | None) -> Content | None:
        library = self.library
        if library is None or data is None:
            return None
        if isinstance(data, FolderData):
            lines = [data.path + "/"]
        elif isinstance(data, DocumentData):
            lines = [library.documents[data.index].title, library.documents[data.index].path]
        else:
            passage = library.passages[data.position]
            lines = [passage.title, passage.id, one_line(passage.location)]
        return Content("\n".join(map(one_line, lines)))


class LibraryBrowser(Vertical):
    DEFAULT_CSS = """
    LibraryBrowser {
        border: round $secondary;
        border-title-color: $text-secondary;
        height: 1fr;
        min-height: 5;
    }
    LibraryBrowser:focus-within { border: round $accent; }
    LibraryBrowser > Tree {
        border: none;
        height: 1fr;
        padding: 0;
        background: transparent;
        overflow-x: hidden;
    }
    LibraryBrowser > Tree:focus { border: none; }
    """

    def __init__(self) -> None:
        super().__init__(id="library")
        self.border_title = f"Library {key_name(FOCUS_LIBRARY.key)}"
        self.border_subtitle = "loading…"

    def compose(self) -> ComposeResult:
        yield LibraryTree()

    @property
    def library_tree(self) -> LibraryTree:
        return self.query_one(LibraryTree)

    def set_library(self, library: Library) -> None:
        count = plural(len(library.passages), "passage")
        self.border_title = f"Library ({count}) {key_name(FOCUS_LIBRARY.key)}"
        self.library_tree.set_library(library)
