"""Python source read as API reference: parsing only, a passage per documented object."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tui_assistant.core.checks.quotes import find_quote
from tui_assistant.core.documents.formats import document_kind
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.documents.python_api import api_objects, module_name, split_python
from tui_assistant.core.documents.split import split_document

CART = '''\
"""Shopping carts.

A cart holds items until checkout.
"""

import os

__all__ = ["Cart", "total"]


class Cart:
    """A shopping cart.

    Items are kept in the order they were added.
    """

    def __init__(self, owner: str, *, limit: int = 10) -> None:
        self.owner = owner

    def add(self, item, quantity=1):
        """Add `quantity` of `item` to the cart.

        Raises ValueError when the cart is full.
        """

    @property
    def size(self) -> int:
        """How many items the cart holds."""
        return 0

    @staticmethod
    def empty(owner):
        """A cart with nothing in it."""

    def _private(self):
        """Not part of the API."""

    def undocumented(self):
        pass


def total(cart: Cart) -> float:
    """The price of everything in `cart`."""
    return 0.0


def helper():
    """Documented, but not in __all__."""


def _hidden():
    """Private."""
'''


def test_module_names_from_paths() -> None:
    assert module_name("src/shop/cart.py") == "shop.cart"
    assert module_name("shop/__init__.py") == "shop"
    assert module_name("lib/shop/util.py") == "shop.util"
    assert module_name("setup.py") == "setup"


def test_every_documented_public_object_titled_by_name_and_signature() -> None:
    titles = [item.title for item in api_objects("src/shop/cart.py", CART)]
    assert titles == [
        "shop.cart",
        "shop.cart.Cart(owner: str, *, limit: int = 10)",
        "shop.cart.Cart.add(item, quantity=1)",
        "shop.cart.Cart.size",
        "shop.cart.Cart.empty(owner)",
        "shop.cart.total(cart: Cart) -> float",
    ]


def test_lines_run_from_the_definition_to_the_docstrings_end() -> None:
    objects = {item.qualname: item for item in api_objects("shop/cart.py", CART)}
    lines = CART.splitlines()
    add = objects["shop.cart.Cart.add"]
    assert lines[add.line - 1].strip().startswith("def add(")
    assert lines[add.end_line - 1].strip() == "Raises ValueError when the cart is full."
    module = objects["shop.cart"]
    assert (module.line, module.end_line) == (1, 3)


def test_a_quote_from_a_docstring_stands_on_its_file_line() -> None:
    document = split_python("shop/cart.py", CART)
    draft = next(d for d in document.passages if d.title.startswith("shop.cart.Cart.add"))
    passage = Passage(
        id="shop/cart#cart-add",
        title=draft.title,
        text=draft.text,
        source_path="lib/shop/cart.py",
        line=draft.line,
        end_line=draft.end_line,
    )
    quote = find_quote("Raises ValueError when the cart is full", passage)
    assert quote is not None
    assert CART.splitlines()[quote.line - 1].strip().startswith("Raises ValueError")


def test_the_document_is_the_module_and_its_first_passage_has_no_anchor() -> None:
    document = split_document("shop/cart.py", CART)
    assert document_kind("shop/cart.py") == "py"
    assert document.title == "shop.cart"
    assert document.passages[0].anchor == ""
    assert document.passages[0].text.startswith("Shopping carts.")
    anchors = [draft.anchor for draft in document.passages[1:]]
    assert anchors == ["cart", "cart-add", "cart-size", "cart-empty", "total"]


def test_without_all_every_public_documented_name_counts() -> None:
    source = CART.replace('__all__ = ["Cart", "total"]\n', "")
    names = [item.qualname for item in api_objects("shop/cart.py", source)]
    assert "shop.cart.helper" in names
    assert "shop.cart._hidden" not in names


def test_private_modules_overloads_and_broken_files_have_no_passages() -> None:
    assert api_objects("shop/_internal.py", CART) == []
    assert api_objects("shop/broken.py", "def broken(:\n    '''never'''\n") == []
    overloaded = (
        "from typing import overload\n"
        "@overload\n"
        "def parse(x: int) -> int:\n    '''stub'''\n"
        "def parse(x):\n    '''Parse x.'''\n"
    )
    assert [item.title for item in api_objects("p.py", overloaded)] == ["p.parse(x)"]


def test_nothing_in_the_file_is_run() -> None:
    hostile = (
        'raise SystemExit("ran")\nimport os\nos.system("false")\n\ndef f():\n    """Safe."""\n'
    )
    assert [item.title for item in api_objects("m.py", hostile)] == ["m.f()"]


def test_a_class_documented_by_its_init() -> None:
    source = "class Point:\n    def __init__(self, x, y):\n        '''A point at x, y.'''\n"
    (only,) = api_objects("geo.py", source)
    assert only.title == "geo.Point(x, y)"
    assert only.docstring == "A point at x, y."


@given(st.text(max_size=300))
def test_any_text_reads_without_an_error(source: str) -> None:
    for item in api_objects("any.py", source):
        assert item.line <= item.end_line
        assert item.docstring.strip()


def test_names_with_a_docstring_after_them_are_data_and_attributes() -> None:
    source = '''\
TIMEOUT = 5
"""Seconds to wait for the shop's server."""

_PRIVATE = 1
"""Not public."""

UNDOCUMENTED = 2


class Cart:
    """A cart."""

    limit: int = 10
    """How many items a cart holds."""
'''
    found = {item.qualname: item for item in api_objects("shop/config.py", source)}
    assert set(found) == {"shop.config.TIMEOUT", "shop.config.Cart", "shop.config.Cart.limit"}
    timeout, limit = found["shop.config.TIMEOUT"], found["shop.config.Cart.limit"]
    assert (timeout.kind, timeout.title, timeout.line, timeout.end_line) == (
        "data",
        "shop.config.TIMEOUT",
        1,
        2,
    )
    assert (limit.kind, limit.docstring, limit.line) == (
        "attribute",
        "How many items a cart holds.",
        13,
    )
