"""The disk: the library folder, the SQLite index store and its vectors, the
conversation history, the call ledger, crash-safe files, and the folder watcher."""
