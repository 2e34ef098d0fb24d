"""The store's schema, made and upgraded by named, ordered migrations.

`schema_migrations` lists the migrations applied; `marker` says the schema is this
application's. A schema that holds tables but not both of those, or whose marker names
another application, or that has migrations this version does not know (a newer
program wrote it), is refused with one line and never altered. Migrations run in one
transaction under a transaction-level advisory lock, so two programs starting at once
apply each migration once.
"""

from __future__ import annotations

from typing import Final

import psycopg
from psycopg import sql

from tui_assistant.errors import ConfigError
from tui_assistant.store.postgres.connection import unreachable
from tui_assistant.store.postgres.url import SETTING, StoreUrl

APPLICATION: Final = "tui-assistant"
# Any one number: the advisory lock every migrating program waits on.
_MIGRATION_LOCK: Final = 0x54554941

MIGRATIONS: Final[tuple[tuple[str, str], ...]] = (
    (
        "0001_library_versions",
        """
        CREATE TABLE marker (application TEXT NOT NULL);
        CREATE TABLE libraries (
            name TEXT PRIMARY KEY,
            current_version BIGINT,
            updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE TABLE versions (
            id BIGSERIAL PRIMARY KEY,
            library TEXT NOT NULL REFERENCES libraries (name),
            created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
            folder TEXT NOT NULL,
            passages INTEGER NOT NULL,
            listing JSONB NOT NULL,   -- files skipped before reading, hidden names
            words TEXT NOT NULL,      -- the word index's version (NORMALISER_VERSION)
            parser TEXT NOT NULL,     -- the passage rules' version (PARSER_VERSION)
            byte_order TEXT NOT NULL  -- of the postings arrays
        );
        CREATE TABLE files (
            version BIGINT NOT NULL REFERENCES versions (id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            size BIGINT NOT NULL,
            mtime_ns BIGINT NOT NULL,
            title TEXT,
            problem TEXT,
            notes TEXT,
            PRIMARY KEY (version, path)
        );
        CREATE TABLE dependencies (
            version BIGINT NOT NULL REFERENCES versions (id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            target TEXT NOT NULL,
            size BIGINT NOT NULL,
            mtime_ns BIGINT NOT NULL,
            PRIMARY KEY (version, path, target)
        );
        -- Passage texts by SHA-256: a passage unchanged between versions is stored once.
        CREATE TABLE texts (content BYTEA PRIMARY KEY, text TEXT NOT NULL);
        CREATE TABLE passages (
            version BIGINT NOT NULL REFERENCES versions (id) ON DELETE CASCADE,
            number BIGINT NOT NULL,
            path TEXT NOT NULL,
            position INTEGER NOT NULL,
            anchor TEXT NOT NULL,
            title TEXT NOT NULL,
            content BYTEA NOT NULL REFERENCES texts (content),
            line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            page INTEGER,
            end_page INTEGER,
            page_starts TEXT,
            source TEXT,
            title_length INTEGER NOT NULL,
            body_length INTEGER NOT NULL,
            PRIMARY KEY (version, number)
        );
        CREATE TABLE postings (
            version BIGINT NOT NULL REFERENCES versions (id) ON DELETE CASCADE,
            word TEXT NOT NULL,
            field TEXT NOT NULL,
            numbers BYTEA NOT NULL,
            counts BYTEA NOT NULL,
            PRIMARY KEY (version, word, field)
        );
        """,
    ),
    (
        "0002_vectors",
        """
        CREATE TABLE vector_models (
            id SERIAL PRIMARY KEY,
            name TEXT NOT NULL,
            dimensions INTEGER NOT NULL,
            document_prefix TEXT NOT NULL,
            UNIQUE (name, dimensions, document_prefix)
        );
        CREATE TABLE piece_vectors (
            model INTEGER NOT NULL REFERENCES vector_models (id),
            content BYTEA NOT NULL,   -- SHA-256 of the piece's text
            embedding vector NOT NULL,
            PRIMARY KEY (model, content)
        );
        -- The pieces of each version's passages, for the meaning ranking in the database.
        CREATE TABLE version_pieces (
            version BIGINT NOT NULL REFERENCES versions (id) ON DELETE CASCADE,
            content BYTEA NOT NULL,
            number BIGINT NOT NULL,
            PRIMARY KEY (version, content, number)
        );
        """,
    ),
    (
        "0003_gaps_and_writers",
        """
        CREATE TABLE gaps (
            id BIGSERIAL PRIMARY KEY,
            library TEXT NOT NULL,
            record JSONB NOT NULL
        );
        CREATE INDEX gaps_by_library ON gaps (library, id);
        CREATE TABLE writers (
            library TEXT PRIMARY KEY,
            holder TEXT NOT NULL,     -- application_name, pid and host of the writer
            since TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        """,
    ),
    (
        "0004_documents_and_lookups",
        """
        -- Each version's document texts (by SHA-256, stored once), so `read` needs no
        -- library folder on a server's disk.
        CREATE TABLE document_texts (content BYTEA PRIMARY KEY, text TEXT NOT NULL);
        CREATE TABLE documents (
            version BIGINT NOT NULL REFERENCES versions (id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            content BYTEA NOT NULL REFERENCES document_texts (content),
            PRIMARY KEY (version, path)
        );
        -- Texts no kept version uses are found by these when a version is dropped.
        CREATE INDEX documents_by_content ON documents (content);
        CREATE INDEX passages_by_content ON passages (content);
        -- The meaning ranking's exact cosines of given passages.
        CREATE INDEX version_pieces_by_number ON version_pieces (version, number);
        """,
    ),
    (
        "0005_passage_index_terms",
        """
        -- Words a reader looks a passage up by besides its title, one a line; NULL: none.
        ALTER TABLE passages ADD COLUMN index_terms TEXT;
        """,
    ),
)


def migrate(connection: psycopg.Connection, store: StoreUrl) -> None:
    """Bring `store`'s schema up to date (made when missing); `ConfigError` for a schema
    that is not ours or a database that refuses."""
    schema = sql.Identifier(store.schema)
    try:
        with connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            _check_ours(connection, store)
            connection.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
            connection.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {}.schema_migrations ("
                    " name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                ).format(schema)
            )
            _vector_extension(connection)
            applied = {
                name
                for (name,) in connection.execute(
                    sql.SQL("SELECT name FROM {}.schema_migrations").format(schema)
                )
            }
            known = {name for name, _ in MIGRATIONS}
            if applied - known:
                raise ConfigError(
                    f"{SETTING}: schema {store.schema} was written by a newer {APPLICATION}"
                    f" (migration {sorted(applied - known)[-1]}); upgrade this one"
                )
            connection.execute(sql.SQL("SET LOCAL search_path TO {}, public").format(schema))
            for name, statements in MIGRATIONS:
                if name in applied:
                    continue
                connection.execute(statements.encode())
                if name == MIGRATIONS[0][0]:
                    connection.execute("INSERT INTO marker VALUES (%s)", (APPLICATION,))
                connection.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (name,))
    except psycopg.Error as error:
        raise ConfigError(unreachable(store, error)) from None


def _check_ours(connection: psycopg.Connection, store: StoreUrl) -> None:
    """Refuse a schema that holds another application's tables."""
    tables = {
        name
        for (name,) in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (store.schema,),
        )
    }
    if not tables:
        return
    refusal = ConfigError(
        f"{SETTING}: schema {store.schema} holds another application's tables;"
        f" it is left as it is (name another schema with ?schema=NAME)"
    )
    if not {"schema_migrations", "marker"} <= tables:
        if tables == {"schema_migrations"}:
            return  # made here, by a start stopped before its first migration
        raise refusal
    owners = {
        name
        for (name,) in connection.execute(
            sql.SQL("SELECT application FROM {}.marker").format(sql.Identifier(store.schema))
        )
    }
    if owners != {APPLICATION}:
        raise refusal


def _vector_extension(connection: psycopg.Connection) -> None:
    """pgvector, made in `public` when missing (it needs the right to create it)."""
    found = connection.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
    if found is None:
        connection.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
