"""Messages the widgets post to the app: small dataclasses, one per user intent."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class QuestionAsked(Message):
    """The user pressed enter in the question box with a non-blank question."""

    question: str


@dataclass
class PassageChosen(Message):
    """The user picked a passage in the passage browser to read it in the evidence panel."""

    passage_id: str
