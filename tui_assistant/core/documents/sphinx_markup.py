"""Sphinx's markup semantics, shared by reStructuredText and MyST Markdown.

How a directive reads on the built page (`directive_kind`: a note reads `Note:`, a
`versionchanged` `Changed in version 8.0:`, a `toctree` nothing, a `code-block` its code),
whether `only` shows its content in HTML (`only_shown`), and what a role shows
(`role_text`: `` :class:`~a.B` `` is `B`, `` :ref:`Title <label>` `` is `Title`). Pure
functions of strings: the rst reader (`rst_text.py`) and the MyST reader (`myst.py`) use
the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum

_ROLE = re.compile(r"^:([\w.+:-]+):`(.+)`$", re.DOTALL)
_LABELLED = re.compile(r"^(.+?)\s*<([^<>]+)>$", re.DOTALL)
_SAMP_FIELD = re.compile(r"\{([^{}]*)\}")
_ONLY_TOKEN = re.compile(r"\(|\)|[^\s()]+")
# The tags the `only` directive sees when the page is built as HTML.
_INDEX_KIND = re.compile(r"^(single|pair|triple|see|seealso|module|keyword|operator|object|"
                         r"exception|statement|builtin)\s*:\s*(.*)$")  # fmt: skip
MAX_INDEX_TERM_CHARS = 100
_HTML_TAGS = frozenset({"html", "builder_html", "format_html"})


class Kind(Enum):
    """How a directive reads on the page."""

    NOTHING = "nothing"  # nothing at all (`toctree`, `include`, `autofunction`)
    CODE = "code"  # its content as written, as code (`code-block`)
    LABELLED = "labelled"  # a word, then its content (`note` reads `Note:`)
    VERSION = "version"  # `Changed in version 8.0:`, then its content
    TEXT = "text"  # its argument as text (a signature, a title), then its content
    CONTENT = "content"  # its content only (the argument is a class, a path, a tag)


_NOTHING = frozenset(
    {
        "toctree", "include", "literalinclude", "highlight", "index", "meta", "contents",
        "sectnum", "role", "default-role", "default-domain", "module", "currentmodule",
        "autosummary", "tabularcolumns", "raw", "todo", "todolist", "title", "target-notes",
        "header", "footer", "image", "program", "replace", "unicode", "date",
        "towncrier-draft-entries", "autodoc2-summary",
    }
)  # fmt: skip
_CODE = frozenset(
    {
        "code", "code-block", "sourcecode", "parsed-literal", "math", "doctest", "testcode",
        "testoutput", "testsetup", "testcleanup", "ipython", "productionlist", "prompt",
        "synopsis", "code-tab", "jupyter-execute", "graphviz", "digraph", "graph",
    }
)  # fmt: skip
_CONTENT = frozenset(
    {
        "container", "class", "rst-class", "compound", "epigraph", "highlights",
        "pull-quote", "line-block", "figure", "only", "tabs", "glossary", "hlist",
        "ifconfig", "cssclass",
    }
)  # fmt: skip
LABELS = {
    "note": "Note",
    "warning": "Warning",
    "tip": "Tip",
    "hint": "Hint",
    "important": "Important",
    "caution": "Caution",
    "danger": "Danger",
    "attention": "Attention",
    "error": "Error",
    "seealso": "See also",
}
VERSIONS = {
    "versionadded": "Added in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}


def directive_kind(name: str) -> Kind:
    """How the directive `name` reads (`py:function` as `function`)."""
    name = name.lower().rsplit(":", 1)[-1]
    if name in _NOTHING:
        return Kind.NOTHING
    if name.startswith("auto"):
        return Kind.TEXT  # the object's name; its documentation is read from the source
    if name in _CODE:
        return Kind.CODE
    if name in LABELS:
        return Kind.LABELLED
    if name in VERSIONS:
        return Kind.VERSION
    if name in _CONTENT:
        return Kind.CONTENT
    return Kind.TEXT


def only_shown(expression: str) -> bool:
    """Whether `.. only:: expression` shows its content on an HTML page
    (`builder_man` no, `html or latex` yes); an expression not understood shows it."""
    tokens = _ONLY_TOKEN.findall(expression)
    position = 0

    def either() -> bool:
        nonlocal position
        value = both()
        while position < len(tokens) and tokens[position] == "or":
            position += 1
            value = both() or value
        return value

    def both() -> bool:
        nonlocal position
        value = single()
        while position < len(tokens) and tokens[position] == "and":
            position += 1
            value = single() and value
        return value

    def single() -> bool:
        nonlocal position
        if position >= len(tokens):
            raise ValueError(expression)
        token = tokens[position]
        position += 1
        if token == "not":
            return not single()
        if token == "(":
            value = either()
            if position >= len(tokens) or tokens[position] != ")":
                raise ValueError(expression)
            position += 1
            return value
        if token in ("and", "or", ")"):
            raise ValueError(expression)
        return token in _HTML_TAGS

    try:
        value = either()
    except ValueError:
        return True
    return value if position == len(tokens) else True


def role_text(raw: str, labels: Mapping[str, str]) -> str:
    """What Sphinx shows for a role docutils does not know: `` :class:`~a.B` `` is `B`,
    `` :ref:`the docs <x>` `` is `the docs`, `` :func:`f` `` is `f()`, `` :kbd:`C-c` ``
    is `C-c`, `` :doc:`python:library/pdb` `` is `pdb`, `` :ref:`label` `` is the title
    the label stands above in `labels` (else the label as words: `parameter-types` is
    `parameter types`). Anything else is left as written."""
    found = _ROLE.match(raw)
    if found is None:
        return raw
    role = found.group(1).lower().rsplit(":", 1)[-1]
    content = found.group(2)
    if role == "abbr":
        return content.split(" (", 1)[0]
    labelled = _LABELLED.match(content)
    if labelled:
        return labelled.group(1)
    if role in ("guilabel", "menuselection"):
        return (
            content.replace("&&", "\0")
            .replace("&", "")
            .replace("\0", "&")
            .replace("-->", "\N{TRIANGULAR BULLET}")
        )
    if role == "samp":
        return _SAMP_FIELD.sub(r"\1", content)
    content = content.removeprefix("!")
    if role in ("ref", "numref"):
        return label_title(content, labels)
    if role in ("term", "keyword"):
        return labels.get(label_key(content), content)
    if role == "doc":
        return labels.get(label_key(content)) or readable_label(
            content.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        )
    if content.startswith("~"):
        content = content[1:].rsplit(".", 1)[-1]
    if role in ("func", "meth") and not content.endswith(")"):
        content += "()"
    return content


def label_key(name: str) -> str:
    return " ".join(name.strip("`").lower().split())


def readable_label(label: str) -> str:
    """A label no title is known for, as words: `parameter-types` -> `parameter types`."""
    return " ".join(label.replace("-", " ").replace("_", " ").split())


def label_title(name: str, labels: Mapping[str, str]) -> str:
    """The title a label stands above, else the label as words."""
    return labels.get(label_key(name)) or readable_label(name.strip("`"))


def index_terms(entries: list[str]) -> list[str]:
    """The terms of an index directive's entries (`single: a; b` is `a`, `b`)."""
    terms: list[str] = []
    for entry in entries:
        if not entry or entry.startswith(":"):
            continue  # an option (`:name: label`)
        kind = _INDEX_KIND.match(entry)
        parts = kind.group(2).split(";") if kind else entry.split(",")
        for part in parts:
            term = " ".join(part.strip().lstrip("!").split())
            if term and len(term) <= MAX_INDEX_TERM_CHARS:
                terms.append(term)
    return list(dict.fromkeys(terms))
