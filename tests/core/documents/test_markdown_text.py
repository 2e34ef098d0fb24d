"""Markdown passages hold what the rendered page shows as words: HTML tags, anchors, link
definitions and mdBook's include lines are no text, on the file's own lines."""

from __future__ import annotations

from tui_assistant.core.checks.quotes import find_quote
from tui_assistant.core.documents.passage import Document, file_lines
from tui_assistant.core.documents.split import split_document


def split(text: str, path: str = "ch03-04-comments.md") -> Document:
    return split_document(path, text)


# The Rust Programming Language (mdBook), as written.
COMMENTS = """\
## Comments

Comments can also be placed at the end of lines containing code:

<span class="filename">Filename: src/main.rs</span>

```rust
{{#rustdoc_include ../listings/ch03/no-listing-24-comments-end-of-line/src/main.rs}}
```

<Listing number="3-2" file-name="src/main.rs" caption="Assigning the result of an `if` expression">

```rust
{{#rustdoc_include ../listings/ch03/listing-03-02/src/main.rs}}
fn shown() {}
```

</Listing>

See [the reference][ref] for more.

[ref]: ../reference/comments.html
[atomic]:
    ../std/sync/atomic/index.html
"""


def test_tags_includes_and_link_definitions_are_not_text() -> None:
    (draft,) = split(COMMENTS).passages
    assert draft.text == (
        "Comments\n"
        "\n"
        "Comments can also be placed at the end of lines containing code:\n"
        "\n"
        "Filename: src/main.rs\n"
        "\n\n\n\n\n"
        "Listing 3-2: Assigning the result of an `if` expression\n"
        "\n"
        "```rust\n"
        "\n"
        "fn shown() {}\n"
        "```\n"
        "\n\n\n"
        "See [the reference][ref] for more."
    )
    assert draft.end_line == 20  # the link definitions after it are not text


def test_a_page_that_starts_at_a_level_two_heading_keeps_that_heading_in_its_text() -> None:
    document = split(COMMENTS)
    assert document.title == "ch03-04-comments"
    (draft,) = document.passages
    assert draft.title == "ch03-04-comments"
    assert draft.text.startswith("Comments\n\nComments can also be placed")


def test_a_level_two_heading_below_text_does_not_name_the_document() -> None:
    document = split("Starlette includes a Request class.\n\n## Users\n\nText.\n", "auth.md")
    assert document.title == "auth"
    assert [draft.title for draft in document.passages] == ["auth", "auth › Users"]


def test_a_level_one_heading_names_the_document_before_a_level_two_one() -> None:
    document = split("## Details\n\nMore.\n\n# Pasta water\n\nSalt it.\n", "pasta.md")
    assert document.title == "Pasta water"


def test_an_html_banner_above_a_level_two_heading_is_no_text_above_it() -> None:
    text = '<h1 align="center">Fastify</h1>\n\n## Benchmarking\nBenchmarking is important.\n'
    document = split(text, "Guides/Benchmarking.md")
    assert document.title == "Benchmarking"
    assert [draft.text for draft in document.passages] == ["Benchmarking is important."]


def test_a_heading_followed_only_by_comments_and_anchors_is_no_passage() -> None:
    text = """\
# Installation

Install it with rustup.

<!-- Old headings. Do not remove or links may break. -->
<a id="local-documentation"></a>

### Reading the Local Documentation
<a id="reading-docs"></a>
<!-- Moved to the appendix. -->

### Using Text Editors and IDEs

Any editor works.
"""
    intro, editors = split(text, "ch01-01-installation.md").passages
    assert (intro.text, intro.end_line) == ("Install it with rustup.", 3)
    assert editors.title == "Installation › Using Text Editors and IDEs"


def test_an_image_is_its_alt_text_on_its_own_lines() -> None:
    text = """\
# Ownership

<img alt="Two tables: the first table contains the representation of s1 on the
stack, consisting of its length (5)." src="img/trpl04-01.svg" class="center"
style="width: 50%;" />

After the figure.
"""
    (draft,) = split(text, "ch04-01-what-is-ownership.md").passages
    assert draft.text == (
        "Two tables: the first table contains the representation of s1 on the\n"
        "stack, consisting of its length (5).\n"
        "\n\n"
        "After the figure."
    )
    assert file_lines(text)[draft.end_line - 1] == "After the figure."


def test_angle_brackets_that_are_not_html_stay() -> None:
    text = "# Types\n\nA Vec<T> holds values; run `npm config set <key> <value>` or <name>.\n"
    (draft,) = split(text, "types.md").passages
    assert draft.text == "A Vec<T> holds values; run `npm config set <key> <value>` or <name>."


def test_tags_in_code_are_code() -> None:
    text = '# Html\n\nWrite `<span class="x">` and:\n\n```html\n<a id="top"></a>\n```\n'
    (draft,) = split(text, "html.md").passages
    assert draft.text == 'Write `<span class="x">` and:\n\n```html\n<a id="top"></a>\n```'


def test_a_quote_of_text_between_tags_is_found_on_its_file_line() -> None:
    document = split(COMMENTS)
    passage = document.passages[0].passage("ch03-04-comments", "book/ch03-04-comments.md")
    quote = find_quote("Filename: src/main.rs", passage)
    assert quote is not None
    assert (quote.line, quote.end_line) == (5, 5)
    assert "Filename: src/main.rs" in file_lines(COMMENTS)[quote.line - 1]
