"""The refusal codes the domain's source makes, read with ``ast``, to hold the declarations to.

A refusal is made by ``RuleViolation(code, message[, Failure.X])`` (a conflict unless it says
otherwise), ``invalid(code, message)`` or ``forbidden(code, message)`` (domain.errors), raised
at once or returned for a caller to raise. A scope (a variant's package, or one shared module)
can raise the codes it makes and those of the shared helpers it imports (``check_card_code``
makes ``unknown_card``): that is what it must declare, no more.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import domain
from domain.errors import Failure

DOMAIN = Path(domain.__file__).parent
SHORTHANDS = {"invalid": Failure.INVALID, "forbidden": Failure.FORBIDDEN}
DEFINITIONS = DOMAIN / "errors.py"  # where the shorthands pass their code along


def shared_modules() -> dict[str, Path]:
    """The domain's modules outside the variant packages, by module name."""
    paths = [*sorted(DOMAIN.glob("*.py")), DOMAIN / "variants" / "__init__.py"]
    return {module_name(path): path for path in paths}


def module_name(path: Path) -> str:
    parts = path.relative_to(DOMAIN.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _made(call: ast.Call, where: str) -> tuple[str, Failure] | None:
    """The code and kind a call makes a refusal with, if it makes one."""
    name = call.func.id if isinstance(call.func, ast.Name) else None  # imported by name
    if name == "RuleViolation":
        kind = _argument(call, 2, "failure")
        failure = Failure[kind.attr] if isinstance(kind, ast.Attribute) else Failure.CONFLICT
    elif name in SHORTHANDS:
        failure = SHORTHANDS[name]
    else:
        return None
    code = _argument(call, 0, "code")
    if isinstance(code, ast.Constant) and isinstance(code.value, str):
        return code.value, failure
    assert where == str(DEFINITIONS), f"{where}:{call.lineno}: a refusal code must be a literal"
    return None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(call.args) > index:
        return call.args[index]
    return next((kw.value for kw in call.keywords if kw.arg == keyword), None)


def _refusals(node: ast.AST, where: str) -> Iterator[tuple[str, Failure]]:
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            made = _made(call, where)
            if made is not None:
                yield made


def _collect(found: Iterable[tuple[str, Failure]], scope: str) -> dict[str, Failure]:
    codes: dict[str, Failure] = {}
    for code, failure in found:
        assert codes.setdefault(code, failure) is failure, f"{scope}: {code} is made as two kinds"
    return codes


@functools.cache
def helpers() -> dict[tuple[str, str], dict[str, Failure]]:
    """(module, function) -> codes, for every top-level function of a shared module that makes
    a refusal."""
    found = {}
    for module, path in shared_modules().items():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef):
                codes = _collect(_refusals(node, str(path)), f"{module}.{node.name}")
                if codes:
                    found[module, node.name] = codes
    return found


def raised_in(paths: Iterable[Path], scope: str) -> dict[str, Failure]:
    """Every code the files make, or can raise through a shared helper they import."""
    shared = helpers()
    found: list[tuple[str, Failure]] = []
    for path in paths:
        tree = ast.parse(path.read_text())
        found += _refusals(tree, str(path))
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                for alias in node.names:
                    found += shared.get((node.module, alias.name), {}).items()
    return _collect(found, scope)


def difference(declared: Mapping[str, Failure], raised: Mapping[str, Failure]) -> list[str]:
    """What is wrong with a declaration, in words (empty: it is exact)."""
    problems = [
        f"{code} ({failure.name}) is raised but not declared"
        for code, failure in raised.items()
        if code not in declared
    ]
    problems += [f"{code} is declared but never raised" for code in declared if code not in raised]
    problems += [
        f"{code} is declared {declared[code].name} but raised {failure.name}"
        for code, failure in raised.items()
        if code in declared and declared[code] is not failure
    ]
    return problems
