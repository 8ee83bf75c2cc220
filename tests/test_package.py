"""The package's shape: no import cycle between its modules, and public names that no import
order can shadow."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import daqing_sim

PACKAGE = Path(daqing_sim.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the daqing_sim modules it imports, read from the source with ``ast``."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for target in targets:
                if target in modules and target != name and not name.startswith(target + "."):
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_find_cycle_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 30 and graph["daqing_sim.game.engine"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_public_names_survive_any_import_order():
    """Importing submodules first must not shadow ``ds.simulate`` or ``ds.replay`` (issue: a
    submodule named like a function replaced it on the package)."""
    code = (
        "import daqing_sim as ds\n"
        "from daqing_sim.game.simulate import run_walls\n"
        "import daqing_sim.game.replay, daqing_sim.analysis, daqing_sim.experiments.runner\n"
        "assert callable(ds.simulate) and callable(ds.replay) and callable(ds.summarize)\n"
        "print(len(ds.simulate(3)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "3"
    for name in daqing_sim.__all__:
        assert not hasattr(getattr(daqing_sim, name), "__path__"), f"ds.{name} is a module"
