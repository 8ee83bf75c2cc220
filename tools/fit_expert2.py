"""Expert v2 (issue 38): positions labelled by the search evaluator, the expert's knobs fitted to
the labels, and the shipped weights (not part of the package).

``collect``: self-play of a field (``--field``, default ``expert``) in which every seat is a
collector that plays the field player's moves and, at the decisions where the expert's knobs
matter, asks the search evaluator (:class:`daqing_sim.search.evaluator.Evaluator`, the field as
rollout players) for every legal answer's payment in ``--worlds`` worlds (common random
numbers: the same worlds for every answer), and stores the seat's observation (what it saw, no
hidden tile) with the answers' mean payments. Daqing: every discard while an opponent is ready
(and a discard can still be won on) or that may declare, and every claim while an opponent is
ready. Beijing: every discard from the seat's ``--from-discard``-th on and every claim from then.
Two-player: every discard that may declare 报听 or faces a declared opponent, every claim, and a
declared hand's win or pass. ``--claims-only``: every claim, at any turn, and nothing else.
Checkpointed to ``--out`` (a pickle) every 25 positions; a rerun appends to it.

``fit``: the knobs (a grid over the family's :data:`GRID`) that maximise the mean labelled
payment of the answer the expert2 kernels give with them, on the positions of the training
deals; prints the gain over the v1 answer with a t interval over positions, and writes the
weights file with the seed, the positions and the commit.

``agree``: v1's and v2's agreement with the search's answers on held-out positions.

``routes`` (two-player): the hand routes' knobs by duplicate play against ``expert1`` (a route is
a plan over many discards, which the labels, played on by the field after one decision, cannot
value); written into the weights file's ``routes``.

``duplicate``: v2 minus v1 in duplicate play against three v1 (``expert1``) on the same walls in
every rotation, blocks of ``--block`` walls over consecutive seeds, the running mean per
seat-deal with its t interval over walls (the paired difference of the tournament with
``expert2`` in the first seat and the one with ``expert`` there, ``ds.tournament``'s
``baseline``), one line per block.

    python tools/fit_expert2.py collect --family daqing --deals 400 --seed 38001 --out /tmp/e2/dq.pkl
    python tools/fit_expert2.py fit --family daqing --data /tmp/e2/dq.pkl
    python tools/fit_expert2.py agree --family daqing --data /tmp/e2/dq_test.pkl
    python tools/fit_expert2.py duplicate --family daqing --block 500 --blocks 20 --seed 20261231
    python tools/fit_expert2.py routes --family two_player --points '[{"orphans_min": 8}]' --seed 9211
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import daqing_sim as ds
from daqing_sim.codes import CLAIM_WIN, DECISION_CLAIM, DECISION_DISCARD, PASS
from daqing_sim.game.engine import C_N_DRAWS, C_OPTS, C_SEAT, C_TILE
from daqing_sim.hand.tables import get_tables
from daqing_sim.players.interface import Player
from daqing_sim.players.observation import I_SEAT, I_WALL_LEFT, UNKNOWN
from daqing_sim.players.registry import PLAYER_NAMES, encode_strategies
from daqing_sim.players.seats import builtin_functions
from daqing_sim.rules import R_LAST_TILES_NO_CLAIM
from daqing_sim.search.evaluator import Evaluator

#: the knob grid of each family's fit (every combination is scored on every position)
GRID: dict[str, dict[str, list[float]]] = {
    "daqing": {
        "deal_in_cost": [1.5, 2.0, 3.0, 4.5, 6.0, 9.0],
        "outs_power": [0.1, 0.2, 0.3, 0.5, 0.8],
        "danger_scale": [0.5, 0.75, 1.0, 1.5, 2.0],
        "dealer_factor": [0.0, 0.5, 1.0],
        "jia_outs_fraction": [0.25, 0.5, 0.75, 1.0, 2.0],
        "declare_min_outs": [0, 2, 4],
        "seen_wait_bonus": [0.0, 0.5, 1.0],
        "claim_fold_shanten": [1, 2, 3, 4, 14],
    },
    "beijing": {
        "deal_in_cost": [0.25, 0.5, 0.75, 1.0, 1.5],
        "min_tenpai": [0.1, 0.2, 0.3, 0.5],
        "rise_factor": [0.3, 0.5, 0.75],
        "danger_scale": [0.5, 0.75, 1.0, 1.5],
        "claim_fold_shanten": [1, 2, 3, 4, 14],
        "concealed_pass_shanten": [-1, 0, 1, 2, 3, 4, 6, 13],
    },
    "two_player": {
        "declare_min_outs": [1, 2, 3, 4, 6],
        "pass_below": [0, 2, 3, 4, 6],
        "pass_min_left": [0, 5, 10, 20],
        "claim_shanten": [-1, 0, 1, 2, 13],
        "fold_shanten": [1, 2, 3, 4, 13],
        "claim_kong_shanten": [-1, 0, 1, 2, 13],
    },
}
#: v2's new terms that the label fit does not fit, at their "off" values (the rollouts after a
#: labelled decision are the field's, so a hand route, a plan over many discards, is not valued
#: by the labels: the routes are fitted by duplicate play, ``routes``)
NEW_TERMS_OFF: dict[str, dict[str, float]] = {
    "daqing": {"claim_fold_shanten": 14},
    "beijing": {"claim_fold_shanten": 14, "concealed_pass_shanten": -1, "pairs_min": 8, "suit_min": 15},
    "two_player": {
        "orphans_min": 14,
        "orphans_slack": 13,
        "pairs_min": 8,
        "suit_min": 15,
        "claim_kong_shanten": 13,
    },
}
#: the new terms fitted by duplicate play rather than by the labels
ROUTE_KNOBS = {
    "two_player": ("orphans_min", "orphans_slack", "pairs_min", "suit_min"),
    "beijing": ("pairs_min", "suit_min"),
}
#: rounds of the fit's coordinate ascent (each knob over its grid, the others held)
ROUNDS = 2
#: a knob moves only for a paired gain over the positions this many standard errors above 0
MIN_T = 1.0
WEIGHTS = Path(__file__).resolve().parents[1] / "daqing_sim" / "players" / "expert2_weights.json"


def snapshot(obs: Any) -> Any:
    """A copy of an observation (a namedtuple of arrays) the kernels can be asked again."""
    return type(obs)(*[np.array(a, copy=True) for a in obs])


class Collector(Player):
    """Plays the field player's moves; labels the decisions that qualify (module docstring)."""

    def __init__(
        self,
        family: str,
        field: str,
        worlds: int,
        seed: int,
        from_discard: int,
        sink: list,
        claims_only: bool = False,
        opponents: str = "uniform",
    ) -> None:
        self.name = field
        self.claims_only, self.opponents = claims_only, opponents
        self.family, self.field, self.worlds, self.seed = family, field, worlds, seed
        self.from_discard, self.sink = from_discard, sink
        code = PLAYER_NAMES.index(field)
        self.fns = builtin_functions(code, family)
        self.kn = np.ascontiguousarray(
            encode_strategies((field,) * (2 if family == "two_player" else 4), None, family)[2][0]
        )
        self.ev: Evaluator | None = None

    def discard(self, obs: Any) -> Any:  # only paused deals ask this player
        raise NotImplementedError

    def _qualifies(self, deal: Any, kind: int, seat: int, legal: Any) -> bool:
        if self.claims_only:
            return kind == DECISION_CLAIM
        ready = any(deal.st.ready[s] for s in range(4) if s != seat)
        if self.family == "two_player":  # where a knob can change the answer: 报听, a fold, a claim
            return kind == DECISION_CLAIM or ready or any(d.declare for d in legal)
        if self.family == "daqing":
            live = deal.obs.info[I_WALL_LEFT] >= deal.rules[R_LAST_TILES_NO_CLAIM]
            if kind == DECISION_CLAIM:
                return ready and live
            return (ready and live) or any(d.declare for d in legal)
        return int(deal.obs.n_pond[seat]) >= self.from_discard

    def decide_paused(self, deal: Any, kind: int, rng: Any) -> tuple[int, bool]:
        seat = int(deal.ctl[C_SEAT])
        tabs = get_tables()
        deal.obs.memo[seat, 0] = UNKNOWN
        before = snapshot(deal.obs)
        if kind == DECISION_DISCARD:
            legal = deal.observation().legal_discards
            t, d = self.fns[0](self.kn, deal.obs, deal.rules, tabs)
            first = (int(t), bool(d))
            cands = [first, *((x.tile, x.declare) for x in legal if (x.tile, x.declare) != first)]
        elif kind == DECISION_CLAIM:
            legal = ()
            t, opts = int(deal.ctl[C_TILE]), int(deal.ctl[C_OPTS])
            first = (int(self.fns[1](self.kn, deal.obs, deal.rules, tabs, t, opts)), False)
            others = [PASS, *(a for a in range(1, CLAIM_WIN) if opts >> a & 1)]  # a win is not a question
            cands = [first, *((a, False) for a in others if a != first[0])]
            if opts >> CLAIM_WIN & 1:  # a win on offer: labelled in two-player only (报听's win or pass)
                other = PASS if first[0] == CLAIM_WIN else CLAIM_WIN
                cands = [first, (other, False)] if self.family == "two_player" else [first]
        else:
            first = (int(self.fns[2](self.kn, deal.obs, deal.rules, tabs, deal.st.kong_opts)), False)
            return first
        deal.obs.memo[seat, 0] = UNKNOWN
        if len(cands) < 2 or not self._qualifies(deal, kind, seat, legal):
            return first
        if self.ev is None:
            self.ev = Evaluator(deal.rules, self.field, self.family, self.opponents)
        ss = np.random.SeedSequence(
            [self.seed, int(getattr(rng, "seed", 0)), seat, int(deal.ctl[C_N_DRAWS]), kind]
        )
        e = self.ev.evaluate(deal, cands, self.worlds, ss)
        self.sink.append(
            {
                "kind": kind,
                "seat": seat,
                "deal_seed": int(getattr(rng, "seed", 0)),
                "obs": before,
                "rules": deal.rules.copy(),
                "claim": (int(deal.ctl[C_TILE]), int(deal.ctl[C_OPTS])) if kind == DECISION_CLAIM else None,
                "cands": cands,
                "mean": e.mean,
                "diff": e.diff,
                "diff_lo": e.diff_lo,
                "diff_hi": e.diff_hi,
                "pays": e.pays.astype(np.float32),
            }
        )
        deal.obs.memo[seat, 0] = UNKNOWN
        return first


def collect(a: argparse.Namespace) -> None:
    out = Path(a.out)
    data: list = pickle.loads(out.read_bytes()) if out.exists() else []
    done = len({(p["deal_seed"]) for p in data})
    rules = ds.RuleSet(family=a.family)
    t0 = time.time()
    for block in range(a.deals // a.block):
        seed = a.seed + block
        if any(p.get("block") == seed for p in data):
            continue
        sink: list = []
        n = 2 if a.family == "two_player" else 4
        seats = [
            Collector(a.family, a.field, a.worlds, a.seed, a.from_discard, sink, a.claims_only, a.opponents)
            for _ in range(n)
        ]
        ds.simulate(a.block, strategies=seats, seed=seed, rules=rules, n_jobs=1)
        for p in sink:
            p["block"] = seed
        data.extend(sink)
        tmp = out.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps(data))
        os.replace(tmp, out)
        print(
            f"block {block + 1}/{a.deals // a.block} seed {seed}: {len(data)} positions, "
            f"{time.time() - t0:.0f} s",
            flush=True,
        )
    del done


def answers(family: str, kn: np.ndarray, pos: dict) -> tuple[int, bool]:
    """The expert2 kernels' answer at a stored position under the knob vector ``kn``."""
    fns = builtin_functions(PLAYER_NAMES.index("expert2"), family)
    obs = snapshot(pos["obs"])
    seat = int(obs.info[I_SEAT])
    obs.memo[seat, 0] = UNKNOWN
    tabs = get_tables()
    if pos["kind"] == DECISION_DISCARD:
        t, d = fns[0](kn, obs, pos["rules"], tabs)
        return int(t), bool(d)
    t, opts = pos["claim"]
    return int(fns[1](kn, obs, pos["rules"], tabs, t, opts)), False


def knob_vector(family: str, over: dict[str, float]) -> np.ndarray:
    n = 2 if family == "two_player" else 4
    return np.ascontiguousarray(encode_strategies((("expert2", over),) * n, None, family)[2][0])


def score(family: str, over: dict[str, float], data: list) -> np.ndarray:
    """Per position: the labelled mean payment of the answer under ``over`` minus v1's."""
    kn = knob_vector(family, over)
    out = np.zeros(len(data))
    for i, p in enumerate(data):
        a = answers(family, kn, p)
        j = p["cands"].index(a) if a in p["cands"] else 0
        out[i] = p["mean"][j] - p["mean"][0]
    return out


def _interval(x: np.ndarray) -> str:
    from scipy import stats

    m = x.mean()
    h = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return f"{m:+.4f} [{m - h:+.4f}, {m + h:+.4f}]"


def fit(a: argparse.Namespace) -> None:
    from daqing_sim.players.registry import knob_specs

    data = pickle.loads(Path(a.data).read_bytes())
    grid = {k: v for k, v in GRID[a.family].items() if not a.only or k in a.only}
    # the start: every knob at v1's value (``--start expert2``: the shipped v2's, for a next round)
    spec = knob_specs(a.start, a.family)
    best = {k: knob.default for k, knob in spec.items()}
    for k, off in NEW_TERMS_OFF[a.family].items():
        best.setdefault(k, off)
    if a.start != "expert2":
        best.update(
            {k: off for k, off in NEW_TERMS_OFF[a.family].items() if k in ROUTE_KNOBS.get(a.family, ())}
        )
    best_s = score(a.family, best, data)
    t0 = time.time()
    for rnd in range(ROUNDS):
        for k, values in grid.items():
            for x in values:
                over = {**best, k: x}
                sc = score(a.family, over, data)
                d = sc - best_s  # paired on the positions: a change must beat the noise
                if d.mean() > 0 and d.mean() >= MIN_T * d.std(ddof=1) / np.sqrt(len(d)):
                    best, best_s = over, sc
            print(
                f"round {rnd + 1} {k}: {best[k]} -> {best_s.mean():+.5f} per position "
                f"({time.time() - t0:.0f} s)",
                flush=True,
            )
    s = score(a.family, best, data)
    print(f"best {best}: gain over v1 {_interval(s)} on {len(data)} training positions")
    weights = json.loads(WEIGHTS.read_text()) if WEIGHTS.exists() else {}
    prev = weights.get(a.family)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    routes = ROUTE_KNOBS.get(a.family, ())
    weights[a.family] = {
        "knobs": {k: v for k, v in best.items() if k not in routes},
        "fitted_by": " ".join(["python tools/fit_expert2.py", *sys.argv[1:]]),
        "data": a.source or a.data,
        "positions": len(data),
        "seed": f"walls of seeds {min(p['block'] for p in data)}-{max(p['block'] for p in data)}, "
        f"evaluator seed {a.seed}",
        "train_gain_per_position": round(float(s.mean()), 5),
        "commit": commit,
    }
    if prev and "routes" in prev:  # the routes' own fit (duplicate play) is kept
        weights[a.family]["routes"] = prev["routes"]
    if a.start == "expert2" and prev:  # a next round: keep the record of the one it started from
        weights[a.family].update(round=prev.get("round", 1) + 1, previous_round=prev)
    else:
        weights[a.family]["round"] = 1
        if prev and prev.get("positions"):  # the fit it replaces, for the record (one level)
            weights[a.family]["replaces"] = {k: v for k, v in prev.items() if k != "replaces"}
    WEIGHTS.write_text(json.dumps(weights, indent=1, ensure_ascii=False) + "\n")


def agree(a: argparse.Namespace) -> None:
    from daqing_sim.search.player import choose

    data = pickle.loads(Path(a.data).read_bytes())
    v2 = knob_vector(a.family, {})
    n = len(data)
    rows = {"v1": np.zeros((n, 3)), "v2": np.zeros((n, 3))}
    for i, p in enumerate(data):
        pick = choose(p["pays"].astype(np.float64), 2.0)
        top = int(np.argmax(p["mean"]))
        a2 = answers(a.family, v2, p)
        j2 = p["cands"].index(a2) if a2 in p["cands"] else 0
        rows["v1"][i] = (pick == 0, top == 0, 0.0)
        rows["v2"][i] = (pick == j2, top == j2, p["mean"][j2] - p["mean"][0])
    moved = rows["v1"][:, 0] == 0  # the search answered other than v1 (clearly better by min_t)
    print(
        f"the search leaves v1's answer at {int(moved.sum())} of {n} positions; there v2 takes the search's "
        f"answer at {int(rows['v2'][moved, 0].sum())}; where the search keeps v1's, v2 keeps it at "
        f"{rows['v2'][~moved, 0].mean():.3f}"
    )
    for name, r in rows.items():
        print(
            f"{name}: agrees with search (min_t 2) {r[:, 0].mean():.3f}, "
            f"with the best mean {r[:, 1].mean():.3f}, "
            f"gain over v1 {_interval(r[:, 2])} per position, {n} positions"
        )


def _focal(frames: Any, n: int) -> np.ndarray:
    """Per wall: the first entrant's mean payment over its seats in the rotations."""
    import pandas as pd

    rot = frames["variant"].cat.codes.to_numpy()
    pays = frames[[f"pay_{s}" for s in range(n)]].to_numpy().astype(float)
    mine = pays[np.arange(len(frames)), rot]
    return pd.Series(mine).groupby(frames["deal"].to_numpy()).mean().to_numpy()


def _per_wall(family: str, player: Any, block: int, blocks: int, seed: int) -> np.ndarray:
    """Per wall of ``blocks`` blocks of ``block`` walls (seeds ``seed``, ``seed + 1``, ...): the
    mean payment of ``player`` over its seats in every rotation against ``expert1``."""
    from daqing_sim.experiments.tournament import tournament_frames

    rules = ds.RuleSet(family=family)
    n = 2 if family == "two_player" else 4
    return np.concatenate(
        [
            _focal(tournament_frames([player, *["expert1"] * (n - 1)], block, seed + b, rules), n)
            for b in range(blocks)
        ]
    )


def duplicate(a: argparse.Namespace) -> None:
    from daqing_sim.experiments.tournament import tournament_frames

    rules = ds.RuleSet(family=a.family)
    n = 2 if a.family == "two_player" else 4
    others = ["expert1"] * (n - 1)
    over = json.loads(a.knobs)  # a diagnostic: expert2 with some knobs changed
    # the baseline: expert (v1), or expert2 with the knobs of --baseline (a knob's own effect)
    base: Any = "expert1" if a.baseline is None else ("expert2", json.loads(a.baseline))
    diffs: list[float] = []
    t0 = time.time()
    for b in range(a.blocks):
        v2 = _focal(tournament_frames([("expert2", over), *others], a.block, a.seed + b, rules), n)
        v1 = _focal(tournament_frames([base, *others], a.block, a.seed + b, rules), n)
        diffs.extend((v2 - v1).tolist())
        print(
            f"{a.family} seeds {a.seed}-{a.seed + b}: walls={len(diffs)} expert2 minus "
            f"{'expert1' if a.baseline is None else 'the baseline'} per seat-deal "
            f"{_interval(np.array(diffs))} ({time.time() - t0:.0f} s)",
            flush=True,
        )


def _route_points(
    a: argparse.Namespace, cur: dict[str, float], base: np.ndarray, t0: float
) -> tuple[dict[str, float], dict[str, dict[str, list[float]]]]:
    """``--points``: each joint setting's per-wall gain over the start; the best mean is taken
    when its 95 % lower bound is above 0."""
    from scipy import stats

    out: dict[str, list[float]] = {}
    best, best_m = cur, 0.0
    for pt in json.loads(a.points):
        over = {**cur, **pt}
        d = _per_wall(a.family, ("expert2", over), a.block, a.blocks, a.seed) - base
        m = float(d.mean())
        h = float(stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))
        out[json.dumps(pt, sort_keys=True)] = [round(m, 5), round(m - h, 5), round(m + h, 5)]
        print(
            f"{pt} minus the start: {m:+.4f} [{m - h:+.4f}, {m + h:+.4f}] ({time.time() - t0:.0f} s)",
            flush=True,
        )
        if m > best_m and m - h > 0:
            best, best_m = over, m
    print(f"points: {best}", flush=True)
    return best, {"points": out}


def routes(a: argparse.Namespace) -> None:
    """The hand routes' knobs by duplicate play: ``--points`` first (joint settings, each against
    the start, every route off unless ``--start``; the best mean taken when its 95 % lower bound
    is above 0), then each knob of ``--grid`` in turn (the others held at their current values),
    every value's per-wall payment
    against ``expert1`` on the same walls; a knob moves to the best value only when that value's
    paired gain over the current one has its 95 % lower bound above 0. Writes the routes' record
    into the weights file (the label-fitted knobs are kept)."""
    from scipy import stats

    cur = {k: NEW_TERMS_OFF[a.family][k] for k in ROUTE_KNOBS[a.family]}
    cur.update(json.loads(a.start))
    results: dict[str, dict[str, list[float]]] = {}
    t0 = time.time()
    base = _per_wall(a.family, ("expert2", cur), a.block, a.blocks, a.seed)
    grid = json.loads(a.grid)
    if a.points:  # joint settings, each against the start on the same walls
        start = cur
        cur, results = _route_points(a, cur, base, t0)
        if grid and cur != start:
            base = _per_wall(a.family, ("expert2", cur), a.block, a.blocks, a.seed)
    for k, values in grid.items():
        per = {}
        for x in values:
            over = {**cur, k: x}
            per[x] = (
                base if over == cur else _per_wall(a.family, ("expert2", over), a.block, a.blocks, a.seed)
            )
            d = per[x] - base
            h = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)) if d.any() else 0.0
            m = float(d.mean())
            results.setdefault(k, {})[str(x)] = [round(m, 5), round(m - h, 5), round(m + h, 5)]
            print(
                f"{k}={x} minus {k}={cur[k]}: {m:+.4f} [{m - h:+.4f}, {m + h:+.4f}] "
                f"({time.time() - t0:.0f} s)",
                flush=True,
            )
        top = max(per, key=lambda x: per[x].mean())
        lo = results[k][str(top)][1]
        if top != cur[k] and lo > 0:
            cur[k] = top
            base = per[top]
        print(f"{k}: {cur[k]}", flush=True)
    print(f"routes {cur}")
    weights = json.loads(WEIGHTS.read_text())
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    walls = f"{a.block * a.blocks} walls of seeds {a.seed}-{a.seed + a.blocks - 1}"
    prev = weights[a.family].get("routes")
    weights[a.family]["routes"] = {
        "knobs": cur,
        "fitted_by": " ".join(["python tools/fit_expert2.py", *sys.argv[1:]]),
        "walls": walls,
        "paired_gain_per_seat_deal_vs_current": results,
        "commit": commit,
    }
    if prev:  # the run it replaces, for the record (one level)
        weights[a.family]["routes"]["replaces"] = {k: v for k, v in prev.items() if k != "replaces"}
    WEIGHTS.write_text(json.dumps(weights, indent=1, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--family", default="daqing")
    c.add_argument("--field", default="expert1")
    c.add_argument("--deals", type=int, default=200)
    c.add_argument("--block", type=int, default=20)
    c.add_argument("--seed", type=int, default=38001)
    c.add_argument("--worlds", type=int, default=32)
    c.add_argument("--from-discard", type=int, default=6)
    c.add_argument("--claims-only", action="store_true", help="label every claim, and nothing else")
    c.add_argument(
        "--opponents", default="uniform", choices=["uniform", "progress"], help="the worlds' opponents"
    )
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--family", default="daqing")
    f.add_argument("--data", required=True)
    f.add_argument("--source", default=None, help="how the data were made (recorded in the weights file)")
    f.add_argument("--seed", type=int, default=38001, help="the collection's --seed (recorded)")
    f.add_argument("--start", default="expert1", help="the player whose knob values the ascent starts from")
    f.add_argument("--only", nargs="*", default=None, help="fit these knobs only (the others: the start's)")
    g = sub.add_parser("agree")
    g.add_argument("--family", default="daqing")
    g.add_argument("--data", required=True)
    d = sub.add_parser("duplicate")
    d.add_argument("--family", default="daqing")
    d.add_argument("--block", type=int, default=500)
    d.add_argument("--blocks", type=int, default=10)
    d.add_argument("--seed", type=int, default=20261231)
    d.add_argument("--knobs", default="{}", help="expert2 knobs to change, JSON (a diagnostic)")
    d.add_argument("--baseline", default=None, help="expert2 knobs of the baseline, JSON (default: expert1)")
    r = sub.add_parser("routes")
    r.add_argument("--family", default="two_player")
    r.add_argument("--grid", default="{}", help='JSON, e.g. {"orphans_min": [8, 9, 10, 14]}')
    r.add_argument("--points", default=None, help='joint settings first, JSON, e.g. [{"orphans_min": 8}]')
    r.add_argument("--start", default="{}", help="route knobs to start from, JSON (default: all off)")
    r.add_argument("--block", type=int, default=2000)
    r.add_argument("--blocks", type=int, default=5)
    r.add_argument("--seed", type=int, default=9201)
    a = ap.parse_args(argv)
    {"collect": collect, "fit": fit, "agree": agree, "duplicate": duplicate, "routes": routes}[a.cmd](a)


if __name__ == "__main__":
    main()
