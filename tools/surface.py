"""List a peer library's public functions and methods that return a privacy quantity, by introspection in the
peer's own interpreter (imports only the peer and the standard library).

    $DPBOUNDS_PEERS/opacus/bin/python tools/surface.py opacus --merge reference/audit/peers/opacus/surface.json
    python tools/coverage_reasons.py      # a reason for every new entry (hand-written reasons are kept)

``--merge FILE`` keeps what FILE says of every entry it already has (``reason``, ``declared_by``) and every entry
it lists that the walk does not find (added by hand: a method whose name does not say what it returns), adds the
new ones, and says on stderr what it added and kept; without it the list goes to stdout (a redirect over an
existing file loses its reasons).

Walks every importable submodule of the package, keeps public functions and public methods of public classes that
are defined in the package (not re-exported from elsewhere) and whose name says they return a privacy quantity
(eps, delta, rho, RDP, mu, a trade-off, a noise scale, a budget decision, a privacy map, a threshold); prints JSON:
[{"name": "pkg.mod.Class.method", "key": "Class.method", "kind": "function" | "method"}, ...] sorted by name."""

import importlib
import inspect
import json
import pkgutil
import re
import sys
import warnings

#: names that return a privacy quantity (matched on the function or method name, case-insensitive)
QUANTITY = re.compile(r"(^|_)(eps|epsilon|delta|rho|rdp|mu|gdp|zcdp|cdp|beta|tradeoff|trade_off|privacy|budget|"
                      r"spent|spend|noise|sigma|scale|std|stddev|calibrat|accountant|compute_dp|get_privacy|"
                      r"pld|prv|renyi|divergence|map|total|remaining|odometer|filter|threshold)(_|$|s$)", re.I)
SKIP_MODULES = re.compile(r"(^|\.)(tests?|testing|_test|conftest|examples?|benchmarks?|docs?)(\.|$)|_test$")


def walk_source(pkg_name):
    """The same list read from the package's source files (ast), for a package whose import needs what is not
    installed (opacus without torch, tensorflow_privacy without tensorflow)."""
    import ast
    import importlib.util
    import os
    spec = importlib.util.find_spec(pkg_name)
    roots = list(spec.submodule_search_locations or [])
    out = {}
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs if not x.startswith(("_", ".")))
            for f in sorted(files):
                if not f.endswith(".py") or (f.startswith("_") and f != "__init__.py"):
                    continue
                rel = os.path.relpath(os.path.join(d, f), root)[:-3].replace(os.sep, ".")
                mod = pkg_name + ("" if rel == "__init__" else "." + rel.replace(".__init__", ""))
                if SKIP_MODULES.search(mod):
                    continue
                try:
                    tree = ast.parse(open(os.path.join(d, f), encoding="utf-8").read())
                except (SyntaxError, UnicodeDecodeError):
                    continue
                for node in tree.body:
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_") \
                            and QUANTITY.search(node.name):
                        out[f"{mod}.{node.name}"] = {"name": f"{mod}.{node.name}", "key": node.name,
                                                     "kind": "function"}
                    elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                        for m in node.body:
                            if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                                    not m.name.startswith("_") and QUANTITY.search(m.name):
                                full = f"{mod}.{node.name}.{m.name}"
                                out[full] = {"name": full, "key": f"{node.name}.{m.name}", "kind": "method"}
    return sorted(out.values(), key=lambda e: e["name"])


def walk(pkg_name):
    warnings.simplefilter("ignore")
    try:
        pkg = importlib.import_module(pkg_name)
    except Exception:  # noqa: BLE001 - its import needs a framework not installed here: read the source
        return walk_source(pkg_name)
    mods = [pkg]
    for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), pkg_name + "."):
        if SKIP_MODULES.search(info.name) or any(p.startswith("_") for p in info.name.split(".")[1:]):
            continue
        try:
            mods.append(importlib.import_module(info.name))
        except BaseException:  # noqa: BLE001 - an optional dependency missing: that module is not reachable
            continue
    out = {}
    for m in mods:
        for name, obj in vars(m).items():
            if name.startswith("_") or getattr(obj, "__module__", "") is None:
                continue
            if not str(getattr(obj, "__module__", "")).startswith(pkg_name):
                continue
            if inspect.isfunction(obj) or inspect.isbuiltin(obj):
                if QUANTITY.search(name):
                    full = f"{obj.__module__}.{name}"
                    out[full] = {"name": full, "key": name, "kind": "function"}
            elif inspect.isclass(obj):
                for mname, meth in vars(obj).items():
                    if mname.startswith("_") or not (inspect.isfunction(meth) or isinstance(meth, (staticmethod,
                                                                                               classmethod, property))):
                        continue
                    if QUANTITY.search(mname):
                        full = f"{obj.__module__}.{obj.__name__}.{mname}"
                        out[full] = {"name": full, "key": f"{obj.__name__}.{mname}", "kind": "method"}
    return sorted(out.values(), key=lambda e: e["name"])


def merge(found, path):
    """``found`` (a walk) merged into the surface data at ``path`` (module docstring): (entries, added, kept)."""
    import os
    old = json.load(open(path)) if os.path.exists(path) else []
    by_name = {e["name"]: e for e in old}
    out, added = [], []
    for e in found:
        prev = by_name.pop(e["name"], None)
        if prev is None:
            added.append(e["name"])
            out.append(e)
        else:
            out.append({**e, **{k: v for k, v in prev.items() if k not in e}})
    kept = sorted(by_name)
    out += by_name.values()
    return sorted(out, key=lambda e: e["name"]), added, kept


def write(path, data):
    """``data`` as JSON at ``path``, atomically (a temporary file renamed over it; a symlink is refused)."""
    import os
    import tempfile
    if os.path.islink(path):
        raise SystemExit(f"tools/surface.py: --merge {path}: a symlink, not written")
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 3 and args[1] == "--merge":
        data, added, kept = merge(walk(args[0]), args[2])
        write(args[2], data)
        print(f"{args[2]}: {len(data)} entries; added {len(added)}: {', '.join(added) or '-'}; kept {len(kept)} "
              f"the walk did not find: {', '.join(kept) or '-'}", file=sys.stderr)
    elif len(args) == 1:
        json.dump(walk(args[0]), sys.stdout, indent=1)
        print()
    else:
        raise SystemExit("usage: tools/surface.py PACKAGE [--merge FILE]")
