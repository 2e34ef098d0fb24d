"""What answers and embeds outside the rules: the OpenAI-compatible chat client and its
prompt; the local sentence-embedding model and its one-time fetch."""
