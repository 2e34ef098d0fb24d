"""Plain-text notes (`*.txt`): passages are the file's paragraphs.

- the document title is the file's first line with a letter or digit (a rule of `===`
  above a title is no title), folded onto one line and shortened to `MAX_TITLE_CHARS`;
- a paragraph is a run of non-blank lines; each is a passage, so a note file of
  unrelated notes answers with the one note that fits; a paragraph longer than
  `MAX_PASSAGE_CHARS` is cut between lines;
- when the first paragraph is that one title line and more follows, it heads the
  first passage (as a Markdown heading does) rather than being a passage alone;
- a passage after the first is titled and anchored by its paragraph's first line:
  `Boiler notes › Bleed the radiators once a year…`, `boiler#bleed-the-radiators-once-a-year`.
"""

from __future__ import annotations

from tui_assistant.core.display_text import one_line, shortened
from tui_assistant.core.documents.passage import (
    Document,
    Section,
    document_from_sections,
    file_lines,
    file_title,
    paragraphs,
    trimmed,
)

MAX_TITLE_CHARS = 100
MAX_LABEL_CHARS = 60


def split_plain_text(relative_path: str, text: str, name_title: str | None = None) -> Document:
    """The title and passages of one plain-text document (`text` already decoded);
    `name_title` is its title when the text gives none (`passage.file_title`)."""
    numbered = list(enumerate(file_lines(text), start=1))
    found = [trimmed(paragraph) for paragraph in paragraphs(numbered)]
    found = [paragraph for paragraph in found if paragraph]
    if not found:
        return Document(title=file_title(relative_path, name_title), passages=())
    worded = (line for paragraph in found for _, line in paragraph if _has_words(line))
    title = shortened(one_line(next(worded, "")), MAX_TITLE_CHARS) or file_title(
        relative_path, name_title
    )
    heading_line = None
    if len(found[0]) == 1 and len(found) > 1:
        heading_line = found[0][0][0]  # the title line heads the first passage
        found = found[1:]
    sections = [Section(heading_line=heading_line, level=0, path=(), lines=found[0])]
    for paragraph in found[1:]:
        label = shortened(one_line(paragraph[0][1]), MAX_LABEL_CHARS)
        sections.append(Section(heading_line=None, level=1, path=(label,), lines=paragraph))
    return document_from_sections(title, None, sections)


def _has_words(line: str) -> bool:
    return any(character.isalnum() for character in line)
