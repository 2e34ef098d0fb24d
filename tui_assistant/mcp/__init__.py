"""`tui-assistant mcp`: the library served to coding agents over the Model Context Protocol.

`tools` holds what the tools do and return (no protocol); `server` is the SDK glue,
imported only by the `mcp` command, since the SDK brings an HTTP stack with it.
"""
