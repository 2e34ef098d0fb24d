"""What the full-screen app remembers between runs (the chosen theme), in a small JSON
file in the data folder.

It is written atomically (`replace_file`), so a crash leaves the old file or the new
one. A file that cannot be read or parsed is ignored with a one-line warning: a
preference never stops the app.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.display_text import one_line
from tui_assistant.store.atomic_files import replace_file

STATE_FILE_NAME = "tui-state.json"


@dataclass(frozen=True, slots=True)
class LoadedState:
    theme: str | None = None
    warning: str | None = None


class AppState:
    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / STATE_FILE_NAME

    def load(self) -> LoadedState:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return LoadedState()
        except (OSError, ValueError) as error:
            return LoadedState(warning=self._ignored(error))
        if not isinstance(data, dict):
            return LoadedState(warning=self._ignored("not a JSON object"))
        theme = data.get("theme")
        if theme is not None and not isinstance(theme, str):
            return LoadedState(warning=self._ignored("theme is not text"))
        return LoadedState(theme=theme)

    def save_theme(self, theme: str) -> None:
        """Remember `theme` (raises OSError)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"theme": theme}, ensure_ascii=False) + "\n"
        replace_file(self.path, text.encode("utf-8"))

    def _ignored(self, problem: object) -> str:
        return one_line(f"ignored {self.path}: {problem}")
