"""What the app answering now is made of, per library: the `status` command and tool.

For each library: its documents and passages, how many passages have their vectors
ready and of which model, when its files were read, whether they are watched, and the
retrieval answering now. Reads the stores (stored vectors are counted, nothing is
embedded): call it off the event loop.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from tui_assistant.core.library.library import Library
from tui_assistant.errors import ConfigError
from tui_assistant.store.index_store import store_path
from tui_assistant.wiring.context import AppContext
from tui_assistant.wiring.retrieval_choice import model_id_without_loading


class LibraryStatus(BaseModel):
    name: str = Field(description="the library's name, as `search` and `gaps` take it")
    documents: int
    passages: int
    vectors: int = Field(
        description="passages whose vectors are ready (hybrid retrieval needs all of them)"
    )
    embedding_model: str | None = Field(
        description="the sentence-embedding model of those vectors; null when hybrid is off"
    )
    read_at: str = Field(description="when the library's files were last read (UTC, ISO 8601)")
    watch: bool = Field(description="whether files that change are read again by themselves")
    retrieval: str = Field(description="the retrieval mode answering now")


class StatusResult(BaseModel):
    libraries: list[LibraryStatus]


def status_of(context: AppContext, watching: bool) -> StatusResult:
    """Each library of `context` as it answers now; `watching` says whether this process
    reads changed files again by itself."""
    model = _model_id(context)
    return StatusResult(
        libraries=[
            LibraryStatus(
                name=name,
                documents=len(part.documents),
                passages=len(part),
                vectors=_vectors_ready(context, part, model),
                embedding_model=model,
                read_at=context.read_at,
                watch=watching,
                retrieval=context.retrieval,
            )
            for name, part in context.library.parts.items()
        ]
    )


def _model_id(context: AppContext) -> str | None:
    if context.embedder is not None:
        return context.embedder.model_id
    if context.choice.mode != "hybrid":
        return None
    try:
        return model_id_without_loading(context.choice)
    except ConfigError:
        return None


def _vectors_ready(context: AppContext, part: Library, model: str | None) -> int:
    """All of the library's passages once hybrid answers; before, those whose vectors
    of `model` are in the store already."""
    if context.vectors is not None:
        return len(part)
    if model is None:
        return 0
    from tui_assistant.store.vectors import stored_vectors

    stored_model, count = stored_vectors(store_path(context.settings.data_dir, part.folder), part)
    return count if stored_model == model else 0
