"""The dpbounds modules import each other without cycles: dependencies point one way (the layers of the README).

The graph is read from the sources with :mod:`ast` (nothing is imported): a node per module of the installed
package (``reference/`` is ``dpbounds``, ``spec/`` is ``dpbounds.spec``, ``proofs_check/`` is
``dpbounds.proofs_check``), an edge for every ``import``/``from ... import`` of another dpbounds module, to the
module itself (``from dpbounds.evaluation import optimize`` is an edge to ``dpbounds.evaluation.optimize``).  The
implicit import of a parent package's ``__init__`` is not an edge (every module has it; it is what Python does, not
a choice of the module).  Imports under ``if TYPE_CHECKING:`` never run and are left out.

Function-local imports are edges too: a cycle hidden inside a function is still a cycle of the design.  The only
ones allowed to close a cycle are listed in ``LAZY`` with the reason each must stay lazy.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"dpbounds": ROOT / "reference", "dpbounds.spec": ROOT / "spec",
           "dpbounds.proofs_check": ROOT / "proofs_check"}

#: (importer, imported) function-local imports allowed to close a cycle, with the reason they stay lazy
LAZY: dict[tuple[str, str], str] = {}


def modules() -> dict[str, Path]:
    """Module name -> source file, for every module the project installs."""
    out: dict[str, Path] = {}
    for pkg, folder in FOLDERS.items():
        for f in sorted(folder.rglob("*.py")):
            rel = f.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            name = ".".join([pkg, *parts])
            if pkg == "dpbounds" and parts and parts[0] in ("spec", "proofs_check"):
                continue  # not a folder of reference/
            out[name] = f
    return out


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, bool, int]]:
    """(imported module, is function-local, line) for every import of a dpbounds module in ``path``."""
    tree = ast.parse(path.read_text(), str(path))
    is_pkg = path.name == "__init__.py"
    out: list[tuple[str, bool, int]] = []

    def resolve(target: str, lineno: int, local: bool) -> None:
        while target and target not in known:   # `from a.b import name`: the module is a.b
            target = target.rpartition(".")[0]
        if target and target != name:
            out.append((target, local, lineno))

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for c in child.orelse:
                    visit(c, local)
                continue
            inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for a in child.names:
                    if a.name.split(".")[0] == "dpbounds":
                        resolve(a.name, child.lineno, inner)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = name if is_pkg else name.rpartition(".")[0]
                    for _ in range(child.level - 1):
                        base = base.rpartition(".")[0]
                    mod = f"{base}.{child.module}" if child.module else base
                else:
                    mod = child.module or ""
                if mod.split(".")[0] != "dpbounds":
                    continue
                for a in child.names:
                    sub = f"{mod}.{a.name}"
                    resolve(sub if sub in known else mod, child.lineno, inner)
            visit(child, inner)

    visit(tree, False)
    return out


def graph(include_local: bool) -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    g: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        for target, local, _ in imports(m, p, known):
            if include_local or not local:
                if not (local and (m, target) in LAZY):
                    g[m].add(target)
    return g


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The non-trivial strongly connected components (Tarjan), each sorted: empty iff the graph is acyclic."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in g[v]:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return out


def test_the_graph_sees_the_known_edges():
    # the reader is not vacuous: edges the sources certainly have
    g = graph(include_local=False)
    assert len(g) > 60
    assert "dpbounds.spec.core" in g["dpbounds.spec.rruv16"]                  # relative `from .core import`
    assert "dpbounds.evaluation.evaluate" in g["dpbounds.accounting.accountants"]
    assert "dpbounds.evaluation.optimize" in g["dpbounds.accounting.conversions"]  # `from pkg import module`


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_at_module_level():
    assert cycles(graph(include_local=False)) == []


def test_no_import_cycles_even_through_function_local_imports():
    assert cycles(graph(include_local=True)) == []


def test_registry_order_does_not_depend_on_which_module_is_imported_first():
    # the source modules register when imported; dpbounds.spec imports them all in a fixed order
    import subprocess
    import sys
    code = "import {0}, dpbounds; print(list(dpbounds.registry()))"
    outs = {first: subprocess.run([sys.executable, "-c", code.format(first)], capture_output=True, text=True,
                                  check=True, cwd=ROOT / "tests").stdout
            for first in ("dpbounds", "dpbounds.spec.wrrw23", "dpbounds.spec.nikolov17")}
    assert len(set(outs.values())) == 1, outs
    assert "rruv16.thm5_1" in outs["dpbounds"]
