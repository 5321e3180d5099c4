"""The dpbounds modules import each other along an ordered list of layers, and without cycles.

The graph is read from the sources with :mod:`ast` (nothing is imported): a node per module of the installed
package (``reference/`` is ``dpbounds``, ``spec/`` is ``dpbounds.spec``, ``proofs_check/`` is
``dpbounds.proofs_check``), an edge for every ``import``/``from ... import`` of another dpbounds module, to the
module itself (``from dpbounds.evaluation import optimize`` is an edge to ``dpbounds.evaluation.optimize``).  The
implicit import of a parent package's ``__init__`` is not an edge (every module has it; it is what Python does, not
a choice of the module).  Imports under ``if TYPE_CHECKING:`` never run and are left out.

Function-local imports are edges too: a cycle or an upward dependency hidden inside a function is still one of the
design.  So is a module named by a string and resolved at run time -- a spec entry's ``evaluator``
(``"dpbounds.evaluation.sgm_pld:enclose_delta"``), a sympy function's ``dpbounds_eval``, a list of modules a command
imports: every string constant that is exactly a dotted dpbounds name (``module`` or ``module:function``).

The layers (:data:`LAYERS`), lowest first; a module may depend only on its own layer and those below it:

    spec < util < evaluation < accounting < exact < testing < audit < proofs_check < outputs < cli

``spec`` is the bottom: it imports nothing of the reference implementation (``util.io`` raises its DomainError).
Its entries name their evaluators by strings, which the evaluation layer resolves at run time; those strings may
name ``evaluation/`` or below, never a layer above it (:data:`SPEC_STRINGS_UP_TO`).  The package root
(``dpbounds/__init__.py``, the curated API, and ``__main__``) sits above every layer.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"dpbounds": ROOT / "reference", "dpbounds.spec": ROOT / "spec",
           "dpbounds.proofs_check": ROOT / "proofs_check"}

#: (importer, imported) function-local imports allowed to close a cycle, with the reason they stay lazy
LAZY: dict[tuple[str, str], str] = {
    ("dpbounds.accounting.registry", "dpbounds.accounting.filters"):
        "the filter registry loads dpbounds' catalogue of filters on its first lookup (so make_filter works whatever "
        "was imported before); the catalogue subclasses Filter and registers into the registry",
}

#: the layers, lowest first (module docstring); ``dpbounds.<layer>`` and everything under it
LAYERS = ("spec", "util", "evaluation", "accounting", "exact", "testing", "audit", "proofs_check", "outputs", "cli")
#: modules above every layer: the package root (the curated API re-exports every layer) and ``python -m dpbounds``
ROOTS = {"dpbounds", "dpbounds.__main__"}
#: the highest layer a string in spec/ may name (a spec entry's evaluator lives in evaluation/ or below)
SPEC_STRINGS_UP_TO = "evaluation"

#: upward edges that exist today, each with why and who removes it.  This list only shrinks: an edge that no longer
#: exists fails test_allowed_upward_edges_still_exist, so it is deleted here when it goes.
ALLOWED_UP: dict[tuple[str, str], str] = {}


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


@functools.lru_cache(maxsize=None)
def _parsed(path: Path) -> ast.Module:
    """The syntax tree of one source file, parsed once per test process (every test below reads every file)."""
    return ast.parse(path.read_text(), str(path))


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, bool, int]]:
    """(imported module, is function-local, line) for every import of a dpbounds module in ``path``."""
    tree = _parsed(path)
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


def string_refs(name: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """(module, line) for every string constant in ``path`` that is exactly a dotted dpbounds name, ``module`` or
    ``module:function`` (an evaluator, a module list): the longest known module it names, if not ``name`` itself."""
    import re
    pat = re.compile(r"dpbounds(\.[A-Za-z_][A-Za-z_0-9]*)+(:[A-Za-z_][A-Za-z_0-9]*)?")
    out: list[tuple[str, int]] = []
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and pat.fullmatch(node.value):
            target = node.value.partition(":")[0]
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target not in ROOTS:
                out.append((target, node.lineno))
    return out


def layer(module: str) -> str | None:
    """The layer of a module (None for the package root); a module of no layer fails test_every_module_has_a_layer."""
    if module in ROOTS:
        return None
    return module.split(".")[1]


@functools.lru_cache(maxsize=None)
def _edges() -> tuple[tuple[str, str, str, int], ...]:
    return tuple(edges_uncached())


def edges() -> list[tuple[str, str, str, int]]:
    """:func:`edges_uncached`, computed once per test process."""
    return list(_edges())


def edges_uncached() -> list[tuple[str, str, str, int]]:
    """(importer, imported, how, line) for every dependency: how is 'import', 'local import' or 'string'."""
    mods = modules()
    known = set(mods)
    out = []
    for m, p in mods.items():
        out += [(m, t, "local import" if local else "import", line) for t, local, line in imports(m, p, known)]
        out += [(m, t, "string", line) for t, line in string_refs(m, p, known)]
    return out


def upward(all_edges: list[tuple[str, str, str, int]]) -> list[tuple[str, str, str, int]]:
    """The edges that point up the layer order (spec's strings may name up to SPEC_STRINGS_UP_TO)."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    out = []
    for a, b, how, line in all_edges:
        la, lb = layer(a), layer(b)
        if la is None or lb is None:
            continue
        top = rank[SPEC_STRINGS_UP_TO] if la == "spec" and how == "string" else rank[la]
        if rank[lb] > top:
            out.append((a, b, how, line))
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


@pytest.mark.tier("slow")
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


@pytest.mark.tier("slow")
def test_no_import_cycles_at_module_level():
    assert cycles(graph(include_local=False)) == []


def test_no_import_cycles_even_through_function_local_imports():
    assert cycles(graph(include_local=True)) == []


def test_every_module_has_a_layer():
    assert {layer(m) for m in modules()} - {None} <= set(LAYERS)


def test_the_graph_sees_string_named_evaluators():
    got = {(a, b) for a, b, how, _ in edges() if how == "string"}
    assert ("dpbounds.spec.tradeoff", "dpbounds.evaluation.tradeoff") in got          # evaluator="...:enclose_zcdp"
    assert ("dpbounds.spec.rdp_conversions", "dpbounds.evaluation.rdp_conversions") in got  # dpbounds_eval = "..."
    assert any(a == "dpbounds.outputs.bench" and how == "string" for a, _, how, _ in edges())


def test_upward_edges_are_found():
    planted = [("dpbounds.evaluation.x", "dpbounds.accounting.y", "local import", 1),
               ("dpbounds.spec.z", "dpbounds.accounting.y", "string", 2),
               ("dpbounds.spec.z", "dpbounds.evaluation.y", "string", 3),
               ("dpbounds.spec.z", "dpbounds.evaluation.y", "import", 4),
               ("dpbounds.cli.a", "dpbounds.util.b", "import", 5), ("dpbounds", "dpbounds.cli.a", "import", 6)]
    assert [e[3] for e in upward(planted)] == [1, 2, 4]


def test_every_dependency_points_down_the_layers():
    bad = [f"{a} -> {b} ({how}, line {line})" for a, b, how, line in upward(edges()) if (a, b) not in ALLOWED_UP]
    assert not bad, "dependencies pointing up the layers " + " < ".join(LAYERS) + ":\n" + "\n".join(bad)


def test_allowed_upward_edges_still_exist():
    up = {(a, b) for a, b, _, _ in upward(edges())}
    assert not set(ALLOWED_UP) - up, f"gone: delete from ALLOWED_UP {sorted(set(ALLOWED_UP) - up)}"


@pytest.mark.tier("slow")
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
