"""What an answer must pass before it is shown: its citations, its quotes and its
sentences checked against the passages, with one reading of "the same text" for all
(`normalise`); and an agent's draft checked against the whole library (`draft`)."""
