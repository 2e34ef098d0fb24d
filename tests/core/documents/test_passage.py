"""Splitting one Markdown document into passages: titles, ids, line numbers and cuts.

Everything here is pure: `split_document(path, text)` on strings, no disk.
"""

from __future__ import annotations

import pytest

from tui_assistant.core.documents.formats import document_id
from tui_assistant.core.documents.passage import (
    MAX_PASSAGE_CHARS,
    PASSAGE_ID,
    TITLE_SEPARATOR,
    Document,
    Passage,
    PassageDraft,
    passage_id,
)
from tui_assistant.core.documents.split import split_document
from tui_assistant.core.record import PassageRef


def split(text: str, path: str = "notes.md") -> Document:
    return split_document(path, text)


def texts(document: Document) -> list[str]:
    return [draft.text for draft in document.passages]


def all_text(document: Document) -> str:
    return "\n".join(texts(document))


def spans(document: Document) -> list[tuple[int, int]]:
    return [(draft.line, draft.end_line) for draft in document.passages]


# -- front matter and document title ----------------------------------------------


def test_front_matter_gives_the_title_and_is_never_text() -> None:
    document = split("---\ntitle: Boiling eggs\nauthor: Sam\n---\nCover with cold water.\n")
    assert document.title == "Boiling eggs"
    assert texts(document) == ["Cover with cold water."]
    assert "author" not in all_text(document)
    assert "---" not in all_text(document)


@pytest.mark.parametrize(
    "line",
    ['title: "Knives: care and sharpening"', "title: 'Knives: care and sharpening'"],
)
def test_a_quoted_front_matter_title_loses_its_quotes(line: str) -> None:
    document = split(f"---\n{line}\n---\nHone before each use.\n")
    assert document.title == "Knives: care and sharpening"


def test_front_matter_closed_with_dots_ends_there() -> None:
    document = split("---\ntitle: Pasta\n...\nSalt the water.\n")
    assert document.title == "Pasta"
    assert texts(document) == ["Salt the water."]


def test_front_matter_without_title_falls_back_to_the_first_level_one_heading() -> None:
    document = split("---\nauthor: Sam\ntags: [eggs]\n---\n# Soft eggs\n\nSix minutes.\n")
    assert document.title == "Soft eggs"
    assert texts(document) == ["Six minutes."]
    assert "author" not in all_text(document)


def test_an_unclosed_dash_line_is_not_front_matter() -> None:
    document = split("---\ntitle: Not a title\n\n# Real title\n\nBody.\n", "file.md")
    assert document.title == "Real title"
    # The lines stay text: nothing is silently dropped.
    assert "title: Not a title" in all_text(document)
    assert "Body." in all_text(document)


def test_title_falls_back_to_the_first_level_one_heading() -> None:
    document = split("Intro line.\n\n## Details\n\nMore.\n\n# Pasta water\n\nSalt it.\n")
    assert document.title == "Pasta water"


def test_a_level_two_heading_at_the_top_does_not_name_the_document() -> None:
    document = split("## Details\n\nMore.\n", "cooking/Pasta Water.md")
    assert document.title == "Pasta Water"
    assert [draft.text for draft in document.passages] == ["Details\n\nMore."]


def test_a_single_passage_opens_with_the_heading_its_title_does_not_say() -> None:
    document = split("# Pasta water\n\n## Salt\n\nA handful per pot.\n")
    (draft,) = document.passages
    assert (draft.title, draft.line, draft.end_line) == ("Pasta water", 3, 5)
    assert draft.text == "Salt\n\nA handful per pot."


def test_title_falls_back_to_the_file_name_without_md() -> None:
    document = split("Just a paragraph.\n", "kitchen/Knife care.md")
    assert document.title == "Knife care"
    assert [d.title for d in document.passages] == ["Knife care"]


# -- where passages start and end -------------------------------------------------


def test_a_short_section_keeps_its_deeper_headings_in_its_text() -> None:
    document = split(
        "# Doc\n\nzero\n\n## Two\n\ntwo\n\n### Three\n\nthree\n\n#### Four\n\nfour\n",
    )
    assert texts(document) == ["zero", "two", "three\n\n#### Four\n\nfour"]


def test_a_long_section_splits_at_headings_of_every_level() -> None:
    # Over 4,000 characters together: the section no longer fits one passage.
    three, four = paragraph(3, 130), paragraph(4, 130)
    document = split(
        f"# Doc\n\nzero\n\n## Two\n\ntwo\n\n### Three\n\n{three}\n\n#### Four\n\n{four}\n"
        "\n###### Six\n\nsix\n",
    )
    assert texts(document) == ["zero", "two", three, four, "six"]
    assert document.passages[3].title == "Doc › Two › Three › Four"
    assert document.passages[4].title == "Doc › Two › Three › Four › Six"
    # `#### Four` starts where the cut of the long `### Three` started its second part:
    # it keeps that part's id.
    assert [draft.anchor for draft in document.passages] == [
        "",
        "two",
        "three",
        "three-part-2",
        "six",
    ]


def test_hash_without_a_space_is_text_not_a_heading() -> None:
    document = split("# Doc\n\nintro\n\n#hashtag line\n")
    assert texts(document) == ["intro\n\n#hashtag line"]


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_headings_inside_a_fenced_block_do_not_split(fence: str) -> None:
    source = f"# Doc\n\nRun this:\n\n{fence}sh\n# a comment\n## not a heading\n{fence}\n\nDone.\n"
    document = split(source)
    assert len(document.passages) == 1
    assert "# a comment\n## not a heading" in document.passages[0].text
    assert document.passages[0].text.endswith("Done.")


def test_a_shorter_or_different_fence_does_not_close_a_fence() -> None:
    source = "# Doc\n\n````\n```\n# inside\n~~~\n## inside too\n````\n\n## After\n\nx\n"
    document = split(source)
    assert [d.title for d in document.passages] == ["Doc", "Doc › After"]
    assert "## inside too" in document.passages[0].text


def test_heading_only_sections_are_dropped() -> None:
    document = split(
        "# Doc\n\nintro\n\n## Empty\n\n## Also empty\n### Nested empty\n\n## Full\n\nx\n"
    )
    assert [d.title for d in document.passages] == ["Doc", "Doc › Full"]
    assert texts(document) == ["intro", "x"]


def test_text_before_the_first_heading_is_a_passage_titled_with_the_document_title() -> None:
    document = split("---\ntitle: Eggs\n---\nA preface.\n\n## Boiling\n\nSix minutes.\n")
    assert [(d.title, d.text) for d in document.passages] == [
        ("Eggs", "A preface."),
        ("Eggs › Boiling", "Six minutes."),
    ]


def test_passage_titles_follow_the_heading_path() -> None:
    source = (
        "# File system\n\nOverview.\n\n## Promises API\n\nPromises.\n\n"
        "### fsPromises.readFile(path[, options])\n\nReads a file.\n\n## Callback API\n\nCb.\n"
    )
    assert [d.title for d in split(source).passages] == [
        "File system",
        "File system › Promises API",
        "File system › Promises API › fsPromises.readFile(path[, options])",
        "File system › Callback API",
    ]
    assert TITLE_SEPARATOR == " › "


def test_a_document_with_a_single_passage_has_the_document_title() -> None:
    document = split("---\ntitle: Pasta\n---\n## Salting\n\nTen grams per litre.\n")
    assert [d.title for d in document.passages] == ["Pasta"]


def test_closing_hashes_are_not_part_of_a_heading() -> None:
    document = split("# Doc\n\nx\n\n## Salting ##\n\ny\n")
    assert document.passages[1].title == "Doc › Salting"
    assert document.passages[1].anchor == "salting"


# -- ids --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("pasta-water.md", "pasta-water"),
        ("Pasta Water.md", "pasta-water"),
        ("api/child_process.md", "api/child-process"),
        ("Guides/Getting Started/First Steps.md", "guides/getting-started/first-steps"),
        ("A__B--c.md", "a-b-c"),
        ("Café Crème.md", "cafe-creme"),
        ("Ünïcödé/Ωmega.md", "unicode/mega"),
        ("notes/!!!.md", "notes/doc"),
        ("日本語.md", "doc"),
        ("--edge--.md", "edge"),
    ],
)
def test_document_id(path: str, expected: str) -> None:
    assert document_id(path) == expected
    assert PASSAGE_ID.match(expected)


def test_the_first_passage_has_no_anchor_and_later_ones_a_heading_slug() -> None:
    source = "# Doc\n\nintro\n\n## fsPromises.readFile(path)\n\nx\n\n## Café & Crème!\n\ny\n"
    anchors = [d.anchor for d in split(source).passages]
    assert anchors == ["", "fspromises-readfile-path", "cafe-creme"]


def test_repeated_headings_get_numbered_anchors() -> None:
    source = "# Doc\n\nintro\n\n## Step\n\na\n\n## Step\n\nb\n\n## step\n\nc\n"
    assert [d.anchor for d in split(source).passages] == ["", "step", "step-2", "step-3"]


def test_a_heading_with_no_ascii_left_still_gets_a_valid_unique_anchor() -> None:
    source = "# Doc\n\nintro\n\n## 日本\n\na\n\n## ***\n\nb\n"
    anchors = [d.anchor for d in split(source).passages]
    assert anchors[0] == ""
    assert len(set(anchors)) == 3
    for anchor in anchors[1:]:
        assert PASSAGE_ID.match(passage_id("doc", anchor))


def test_passage_id_joins_document_id_and_anchor() -> None:
    assert passage_id("api/fs", "") == "api/fs"
    assert passage_id("api/fs", "readfile") == "api/fs#readfile"
    draft = PassageDraft("readfile", "T", "x", 3, 4)
    passage = draft.passage("api/fs", "lessons/api/fs.md")
    assert (passage.id, passage.source_path, passage.line, passage.end_line) == (
        "api/fs#readfile",
        "lessons/api/fs.md",
        3,
        4,
    )


# -- line numbers -----------------------------------------------------------------

HAND_COUNTED = """\
Preface line.

# Title

First paragraph.
Second line.

## Empty

## Section

Body one.

Body two.
### Deeper
Deep text.
"""
#  1 Preface line.
#  2
#  3 # Title
#  4
#  5 First paragraph.
#  6 Second line.
#  7
#  8 ## Empty
#  9
# 10 ## Section
# 11
# 12 Body one.
# 13
# 14 Body two.
# 15 ### Deeper
# 16 Deep text.


def test_line_and_end_line_counted_by_hand() -> None:
    document = split(HAND_COUNTED)
    assert [(d.title, d.line, d.end_line) for d in document.passages] == [
        ("Title", 1, 1),
        ("Title", 3, 6),
        ("Title › Section", 10, 14),
        ("Title › Section › Deeper", 15, 16),
    ]
    assert texts(document) == [
        "Preface line.",
        "First paragraph.\nSecond line.",
        "Body one.\n\nBody two.",
        "Deep text.",
    ]


def test_line_numbers_count_the_front_matter_lines() -> None:
    front = "---\ntitle: Counted\ntags: [a, b]\n---\n"  # 4 lines
    document = split(front + HAND_COUNTED)
    assert [(d.line, d.end_line) for d in document.passages] == [
        (5, 5),
        (7, 10),
        (14, 18),
        (19, 20),
    ]


def test_line_numbers_with_windows_line_endings_and_a_bom() -> None:
    document = split("\ufeff# Title\r\n\r\nBody.\r\n\r\n## Next\r\n\r\nMore.\r\n")
    assert spans(document) == [(1, 3), (5, 7)]
    assert texts(document) == ["Body.", "More."]


@pytest.mark.parametrize("separator", ["\x0c", "\x0b", "\x1c", "\x85", "\u2028", "\u2029"])
def test_only_newlines_end_lines(separator: str) -> None:
    # Editors, grep and sed count lines by newlines: a form feed or a Unicode line
    # separator inside a line must not shift the line numbers a citation points at.
    source = f"# Title\n\nbefore{separator}after\n\n## Next\n\nMore.\n"
    document = split(source)
    assert spans(document) == [(1, 3), (5, 7)]
    assert "before" in document.passages[0].text
    assert "after" in document.passages[0].text


# -- long sections ----------------------------------------------------------------


def paragraph(number: int, words: int = 60) -> str:
    return f"p{number} " + " ".join(["lorem ipsum dolor"] * words)


def test_a_long_section_is_cut_at_paragraph_boundaries() -> None:
    paragraphs = [paragraph(n) for n in range(8)]  # ~1,080 characters each
    source = "# Long\n\n" + "\n\n".join(paragraphs) + "\n"
    document = split(source)
    assert len(document.passages) > 1
    for draft in document.passages:
        assert len(draft.text) <= MAX_PASSAGE_CHARS
        # Every passage is whole paragraphs.
        assert all(part in paragraphs for part in draft.text.split("\n\n"))
    assert [part for d in document.passages for part in d.text.split("\n\n")] == paragraphs
    anchors = [d.anchor for d in document.passages]
    assert anchors[0] == ""
    assert anchors[1:] == [f"long-part-{n}" for n in range(2, len(anchors) + 1)]
    # Each later part says what it holds: its first words, never the bare title again.
    assert document.passages[0].title == "Long"
    for draft in document.passages[1:]:
        assert (
            draft.title == f"Long › {draft.text.split(' ', 1)[0]} lorem ipsum dolor lorem ipsum …"
        )
    # Paragraph n sits on line 3 + 2n; each piece starts on its first paragraph.
    assert document.passages[0].line == 1
    for draft in document.passages[1:]:
        first = int(draft.text.split(" ", 1)[0][1:])
        assert draft.line == 3 + 2 * first


def test_each_deeper_heading_of_a_long_section_is_a_passage_and_the_first_keeps_its_id() -> None:
    # Fastify's "Server Methods": one `##` section of many `####` methods.
    methods = [f"#### method{n}\n\n{paragraph(n, 40)}\n\n{paragraph(n, 40)}" for n in range(6)]
    document = split("# Server\n\n## Server Methods\n\n" + "\n\n".join(methods) + "\n")
    assert [draft.title for draft in document.passages] == [
        f"Server › Server Methods › method{n}" for n in range(6)
    ]
    # The section with no text of its own gives its id to its first part, where its
    # text still starts; a method that started a part when `####` was text keeps its id.
    assert [draft.anchor for draft in document.passages] == [
        "",
        "method1",
        "server-methods-part-2",
        "method3",
        "server-methods-part-3",
        "method5",
    ]
    assert document.passages[0].line == 5


def test_rst_titles_of_every_level_are_passages() -> None:
    fixtures = [
        f"fixture{n}\n~~~~~~~~\n\n{paragraph(n, 40)}\n\n{paragraph(n, 40)}" for n in range(6)
    ]
    levels = "Reference\n=========\n\nFixtures\n--------\n\nCapture\n^^^^^^^\n\n"
    text = levels + "\n\n".join(fixtures) + "\n"
    passages = split_document("reference.rst", text).passages
    assert [draft.title for draft in passages] == [
        f"Reference › Fixtures › Capture › fixture{n}" for n in range(6)
    ]


def test_a_single_huge_paragraph_is_cut_at_line_boundaries() -> None:
    lines = [f"line {n:03d} " + "x" * 90 for n in range(100)]  # 99 characters each
    document = split("# Big\n" + "\n".join(lines) + "\n")
    assert len(document.passages) == 3
    assert [line for d in document.passages for line in d.text.split("\n")] == lines
    for draft in document.passages:
        assert len(draft.text) <= MAX_PASSAGE_CHARS
    assert spans(document) == [(1, 41), (42, 81), (82, 101)]


def test_a_single_huge_line_is_cut_at_spaces() -> None:
    long_line = " ".join(f"w{n:04d}" for n in range(2000))  # 11,999 characters
    document = split(f"# Huge\n\nintro\n\n{long_line}\n\nafter\n")
    pieces = [d for d in document.passages if d.line == 5 == d.end_line]
    assert len(pieces) >= 2
    for draft in document.passages:
        assert len(draft.text) <= MAX_PASSAGE_CHARS
    # No word is broken, none lost or repeated, order kept.
    assert all_text(document).split() == ["intro", *long_line.split(), "after"]


def test_a_huge_line_without_spaces_is_cut_anywhere() -> None:
    long_line = "abcdefghij" * 900  # 9,000 characters, no space
    document = split(f"# Huge\n\n{long_line}\n")
    assert [len(d.text) for d in document.passages] == [4000, 4000, 1000]
    assert "".join(texts(document)) == long_line
    assert spans(document) == [(1, 3), (3, 3), (3, 3)]
    assert len({d.anchor for d in document.passages}) == 3


def test_a_section_of_exactly_the_limit_is_one_passage() -> None:
    body = "y" * MAX_PASSAGE_CHARS
    document = split(f"# Exact\n\n{body}\n")
    assert texts(document) == [body]


@pytest.mark.parametrize("lesson_id", ["pasta-water", "a", "a1-b2-c3", "2024"])
def test_valid_ids(lesson_id: str) -> None:
    assert PASSAGE_ID.match(lesson_id)


@pytest.mark.parametrize(
    "lesson_id", ["Pasta", "pasta_water", "-pasta", "pasta-", "a--b", "a b", "é"]
)
def test_invalid_ids(lesson_id: str) -> None:
    assert not PASSAGE_ID.match(lesson_id)


def test_a_passage_location_is_its_path_and_line_range_with_an_en_dash() -> None:
    passage = Passage("pasta-water", "Salting", "text", "lessons/pasta-water.md", 1, 11, "lessons")

    assert passage.location == "lessons/pasta-water.md:1\N{EN DASH}11"
    assert PassageRef.of(passage).model_dump() == {
        "id": "pasta-water",
        "title": "Salting",
        "source_path": "lessons/pasta-water.md",
        "line": 1,
        "end_line": 11,
        "library": "lessons",
        "page": None,
        "end_page": None,
        "url": None,
    }


def test_a_pdf_passage_location_is_its_pages() -> None:
    two = Passage("guide", "Guide", "text", "docs/guide.pdf", 40, 80, "docs", page=12, end_page=13)
    one = Passage("guide", "Guide", "text", "docs/guide.pdf", 40, 50, "docs", page=12, end_page=12)

    assert two.location == "docs/guide.pdf p. 12\N{EN DASH}13"
    assert one.location == "docs/guide.pdf p. 12"
    assert PassageRef.of(two).model_dump()["page"] == 12
    assert PassageRef.of(two).model_dump()["end_page"] == 13


def test_the_page_of_a_line_in_a_pdf_passage_counts_the_pages_begun_before_it() -> None:
    passage = Passage(
        "guide",
        "Guide",
        "text",
        "docs/guide.pdf",
        40,
        90,
        page=12,
        end_page=14,
        page_starts=(61, 80),
    )

    assert [passage.page_at(line) for line in (40, 60, 61, 79, 80, 90)] == [12, 12, 13, 13, 14, 14]
    assert Passage("n", "N", "t", "notes.md", 1, 5).page_at(3) is None


def test_an_empty_section_keeps_its_id_past_empty_deeper_ones() -> None:
    code, more = paragraph(0, 130), paragraph(1, 130)
    document = split(
        "# Reply\n\nintro\n\n### Reply\n\n#### Properties\n\n##### .code\n\n"
        f"{code}\n\n##### .more\n\n{more}\n"
    )
    assert [(draft.anchor, draft.title) for draft in document.passages] == [
        ("", "Reply"),
        ("reply", "Reply › Properties › .code"),
        ("reply-part-2", "Reply › Properties › .more"),  # where its part started
    ]
