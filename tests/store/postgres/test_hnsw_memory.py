"""The memory an HNSW build is given grows with the library, so a large library's graph
is built in memory (pgvector builds a graph that outgrows it many times slower)."""

from __future__ import annotations

from tui_assistant.store.postgres.vectors import HNSW_BUILD_MEMORY_MB, hnsw_build_megabytes


def test_a_million_vectors_of_384_get_room_for_their_whole_graph() -> None:
    # The graph alone is about 2 KB a vector of 384: 1.9 GB for a million.
    assert hnsw_build_megabytes(1_000_000, 384) >= 2_000
    assert hnsw_build_megabytes(1_000_000, 384) > hnsw_build_megabytes(500_000, 384)


def test_small_and_huge_builds_stay_within_the_bounds() -> None:
    low, high = HNSW_BUILD_MEMORY_MB
    assert hnsw_build_megabytes(0, 384) == low
    assert hnsw_build_megabytes(10_000, 384) == low
    assert hnsw_build_megabytes(50_000_000, 1536) == high
