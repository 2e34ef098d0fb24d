"""Documents and answers rendered as Markdown, safely, with marks on top.

Textual's `Markdown` shows Rich markup literally; here links are not opened by a click
(`open_links=False`) and the text goes through `readable_markdown` first (no escape
sequences, no HTML comments). After each update the rendered blocks get their marks:
the question's words highlighted, the sentences that best match them underlined (the
panel showing a long passage scrolls to them), quoted lines set apart (`-quoted`), and
sentences a support check flagged dimmed with a `†`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from textual import on
from textual.await_complete import AwaitComplete
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Label
from textual.widgets.markdown import Markdown, MarkdownBlock, MarkdownFence

from tui_assistant.core.display_text import clean_display_text
from tui_assistant.core.excerpt import SentenceMatch, matching_sentences
from tui_assistant.core.words import WORD, match_keys
from tui_assistant.ui.widgets.untrusted_text import readable_markdown

HIGHLIGHT_STYLE = "bold reverse"
UNSUPPORTED_MARKER = " \u2020"
UNSUPPORTED_STYLE = "dim italic"
# The sentences that best match the question, and how many are marked.
MATCHING_STYLE = "underline"
MATCHING_SHOWN = 2


def highlight_spans(text: str, matched_keys: Collection[str]) -> list[tuple[int, int]]:
    """Where in `text` the words whose normalised key is one of `matched_keys` are.

    A word matches when `normalise` of that single word gives a matched key, so
    `boiling` is highlighted for the key `boil` while `basalt` never is for `salt`.
    """
    keys = set(matched_keys)
    if not keys:
        return []
    return [
        (match.start(), match.end())
        for match in WORD.finditer(text)
        if any(key in keys for key in match_keys(match.group()))
    ]


def with_highlights(content: Content, matched_keys: Collection[str]) -> Content:
    for start, end in highlight_spans(content.plain, matched_keys):
        content = content.stylize(HIGHLIGHT_STYLE, start, end)
    return content


def located_sentences(text: str, sentences: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Where each sentence is in `text`, not overlapping (those not found left out)."""
    spans: dict[str, tuple[int, int]] = {}
    for sentence in sentences:
        needle = " ".join(clean_display_text(sentence).split())
        start = text.find(needle) if needle else -1
        end = start + len(needle)
        if start >= 0 and not any(s < end and start < e for s, e in spans.values()):
            spans[sentence] = (start, end)
    return spans


def with_flagged(content: Content, sentences: Iterable[str]) -> tuple[Content, set[str]]:
    """`content` with each sentence found in it dimmed and followed by `†`; and which
    sentences were found."""
    spans = located_sentences(content.plain, sentences)
    if not spans:
        return content, set()
    parts: list[Content] = []
    position = 0
    for start, end in sorted(spans.values()):
        parts.append(content[position:start])
        parts.append(content[start:end].stylize(UNSUPPORTED_STYLE))
        parts.append(Content(UNSUPPORTED_MARKER).stylize("bold"))
        position = end
    parts.append(content[position:])
    return Content.assemble(*parts), set(spans)


# How many lines of a matching sentence a view opened at it shows at least.
SENTENCE_LINES_SHOWN = 3


def offset_in(widget: Widget, container: Widget) -> int:
    """How far down `container`'s scrolled content `widget` starts.

    Read from the last layout alone (the child of `container` holding `widget`, and
    where that child stands in the content), never mixed with a scroll made since: a
    second scroll before the next refresh would otherwise count the first one twice."""
    child = widget
    while child.parent is not None and child.parent is not container:
        if not isinstance(child.parent, Widget):
            return widget.region.y - container.scrollable_content_region.y
        child = child.parent
    return widget.region.y - child.region.y + child.virtual_region.y


def line_in(block: MarkdownBlock, offset: int, container: Widget) -> int:
    """How far down `container`'s scrolled content the line of `block` that holds
    character `offset` of its text stands (as wrapped at the block's width)."""
    top = offset_in(block, container)
    content = block.content
    width = block.content_region.width
    if not isinstance(content, Content) or width <= 0:
        return top
    for line, wrapped in enumerate(content.wrap(width)):
        offset -= len(wrapped.plain) + 1  # the space the wrap took away
        if offset < 0:
            return top + line
    return top


def _is_leaf(block: MarkdownBlock) -> bool:
    return not block.query(MarkdownBlock)


class MarkdownView(Markdown):
    """Untrusted Markdown, rendered with marks. `show` sets the text and the marks."""

    DEFAULT_CSS = """
    MarkdownView { padding: 0; }
    MarkdownView MarkdownBlock.-quoted {
        background: $warning 15%;
        border-left: outer $warning;
    }
    """

    def __init__(
        self,
        text: str = "",
        *,
        flagged: Iterable[str] = (),
        found_keys: Collection[str] = (),
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(readable_markdown(text), id=id, classes=classes, open_links=False)
        self.marked_keys: frozenset[str] = frozenset()
        # Keys whose best-matching sentence is found (`best`) but not marked: an answer
        # in the conversation opens at it without being drawn over.
        self.found_keys: frozenset[str] = frozenset(found_keys)
        # 0-based, inclusive ranges of lines of the shown text.
        self.quoted_lines: tuple[tuple[int, int], ...] = ()
        self.flagged: tuple[str, ...] = tuple(flagged)
        # Flagged sentences found in the rendered text, after the latest update.
        self.placed: set[str] = set()
        self.marked = False  # the latest text is on screen with its marks
        # The block holding the sentence that best matches the marked keys, and where
        # in its text that sentence starts (after the latest update).
        self.best: tuple[MarkdownBlock, int] | None = None

    class Marked(Message):
        """The view's latest text is rendered and marked."""

        def __init__(self, view: MarkdownView) -> None:
            super().__init__()
            self.view = view

    def show(
        self,
        text: str,
        marked_keys: Collection[str] = (),
        quoted_lines: Iterable[tuple[int, int]] = (),
        flagged: Iterable[str] = (),
    ) -> AwaitComplete:
        self.marked_keys = frozenset(marked_keys)
        self.quoted_lines = tuple(quoted_lines)
        self.flagged = tuple(flagged)
        self.marked = False
        return self.update(readable_markdown(text))

    @property
    def quoted_blocks(self) -> list[MarkdownBlock]:
        """The blocks holding lines a model answer quotes, in reading order."""
        return [block for block in self.query(MarkdownBlock) if block.has_class("-quoted")]

    @on(Markdown.TableOfContentsUpdated)
    def _mark(self, event: Markdown.TableOfContentsUpdated) -> None:
        """Every update ends with this message: its blocks are mounted, mark them."""
        event.stop()
        placed: set[str] = set()
        # Each text block's content with its marks, in reading order.
        texts: list[tuple[MarkdownBlock, Content, Content]] = []
        for block in self.query(MarkdownBlock):
            if not _is_leaf(block):
                continue
            start, end = block.source_range
            quoted = any(start <= last and first < end for first, last in self.quoted_lines)
            block.set_class(quoted, "-quoted")
            if isinstance(block, MarkdownFence):
                try:
                    label = block.query_one(Label)
                except NoMatches:
                    continue
                if isinstance(label.content, Content) and self.marked_keys:
                    label.update(with_highlights(label.content, self.marked_keys))
                continue
            content = block.content
            if block.name == "paragraph_open" and not str(content).strip():
                block.display = False  # only inline HTML (`<a id="x"></a>`), left out
                continue
            if not isinstance(content, Content) or not content.plain:
                continue
            marked = with_highlights(content, self.marked_keys)
            if self.flagged:
                marked, found = with_flagged(marked, self.flagged)
                placed |= found
            texts.append((block, content, marked))
        matching = self._mark_matching(texts)
        if not self.marked_keys and self.found_keys:
            matching = self._matching(texts, self.found_keys)
        self.best = matching[0] if matching else None
        for block, content, marked in texts:
            if marked is not content:
                block.set_content(marked)
        self.placed = placed
        self.marked = True
        self.post_message(self.Marked(self))

    def _mark_matching(
        self, texts: list[tuple[MarkdownBlock, Content, Content]]
    ) -> list[tuple[MarkdownBlock, int]]:
        """Underline the sentences that best match the marked keys (as the text reads,
        headings aside: the title holds them), in `texts`; where each stands, best first."""
        where: list[tuple[MarkdownBlock, int]] = []
        for order, match in self._best_sentences(texts, self.marked_keys):
            block, content, marked = texts[order]
            texts[order] = (block, content, marked.stylize(MATCHING_STYLE, match.start, match.end))
            where.append((block, match.start))
        return where

    @staticmethod
    def _matching(
        texts: list[tuple[MarkdownBlock, Content, Content]], keys: Collection[str]
    ) -> list[tuple[MarkdownBlock, int]]:
        """Where the sentences that best match `keys` stand, best first, unmarked."""
        return [
            (texts[order][0], match.start)
            for order, match in MarkdownView._best_sentences(texts, keys)
        ]

    @staticmethod
    def _best_sentences(
        texts: list[tuple[MarkdownBlock, Content, Content]], keys: Collection[str]
    ) -> list[tuple[int, SentenceMatch]]:
        """The `MATCHING_SHOWN` sentences of `texts` that best match `keys` (headings
        aside: the title holds them), as (index into `texts`, match), best first."""
        found = [
            (order, match)
            for order, (block, _, marked) in enumerate(texts)
            if block.name != "heading_open"
            for match in matching_sentences(marked.plain, keys)[:MATCHING_SHOWN]
        ]
        found.sort(key=lambda item: (-item[1].matched, item[0], item[1].index))
        return found[:MATCHING_SHOWN]
