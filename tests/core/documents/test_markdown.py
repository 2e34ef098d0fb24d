"""Markdown as real documentation sites write it: HTML comments, front matter in a
comment, and headings full of links, code and emphasis."""

from __future__ import annotations

import pytest

from tui_assistant.core.documents.passage import Document
from tui_assistant.core.documents.split import split_document


def split(text: str, path: str = "guide/functions.md") -> Document:
    return split_document(path, text)


# The head of every page of the Serverless Framework's docs (npm serverless@3.40.0).
SITE_PAGE = """\
<!--
title: Serverless Framework - AWS Lambda Functions
description: How to configure AWS Lambda functions in the Serverless Framework
layout: Doc
-->

<!-- DOCS-SITE-LINK:START automatically generated  -->

### [Read this on the main serverless docs site](https://www.serverless.com/framework/docs/providers/aws/guide/functions)

<!-- DOCS-SITE-LINK:END -->

# AWS Lambda Functions

If you are using AWS as a provider, all _functions_ inside the service are AWS Lambda functions.

## Configuration

All of the Lambda functions can be found in `serverless.yml`.
"""


def test_a_section_holding_only_comments_makes_no_passage() -> None:
    document = split(SITE_PAGE)
    assert [d.title for d in document.passages] == [
        "Serverless Framework - AWS Lambda Functions",
        "Serverless Framework - AWS Lambda Functions › Configuration",
    ]
    assert not any("Read this" in d.text or "Read this" in d.title for d in document.passages)


def test_a_leading_comment_with_title_lines_is_front_matter_never_shown() -> None:
    document = split(SITE_PAGE)
    assert document.title == "Serverless Framework - AWS Lambda Functions"
    assert all("description:" not in d.text and "layout" not in d.text for d in document.passages)


def test_line_ranges_stay_true_to_the_file_around_comments() -> None:
    first, second = split(SITE_PAGE).passages
    lines = SITE_PAGE.splitlines()
    assert lines[first.line - 1] == "# AWS Lambda Functions"
    assert lines[first.end_line - 1].startswith("If you are using AWS")
    assert lines[second.line - 1] == "## Configuration"
    assert (second.line, second.end_line) == (17, 19)


def test_a_leading_comment_without_keys_is_only_a_comment() -> None:
    document = split("<!--\nTODO: rewrite\nthis page -->\n# Real title\n\nBody text.\n")
    assert document.title == "Real title"
    document = split("<!--\nsome maintainers' note\n-->\n\nBody text here.\n", "notes.md")
    assert document.title == "notes"
    assert [d.text for d in document.passages] == ["Body text here."]


def test_comments_are_left_out_of_text_but_their_lines_are_kept() -> None:
    text = "# Title\n\nBefore <!-- hidden --> after.\n<!--\nsecret\n-->\nLast line.\n"
    (draft,) = split(text).passages
    assert draft.text == "Before  after.\n\n\n\nLast line."
    assert (draft.line, draft.end_line) == (1, 7)


def test_a_heading_inside_a_comment_is_no_heading() -> None:
    text = "# Title\n\nText.\n\n<!--\n## Old section\nold text\n-->\n\nMore text.\n"
    (draft,) = split(text).passages
    assert "Old section" not in draft.text and "old text" not in draft.text
    assert draft.text.endswith("More text.")


def test_a_heading_with_a_trailing_comment_is_still_a_heading() -> None:
    text = "# Title\n\nIntro.\n\n## Options <!-- omit in toc -->\n\nSome options.\n"
    titles = [d.title for d in split(text).passages]
    assert titles == ["Title", "Title › Options"]


def test_comments_inside_code_are_code() -> None:
    text = "# HTML\n\nWrite `<!-- note -->` to hide a note.\n\n```html\n<!-- kept -->\n```\n"
    (draft,) = split(text).passages
    assert "`<!-- note -->`" in draft.text
    assert "<!-- kept -->" in draft.text


def test_a_comment_never_closed_hides_the_rest() -> None:
    text = "# Title\n\nShown.\n\n<!-- unfinished\n## Hidden\ntext\n"
    (draft,) = split(text).passages
    assert draft.text == "Shown."


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("[Read this on the site](https://example.com/x)", "Read this on the site"),
        ("Property `provider.iam`", "Property provider.iam"),
        ("**Note**: _emphasis_ and *more*", "Note: emphasis and more"),
        ("![logo](logo.png) Install", "logo Install"),
        ('<a name="env"></a> Set the environment', "Set the environment"),
        ("Use <https://example.com>", "Use https://example.com"),
        ("Fish &amp; chips \\*not emphasis\\*", "Fish & chips *not emphasis*"),
        ("snake_case_name stays", "snake_case_name stays"),
        ("~~Old~~ New", "Old New"),
        ("[link text][ref]", "[link text][ref]"),  # no definition: shown as written
    ],
)
def test_titles_are_plain_text(heading: str, title: str) -> None:
    document = split(f"# Doc\n\nIntro.\n\n## {heading}\n\nBody.\n", "doc.md")
    assert document.passages[1].title == f"Doc › {title}"


def test_front_matter_titles_are_plain_text_too() -> None:
    document = split("---\ntitle: The `fs` module\n---\nText.\n")
    assert document.title == "The fs module"


def test_anchors_are_slugs_of_the_plain_heading() -> None:
    document = split("# Doc\n\nIntro.\n\n## [Install](https://example.com/install)\n\nBody.\n")
    assert document.passages[1].anchor == "install"


def test_a_heading_the_site_title_ends_with_is_not_repeated() -> None:
    document = split("---\ntitle: Site - Install\n---\n# Install\n\nIntro.\n\n## Linux\n\nBody.\n")
    assert [d.title for d in document.passages] == ["Site - Install", "Site - Install › Linux"]
    document = split("---\ntitle: Reinstall\n---\n# Install\n\nIntro.\n\n## Linux\n\nBody.\n")
    assert document.passages[1].title == "Reinstall › Install › Linux"
