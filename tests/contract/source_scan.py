"""Reading the source for refusals: each function's raised codes and its calls, in context.

The first half of call_graph.py's work: one pass over every file with ``ast``, no types yet.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from domain.errors import Failure
from service import errors
from service.http.contract import FAILURE_STATUS

ROOT = Path(__file__).resolve().parents[2]  # the folder holding domain/ and service/
PACKAGES = ("domain", "service", "projections")
SHORTHANDS = {"invalid": Failure.INVALID, "forbidden": Failure.FORBIDDEN}  # domain.errors
NAMED = {  # service.errors: GAME_NOT_FOUND("no such game")
    name: value for name, value in vars(errors).items() if isinstance(value, errors.Refusal)
}
Def = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True, order=True)
class Refusal:
    status: int
    code: str
    where: str  # "module:qualname" of the function that raises it


def _literal(node: ast.expr | None) -> str | int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int):
        return node.value
    return None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(call.args) > index:
        return call.args[index]
    return next((kw.value for kw in call.keywords if kw.arg == keyword), None)


def callee_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def refusal_of(call: ast.Call, where: str) -> Refusal | None:
    """The refusal a call constructs, if it is one with a literal code."""
    name = callee_name(call)
    status: object
    if name == "RuleViolation":
        failure = _argument(call, 2, "failure")
        kind = Failure[failure.attr] if isinstance(failure, ast.Attribute) else Failure.CONFLICT
        status, code = FAILURE_STATUS[kind], _literal(_argument(call, 0, "code"))
    elif name in SHORTHANDS:
        status, code = FAILURE_STATUS[SHORTHANDS[name]], _literal(_argument(call, 0, "code"))
    elif name in NAMED:
        status, code = NAMED[name]
    elif name == "ApiError":
        status, code = _literal(_argument(call, 0, "status")), _literal(_argument(call, 1, "code"))
    else:
        return None
    if not isinstance(status, int) or not isinstance(code, str):
        return None  # a constructor's own definition, or a code passed along (problems.py)
    return Refusal(status, code, where)


@dataclass
class Class:
    key: str
    module: str
    base_nodes: list[ast.expr] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)  # class keys, once every file is read
    methods: dict[str, str] = field(default_factory=dict)  # name -> function key
    attributes: dict[str, ast.expr] = field(default_factory=dict)  # name -> annotation


@dataclass
class Edge:
    """A call (or a reference passed along) in a function, and what its refusals do there."""

    target: ast.expr  # what is called: a Name or an Attribute
    swallowed: bool  # inside a ``try`` whose handlers catch refusals and do not re-raise
    raises_result: bool  # ``raise f(...)``: what ``f`` returns is raised here
    called: bool = True  # False: referenced only (a class named in isinstance() builds nothing)


@dataclass
class Function:
    key: str
    module: str
    owner: str | None  # class key
    node: Def
    refusals: list[Refusal] = field(default_factory=list)  # raised here
    returned: list[Refusal] = field(default_factory=list)  # made and returned for a caller to raise
    edges: list[Edge] = field(default_factory=list)


CATCHING = {"RuleViolation", "ApiError", "Exception", "BaseException"}


def _swallows(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    catches = caught is None or any(
        isinstance(name, ast.Name) and name.id in CATCHING for name in names
    )
    reraises = any(isinstance(n, ast.Raise) and n.exc is None for n in ast.walk(handler))
    passed_along = handler.name is not None and any(  # raised, or handed on to be raised
        (isinstance(n, ast.Raise) and _names(n.exc, handler.name))
        or (isinstance(n, ast.Call) and any(_names(arg, handler.name) for arg in n.args))
        for n in ast.walk(handler)
    )
    return catches and not (reraises or passed_along)


def _names(node: ast.expr | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


class Scanner(ast.NodeVisitor):
    """Fills a Function: the refusals it raises or returns, and its calls in their context."""

    def __init__(self, function: Function) -> None:
        self.function = function
        self.swallowing = 0
        self.raised_names = {
            node.exc.id
            for node in ast.walk(function.node)
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name)
        }

    def scan(self, node: Def | ast.Lambda) -> None:
        """A function's body and defaults; annotations name types, they run nothing."""
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]:
            self.visit(default)
        for statement in node.body if isinstance(node.body, list) else [node.body]:
            self.visit(statement)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.scan(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.scan(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.scan(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._call(node.value, raised=False)

    def visit_Try(self, node: ast.Try) -> None:
        swallows = any(_swallows(handler) for handler in node.handlers)
        self.swallowing += swallows
        for statement in node.body:
            self.visit(statement)
        self.swallowing -= swallows
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            self.visit(part)

    def visit_Raise(self, node: ast.Raise) -> None:
        self._call(node.exc, raised=True)
        if node.cause is not None:
            self.visit(node.cause)

    def visit_Return(self, node: ast.Return) -> None:
        found = (
            refusal_of(node.value, self.function.key) if isinstance(node.value, ast.Call) else None
        )
        if found is not None:
            self.function.returned.append(found)
            return
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        names = {target.id for target in node.targets if isinstance(target, ast.Name)}
        self._call(node.value, raised=bool(names & self.raised_names))
        for target in node.targets:
            self.visit(target)

    def visit_Call(self, node: ast.Call) -> None:
        self._call(node, raised=False)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):  # a function passed along may be called
            self.function.edges.append(Edge(node, self.swallowing > 0, False, called=False))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):  # a bound method passed along, or a property
            self.function.edges.append(Edge(node, self.swallowing > 0, False, called=False))
        self.visit(node.value)

    def _call(self, node: ast.expr | None, *, raised: bool) -> None:
        if not isinstance(node, ast.Call):
            if node is not None:
                self.visit(node)
            return
        refusal = refusal_of(node, self.function.key)
        if refusal is not None:
            if raised and not self.swallowing:
                self.function.refusals.append(refusal)
        elif isinstance(node.func, ast.Name | ast.Attribute):
            self.function.edges.append(Edge(node.func, self.swallowing > 0, raised))
            if isinstance(node.func, ast.Attribute):
                self.visit(node.func.value)
        else:
            self.visit(node.func)
        for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
            self.visit(argument)


@dataclass
class Module:
    name: str
    names: dict[str, str] = field(default_factory=dict)  # local name -> "mod" or "mod:name"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    names: dict[str, str] = {}
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], base]).strip(".")
            for alias in node.names:
                names[alias.asname or alias.name] = f"{base}:{alias.name}"
    return names


def is_property(decorator: ast.expr) -> bool:
    """``property`` and the decorators that work like one (domain/kept.py's ``kept``)."""
    return isinstance(decorator, ast.Name) and decorator.id in (
        "property",
        "cached_property",
        "kept",
    )


def self_assignment(
    node: ast.AST, parameters: dict[str, ast.expr]
) -> tuple[str | None, ast.expr | None]:
    """``self.x = Cls(...)`` gives (x, the call); ``self.x = param`` (x, the parameter's
    annotation); ``self.x: T = ...`` (x, T)."""
    target: ast.expr
    value: ast.expr | None
    if isinstance(node, ast.AnnAssign):
        target, value = node.target, node.annotation
    elif isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value = node.targets[0], node.value
        if isinstance(value, ast.Name):
            value = parameters.get(value.id)
        elif not isinstance(value, ast.Call):
            return None, None
    else:
        return None, None
    if (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    ):
        return target.attr, value
    return None, None


def source_files() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))
