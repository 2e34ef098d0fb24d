"""A server reading a PostgreSQL store follows its indexer: told of each new version by
`LISTEN`/`NOTIFY`, it loads the libraries again (in a thread, serving the old ones
meanwhile) and swaps them in between calls; a call in flight finishes on the library it
started with."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tui_assistant.wiring.follower import reopened
from tui_assistant.wiring.lifecycle import LibraryLifecycle
from tui_assistant.wiring.shared_store import follow_versions


async def follow_store(lifecycle: LibraryLifecycle, warn: Callable[[str], None]) -> None:
    """Until cancelled: answer from each new version the indexer writes. A load that
    fails keeps what was served before (`warn` is told why)."""

    async def changed() -> None:
        try:
            context = await asyncio.to_thread(reopened, lifecycle.context)
        except Exception as error:  # the database away again: the next notice mends it
            warn(f"warning: could not load the new version yet ({error})")
            return
        lifecycle.follow(context)

    def names() -> set[str]:
        return set(lifecycle.context.library.parts)

    await follow_versions(lifecycle.settings, names, changed, warn)
