"""Messages the widgets post to the app: small dataclasses, one per user intent."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from tui_assistant.core.lessons import Lesson


@dataclass
class QuestionAsked(Message):
    """The user pressed enter in the question box with a non-blank question."""

    question: str


@dataclass
class LessonChosen(Message):
    """The user picked a lesson in the lesson browser to read it in the evidence panel."""

    lesson: Lesson
