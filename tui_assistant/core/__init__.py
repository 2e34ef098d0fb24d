"""The functional core: lessons, retrieval, citations, outcomes. Never imports Textual."""
