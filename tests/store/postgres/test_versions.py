"""Library versions in a real PostgreSQL: migrations, whole versions, one writer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tui_assistant.core.words import stem
from tui_assistant.errors import ConfigError
from tui_assistant.store.folder import list_library
from tui_assistant.store.index_store import open_library, store_path
from tui_assistant.store.postgres import versions
from tui_assistant.store.postgres.connection import connect
from tui_assistant.store.postgres.documents import document_text
from tui_assistant.store.postgres.lock import take_writer
from tui_assistant.store.postgres.migrations import MIGRATIONS, migrate
from tui_assistant.store.postgres.url import StoreUrl, parse_store_url

pytestmark = pytest.mark.postgres


@pytest.fixture
def store(pg_url: str) -> StoreUrl:
    return parse_store_url(pg_url)


@pytest.fixture
def connection(store: StoreUrl) -> Iterator[object]:
    connection = connect(store, "test")
    migrate(connection, store)
    yield connection
    connection.close()


def _write(connection, store: StoreUrl, folder: Path, data: Path):  # type: ignore[no-untyped-def]
    library = open_library(folder, data, stem)
    library.close()
    return versions.write_version(
        connection, store, "lessons", store_path(data, folder), list_library(folder)
    )


def test_migrations_are_named_applied_in_order_and_once(connection, store: StoreUrl) -> None:  # type: ignore[no-untyped-def]
    migrate(connection, store)  # a second start changes nothing
    names = [
        row[0] for row in connection.execute("SELECT name FROM schema_migrations ORDER BY name")
    ]
    assert names == [name for name, _ in MIGRATIONS]


def test_a_schema_of_another_application_is_refused_and_left_as_it_is(pg_url: str) -> None:
    store = parse_store_url(pg_url)
    other = connect(store, "test")
    other.execute(f'CREATE SCHEMA "{store.schema}"')
    other.execute(f'CREATE TABLE "{store.schema}".orders (id INT)')
    with pytest.raises(ConfigError, match="another application's tables"):
        migrate(other, store)
    tables = other.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
        (store.schema,),
    ).fetchall()
    assert tables == [("orders",)]
    other.close()


def test_a_version_read_back_is_the_library_as_read_from_its_folder(  # type: ignore[no-untyped-def]
    connection, store: StoreUrl, make_library: Callable[..., Path], tmp_path: Path
) -> None:
    folder = make_library({"a": ("Salt", "Salt the water well."), "b": ("Eggs", "Boil eggs.")})
    written = _write(connection, store, folder, tmp_path / "data")
    assert written is not None and written.passages == 2
    assert _write(connection, store, folder, tmp_path / "data") is None  # nothing changed
    stored, library = versions.load_version(connection, "lessons", folder, stem)
    local = open_library(folder, tmp_path / "data", stem)
    assert stored.version_id == written.version_id
    assert [(p.id, p.title, p.line) for p in library] == [(p.id, p.title, p.line) for p in local]
    assert [library.passage(n).text for n in range(2)] == [local.passage(n).text for n in range(2)]
    library.close()
    local.close()


def test_a_write_stopped_half_way_leaves_the_old_version_whole(  # type: ignore[no-untyped-def]
    connection,
    store: StoreUrl,
    make_library: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = make_library({"a": ("Salt", "Salt the water well.")})
    first = _write(connection, store, folder, tmp_path / "data")
    assert first is not None
    (folder / "b.md").write_text("# Eggs\n\nBoil eggs.\n", encoding="utf-8")
    real = versions._copy_rows

    def stopped(cursor, table, rows):  # type: ignore[no-untyped-def]
        if table.startswith("postings"):
            raise KeyboardInterrupt  # the indexer stopped after its passages
        real(cursor, table, rows)

    monkeypatch.setattr(versions, "_copy_rows", stopped)
    with pytest.raises(KeyboardInterrupt):
        _write(connection, store, folder, tmp_path / "data")
    assert versions.current_versions(connection) == {"lessons": first.version_id}
    (count,) = connection.execute("SELECT count(*) FROM versions").fetchone()
    assert count == 1
    monkeypatch.setattr(versions, "_copy_rows", real)
    second = _write(connection, store, folder, tmp_path / "data")
    assert second is not None and second.passages == 2
    (texts,) = connection.execute("SELECT count(*) FROM texts").fetchone()
    assert texts == 2  # the unchanged passage's text is stored once


def test_a_second_writer_is_told_who_holds_the_library(store: StoreUrl, connection) -> None:  # type: ignore[no-untyped-def]
    take_writer(connection, store, "lessons")
    second = connect(store, "index")
    with pytest.raises(ConfigError) as raised:
        take_writer(second, store, "lessons")
    assert "is being indexed by tui-assistant test" in str(raised.value)
    second.close()


def test_index_terms_are_kept_in_a_version(  # type: ignore[no-untyped-def]
    connection, store: StoreUrl, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    # A reference list's terms are the passage's index terms.
    (folder / "tools.html").write_text(
        "<html><head><title>Tools</title></head><body><h1>Tools</h1><h2>Knobs</h2><dl>"
        "<dt><code>flux capacitor</code></dt><dd><p>Calibrate it weekly.</p></dd>"
        "<dt><code>warp coil</code></dt><dd><p>Oil it.</p></dd></dl></body></html>",
        encoding="utf-8",
    )
    _write(connection, store, folder, tmp_path / "data")
    _, library = versions.load_version(connection, "lessons", folder, stem)
    assert [p.index_terms for p in library] == [("flux capacitor", "warp coil")]
    library.close()


def test_texts_no_kept_version_uses_go_with_the_dropped_version(  # type: ignore[no-untyped-def]
    connection, store: StoreUrl, make_library: Callable[..., Path], tmp_path: Path
) -> None:
    folder = make_library({"a": ("Salt", "Salt the water well.")})
    for text in ("Boil eggs.", "Boil eggs for nine minutes.", "Boil eggs for ten minutes."):
        (folder / "b.md").write_text(f"# Eggs\n\n{text}\n", encoding="utf-8")
        assert _write(connection, store, folder, tmp_path / "data") is not None
    kept = {
        text
        for (text,) in connection.execute("SELECT text FROM texts")
        if "Eggs" in text or "eggs" in text
    }
    assert kept == {"Boil eggs for nine minutes.", "Boil eggs for ten minutes."}
    (salt,) = connection.execute("SELECT count(*) FROM texts WHERE text LIKE 'Salt%%'").fetchone()
    assert salt == 1  # still held by both kept versions
    documents = {text for (text,) in connection.execute("SELECT text FROM document_texts")}
    assert not any("Boil eggs.\n" in text for text in documents)
    assert len(documents) == 3  # a.md once, b.md of each kept version


def test_a_version_holds_its_documents_text(  # type: ignore[no-untyped-def]
    connection, store: StoreUrl, make_library: Callable[..., Path], tmp_path: Path
) -> None:
    folder = make_library({"a": ("Salt", "Salt the water well.")})
    written = _write(connection, store, folder, tmp_path / "data")
    assert written is not None
    on_disk = (folder / "a.md").read_text(encoding="utf-8")
    assert document_text(connection, written.version_id, "a.md") == on_disk
    assert document_text(connection, written.version_id, "missing.md") is None
