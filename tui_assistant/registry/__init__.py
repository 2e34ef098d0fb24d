"""Package registries: a release's documentation fetched by name into the data folder.

`specs` reads `pypi:NAME==VERSION` and `npm:NAME@VERSION`; `lockfiles` reads a
project's pinned dependencies; `transport` is the only network code (https, the
registry's hosts only, sizes capped); `pypi` and `npm` turn a spec into one archive
to download; `archive` unpacks it as hostile input; `libraries` is where fetched
libraries live and how a name finds one; `fetcher` puts the steps together.
"""
