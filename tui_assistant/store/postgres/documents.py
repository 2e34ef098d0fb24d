"""The documents' texts of each library version, so a server reads a document's lines
(`read` by `source_path`) from the store, with no library folder on its disk; and the
texts no kept version uses any more, deleted with the versions that used them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

import psycopg

from tui_assistant.store.folder import read_document_text


def write_documents(
    cursor: psycopg.Cursor, version: int, folder: Path, paths: Iterable[str]
) -> None:
    """The text of each document at `paths` (as indexing reads it) as version `version`'s;
    a file that cannot be read now is left out (`read` then says it cannot be read)."""
    texts: dict[bytes, str] = {}
    rows: list[tuple[int, str, bytes]] = []
    for path in paths:
        text = read_document_text(folder, path)
        if text is None:
            continue
        content = hashlib.sha256(text.encode("utf-8")).digest()
        texts[content] = text
        rows.append((version, path, content))
    cursor.execute("CREATE TEMPORARY TABLE new_documents (content BYTEA, text TEXT) ON COMMIT DROP")
    with cursor.copy("COPY new_documents (content, text) FROM STDIN") as copy:
        for text_row in texts.items():
            copy.write_row(text_row)
    cursor.execute(
        "INSERT INTO document_texts (content, text) SELECT content, text FROM new_documents"
        " ON CONFLICT DO NOTHING"
    )
    with cursor.copy("COPY documents (version, path, content) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def document_text(connection: psycopg.Connection, version: int, path: str) -> str | None:
    """The text of the document at `path` in version `version`; None when it has none."""
    row = connection.execute(
        "SELECT t.text FROM documents d JOIN document_texts t ON t.content = d.content"
        " WHERE d.version = %s AND d.path = %s",
        (version, path),
    ).fetchone()
    return None if row is None else str(row[0])


def drop_versions(connection: psycopg.Connection, library: str, kept: int) -> list[int]:
    """Drop library `library`'s versions but its newest `kept`, then the passage and
    document texts no remaining version of any library uses; in the caller's transaction,
    so a reader never meets a version without its texts."""
    connection.execute(
        "CREATE TEMPORARY TABLE dropped_versions ON COMMIT DROP AS SELECT id FROM versions"
        " WHERE library = %s AND id NOT IN"
        " (SELECT id FROM versions WHERE library = %s ORDER BY id DESC LIMIT %s)",
        (library, library, kept),
    )
    dropped = [int(id) for (id,) in connection.execute("SELECT id FROM dropped_versions")]
    if not dropped:
        return dropped
    connection.execute(
        "CREATE TEMPORARY TABLE dropped_texts ON COMMIT DROP AS SELECT DISTINCT content"
        " FROM passages WHERE version = ANY(%s)",
        (dropped,),
    )
    connection.execute(
        "CREATE TEMPORARY TABLE dropped_documents ON COMMIT DROP AS SELECT DISTINCT content"
        " FROM documents WHERE version = ANY(%s)",
        (dropped,),
    )
    connection.execute("DELETE FROM versions WHERE id = ANY(%s)", (dropped,))
    connection.execute(
        "DELETE FROM texts t USING dropped_texts d WHERE t.content = d.content"
        " AND NOT EXISTS (SELECT 1 FROM passages p WHERE p.content = t.content)"
    )
    connection.execute(
        "DELETE FROM document_texts t USING dropped_documents d WHERE t.content = d.content"
        " AND NOT EXISTS (SELECT 1 FROM documents p WHERE p.content = t.content)"
    )
    return dropped
