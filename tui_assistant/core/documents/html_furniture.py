"""What documentation generators put around a page's content, by element, class name,
id, role and comment: what `html_text.read_page` leaves out, and what marks the content
it keeps (Sphinx and its themes, MkDocs and Material, Docusaurus, texinfo, latex2html,
MediaWiki and GitHub exports)."""

from __future__ import annotations

# Elements whose content is never text a reader of the page's content sees.
SKIPPED_TAGS = frozenset(
    {
        "script", "style", "template", "noscript", "iframe", "frame", "frameset", "object",
        "embed", "applet", "svg", "math", "canvas", "audio", "video", "map", "nav", "form",
        "button", "select", "textarea", "dialog", "head", "footer", "title",
    }
)  # fmt: skip
# Kept inside the main content (a page's own `<h1>` may sit in a header, an author's
# sidebar in an aside), skipped outside.
SKIPPED_OUTSIDE_MAIN = frozenset({"header", "address", "aside"})
SKIPPED_NAMES_OUTSIDE_MAIN = frozenset({"sidebar"})
# Comments around latex2html's navigation (`<!--Navigation Panel-->` ... `<!--End of
# Navigation Panel-->`): what stands between them is furniture.
FURNITURE_COMMENTS = frozenset({"Navigation Panel", "Table of Child-Links"})
SKIPPED_ROLES = frozenset({"navigation", "search", "banner", "contentinfo", "complementary"})
# Class names and ids of the navigation, sidebars and page furniture that documentation
# generators (Sphinx and its themes, MkDocs, texinfo, latex2html, MediaWiki) write.
SKIPPED_NAMES = frozenset(
    {
        "headerlink", "sphinxsidebar", "sphinxsidebarwrapper", "related", "footer",
        "breadcrumb", "breadcrumbs", "wy-breadcrumbs", "wy-nav-side", "rst-versions",
        "sidebar-drawer", "toc-drawer", "table-of-contents", "md-sidebar", "md-header",
        "md-footer", "md-search", "md-source", "md-nav", "md-skip", "navbar", "nav", "navigation",
        "nav-panel", "mini-toc", "menu", "edit-this-page", "edit-page", "viewcode-link",
        "viewcode-back", "skip-link", "searchbox", "search", "prev-next-area", "pager",
        "related-pages", "copybtn", "mw-navigation", "mw-head", "mw-panel", "mw-editsection",
        "catlinks", "printfooter", "jump-to-nav", "siteSub", "contentSub", "toc",
        "breadcrumb-section", "page-metadata", "theme-edit-this-page", "pagination-nav",
        "shortcontents", "visually-hidden", "sr-only", "header", "hash-link", "copiable-link",
        "navheader", "navfooter",
    }
)  # fmt: skip
# Class names of admonitions (DocBook's `<div class="note"><h3 class="title">Note</h3>`):
# the heading titling one is text of the section the box stands in.
ADMONITION_NAMES = frozenset({"note", "tip", "caution", "warning", "important", "admonition"})
# Class names and ids of the element that holds a page's own content.
MAIN_NAMES = frozenset(
    {
        "md-content", "main-content", "mw-content-text", "markdown-body", "theme-doc-markdown",
        "rst-content", "bodywrapper",
    }
)  # fmt: skip
# The elements that hold a page's own content.
MAIN_TAGS = frozenset({"main", "article"})
