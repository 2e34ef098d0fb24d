"""Properties of reading any page of tags and words (hypothesis): it never fails, its
passages stay in the file in order, each line of their text stands on its file line,
and a quote of a line's words is found at file lines that hold those words."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tui_assistant.core.checks.quotes import find_quote
from tui_assistant.core.documents.html import split_html
from tui_assistant.core.documents.passage import MAX_PASSAGE_CHARS, PASSAGE_ID, file_lines

TAGS = [
    "<p>", "</p>", "<div>", "</div>", "<h1>", "</h1>", "<h2>", "</h2>", "<h3>", "</h3>",
    "<h4>", "</h4>", "<pre>", "</pre>", "<b>", "</b>", "<a href='#x'>", "</a>", "<br>",
    "<ul><li>", "</li></ul>", "<nav>", "</nav>", "<script>", "</script>", "<main>",
    "</main>", "<table><tr><td>", "</td></tr></table>", "<!-- note -->", "<span>", "</span>",
    "\n", "\n", "\n", " ",
]  # fmt: skip
WORDS = ["salt", "water", "boil", "pasta", "crank", "gear", "lid", "pot"]

pages = st.lists(st.sampled_from(TAGS) | st.sampled_from(WORDS), max_size=80).map("".join)


def page_text(html: str) -> str:
    """What a browser shows of `html`'s words: no tags, no script (`salt<script>water
    </script>salt` shows `saltsalt`)."""
    return re.sub(r"<[^>]*>", "", re.sub(r"<script>.*?</script>", "", html))


@settings(max_examples=300, deadline=None)
@given(pages)
@example("salt<script>water</script>salt")
def test_any_page_reads_into_passages_that_stand_on_their_file_lines(page: str) -> None:
    document = split_html("page.html", page)
    lines = file_lines(page)
    previous_line = 0
    for draft in document.passages:
        passage = draft.passage("page", "site/page.html")
        assert PASSAGE_ID.match(passage.id)
        assert passage.text and passage.text == passage.text.strip()
        assert len(passage.text) <= MAX_PASSAGE_CHARS
        assert previous_line <= passage.line <= passage.end_line <= len(lines)
        previous_line = passage.line
        text_lines = passage.text.split("\n")
        first = passage.end_line - len(text_lines) + 1
        assert first >= passage.line
        for number, shown in enumerate(text_lines, start=first):
            words_on_line = page_text(lines[number - 1])
            for word in shown.split():
                assert word in words_on_line, (number, word)
            if shown.strip():
                quote = find_quote(shown, passage)
                assert quote is not None
                assert passage.line <= quote.line <= quote.end_line <= number
                quoted = " ".join(lines[quote.line - 1 : quote.end_line])
                for word in quote.text.split():
                    assert word in page_text(quoted), (quote, word)
