"""Where things live on disk: the bundled lessons and the user's data folder."""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "tui-assistant"

_PACKAGE = Path(__file__).resolve().parent


def bundled_lessons_dir() -> Path:
    """The lessons shipped with the app.

    An installed wheel carries them inside the package; a source checkout (and an
    editable install) has them at the repository root.
    """
    inside = _PACKAGE / "lessons"
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / "lessons"


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
