"""Settings to a running app: the library, the retrieval mode and its model, the
provider and the service, built one way for the CLI, the TUI and the MCP server."""
