"""The functional core: the library, retrieval, citations, outcomes. Never imports Textual."""
