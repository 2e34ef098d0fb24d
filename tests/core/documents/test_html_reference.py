"""A GNU-style manual read as one HTML page: every heading level, reference-list entries
as passages titled by their terms, the book's index as index terms, navigation never a
passage, and line ranges that span text only."""

from __future__ import annotations

from tui_assistant.core.documents.html import split_html

ENTRY_TEXT = " ".join(["Words that explain the entry at some length."] * 25)

TEXINFO_PAGE = f"""<html><head><title>Make</title></head><body>
<div class="contents">
<h2 class="contents-heading">Table of Contents</h2>
<ul>
{"".join(f'<li><a href="#s{n}">{n} Section number {n}</a></li>{chr(10)}' for n in range(12))}
</ul>
</div>
<div class="chapter" id="Rules">
<h2 class="chapter">4 Writing Rules</h2>
<p>A rule says when and how to remake a target.</p>
<div class="section" id="Special-Targets">
<h3 class="section">4.9 Special Built-in Target Names</h3>
<p>Certain names have special meanings if they appear as targets.</p>
<dl compact="compact">
<dt><code>.PHONY</code><span id="index-_002ePHONY"></span></dt>
<dd><p>The prerequisites of .PHONY are phony targets. {ENTRY_TEXT}</p>
</dd>
<dt><code>.SUFFIXES</code></dt>
<dd><p>The prerequisites of .SUFFIXES are the suffixes. {ENTRY_TEXT}</p>
</dd>
<dt><code>.DEFAULT</code></dt>
<dd><p>The recipe for .DEFAULT is used for targets with no rules. {ENTRY_TEXT}</p>
</dd>
</dl>
<p>Any defined implicit rule suffix also counts as a special target.</p>
<div class="subsection" id="Phony-Deep">
<h4 class="subsection">4.9.1 Phony Targets in Depth</h4>
<p><span id="index-phony-targets"></span>A phony target is not the name of a file.</p>
</div>
</div>
</div>
<div class="appendix" id="Concept-Index">
<h2 class="appendix">Index of Concepts</h2>
<table><tr><th>Jump to:</th><td><a href="#I_letter-P"><b>P</b></a></td></tr></table>
<table class="index-cp" border="0">
<tr><td></td><td><a href="#index-phony-targets">files, targets that are not</a>:</td><td></td><td><a href="#Phony-Deep">Phony</a></td></tr>
<tr><td></td><td><a href="#index-_002ePHONY">targets, not files</a>:</td><td></td><td><a href="#Special-Targets">Special</a></td></tr>
</table>
</div>
</body></html>
"""


def test_a_texinfo_manual_is_read_at_every_heading_level_with_its_entries() -> None:
    document = split_html("make.html", TEXINFO_PAGE)
    titles = [draft.title for draft in document.passages]
    assert titles == [
        "Make › 4 Writing Rules",
        "Make › 4 Writing Rules › 4.9 Special Built-in Target Names",
        "Make › 4 Writing Rules › 4.9 Special Built-in Target Names › .PHONY",
        "Make › 4 Writing Rules › 4.9 Special Built-in Target Names › .SUFFIXES",
        "Make › 4 Writing Rules › 4.9 Special Built-in Target Names › .DEFAULT",
        "Make › 4 Writing Rules › 4.9 Special Built-in Target Names › 4.9.1 Phony Targets in Depth",
    ]
    by_title = {draft.title.rsplit(" › ", 1)[-1]: draft for draft in document.passages}
    phony = by_title[".PHONY"]
    assert phony.anchor == "phony"
    assert phony.text.startswith(".PHONY\nThe prerequisites of .PHONY are phony targets.")
    # What follows the list stays with its last entry, as a note on the list.
    assert by_title[".DEFAULT"].text.endswith("also counts as a special target.")
    # The book's index gives its terms to the passages its entries point to.
    assert "targets, not files" in phony.index_terms
    deep = by_title["4.9.1 Phony Targets in Depth"]
    assert "files, targets that are not" in deep.index_terms
    # A term its title says already is not repeated.
    assert all("phony" not in term.casefold() for term in deep.index_terms)


def test_navigation_and_the_index_node_are_never_passages() -> None:
    document = split_html("make.html", TEXINFO_PAGE)
    everything = " ".join(draft.title + draft.text for draft in document.passages)
    assert "Table of Contents" not in everything
    assert "Section number" not in everything
    assert "Index of Concepts" not in everything
    assert "Jump to" not in everything


def test_small_adjacent_entries_are_one_passage_listing_every_term() -> None:
    options = "".join(
        f"<dt><samp>--opt{n}</samp></dt>\n<dd><p>Sets option {n} for this run of the tool.</p></dd>\n"
        for n in range(100)
    )
    long_words = " ".join(["The options are described below in full."] * 30)
    page = (
        f"<main><h1>Tool</h1>\n<h2>Options</h2>\n<p>{long_words}</p>\n<dl>\n{options}</dl></main>\n"
    )
    document = split_html("tool.html", page)
    groups = [draft for draft in document.passages if draft.index_terms]
    assert len(groups) > 1
    assert [term for draft in groups for term in draft.index_terms] == [
        f"--opt{n}" for n in range(100)
    ]
    for draft in groups:
        first, last = draft.index_terms[0], draft.index_terms[-1]
        assert draft.title == f"Tool › Options › {first} … {last}"
    assert len({draft.title for draft in document.passages}) == len(document.passages)


def test_an_inline_svg_never_stretches_a_passage_over_its_lines() -> None:
    svg = "<svg>\n" + '<path d="M0 0 L1 1"/>\n' * 2000 + "</svg>\n"
    page = (
        "<main><h1>Diagram</h1>\n<h2>Flow</h2>\n<p>Before the diagram.</p>\n"
        + svg
        + "<p>After the diagram.</p>\n<math><mi>x</mi></math>\n</main>\n"
    )
    document = split_html("flow.html", page)
    assert document.passages
    for draft in document.passages:
        words = len(draft.text.split())
        assert draft.end_line - draft.line <= 200 or words >= 100, draft
    assert len({draft.title for draft in document.passages}) == len(document.passages)
    assert "x" not in " ".join(draft.text.split("\n")[-1] for draft in document.passages).split()


def test_a_long_section_is_never_cut_into_parts_with_one_title() -> None:
    paragraphs = "\n".join(
        f"<p>Paragraph {n} " + " ".join(["of a long section."] * 60) + "</p>" for n in range(10)
    )
    document = split_html(
        "long.html", f"<main><h1>Guide</h1>\n<h2>Long</h2>\n{paragraphs}\n</main>"
    )
    titles = [draft.title for draft in document.passages]
    assert len(titles) > 1
    assert len(set(titles)) == len(titles)
    assert titles[0] == "Guide › Long"
    assert titles[1].startswith("Guide › Long › Paragraph ")
