"""One session's turns, and the one follow-up the app understands: "repeat that".

History is never evidence: a follow-up repeats the previous answered turn, with its
passage, and anything else is a new question that goes through retrieval again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tui_assistant.core.outcome import Outcome

_REPEAT = re.compile(
    r"""^
    (?:(?:please|ok|okay|sorry|pardon|hm+)\s+)*
    (?:(?:can|could|would|will)\s+you\s+)?
    (?:please\s+)?
    (?:
        (?:repeat|say|give\s+me|show\s+me|tell\s+me)\s+
        (?:that|it|this)(?:\s+again)?
      | (?:repeat|say|give\s+me|show\s+me|tell\s+me)\s+
        (?:the|your)\s+(?:last|previous|latest)\s+(?:answer|one|reply|response)(?:\s+again)?
      | repeat(?:\s+again)?
      | say\s+again
      | once\s+more
      | again
      | come\s+again
    )
    (?:\s+please)?
    $""",
    re.VERBOSE,
)


def is_repeat_request(question: str) -> bool:
    """True for "repeat that", "say that again", "repeat the last answer" and close variants."""
    words = re.sub(r"[^\w\s]", " ", question.casefold())
    return bool(_REPEAT.match(" ".join(words.split())))


@dataclass
class Conversation:
    """The outcomes of one session's questions, oldest first (the TUI's `Transcript`
    holds their turns)."""

    outcomes: list[Outcome] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)

    def last_answered(self) -> Outcome | None:
        for outcome in reversed(self.outcomes):
            if outcome.answered:
                return outcome
        return None

    def clear(self) -> None:
        self.outcomes.clear()
