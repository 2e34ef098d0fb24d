"""Shared pieces of the property-based tests: settings, a small cooking vocabulary,
and strategies for arbitrary text and lesson ids."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st

from tui_assistant.core.words import STOPWORDS

# Modest, so each property runs in seconds on a shared machine.
PROPERTY = settings(max_examples=200, deadline=None)

# Words that occur in the generated lessons and questions, so that matches, ties and
# refusals all happen often; a few share a stem (boil/boiling) on purpose.
VOCABULARY = [
    "salt",
    "salted",
    "water",
    "pasta",
    "egg",
    "eggs",
    "knife",
    "knives",
    "boil",
    "boiling",
    "steel",
    "yolk",
    "pot",
    "edge",
    "simmer",
    "peel",
]

vocabulary_words = st.sampled_from(VOCABULARY)

stopwords = st.sampled_from(sorted(STOPWORDS))

# Arbitrary Unicode, surrogates and controls included.
any_text = st.text(st.characters(codec=None), max_size=200)

# Text with no escape-sequence start (ESC or an 8-bit C1 introducer).
ESCAPE_STARTS = "\x1b\x90\x98\x9b\x9d\x9e\x9f"

text_without_escapes = st.text(st.characters(exclude_characters=ESCAPE_STARTS), max_size=200)

# Passage ids as the library makes them: nested paths, and sections after `#`.
passage_ids = st.from_regex(
    r"[a-z0-9]{1,8}([-/][a-z0-9]{1,8}){0,2}(#[a-z0-9]{1,8}(-[a-z0-9]{1,8})?)?", fullmatch=True
)
