"""Adding a rule family takes its folder and one registry line (issue 35, items 2 and 4).

The test-only family ``tests/toy_family`` (its spec alone: the deal loop is still to come) is
registered with one line in a fresh process; the rule sets, ``--rules`` help, codes tables, wall,
player tables, compile notice, experiment configs and the replay's and viewer's words pick it up
with no other edit. And the modules that reach a family through the registry name no family of
their own (the default family, Daqing, aside).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from daqing_sim import rules as R

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh process: the registry is read when the package's modules load. The one line
# that adds the family is the second one.
SCRIPT = r"""
import daqing_sim.families as families
families.FAMILY_PACKAGES["toy"] = "toy_family"

import json, pickle, sys
import numpy as np
import daqing_sim as ds
from daqing_sim import codes, compile_notice, rules as R
from daqing_sim.commands.options import rules_help
from daqing_sim.experiments import config
from daqing_sim.game import deal_log as log, replay
from daqing_sim.game.wall import generate_walls
from daqing_sim.players import registry, seats
from daqing_sim.render import states, viewer

out = {}
def error(call):
    try:
        call()
    except ValueError as e:
        return str(e)
    return None

rules = ds.RuleSet(family="toy", toy_chi=True)
out["to_dict"] = rules.to_dict()
out["changed"] = rules.changed()
out["repr"] = repr(rules)
out["pickled"] = pickle.loads(pickle.dumps(rules)) == rules
out["encode"] = rules.encode().tolist()
out["offsets"] = R.OFFSETS
out["flag_names"] = ds.RuleSet.flag_names("toy")
out["from_strings"] = ds.RuleSet.from_flag_strings(["family=toy", "toy_cap=3"]).toy_cap
out["errors"] = [
    error(lambda: ds.RuleSet(family="toy", kong_fan=True)),
    error(lambda: ds.RuleSet(toy_cap=3)),
    error(lambda: ds.RuleSet(family="toy", toy_cap=0)),
    error(lambda: ds.RuleSet(family="toy", toy_chi=2)),
]
out["help"] = rules_help()
out["codes"] = [codes.FAMILIES, codes.FAMILY_KINDS, codes.FAMILY_SEATS, codes.family_title("toy")]
walls, bao, seeds = generate_walls(3, 5, family="toy")
out["walls"] = [list(walls.shape), bao, [sorted(w.tolist()) for w in walls]]
out["daqing_wall"] = generate_walls(2, 5)[0].tolist()
out["field"] = registry.default_field("toy")
names, codes_, _ = registry.encode_strategies(("greedy", "random"), family="toy")
out["seats"] = [list(names), codes_.tolist()]
out["player_module"] = seats.player_module(registry.GREEDY, "toy").__name__
out["config"] = [config.FAMILY_PLAYERS["toy"], "toy" in config.EXPERIMENT_FAMILIES,
                 config._seat_count_hint("toy")]
for name, strategies in (("good", '"greedy"'), ("bad", '"jia_hunter"')):
    path = f"{sys.argv[1]}/{name}.toml"
    with open(path, "w") as fh:
        fh.write(f'n_deals = 10\nseed = 1\nstrategies = {strategies}\n[rules]\nfamily = "toy"\n')
    try:
        exp = config.load_experiment(path)
        out[name] = [v.rules.family for v in exp.variants] + [list(exp.variants[0].strategies)]
    except ValueError as e:
        out[name] = str(e)
out["features"] = {k: [f.what, [list(x) for x in f.kernels], f.signature]
                   for k, f in compile_notice.FEATURES.items() if k.endswith("toy")}

wall = walls[0]
rows = log._opening(wall, 0, "toy")
rows += [log._row("draw", 0, int(wall[27])), log._row("discard", 0, int(wall[27]), ready_after=False)]
rows += [log._row("exhaustive_draw")]
log._fill_state(rows, log.LIVE["toy"])
df = log.frame_from_rows(rows, "toy")
out["replay"] = replay.render(df, None, rules, ("greedy", "random"), 0, "deal 0")
table = states.table_states(df, 0, "toy")
out["last_move"] = table[-1]["text"]
out["page"] = viewer.viewer_page(
    {"title": "t", "seats": ["a", "b"], "dealer": 0, "states": table, "family": "toy"}
)
json.dump(out, sys.stdout)
"""


def _registered(tmp_path):
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),  # nothing should compile; if it did, not here
    }
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, env=env, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_a_family_registered_with_one_line_is_picked_up(tmp_path):
    got = _registered(tmp_path)
    # RuleSet: the spec's flags and defaults, its one-line errors, pickling, the encoding
    assert got["to_dict"] == {"family": "toy", "toy_cap": 8, "toy_chi": True}
    assert got["changed"] == {"toy_chi": True}
    assert got["repr"] == "RuleSet(family='toy', toy_chi=True)"
    assert got["pickled"] is True
    assert got["flag_names"] == ["toy_cap", "toy_chi"]
    assert got["from_strings"] == 3
    assert got["errors"] == [
        "kong_fan is a Daqing flag, not a toy one; toy flags: toy_cap, toy_chi",
        "toy_cap is a toy flag, not a Daqing one; Daqing flags: " + ", ".join(R.FAMILY_FLAGS["daqing"]),
        "toy_cap=0 must be 1 to 16 fans (toy: 8)",
        "rule flag toy_chi must be true or false, not 2",
    ]
    # the other families' offsets stay where they are (compiled kernels index with them); the
    # new flags come after them
    assert {k: v for k, v in got["offsets"].items() if k in R.OFFSETS} == R.OFFSETS
    n = len(R.OFFSETS)
    assert got["offsets"]["R_TOY_CAP"] == n and got["offsets"]["R_TOY_CHI"] == n + 1
    assert got["encode"][R.R_FAMILY] == 3 and got["encode"][n:] == [8, 1]
    assert got["help"].startswith("family=daqing (the default), beijing, two_player, toy. ")
    assert got["help"].endswith("; toy flags: toy_cap, toy_chi")
    # codes, wall, players
    assert got["codes"] == [
        ["daqing", "beijing", "two_player", "toy"],
        [28, 34, 34, 28],
        {"daqing": 4, "beijing": 4, "two_player": 2, "toy": 2},
        "toy",
    ]
    shape, bao, sorted_walls = got["walls"]
    assert shape == [3, 112] and bao == -1
    assert all(w == sorted(list(range(28)) * 4) for w in sorted_walls)
    assert len({tuple(w) for w in sorted_walls}) == 1
    from daqing_sim.game.wall import generate_walls

    assert got["daqing_wall"] == generate_walls(2, 5)[0].tolist()  # Daqing's stream unchanged
    assert got["field"] == ["random", "random"]
    assert got["seats"] == [["greedy", "random"], [0, 3, 3, 3]]
    assert got["player_module"] == "daqing_sim.families.daqing.greedy"
    # experiments: the spec's players, its seat count
    assert got["config"] == [["greedy", "random"], True, "Daqing and Beijing seat four"]
    assert got["good"] == ["toy", ["greedy", "greedy"]]
    assert "'jia_hunter' does not play toy yet" in got["bad"]
    assert "toy variants are played by greedy or random" in got["bad"]
    # the compile notice: its hand kernels and its deal state
    assert got["features"] == {
        "hand_toy": ["the toy hand kernels", [["daqing_sim.hand.kernels", "std_shanten_k"]], ""],
        "simulate_toy": [
            "the game engine and the players' kernels for toy games",
            [["daqing_sim.game.engine", "play_batch_k"]],
            ", ToyDealState(",
        ],
        "search_toy": [
            "the search evaluator for toy games",
            [["daqing_sim.search.evaluator", "evaluate_k"]],
            ", ToyDealState(",
        ],
    }


def test_the_replay_and_viewer_say_the_familys_words(tmp_path):
    got = _registered(tmp_path)
    lines = got["replay"]
    assert lines[0] == "deal 0: dealer seat 0, strategies greedy, random (toy rules)"
    assert "rules: toy_chi=True" in lines
    assert "wall: 85 tiles to draw, cap 8 fans" in lines
    assert lines[-1] == "84 left: the toy wall is spent, nobody pays"
    assert got["last_move"] == "84 left: the toy wall is spent, nobody pays"
    page = got["page"]
    assert 'data-family="toy"' in page
    assert "<h3>toy wall</h3>" in page and '<div id="toy">no bao</div>' in page
    assert page.count('<span class="badge toy" hidden></span>') == 2  # one per seat
    assert '<div id="bao-box">' not in page and '<div id="burn">' not in page  # no other family's


# The modules that reach a family only through the registry and the specs (issue 35, item 2,
# outside the deal loop), and the one function of theirs that still names families, with why.
REGISTRY_DRIVEN = (
    "daqing_sim/codes.py",
    "daqing_sim/rules.py",
    "daqing_sim/game/wall.py",
    "daqing_sim/players/seats.py",
    "daqing_sim/players/registry.py",
    "daqing_sim/compile_notice.py",
    "daqing_sim/experiments/config.py",
    "daqing_sim/game/replay.py",
    "daqing_sim/game/replay_html.py",
    "daqing_sim/render/viewer.py",
    "daqing_sim/render/states.py",
)
STILL_NAMING: set[tuple[str, str]] = set()  # (module, function) exemptions, each with its reason


def family_names_in(path: Path, names: frozenset[str]) -> list[tuple[int, str, str]]:
    """``(line, enclosing function, what)`` of each place the code of ``path`` names a family of
    ``names``: a string that is the family's name, or an import of its package (docstrings,
    comments and longer texts that mention one do not count)."""
    hits: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            where = node.name
        if isinstance(node, ast.Constant) and node.value in names:
            hits.append((node.lineno, where, repr(node.value)))
        if isinstance(node, ast.ImportFrom) and node.module:
            if any(node.module.startswith(f"daqing_sim.families.{n}") for n in names):
                hits.append((node.lineno, where, node.module))
            if node.module == "daqing_sim.families" and {a.name for a in node.names} & names:
                hits.append((node.lineno, where, node.module))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return hits


def test_family_names_in_finds_each_kind_of_naming(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        '"""beijing in a docstring"""\n'
        "from daqing_sim.families.beijing import hand\n"
        "def f(family):\n"
        '    return family == "two_player" or "a beijing text"  # beijing\n'
    )
    assert family_names_in(src, frozenset({"beijing", "two_player"})) == [
        (2, "", "daqing_sim.families.beijing"),
        (4, "f", "'two_player'"),
    ]


def test_registry_driven_modules_name_no_family():
    """The registry line is the only place outside a family's folder that names it, for these
    modules: they name no family but the default one (Daqing, the family of a rule set that
    names none), except where :data:`STILL_NAMING` says why."""
    others = frozenset(R.FAMILY_FLAGS) - {"daqing"}
    found = []
    for rel in REGISTRY_DRIVEN:
        for line, where, what in family_names_in(ROOT / rel, others):
            if (rel, where) not in STILL_NAMING:
                found.append(f"{rel}:{line} ({where or 'module'}) names {what}")
    assert found == []
    for rel, where in STILL_NAMING:  # an exemption no longer needed fails too
        assert any(w == where for _, w, _ in family_names_in(ROOT / rel, others)), (rel, where)


def test_an_edit_of_a_spec_drops_the_cached_kernels():
    """RuleSet's fields, and so the ``R_*`` offsets compiled into the kernels, come from the
    registry and the specs: an edit of one must make the cached kernels stale."""
    from daqing_sim import kernel_cache
    from daqing_sim.families import FAMILY_PACKAGES, family_module

    sources = {p.resolve() for p in kernel_cache._sources()}
    assert Path(family_module("daqing", "spec").__file__).resolve().parent.parent / "__init__.py" in sources
    for family in FAMILY_PACKAGES:
        assert Path(family_module(family, "spec").__file__).resolve() in sources, family


def test_every_module_with_cached_kernels_is_watched():
    """numba checks a cached kernel only against its own file, but it holds the code of what it
    calls (the search evaluator holds the whole deal loop): every module of the package with a
    cached kernel must count among the sources whose edit drops the caches."""
    from daqing_sim import kernel_cache

    package = Path(kernel_cache.__file__).resolve().parent
    sources = {p.resolve() for p in kernel_cache._sources()}
    cached = [p for p in package.rglob("*.py") if re.search(rb"^@njit\(.*cache=True", p.read_bytes(), re.M)]
    assert any(p.parent.name == "search" for p in cached)  # so the check below can fail
    missing = sorted(str(p.relative_to(package)) for p in cached if p.resolve() not in sources)
    assert missing == []
