"""The functional core: the rules, pure, grouped by family (`documents`, `library`,
`retrieval`, `checks`), with the service, outcomes and their record, the conversation
and evaluation at the root. Nothing here imports the store, providers, UI, MCP server or
wiring (a test holds it to that), nor Textual."""
