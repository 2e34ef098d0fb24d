"""Properties of splitting any Markdown-like document into passages (hypothesis):
order, coverage, length, ids, text and titles."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_assistant.core.documents.formats import document_id
from tui_assistant.core.documents.passage import (
    MAX_PASSAGE_CHARS,
    PASSAGE_ID,
    TITLE_SEPARATOR,
    WHOLE_SECTION_CHARS,
    Document,
    PassageDraft,
)
from tui_assistant.core.documents.split import split_document


def split(text: str, path: str = "notes.md") -> Document:
    return split_document(path, text)


def texts(document: Document) -> list[str]:
    return [draft.text for draft in document.passages]


def body(document: Document, draft: PassageDraft, generated: Generated) -> str:
    """A passage's text less the heading words a document's only passage opens with,
    when its title (the document title) does not say them."""
    if len(document.passages) == 1 and draft.line in generated.headings:
        heading = generated.lines[draft.line - 1].lstrip("#").strip()
        first, _, rest = draft.text.partition("\n")
        if first == heading:
            return rest.strip()
    return draft.text


# -- properties over generated documents ------------------------------------------


@dataclass
class Generated:
    """A generated document and what the splitter must make of it."""

    lines: list[str] = field(default_factory=list)
    headings: set[int] = field(default_factory=set)  # 1-based numbers of real headings
    content: list[int] = field(default_factory=list)  # 1-based numbers of content lines
    comments: set[int] = field(default_factory=set)  # 1-based numbers of HTML-comment lines
    deep: set[int] = field(default_factory=set)  # 1-based numbers of `####` headings
    front_matter: int = 0  # lines of a leading YAML front matter, never a section's text

    def settle(self) -> None:
        """A `####` heading starts a passage in a section of the first three levels
        longer than WHOLE_SECTION_CHARS; in a shorter one it is text."""
        starts = [self.front_matter + 1, *sorted(self.headings), len(self.lines) + 1]
        for first, end in itertools.pairwise(starts):
            numbers = range(first + (first in self.headings), end)
            long = len("\n".join(self.shown(n) for n in numbers).strip()) > WHOLE_SECTION_CHARS
            for number in (n for n in numbers if n in self.deep):
                if long:
                    self.headings.add(number)
                else:
                    self.content.append(number)
        self.content.sort()

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def add(
        self, line: str, *, heading: bool = False, comment: bool = False, deep: bool = False
    ) -> None:
        self.lines.append(line)
        number = len(self.lines)
        if deep:
            self.deep.add(number)
        elif heading:
            self.headings.add(number)
        elif comment:
            self.comments.add(number)
        elif line.strip():
            self.content.append(number)

    def shown(self, number: int) -> str:
        """Line `number` as a passage shows it: a comment line is left empty."""
        return "" if number in self.comments else self.lines[number - 1]


WORDS = st.sampled_from(
    ["salt", "water", "pasta", "boil", "egg", "knife", "Café", "über", "x", "a.b", "`code`"]
)
INLINE = st.lists(WORDS, min_size=1, max_size=8).map(" ".join)
HEADING_TEXT = st.lists(
    st.sampled_from(["Intro", "Step", "Salt", "Eggs", "Notes"]), min_size=1, max_size=2
).map(" ".join)

BLOCK = st.one_of(
    st.tuples(st.just("heading"), st.integers(1, 4), HEADING_TEXT),
    st.tuples(st.just("paragraph"), st.lists(INLINE, min_size=1, max_size=4)),
    st.tuples(st.just("blank"), st.integers(1, 3)),
    st.tuples(
        st.just("fence"),
        st.sampled_from(["```", "~~~"]),
        st.lists(st.one_of(INLINE, HEADING_TEXT.map(lambda t: "# " + t), st.just("")), max_size=3),
    ),
    st.tuples(st.just("long line"), st.integers(4001, 9000), st.booleans()),
    st.tuples(st.just("long paragraph"), st.integers(30, 60)),
    st.tuples(
        st.just("comment"),
        st.lists(
            st.one_of(INLINE, HEADING_TEXT.map(lambda t: "## " + t), st.just("```")), max_size=3
        ),
    ),
)


@st.composite
def documents(draw: st.DrawFn) -> Generated:
    generated = Generated()
    front = draw(st.sampled_from(["none", "title", "no title", "comment"]))
    if front == "comment":  # front matter as an HTML comment, as some sites write it
        for line in ["<!--", "title: Generated", "description: Made up", "-->"]:
            generated.add(line, comment=True)
    elif front != "none":
        generated.lines += ["---", "author: someone"]
        if front == "title":
            generated.lines.append("title: Generated")
        generated.lines.append("---")
        generated.front_matter = len(generated.lines)
    for block in draw(st.lists(BLOCK, max_size=14)):
        kind = block[0]
        if kind == "heading":
            _, level, text = block
            generated.add("#" * level + " " + text, heading=level <= 3, deep=level > 3)
        elif kind == "paragraph":
            for line in block[1]:
                generated.add(line)
        elif kind == "blank":
            for _ in range(block[1]):
                generated.add("")
        elif kind == "fence":
            _, marker, inside = block
            generated.add(marker + "text")
            for line in inside:
                generated.add(line)
            generated.add(marker)
        elif kind == "comment":
            inside = block[1]
            if not inside:
                generated.add("<!-- a note -->", comment=True)
            else:
                generated.add("<!--", comment=True)
                for line in inside:
                    generated.add(line, comment=True)
                generated.add("-->", comment=True)
        elif kind == "long line":
            _, length, spaces = block
            unit = "word " if spaces else "abcdefghi"
            generated.add((unit * (length // len(unit) + 1))[:length].strip())
        else:
            for number in range(block[1]):
                generated.add(f"row {number} " + "filler text " * 10)
        generated.add("")  # blocks are separated as Markdown needs
    generated.settle()
    return generated


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(documents())
def test_passages_are_in_order_and_never_overlap(generated: Generated) -> None:
    """A passage starts after the previous one ends; the only shared line is a line
    longer than the limit, whose pieces are consecutive passages on that same line."""
    document = split(generated.text)
    for previous, current in zip(document.passages, document.passages[1:], strict=False):
        if current.line == previous.end_line:
            assert len(generated.lines[current.line - 1]) > MAX_PASSAGE_CHARS
        else:
            assert current.line > previous.end_line
    for draft in document.passages:
        assert 1 <= draft.line <= draft.end_line <= len(generated.lines)


@PROPERTY_SETTINGS
@given(documents())
def test_every_content_line_is_in_exactly_one_passage_in_order(generated: Generated) -> None:
    document = split(generated.text)
    expected = "".join(squeezed(generated.lines[n - 1]) for n in generated.content)
    shown = [body(document, draft, generated) for draft in document.passages]
    assert "".join(squeezed(t) for t in shown) == expected
    # And each content line lies inside the span of the passage holding it.
    covered = [
        n
        for d in document.passages
        for n in range(d.line, d.end_line + 1)
        if n in generated.content
    ]
    assert sorted(set(covered)) == generated.content


@PROPERTY_SETTINGS
@given(documents())
def test_no_passage_is_longer_than_the_limit_and_none_is_empty(generated: Generated) -> None:
    for draft in split(generated.text).passages:
        assert 0 < len(draft.text) <= MAX_PASSAGE_CHARS
        assert draft.text == draft.text.strip()


@PROPERTY_SETTINGS
@given(documents(), st.sampled_from(["notes.md", "Deep/Nested Path/File_name.md"]))
def test_ids_are_unique_and_well_formed(generated: Generated, path: str) -> None:
    document = split(generated.text, path)
    ids = [draft.passage(document_id(path), path).id for draft in document.passages]
    assert len(ids) == len(set(ids))
    for passage in ids:
        assert PASSAGE_ID.match(passage), passage
    if document.passages:
        assert document.passages[0].anchor == ""


@PROPERTY_SETTINGS
@given(documents())
def test_passage_text_is_its_lines_of_the_source(generated: Generated) -> None:
    """A passage's text is its lines of the file without its heading line, stripped;
    a piece of a cut over-long line is part of that line. (A document's only passage
    opens with its heading's words when the title does not say them.)"""
    document = split(generated.text)
    for draft in document.passages:
        numbers = [n for n in range(draft.line, draft.end_line + 1) if n not in generated.headings]
        # A real heading can only be the passage's first line.
        assert all(
            n == draft.line
            for n in range(draft.line, draft.end_line + 1)
            if n in generated.headings
        )
        source = [generated.shown(n) for n in numbers]
        text = body(document, draft, generated)
        if any(len(line) > MAX_PASSAGE_CHARS for line in source):
            assert squeezed(text) in squeezed("".join(source))
        else:
            assert text == "\n".join(source).strip()


@PROPERTY_SETTINGS
@given(documents())
def test_comments_are_never_text_and_never_split(generated: Generated) -> None:
    """No passage holds a comment or starts at one, and a heading inside a comment
    starts no passage."""
    for draft in split(generated.text).passages:
        assert "<!--" not in draft.text and "-->" not in draft.text
        assert draft.line not in generated.comments
        assert "a note" not in draft.text


@PROPERTY_SETTINGS
@given(documents())
def test_titles_start_with_the_document_title(generated: Generated) -> None:
    document = split(generated.text)
    if "title: Generated" in generated.lines[:4]:
        assert document.title == "Generated"
    for draft in document.passages:
        assert draft.title == document.title or draft.title.startswith(
            document.title + TITLE_SEPARATOR
        )
        assert "---" not in draft.title
