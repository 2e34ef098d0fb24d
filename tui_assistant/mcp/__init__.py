"""`tui-assistant mcp`: the library served to coding agents over the Model Context Protocol.

`tools` holds the tools, one module each, and `TOOLS`, their one list (no protocol);
`server` is the SDK glue that registers them, imported only by the `mcp` command, since
the SDK brings an HTTP stack with it.
"""
