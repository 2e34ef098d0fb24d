"""The one progress callback: `progress(done, total)`, called as work advances (passages
indexed, vectors computed, bytes fetched)."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]
