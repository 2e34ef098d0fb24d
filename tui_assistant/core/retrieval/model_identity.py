"""Which embedding model made a set of vectors (kept free of numpy: the commands that
only describe vectors import it without the `semantic` extra)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelIdentity:
    """Which embedding model made a set of vectors: vectors of two identities are never
    compared or mixed. `name` is a local model's name and weights hash, or a server's
    model name; the prefixes are put before each question and each passage piece. A
    stored vector depends on everything but the query prefix (`stored_as`); cosines
    to a question depend on all of it."""

    name: str
    dimensions: int
    query_prefix: str = ""
    document_prefix: str = ""

    @property
    def stored_as(self) -> tuple[str, int, str]:
        """What stored vectors are kept under: name, dimensions, document prefix."""
        return self.name, self.dimensions, self.document_prefix
