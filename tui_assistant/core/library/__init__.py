"""The library in memory (its documents, passages and index), what a reload changed,
the report of what it holds, and its folder tree as the browser shows it."""
