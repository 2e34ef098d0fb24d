"""The Django development sets, built from Django's source distribution: real
documentation nobody here wrote, turned into lessons and questions.

- eval/django-faq-lessons/   one lesson per FAQ question: the section body, with the
                             question heading removed and a title that is the FAQ page's
                             title plus a number, so the question never appears verbatim
                             in its own lesson (committed: it is small).
- eval/django-faq.jsonl      one case per FAQ question heading (kind `expected`), plus the
                             unanswerable questions below (kind `unsupported`).
- eval/django/large-lessons/ the FAQ lessons plus every other section of docs/ as
                             distractors, titled by their own heading (gitignored:
                             thousands of files, rebuilt by `python -m scripts.devsets.build
                             django-faq`).
- eval/django-large.jsonl    the same cases, for the large library.
- eval/django-faq-lessons.LICENSE  Django's licence, which covers the lesson text.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from scripts.devsets.archives import Files

# A distractor section needs this many words of its own to be a passage worth
# retrieving; shorter ones are mostly headings over sub-headings or a single link.
MIN_DISTRACTOR_WORDS = 25

# Questions from other domains (cooking, geography, sports) that no Django page answers.
# Several deliberately share words with the docs (table, set, time zones, language,
# register, field, train) so that refusing them is not just "no word matched".
UNANSWERABLE = [
    "How long should I boil an egg for a runny yolk?",
    "What temperature should I roast a chicken at?",
    "Why does my bread dough not rise?",
    "How do I keep pasta from sticking together?",
    "Can I freeze cooked rice?",
    "How do I sharpen a kitchen knife?",
    "What is the difference between baking soda and baking powder?",
    "How much salt should I add to pasta water?",
    "Why did my custard curdle?",
    "How do I store fresh herbs so they last longer?",
    "What oil is best for deep frying?",
    "How do I make a sourdough starter from scratch?",
    "How can I tell if an avocado is ripe?",
    "Should I rinse raw chicken before cooking it?",
    "How do I thicken a sauce without flour?",
    "How do I set the table for a formal dinner?",
    "What can I use instead of eggs in a cake?",
    "What is the capital of Australia?",
    "Which river is the longest in Africa?",
    "How tall is Mount Everest?",
    "Which countries border Switzerland?",
    "What is the largest desert in the world?",
    "Where is the Great Barrier Reef?",
    "Why is the Dead Sea so salty?",
    "How many time zones does Russia have?",
    "What causes the monsoon season in India?",
    "Which ocean is the deepest?",
    "What language do people speak in Brazil?",
    "How was the Grand Canyon formed?",
    "What is the population of Tokyo?",
    "Which mountain range separates Europe from Asia?",
    "What is the smallest country in the world?",
    "Why do some lakes have no outlet?",
    "How many players are on a football team?",
    "What is the offside rule in soccer?",
    "Who won the first FIFA World Cup?",
    "How long is a marathon?",
    "How is a tennis match scored?",
    "What is a hat trick in ice hockey?",
    "How do I improve my running pace?",
    "How many holes are there on a golf course?",
    "What are the rules of leg before wicket in cricket?",
    "How high is a basketball hoop?",
    "How often are the Summer Olympics held?",
    "What is the difference between rugby union and rugby league?",
    "How do I choose the right size of bicycle frame?",
    "How do I register for a local chess tournament?",
    "Which swimming stroke is the fastest?",
    "How do I keep score in bowling?",
    "Which muscles does rowing train?",
]

_UNDERLINE = re.compile(r"^([=\-~^*#+\"'`:.])\1{2,}\s*$")
_ROLE_WITH_TARGET = re.compile(r":[\w:+-]+:`([^`<]*?)\s*<[^>]*>`")
_ROLE = re.compile(r":[\w:+-]+:`~?([^`]*)`")
_LABEL = re.compile(r"^\.\. _[^:]*:\s*$")
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Section:
    heading: str
    body: str


def plain_text(rst: str) -> str:
    """Readable text from reStructuredText: roles reduced to their words, labels dropped."""
    lines = [line for line in rst.splitlines() if not _LABEL.match(line)]
    text = "\n".join(lines)
    text = _ROLE_WITH_TARGET.sub(lambda match: match.group(1), text)
    text = _ROLE.sub(lambda match: match.group(1), text)
    text = text.replace("``", "`")
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def split_sections(rst: str) -> tuple[str, list[Section]]:
    """The page title and its sections; a section's body runs to the next heading of any level.

    A heading is a non-indented line followed by an underline of one repeated
    punctuation character at least as long as the line (an overline is skipped).
    """
    lines = rst.splitlines()
    headings: list[tuple[int, str]] = []  # (line number of the heading text, text)
    for number in range(len(lines) - 1):
        text, underline = lines[number], lines[number + 1]
        if (
            text.strip()
            and not text[0].isspace()
            and _UNDERLINE.match(underline)
            and len(underline.rstrip()) >= len(text.rstrip())
            and not _UNDERLINE.match(text)
        ):
            headings.append((number, text.strip()))
    if not headings:
        return "", []
    page_title = headings[0][1]
    sections: list[Section] = []
    for position, (number, heading) in enumerate(headings[1:], start=1):
        end = headings[position + 1][0] if position + 1 < len(headings) else len(lines)
        body_lines = lines[number + 2 : end]
        # Drop the overline of the next heading, if it has one.
        if body_lines and _UNDERLINE.match(body_lines[-1]):
            body_lines = body_lines[:-1]
        sections.append(
            Section(heading=plain_text(heading), body=plain_text("\n".join(body_lines)))
        )
    return plain_text(page_title), sections


def slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-")


def write_lesson(folder: Path, lesson_id: str, title: str, body: str) -> None:
    (folder / f"{lesson_id}.md").write_text(f"# {title}\n\n{body}\n", encoding="utf-8")


def write_cases(path: Path, cases: list[dict[str, str | None]]) -> None:
    with path.open("w", encoding="utf-8") as output:
        for case in cases:
            output.write(json.dumps(case, ensure_ascii=False) + "\n")


def reset_folder(folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)


def build(pages: dict[str, str], eval_dir: Path) -> tuple[int, int, int]:
    """Write both sets; returns (FAQ lessons, distractor lessons, unanswerable questions)."""
    small_lessons = eval_dir / "django-faq-lessons"
    large_lessons = eval_dir / "django" / "large-lessons"
    reset_folder(small_lessons)
    reset_folder(large_lessons)
    cases: list[dict[str, str | None]] = []
    faq_count = 0
    for path in sorted(pages):
        if not path.startswith("faq/"):
            continue
        page_title, sections = split_sections(pages[path])
        page_slug = slug(Path(path).stem)
        for number, section in enumerate(sections, start=1):
            if not section.body:
                continue  # a heading over sub-headings: nothing to answer with
            lesson_id = f"faq-{page_slug}-{number:02d}"
            title = f"{page_title} (answer {number})"
            for folder in (small_lessons, large_lessons):
                write_lesson(folder, lesson_id, title, section.body)
            cases.append(
                {"question": section.heading, "expect_passage": lesson_id, "kind": "expected"}
            )
            faq_count += 1
    cases.extend(
        {"question": question, "expect_passage": None, "kind": "unsupported"}
        for question in UNANSWERABLE
    )
    distractors = 0
    for path in sorted(pages):
        if path.startswith("faq/"):
            continue
        _, sections = split_sections(pages[path])
        page_slug = slug(path.removesuffix(".txt"))
        for number, section in enumerate(sections, start=1):
            if len(section.body.split()) < MIN_DISTRACTOR_WORDS:
                continue
            write_lesson(
                large_lessons, f"doc-{page_slug}-{number:03d}", section.heading, section.body
            )
            distractors += 1
    write_cases(eval_dir / "django-faq.jsonl", cases)
    write_cases(eval_dir / "django-large.jsonl", cases)
    return faq_count, distractors, len(UNANSWERABLE)


def make(files: Files, eval_dir: Path) -> str:
    """Both sets and the licence from the sdist's files (below its top folder)."""
    (eval_dir / "django-faq-lessons.LICENSE").write_bytes(files["LICENSE"])
    pages = {
        path.removeprefix("docs/"): content.decode("utf-8")
        for path, content in files.items()
        if path.startswith("docs/") and path.endswith(".txt")
    }
    faq, distractors, unanswerable = build(pages, eval_dir)
    return (
        f"{faq} FAQ lessons, {distractors} distractor sections, "
        f"{unanswerable} unanswerable questions"
    )
