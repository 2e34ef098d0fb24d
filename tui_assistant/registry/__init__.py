"""Package registries: a release's documentation fetched by name into the data folder.

`specs` reads `pypi:NAME==VERSION` and `npm:NAME@VERSION`; `lockfiles` reads a
project's pinned dependencies; `transport` is the only network code (https, the
registry's hosts only, sizes capped); `pypi` and `npm` turn a spec into one archive
to download; `archive` unpacks it as hostile input; `libraries` is where fetched
libraries live and how a name finds one; `fetcher` puts the steps together.

A website (`https://HOST/PATH/`) is the `site_*` modules: `site_urls` (the SPEC, its scope,
canonical links, the file each page is kept as), `site_lists` (llms.txt, sitemaps, a page's
links), `site_discover` (robots.txt and which list to read), `site_http` (one page, within
deadlines and size caps), `site_crawl` (the pages read at a polite pace), `site_limits` (the
caps and their options) and `site_fetch` (the dated library, read once or refreshed).
"""
