"""Python source files as API reference: a passage per documented public object.

Parsing only (`ast`): nothing is imported, compiled to bytecode or run, so a hostile
package can do nothing by being read. Every public module, class, function and method
with a docstring is one passage:

- titled by its qualified name and signature (`shop.cart.Cart.add(item, quantity=1)`),
  the module's dotted name taken from the file's path (`src/shop/cart.py` is
  `shop.cart`; a leading `src/` or `lib/` folder and `__init__` are not part of it);
- its text is the docstring, dedented, one text line for each file line, so a quote
  found in it stands on the file lines the docstring spans;
- it cites the source from the `def`/`class` line (the module: line 1) to the
  docstring's last line.

Public: no part of the module path or the name starts with `_` (dunder methods
included, `__init__` excepted, whose docstring documents its class), and a module's
`__all__`, when it is a literal list or tuple of strings, names its public top-level
objects. A name assigned with a docstring right after it (module data, a class
attribute) is documented too, titled without a signature. A property is titled without a
signature; an `@overload` stub is not a
passage (its implementation is). A file that does not parse has no passages.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

from tui_assistant.core.documents.passage import Document, PassageDraft, UniqueIds, slug

# A signature longer than this is shortened in the title; the docstring keeps the rest.
MAX_SIGNATURE_CHARS = 160
_PACKAGE_ROOTS = frozenset({"src", "lib"})

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True, slots=True)
class ApiObject:
    """One documented object of a module, as its source says."""

    qualname: str  # dotted, from the module's name: `shop.cart.Cart.add`
    kind: str  # `module`, `class`, `function`, `method`, `property`, `data`, `attribute`
    signature: str  # `(item, quantity=1)`; "" for a module, a property, a class without __init__
    docstring: str  # dedented, one line for each of its file lines
    line: int  # the `def`/`class` line; 1 for a module
    end_line: int  # the docstring's last line

    @property
    def title(self) -> str:
        return self.qualname + self.signature


def module_name(relative_path: str) -> str:
    """The dotted module name a `.py` file's path gives (`src/shop/__init__.py` -> `shop`)."""
    parts = relative_path.removesuffix(".py").split("/")
    if len(parts) > 1 and parts[0] in _PACKAGE_ROOTS:
        parts = parts[1:]
    if len(parts) > 1 and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def api_objects(
    relative_path: str, source: str, module: str | None = None, *, only_exported: bool = True
) -> list[ApiObject]:
    """The documented public objects of one module, in source order; [] when the
    module is private or its source does not parse. `module` names it (any module,
    private too, as a package re-exporting from it asks for); else its path does.
    `only_exported`: those its `__all__` lists, when it has one (a directive naming one
    object finds it whether or not it is listed, as Sphinx does)."""
    if module is None:
        module = module_name(relative_path)
        if any(part.startswith("_") and part != "__init__" for part in module.split(".")):
            return []
    tree = _parsed(relative_path, source)
    if tree is None:
        return []
    found: list[ApiObject] = []
    documented = _docstring(tree)
    if documented is not None:
        text, _, end_line = documented
        found.append(ApiObject(module, "module", "", text, 1, end_line))
    exported = _exported_names(tree) if only_exported else None
    for node in tree.body:
        if isinstance(node, Definition) and (exported is None or node.name in exported):
            found.extend(_objects(node, module, in_class=False))
    found.extend(
        item
        for item in _documented_names(tree.body, module, "data")
        if exported is None or item.qualname.rsplit(".", 1)[-1] in exported
    )
    return found


def _documented_names(body: list[ast.stmt], prefix: str, kind: str) -> Iterator[ApiObject]:
    """Names assigned with a docstring right after them (`TIMEOUT = 5`, then a string),
    as Sphinx's autodoc reads module data and class attributes."""
    for node, following in pairwise(body):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if not isinstance(node, ast.Assign | ast.AnnAssign) or len(targets) != 1:
            continue
        target = targets[0]
        if not isinstance(target, ast.Name) or target.id.startswith("_"):
            continue
        documented = _docstring(ast.Module(body=[following], type_ignores=[]))
        if documented is not None:
            text, _, end_line = documented
            yield ApiObject(f"{prefix}.{target.id}", kind, "", text, node.lineno, end_line)


def reexports(relative_path: str, source: str) -> dict[str, str]:
    """The names a module imports from others (`from ._core import retry as r`) or
    binds to another name (`ib = attrib`), each with the dotted name it has where it is
    defined (`r` -> `stamina._core.retry`); `*` maps to the modules it imports all
    of, space-separated (`from attr.validators import *`)."""
    tree = _parsed(relative_path, source)
    if tree is None:
        return {}
    module = module_name(relative_path)
    package = module.split(".")
    if not relative_path.endswith("__init__.py"):
        package = package[:-1]
    found: dict[str, str] = {}
    stars: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = f"{module}.{node.value.id}"
        if not isinstance(node, ast.ImportFrom):
            continue
        base = package[: len(package) - node.level + 1] if node.level else []
        origin = ".".join([*base, *(node.module or "").split(".")]).strip(".")
        for alias in node.names:
            if alias.name == "*":
                stars.append(origin)
            else:
                found[alias.asname or alias.name] = f"{origin}.{alias.name}"
    if stars:
        found["*"] = " ".join(stars)
    return found


def split_python(relative_path: str, source: str) -> Document:
    """A Python source file's API reference as a document: titled by its module name,
    a passage per documented public object (the first has no anchor)."""
    drafts: list[PassageDraft] = []
    anchors = UniqueIds()
    module = module_name(relative_path)
    for item in api_objects(relative_path, source):
        local = item.qualname.removeprefix(module).lstrip(".")
        anchor = anchors.take(slug(local)) if drafts else ""
        drafts.append(PassageDraft(anchor, item.title, item.docstring, item.line, item.end_line))
    return Document(title=module, passages=tuple(drafts))


def _objects(node: Definition, prefix: str, in_class: bool) -> Iterator[ApiObject]:
    name = node.name
    if name.startswith("_") and name != "__init__":
        return
    if isinstance(node, ast.ClassDef):
        qualname = f"{prefix}.{name}"
        init = next(
            (
                child
                for child in node.body
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
                and child.name == "__init__"
            ),
            None,
        )
        documented = _docstring(node) or (_docstring(init) if init is not None else None)
        if documented is not None:
            text, _, end_line = documented
            signature = _signature(init, drop_first=True, returns=False) if init is not None else ""
            yield ApiObject(qualname, "class", signature, text, node.lineno, end_line)
        for child in node.body:
            if isinstance(child, Definition) and child is not init:
                yield from _objects(child, qualname, in_class=True)
        yield from _documented_names(node.body, qualname, "attribute")
        return
    if name == "__init__" or _decorated(node, "overload"):
        return
    documented = _docstring(node)
    if documented is None:
        return
    text, _, end_line = documented
    qualname = f"{prefix}.{name}"
    if in_class and _decorated(node, "property", "cached_property"):
        yield ApiObject(qualname, "property", "", text, node.lineno, end_line)
        return
    drop_first = in_class and not _decorated(node, "staticmethod")
    kind = "method" if in_class else "function"
    yield ApiObject(qualname, kind, _signature(node, drop_first), text, node.lineno, end_line)


def _docstring(node: ast.AST) -> tuple[str, int, int] | None:
    """A node's docstring dedented, with its first and last file lines; None when it
    has none (or only blanks)."""
    body = getattr(node, "body", None)
    if not body or not isinstance(body[0], ast.Expr):
        return None
    value = body[0].value
    if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
        return None
    lines = _dedented(value.value)
    first, last = value.lineno, value.end_lineno or value.lineno
    if len(lines) != last - first + 1:
        # Escapes such as `\n` made the value's lines differ from the file's: the text
        # is kept whole and counted back from the last line.
        first = max(first, last - len(lines) + 1)
    while lines and not lines[0].strip():
        lines.pop(0)
        first += 1
    while lines and not lines[-1].strip():
        lines.pop()
        last -= 1
    if not lines:
        return None
    return "\n".join(lines), first, max(first, last)


def _dedented(docstring: str) -> list[str]:
    """The docstring's lines as `inspect.cleandoc` indents them, none removed."""
    lines = docstring.expandtabs().split("\n")
    margins = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    margin = min(margins, default=0)
    return [lines[0].strip()] + [line[margin:].rstrip() for line in lines[1:]]


def _signature(
    node: ast.FunctionDef | ast.AsyncFunctionDef, drop_first: bool, returns: bool = True
) -> str:
    """The parameters as `inspect.signature` writes them (`(item, *, limit: int = 10)`)."""
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    defaults += arguments.defaults
    shown: list[str] = []
    for number, (argument, default) in enumerate(zip(positional, defaults, strict=True)):
        if not (drop_first and number == 0):
            shown.append(_parameter(argument, default))
        if arguments.posonlyargs and number == len(arguments.posonlyargs) - 1:
            shown.append("/")
    if drop_first and shown == ["/"]:
        shown = []
    if arguments.vararg is not None:
        shown.append("*" + _parameter(arguments.vararg, None))
    elif arguments.kwonlyargs:
        shown.append("*")
    for argument, kw_default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        shown.append(_parameter(argument, kw_default))
    if arguments.kwarg is not None:
        shown.append("**" + _parameter(arguments.kwarg, None))
    signature = f"({', '.join(shown)})"
    if returns and node.returns is not None:
        signature += f" -> {ast.unparse(node.returns)}"
    signature = " ".join(signature.split())
    if len(signature) > MAX_SIGNATURE_CHARS:
        signature = signature[: MAX_SIGNATURE_CHARS - 2].rstrip() + "…)"
    return signature


def _parameter(argument: ast.arg, default: ast.expr | None) -> str:
    shown = argument.arg
    if argument.annotation is not None:
        shown += f": {ast.unparse(argument.annotation)}"
        if default is not None:
            shown += f" = {ast.unparse(default)}"
    elif default is not None:
        shown += f"={ast.unparse(default)}"
    return shown


def _decorated(node: ast.FunctionDef | ast.AsyncFunctionDef, *names: str) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in names:
            return True
    return False


def _exported_names(tree: ast.Module) -> frozenset[str] | None:
    """The names a literal `__all__` lists; None when the module has none to read."""
    for node in tree.body:
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            continue
        value = node.value
        if isinstance(value, ast.List | ast.Tuple) and all(
            isinstance(item, ast.Constant) and isinstance(item.value, str) for item in value.elts
        ):
            return frozenset(str(item.value) for item in value.elts)  # type: ignore[attr-defined]
        return None
    return None


@functools.lru_cache(maxsize=8)
def _parsed(relative_path: str, source: str) -> ast.Module | None:
    """The module's syntax tree, read only (several autodoc directives and the
    re-export lookup of one module parse it once); None when it does not parse."""
    try:
        return ast.parse(source, filename=relative_path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
