"""The package's shape: no import cycle between its modules, and public names that no import
order can shadow."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import daqing_sim

PACKAGE = Path(daqing_sim.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _reflective_target(node: ast.Call) -> ast.expr | None:
    """The module argument of an ``importlib.import_module(...)`` call, else None."""
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr == "import_module":
        return node.args[0] if node.args else None
    return None


#: modules that import other modules by a name held in a table (``importlib.import_module`` of
#: a non-literal name), each for one stated reason; any other such call fails the test
REFLECTIVE = {
    "daqing_sim": "the public names (ds.simulate, ...) are resolved on first use from its table",
    "daqing_sim.cli": "imports only the named sub-command's module (daqing-sim COMMAND starts fast)",
    "daqing_sim.compile_notice": "reads numba's cache index of the kernels its table names",
    "daqing_sim.players.plugins": "a user's 'module:Class' player",
    "daqing_sim.families": "the registry loads a family's module by its role (a family is one registry line)",
}


def imports(
    sources: dict[str, tuple[Path, str]],
) -> tuple[dict[str, set[tuple[str, int, bool]]], list[str]]:
    """Module -> the package modules it imports as ``(module, line, lazy)``, read with ``ast``:
    ``import``, ``from ... import`` (relative ones resolved) and ``importlib.import_module`` of a
    literal name, at module level or inside functions (``lazy``) and ``if TYPE_CHECKING`` blocks
    alike; and the reflective imports (a computed name) found outside :data:`REFLECTIVE`."""
    out: dict[str, set[tuple[str, int, bool]]] = {m: set() for m in sources}
    stray = []
    for name, (path, text) in sources.items():
        package = _package_of(name, path)
        tree = ast.parse(text)
        lazy_lines = {
            n.lineno
            for f in ast.walk(tree)
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            for n in ast.walk(f)
            if hasattr(n, "lineno")
        }
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                # `from pkg import mod` imports the module; `from mod import name`, the module
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in sources else base for a in node.names]
            elif isinstance(node, ast.Call) and (arg := _reflective_target(node)) is not None:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    targets = [arg.value]
                elif name not in REFLECTIVE:
                    stray.append(f"{name}:{node.lineno} imports a module by a computed name")
            for target in targets:
                if target in sources and target != name:
                    out[name].add((target, node.lineno, node.lineno in lazy_lines))
    return out, stray


def _sources() -> dict[str, tuple[Path, str]]:
    return {_module_name(p): (p, p.read_text(encoding="utf-8")) for p in PACKAGE.rglob("*.py")}


def import_graph() -> dict[str, set[str]]:
    """Module -> the daqing_sim modules it imports, read from the source with ``ast``."""
    graph, _ = imports(_sources())
    return {m: {t for t, _, _ in targets if not m.startswith(t + ".")} for m, targets in graph.items()}


#: The layers of docs/DESIGN.md ("Modules"), lowest first: a module may import modules of its
#: own layer and of the layers before it, never of a later one. A module belongs to the layer
#: of its longest listed prefix (``daqing_sim`` itself, the package's ``__init__``, is matched
#: exactly: it imports nothing when loaded).
LAYERS: tuple[tuple[str, ...], ...] = (
    # the family registry and specs (numba-free: codes, render and rules read them); a family's
    # other modules: FAMILY_ROLES
    ("daqing_sim.families",),
    ("daqing_sim.codes",),
    # render sits beside codes: it imports codes alone, and every layer may draw with it
    ("daqing_sim.render",),
    (
        "daqing_sim",
        "daqing_sim.rules",
        "daqing_sim.layout",
        "daqing_sim.validation",
        "daqing_sim.jit",
        "daqing_sim.kernel_cache",
        "daqing_sim.coldstart",
        "daqing_sim.compile_notice",
    ),
    ("daqing_sim.hand",),
    ("daqing_sim.players",),
    ("daqing_sim.game",),
    # the search player's evaluator runs the engine; players.plugins loads it by name, as a plugin
    ("daqing_sim.search",),
    # the review values a seat's decisions with the search's evaluator
    ("daqing_sim.reviews",),
    ("daqing_sim.analysis",),
    ("daqing_sim.experiments",),
    # the edge: the notebooks' workspace (loads and runs experiments), the advisor, bench, the
    # sub-commands, the command line
    ("daqing_sim.analysis.notebook", "daqing_sim.advisor"),
    ("daqing_sim.bench",),
    ("daqing_sim.commands",),
    ("daqing_sim.cli",),
)

#: The imports against the layers that are allowed, each inside a function (never at module
#: level) and for a stated reason; one that is no longer made fails the test too.
ALLOWED_LAZY = {
    # every layer asks the compile notice about its own kernels (hand/ for "hand", game/ for
    # "simulate" with the players it seats); it reads the table cache's path and the player
    # registry only inside those calls, from layers that have imported them already
    ("daqing_sim.compile_notice", "daqing_sim.hand.tables"),
    ("daqing_sim.compile_notice", "daqing_sim.players.registry"),
    ("daqing_sim.compile_notice", "daqing_sim.players.seats"),
}


#: A rule family's package (``daqing_sim.families.<name>``) holds modules of several layers: each
#: module takes the layer of its role, named by its file (docs/DESIGN.md, "Rule families").
FAMILY_ROLES = {
    "spec": "daqing_sim.families",
    "hand": "daqing_sim.hand",
    **dict.fromkeys(
        ("players", "greedy", "expert", "expert2", "danger", "value", "jia_hunter", "defensive"),
        "daqing_sim.players",
    ),
    "score": "daqing_sim.hand",
    **dict.fromkeys(("deal", "settle", "scoring", "frame", "hooks"), "daqing_sim.game"),
    "metrics": "daqing_sim.analysis",
    "advisor": "daqing_sim.advisor",
    "world": "daqing_sim.search",
}


def _as_role(module: str, package: str = "daqing_sim.families") -> str:
    """``module`` itself, or for a module of a family package the layer prefix of its role."""
    if not module.startswith(package + "."):
        return module
    name = module.rsplit(".", 1)[1]
    if module.count(".") == package.count(".") + 1 and name in FAMILY_ROLES:  # families.hooks
        return FAMILY_ROLES[name]
    if module.count(".") == package.count(".") + 1 or name == "spec":
        return module  # a family's package, or the spec type: the registry's layer
    if name not in FAMILY_ROLES:
        raise ValueError(f"{module} plays no known role: name it by one of {', '.join(FAMILY_ROLES)}")
    return FAMILY_ROLES[name]


def layer_of(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> int:
    """Index of the layer of ``module``: that of its longest listed prefix (a family package's
    module: that of its role, :data:`FAMILY_ROLES`)."""
    module = _as_role(module)
    best, at = -1, -1
    for i, prefixes in enumerate(layers):
        for p in prefixes:
            hit = module == p if p == "daqing_sim" else module == p or module.startswith(p + ".")
            if hit and len(p) > best:
                best, at = len(p), i
    if at < 0:
        raise ValueError(f"{module} is in no layer: add it to LAYERS (and to docs/DESIGN.md)")
    return at


def layer_violations(
    graph: dict[str, set[tuple[str, int, bool]]],
    layers: tuple[tuple[str, ...], ...] = LAYERS,
    allowed: set[tuple[str, str]] = frozenset(),
) -> list[str]:
    """Every import of a later layer's module, ``"importer:line -> imported"``, except the
    ``allowed`` pairs made inside a function; an ``allowed`` pair not made (or made at module
    level) is reported too."""
    out, used = [], set()
    for module in sorted(graph):
        here = layer_of(module, layers)
        for target, line, lazy in sorted(graph[module]):
            if layer_of(target, layers) <= here:
                continue
            if (module, target) in allowed and lazy:
                used.add((module, target))
                continue
            out.append(f"{module}:{line} -> {target}" + (" (inside a function)" if lazy else ""))
    out += [f"allowed but not made inside a function: {a} -> {b}" for a, b in sorted(set(allowed) - used)]
    return out


def test_layer_checker_finds_an_upward_import():
    layers = (("p.low",), ("p.mid",), ("p.top",))
    graph = {
        "p.low.a": {("p.low.b", 1, False)},
        "p.low.b": {("p.top.c", 7, True)},  # a lazy import counts
        "p.mid.d": {("p.low.a", 2, False)},
        "p.top.c": {("p.mid.d", 3, False)},
    }
    assert layer_violations(graph, layers) == ["p.low.b:7 -> p.top.c (inside a function)"]
    assert layer_violations(graph, layers, {("p.low.b", "p.top.c")}) == []
    # an allowed pair must be made inside a function, and be made at all
    graph["p.low.b"] = {("p.top.c", 7, False)}
    assert layer_violations(graph, layers, {("p.low.b", "p.top.c")}) == [
        "p.low.b:7 -> p.top.c",
        "allowed but not made inside a function: p.low.b -> p.top.c",
    ]
    with pytest.raises(ValueError, match="p.other is in no layer"):
        layer_of("p.other", layers)


def test_import_reader_sees_every_kind_of_import(tmp_path):
    text = (
        "import p.b\n"
        "from p import c\n"
        "from .d import x\n"
        "import importlib\n"
        "def f(name):\n"
        "    from p.e import y\n"
        "    importlib.import_module('p.f')\n"
        "    return importlib.import_module(name)\n"
    )
    sources = {m: (tmp_path / "m.py", "") for m in ("p.b", "p.c", "p.d", "p.e", "p.f")}
    sources["p.a"] = (tmp_path / "a.py", text)
    graph, stray = imports(sources)
    assert graph["p.a"] == {
        ("p.b", 1, False),
        ("p.c", 2, False),
        ("p.d", 3, False),
        ("p.e", 6, True),
        ("p.f", 7, True),
    }
    assert stray == ["p.a:8 imports a module by a computed name"]


def test_imports_follow_the_layers():
    """No module imports a later layer's (docs/DESIGN.md, "Modules"), at module level or inside
    a function, but for :data:`ALLOWED_LAZY`; no module imports by a computed name but
    :data:`REFLECTIVE`."""
    graph, stray = imports(_sources())
    assert len(graph) > 30 and graph["daqing_sim.game.engine"]
    assert not stray, stray
    violations = layer_violations(graph, LAYERS, ALLOWED_LAZY)
    assert not violations, "imports against the layers:\n" + "\n".join(violations)


def test_a_hand_analysis_loads_no_later_layer():
    """At run time too: analysing a hand (its compile notice included) imports neither the
    players nor the game."""
    code = (
        "import sys\n"
        "from daqing_sim.hand.evaluator import analyze_hand\n"
        "analyze_hand('123m456p789s中中 345m')\n"
        "print(sorted(m for m in sys.modules if m.startswith(('daqing_sim.players', 'daqing_sim.game'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


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


def test_family_modules_take_the_layer_of_their_role():
    """A family package's module sits at its role's layer; a module of no known role is an error
    (so a new kind of family module gets a place on purpose)."""
    assert layer_of("daqing_sim.families.beijing.hand") == layer_of("daqing_sim.hand.kinds34")
    assert layer_of("daqing_sim.families.two_player.expert") == layer_of("daqing_sim.players.registry")
    assert layer_of("daqing_sim.families.daqing.deal") == layer_of("daqing_sim.game.engine")
    assert layer_of("daqing_sim.families.hooks") == layer_of("daqing_sim.game.engine")
    assert layer_of("daqing_sim.families.daqing.spec") == layer_of("daqing_sim.families") == 0
    assert layer_of("daqing_sim.families.beijing") < layer_of("daqing_sim.codes")
    with pytest.raises(ValueError, match="families.beijing.misc plays no known role"):
        layer_of("daqing_sim.families.beijing.misc")


def borrowings(graph: dict[str, set[tuple[str, int, bool]]]) -> list[str]:
    """Every import by a family's module of another family's package, ``"importer:line ->
    imported"`` (the registry, the spec type and the hooks are everybody's)."""
    out = []
    prefix = "daqing_sim.families."
    for module in sorted(graph):
        if not module.startswith(prefix) or module.count(".") < 3:
            continue
        own = module.split(".")[2]
        for target, line, _ in sorted(graph[module]):
            if target.startswith(prefix) and target.count(".") >= 2:
                other = target.split(".")[2]
                if other not in (own, "spec", "hooks"):
                    out.append(f"{module}:{line} -> {target}")
    return out


def test_no_family_borrows_another_familys_code():
    """A family's package imports no other family's package: code that several families use
    lives in a shared module (issue 35). The checker itself finds a borrowing."""
    graph, _ = imports(_sources())
    planted = {"daqing_sim.families.two_player.expert2": {("daqing_sim.families.daqing.expert2", 42, False)}}
    assert borrowings(planted) == [
        "daqing_sim.families.two_player.expert2:42 -> daqing_sim.families.daqing.expert2"
    ]
    assert borrowings({"daqing_sim.families.beijing.deal": {("daqing_sim.families.hooks", 3, False)}}) == []
    found = borrowings(graph)
    assert not found, "a family imports another's code:\n" + "\n".join(found)
