"""The index in PostgreSQL (`TUI_ASSISTANT_STORE=postgresql://…`): one shared store that
one indexer writes (`tui-assistant index`) and any number of servers read.

`url` reads and masks the setting, `connection` connects (the `postgres` extra),
`migrations` creates and upgrades the schema, `versions` writes and reads whole library
versions, `vectors` keeps passage vectors (pgvector), `lock` names the one writer of a
library, `notifications` tells readers of a new version, `gaps` keeps the questions the
libraries could not answer. psycopg is imported only by these modules, and they only
by the wiring when the setting names PostgreSQL.
"""
