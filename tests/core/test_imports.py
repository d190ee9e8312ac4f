"""No import circles in cenmcc: the graph of which module imports which, read with ``ast``.

Every ``import`` and ``from ... import`` of a cenmcc module counts, at module level and inside
functions alike (an import inside a function is for an optional dependency, not to hide a
cycle). ``from . import x`` counts as importing the module ``x`` when ``x`` is one, else the
package; importing ``a.b`` also runs the package ``a``'s ``__init__``, but that edge is left
out, as it says nothing about how the modules depend on each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import cenmcc

PACKAGE = Path(cenmcc.__file__).parent


def modules() -> dict[str, Path]:
    """Every module of the cenmcc package by its dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict) -> set[str]:
    """The cenmcc modules that the module ``name`` imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            # "from p import x": the module p.x if there is one, else p itself.
            targets = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
                for alias in node.names
            ]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_every_kind_of_import():
    edges = graph()
    assert "cenmcc.simulation" in edges
    assert "cenmcc._marginals" in edges["cenmcc"]  # from ._marginals import Counts
    assert "cenmcc.families" in edges["cenmcc"]  # from . import families
    assert "cenmcc" in edges["cenmcc.simulation.measures"]  # import cenmcc
    assert "cenmcc.simulation.figures" in edges["cenmcc.simulation.result"]  # in a function


def path_around(component: tuple[str, ...], edges: dict[str, set[str]]) -> str:
    """One circle through the first module of ``component``: ``a -> b -> a``."""
    start = component[0]
    came_from, frontier = {}, [start]
    while frontier:
        v = frontier.pop(0)
        for w in sorted(edges[v] & set(component)):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return " -> ".join([start, *reversed(path[:-1]), start])
            if w not in came_from:
                came_from[w] = v
                frontier.append(w)
    raise AssertionError(f"{component} is not a circle")


def test_cycles_are_found_and_shown():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [("a", "b", "c")]
    assert path_around(("a", "b", "c"), edges) == "a -> b -> c -> a"
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_cenmcc_has_no_import_circle():
    edges = graph()
    found = cycles(edges)
    assert not found, "import circles in cenmcc: " + "; ".join(path_around(c, edges) for c in found)


def test_the_metric_core_imports_nothing_from_the_families():
    """The modules directly in ``cenmcc/`` (the metrics) stand beneath the papers' closed forms
    (:mod:`cenmcc.families`): issue 47 item 4."""
    edges = graph()
    core = [n for n, path in modules().items() if path.parent == PACKAGE and "." in n]
    assert "cenmcc.entropy" in core
    found = {
        name: sorted(m for m in edges[name] if m.startswith("cenmcc.families")) for name in core
    }
    assert not {name: used for name, used in found.items() if used}


def test_the_library_never_imports_the_commands():
    """The commands stand on the engine and on :mod:`cenmcc.runtime`, never the reverse: no
    module outside ``cenmcc.commands`` imports it but the ``__main__`` entry points, and the
    runtime imports nothing else of cenmcc (issue 47 item 4)."""
    edges = graph()
    library = [m for m in edges if not m.startswith("cenmcc.commands") and "__main__" not in m]
    assert "cenmcc.simulation.result" in library
    assert not {
        m: edges[m] for m in library if any(e.startswith("cenmcc.commands") for e in edges[m])
    }
    runtime = [m for m in edges if m.startswith("cenmcc.runtime")]
    assert len(runtime) == 4
    for name in runtime:
        assert all(e.startswith("cenmcc.runtime") for e in edges[name] if e.startswith("cenmcc"))


def test_the_resources_know_only_the_machine():
    """Each part of a simulation reports its own footprint; ``resources`` imports none of them,
    only the machine's memory (:mod:`cenmcc._memory`, which the property audit shares)."""
    edges = graph()
    imported = {m for m in edges["cenmcc.simulation.resources"] if m.startswith("cenmcc")}
    assert imported == {"cenmcc._memory"}
