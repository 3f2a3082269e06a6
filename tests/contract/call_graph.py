"""Every refusal the code can raise, read from the source itself, and what reaches it.

Each route declares the refusals it answers with (service/http/contract.py); this reads the
code to check the declarations are complete: each refusal with its status, in the function
that raises it (``invalid("unknown_card", ...)``, ``GAME_NOT_FOUND("no such game")``), and a
call graph from each route handler (and the dependencies it takes) that tells which refusals it
can reach.

The call graph follows what the annotations say: plain calls through the module's functions
and imports, ``self.m()`` through the class, ``x.m()`` through the type of ``x`` (a parameter's
annotation, an attribute's, a property's or a function's return annotation, a constructor), and
a method of a base class to every override (so ``state.rules.decide`` reaches every variant's
``decide``). A reference passed along (``sync_to_thread(app.load, ...)``) counts as a call; a
nested function or lambda counts as part of the function that defines it. Calls it cannot type
are not followed: it can miss a refusal (tests/api/openapi/test_openapi.py also checks real
answers against the declarations) and it can see one that cannot happen (a perspective that is
never refused), which the test names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

from tests.contract.source_scan import (
    Class,
    Def,
    Edge,
    Function,
    Module,
    Refusal,
    Scanner,
    imports_of,
    is_property,
    module_name,
    self_assignment,
    source_files,
)

__all__ = ["CodeIndex", "Refusal", "code_index"]


class CodeIndex:
    """The functions and classes of the packages, their refusals and their calls."""

    def __init__(self, files: Iterable[Path]) -> None:
        self.modules: dict[str, Module] = {}
        self.classes: dict[str, Class] = {}
        self.functions: dict[str, Function] = {}
        for path in files:
            self._add(path)
        for module in self.modules.values():  # `from package import module` names a module
            for local, target in module.names.items():
                if target.replace(":", ".") in self.modules:
                    module.names[local] = target.replace(":", ".")
        self._subclasses: dict[str, set[str]] = {}
        for cls in self.classes.values():
            module = self.modules[cls.module]
            cls.bases = [
                key
                for key in (self._name_key(module, base) for base in cls.base_nodes)
                if key in self.classes
            ]
            for base in cls.bases:
                self._subclasses.setdefault(base, set()).add(cls.key)
        self._edges: dict[str, list[tuple[Edge, set[str]]]] = {}

    # --- reading the source ----------------------------------------------------------------

    def _add(self, path: Path) -> None:
        name = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        module = Module(name, imports_of(tree, name, path.name == "__init__.py"))
        self.modules[name] = module
        for node in tree.body:
            if isinstance(node, Def):
                module.names[node.name] = self._function(node, module, None)
            elif isinstance(node, ast.ClassDef):
                key = f"{name}:{node.name}"
                module.names[node.name] = key
                self.classes[key] = self._class(node, module, key)

    def _class(self, node: ast.ClassDef, module: Module, key: str) -> Class:
        cls = Class(key, module.name, base_nodes=node.bases)
        for item in node.body:
            if isinstance(item, Def):
                cls.methods[item.name] = self._function(item, module, key)
                if any(is_property(d) for d in item.decorator_list) and item.returns:
                    cls.attributes[item.name] = item.returns
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                cls.attributes[item.target.id] = item.annotation
        for method in node.body:  # self.x = Cls(...) / = a parameter / self.x: T = ...
            if not isinstance(method, Def):
                continue
            parameters = {
                arg.arg: arg.annotation
                for arg in [*method.args.args, *method.args.kwonlyargs]
                if arg.annotation is not None
            }
            for node_ in ast.walk(method):
                target, value = self_assignment(node_, parameters)
                if target is not None and target not in cls.attributes and value is not None:
                    cls.attributes[target] = value
        return cls

    def _function(self, node: Def, module: Module, owner: str | None) -> str:
        qualname = f"{owner.partition(':')[2]}.{node.name}" if owner else node.name
        key = f"{module.name}:{qualname}"
        function = Function(key, module.name, owner, node)
        Scanner(function).scan(node)
        self.functions[key] = function
        return key

    def _name_key(self, module: Module, node: ast.expr) -> str | None:
        """The class or function key an expression names (``Name``, ``module.Name``)."""
        if isinstance(node, ast.Subscript):  # Variant[Any, Any], Response[View]
            return self._name_key(module, node.value)
        if isinstance(node, ast.Name):
            return self._follow(module.names.get(node.id))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            target = module.names.get(node.value.id)
            if target in self.modules:
                return self._follow(f"{target}:{node.attr}")
        return None

    def _follow(self, target: str | None) -> str | None:
        """An imported name to where it is defined (through re-exports)."""
        for _ in range(5):
            if target is None or target in self.classes or target in self.functions:
                return target
            module_name, _, name = target.partition(":")
            module = self.modules.get(module_name)
            if module is None or name not in module.names or module.names[name] == target:
                return None
            target = module.names[name]
        return None

    # --- types -----------------------------------------------------------------------------

    def _annotation_types(self, module: Module, node: ast.expr | None) -> set[str]:
        """The classes an annotation names: ``A``, ``A | None``, ``tuple[A, B]``'s none."""
        if node is None:
            return set()
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == "NamedDependency"
        ):  # an injected dependency: what it holds
            return self._annotation_types(module, node.slice)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self._annotation_types(module, node.left) | self._annotation_types(
                module, node.right
            )
        key = self._name_key(module, node)
        return {key} if key in self.classes else set()

    def _value_types(
        self, module: Module, owner: str | None, env: dict[str, set[str]], node: ast.expr
    ) -> set[str]:
        """The classes an expression's value may be an instance of, as far as annotations tell."""
        if isinstance(node, ast.Name):
            if node.id in ("self", "cls") and owner:
                return {owner}
            return env.get(node.id, set())
        if isinstance(node, ast.Attribute):
            found: set[str] = set()
            for cls in self._value_types(module, owner, env, node.value):
                found |= self._attribute_types(cls, node.attr)
            return found
        if isinstance(node, ast.Call):
            found = set()
            for target in self._callees(module, owner, env, node.func):
                if target in self.classes:
                    found.add(target)
                else:
                    function = self.functions[target]
                    found |= self._annotation_types(
                        self.modules[function.module], function.node.returns
                    )
            return found
        return set()

    def _attribute_types(self, cls_key: str, name: str) -> set[str]:
        for cls in self._lineage(cls_key):
            annotation = cls.attributes.get(name)
            if annotation is not None:
                module = self.modules[cls.key.partition(":")[0]]
                if isinstance(annotation, ast.Call):  # self.x = Cls(...)
                    return self._value_types(module, cls.key, {}, annotation)
                return self._annotation_types(module, annotation)
        return set()

    def _lineage(self, cls_key: str) -> Iterator[Class]:
        """The class and its bases (depth first), as far as they are ours."""
        todo, seen = [cls_key], set()
        while todo:
            key = todo.pop(0)
            if key in self.classes and key not in seen:
                seen.add(key)
                yield self.classes[key]
                todo += self.classes[key].bases

    def _methods(self, cls_key: str, name: str) -> set[str]:
        """What ``x.name()`` may run for an ``x`` of the class: the inherited method and every
        override below it."""
        found = set()
        inherited = next(
            (c.methods[name] for c in self._lineage(cls_key) if name in c.methods), None
        )
        if inherited:
            found.add(inherited)
        todo = list(self._subclasses.get(cls_key, ()))
        while todo:
            sub = todo.pop()
            if name in self.classes[sub].methods:
                found.add(self.classes[sub].methods[name])
            todo += self._subclasses.get(sub, ())
        return found

    def _callees(
        self, module: Module, owner: str | None, env: dict[str, set[str]], func: ast.expr
    ) -> set[str]:
        if isinstance(func, ast.Name):
            if func.id in env:
                return set()  # a parameter or local holding a callable
            key = self._follow(module.names.get(func.id))
            if key in self.classes:
                return {key}
            return {key} if key in self.functions else set()
        if isinstance(func, ast.Attribute):
            direct = self._name_key(module, func)  # module.function
            if direct is not None:
                return {direct}
            found: set[str] = set()
            for cls in self._value_types(module, owner, env, func.value):
                found |= self._methods(cls, func.attr)
            return found
        return set()

    # --- the call graph --------------------------------------------------------------------

    def _environment(self, function: Function) -> dict[str, set[str]]:
        """Names local to the function (nested ones too) and the classes they may hold."""
        module = self.modules[function.module]
        env: dict[str, set[str]] = {}
        for node in ast.walk(function.node):
            if isinstance(node, Def | ast.Lambda):
                for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                    env.setdefault(arg.arg, set()).update(
                        self._annotation_types(module, arg.annotation)
                    )
                if isinstance(node, Def) and node is not function.node:
                    env.setdefault(node.name, set())
        for _ in range(2):  # an assignment may use a name assigned after it in the text
            for node in ast.walk(function.node):
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    env[node.target.id] = self._annotation_types(module, node.annotation)
                elif isinstance(node, ast.Assign):
                    names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                    for name in names:
                        env[name] = env.get(name, set()) | self._value_types(
                            module, function.owner, env, node.value
                        )
                    for target in node.targets:
                        if isinstance(target, ast.Tuple):
                            for element in target.elts:
                                if isinstance(element, ast.Name):
                                    env.setdefault(element.id, set())
        return env

    def _targets(self, function: Function, env: dict[str, set[str]], edge: Edge) -> set[str]:
        module = self.modules[function.module]
        found = set()
        for target in self._callees(module, function.owner, env, edge.target):
            if target in self.classes and not edge.called:
                continue
            if target in self.classes:  # a constructor
                found |= {m for m in self._methods(target, "__init__") if m.startswith(target)}
            else:
                found.add(target)
        return found

    def _graph(self, key: str) -> list[tuple[Edge, set[str]]]:
        if key not in self._edges:
            function = self.functions[key]
            env = self._environment(function)
            self._edges[key] = [
                (edge, self._targets(function, env, edge)) for edge in function.edges
            ]
        return self._edges[key]

    def reachable(self, roots: Iterable[str], *, refusing: bool = False) -> set[str]:
        """What the roots may run; with ``refusing``, only through calls whose refusals reach
        them (not those inside a ``try`` that swallows refusals)."""
        seen: set[str] = set()
        todo = [root for root in roots if root in self.functions]
        while todo:
            key = todo.pop()
            if key not in seen:
                seen.add(key)
                for edge, targets in self._graph(key):
                    if not (refusing and edge.swallowed):
                        todo += targets - seen
        return seen

    def refusals(self, roots: Iterable[str] | None = None) -> set[Refusal]:
        """What the roots can raise (every refusal in the code, without roots)."""
        if roots is None:
            functions = list(self.functions.values())
            return {r for f in functions for r in (*f.refusals, *f.returned)}
        found: set[Refusal] = set()
        for key in self.reachable(roots, refusing=True):
            found.update(self.functions[key].refusals)
            for edge, targets in self._graph(key):
                if edge.raises_result and not edge.swallowed:
                    for target in targets:
                        found.update(self.functions[target].returned)
        return found


@cache
def code_index() -> CodeIndex:
    return CodeIndex(source_files())
