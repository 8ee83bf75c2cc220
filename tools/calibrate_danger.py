"""Fit and check an expert's estimates on self-play of its rule family (not part of the package).

Plays deals one at a time with the event log on, rebuilds every seat's public view from the log
(the same arrays the engine shares with its observations), and at each discard records, from the
discarding seat's view, the expert's features and predictions and the truth:

* ``--family daqing`` (:func:`daqing_sim.families.daqing.expert.danger_table`): facing a ready opponent,
  for every kind the discarding seat holds, the danger features and prediction and whether that
  kind is in the ready seat's wait set (its locked hand's); fits ``DANGER_W``;
* ``--family beijing`` (:func:`daqing_sim.families.beijing.danger.danger_table`): for every other
  seat its ready features, predicted P(ready) and the truth (its 13 tiles wait on something);
  for every kind held, against every other seat, the wait features, predicted P(in r's waits |
  ready), whether it passed ``r`` (then it is certain: never a winning tile, counted) and the
  truth; for the discarding seat the win features of the hand it keeps
  (:func:`daqing_sim.families.beijing.value.win_features`) and whether it went on to win; fits
  ``TENPAI_W``, ``DANGER_W`` and ``WIN_W``.

    python tools/calibrate_danger.py fit --family daqing --n 3000 --seed 1001
    python tools/calibrate_danger.py table --family daqing --n 3000 --seed 20261203   # fresh seed
    python tools/calibrate_danger.py fit --family beijing --n 2000 --seed 1101
    python tools/calibrate_danger.py table --family beijing --n 3000 --seed 20261213  # fresh seed
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from types import ModuleType

import numpy as np
from scipy import optimize, stats

from daqing_sim.codes import (
    ADDED_KONG,
    CHI,
    CHI_LOW,
    CLAIM_KONG,
    CLAIM_PENG,
    CONCEALED_KONG,
    FAMILIES,
    FAMILY_KINDS,
    KONG,
    PENG,
)
from daqing_sim.families.beijing import danger as D
from daqing_sim.families.beijing import value as V
from daqing_sim.families.daqing import expert
from daqing_sim.game.events import (
    EV_ADDED_KONG,
    EV_CLAIM,
    EV_CONCEALED_KONG,
    EV_DISCARD,
    EV_DRAW,
    EV_ROBBED_KONG,
    EV_WIN,
)
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.state import new_deal_state, observe
from daqing_sim.game.wall import N_LIVE, generate_walls
from daqing_sim.hand.kernels import wait_set_k
from daqing_sim.hand.kinds34 import bj_shanten_k, bj_ukeire_k, bj_wait_set_k
from daqing_sim.hand.tables import get_tables
from daqing_sim.players.observation import CLAIMED, DECLARED, DRAWN_AND_THROWN, MAX_POND
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet

#: the families calibrated here, with the defaults of --n and --seed (the fits' runs)
DEFAULTS = {"daqing": (4000, 1001), "beijing": (3000, 1101)}
BEIJING_LIVE_START = 53


class Discard:
    """One discard of a replayed deal: seat ``s`` about to throw ``t`` (``obs`` its view, ``left``
    the undrawn tiles); ``waits``: the wait sets of the seats that declared ready (Daqing)."""

    def __init__(self, st, obs, s: int, t: int, left: int, waits: dict[int, set[int]]) -> None:
        self.st, self.obs, self.s, self.t, self.left, self.waits = st, obs, s, t, left, waits


def replay(n: int, seed: int, strategies: tuple[str, ...], rules: RuleSet) -> Iterator[Discard | int]:
    """Replay ``n`` logged deals of ``seed`` under ``rules``: a :class:`Discard` at every discard,
    then the deal's winner (-1: none) at its end."""
    family = rules.family
    _, codes, knobs = encode_strategies(strategies, family=family)
    walls, _, seeds = generate_walls(n, seed=seed, family=family)
    enc, tabs = rules.encode(), get_tables()
    last_tiles = rules.last_tiles_no_claim if family == "daqing" else 0
    wk = np.zeros(FAMILY_KINDS[FAMILIES.index(family)], dtype=np.int8)
    wb = np.zeros_like(wk, dtype=np.uint8)
    for i in range(n):
        log = run_walls(walls[i : i + 1], seeds[i : i + 1], rules, codes, knobs, 0, record_log=True)["log"]
        st, obs = new_deal_state(family)
        pos = 0
        for k in range(4):
            for _ in range(14 if k == 0 else 13):
                st.conc[k, walls[i, pos]] += 1
                pos += 1
        drawn = np.full(4, -1)
        left = N_LIVE if family == "daqing" else len(walls[i]) - BEIJING_LIVE_START
        waits: dict[int, set[int]] = {}
        winner = -1
        for code, s, t, a, b in log.astype(int):
            if code == EV_DRAW:
                st.conc[s, t] += 1
                st.own_draws[s] += 1
                drawn[s] = t
                left = b
            elif code == EV_DISCARD:
                observe(st, obs, s, 0, left, -1, -1, False, False)
                yield Discard(st, obs, s, t, left, waits)
                st.conc[s, t] -= 1
                st.visible[t] += 1
                j = st.n_pond[s]
                st.pond[s, j] = t
                st.pond_flag[s, j] = DRAWN_AND_THROWN if t == drawn[s] else 0
                st.n_pond[s] = j + 1
                drawn[s] = -1
                if family == "daqing":
                    if a:  # declared ready with this discard
                        st.ready[s] = 1
                        st.ready_draw[s] = st.own_draws[s]
                        st.pond_flag[s, j] |= DECLARED
                        n_w = wait_set_k(st.conc[s], st.mk[s], st.mt[s], st.nm[s], enc, tabs, wk, wb)
                        assert n_w > 0
                        waits[s] = set(np.flatnonzero(wk >= 0).tolist())
                    if left + 1 > last_tiles:
                        for r in range(4):
                            if st.ready[r] and not (r == s and a):
                                st.safe[r, t] = 1
            elif code == EV_CLAIM:
                cur = b
                st.pond_flag[cur, st.n_pond[cur] - 1] |= CLAIMED
                st.pond_claimer[cur, st.n_pond[cur] - 1] = s
                j = st.nm[s]
                st.meld_from[s, j] = cur
                if a == CLAIM_PENG:
                    st.conc[s, t] -= 2
                    st.visible[t] += 2
                    st.mk[s, j], st.mt[s, j] = PENG, t
                elif a == CLAIM_KONG:
                    st.conc[s, t] -= 3
                    st.visible[t] += 3
                    st.mk[s, j], st.mt[s, j] = KONG, t
                else:
                    low = t - (a - CHI_LOW)
                    for x in range(low, low + 3):
                        if x != t:
                            st.conc[s, x] -= 1
                            st.visible[x] += 1
                    st.mk[s, j], st.mt[s, j] = CHI, low
                st.nm[s] += 1
                drawn[s] = -1
            elif code == EV_CONCEALED_KONG:
                st.conc[s, t] -= 4
                j = st.nm[s]
                st.mk[s, j], st.mt[s, j], st.meld_from[s, j] = CONCEALED_KONG, t, -1
                st.nm[s] += 1
            elif code == EV_ADDED_KONG:
                st.conc[s, t] -= 1
                st.visible[t] += 1
                for j in range(st.nm[s]):
                    if st.mk[s, j] == PENG and st.mt[s, j] == t:
                        st.mk[s, j] = ADDED_KONG
            elif code == EV_ROBBED_KONG:
                break
            elif code == EV_WIN:
                winner = s
                break
        assert st.n_pond.max() <= MAX_POND
        yield winner


# ---------------------------------------------------------------- Daqing

NF = expert.N_FEATURES


def collect_daqing(n: int, seed: int, strategies: tuple[str, ...], rules: RuleSet) -> np.ndarray:
    """Rows (features..., predicted, truth, thrown, kind) at every discard of a seat not ready
    facing a ready one, for every kind it holds and every ready opponent."""
    rows = []
    feat = np.zeros((FAMILY_KINDS[0], NF))
    pred = np.zeros(FAMILY_KINDS[0])
    for d in replay(n, seed, strategies, rules):
        if not isinstance(d, Discard):
            continue
        st, s = d.st, d.s
        opp = [r for r in range(4) if r != s and st.ready[r]]
        if opp and not st.ready[s]:
            for r in opp:
                expert.danger_table(d.obs, r, feat, pred)
                for x in np.flatnonzero(st.conc[s]):
                    rows.append([*feat[x], pred[x], x in d.waits[r], x == d.t, x])
    return np.array(rows, dtype=np.float64)


def report_daqing(rows: np.ndarray, fit: bool) -> None:
    safe = rows[rows[:, NF] < 0]
    print(f"{len(rows)} rows; passed tiles {len(safe)}, of them in a wait set {int(safe[:, NF + 1].sum())}")
    if fit:
        keep = rows[:, NF] >= 0  # passed tiles (certain) left out
        w, res = fit_hazard(rows[keep, :NF], rows[keep, NF + 1], expert, 0.05)
        print("DANGER_W =", json.dumps([round(float(v), 4) for v in w]), "nll", round(float(res.fun), 1))
    pred, y, thrown = rows[:, NF], rows[:, NF + 1], rows[:, NF + 2]
    for which in ("held", "thrown"):
        keep = (pred >= 0) & (thrown > 0 if which == "thrown" else True)
        print_table(f"{which} tiles (passed tiles left out):", pred[keep], y[keep])


# ---------------------------------------------------------------- Beijing

BNF, NT, NW = D.N_DF, D.N_TF, V.N_WF


def collect_beijing(
    n: int, seed: int, strategies: tuple[str, ...], rules: RuleSet
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Three row arrays over ``n`` deals of ``seed``: ready rows (features, predicted, truth),
    danger rows (features, q, passed, in waits, ready, P(ready), thrown, ready row) and win rows
    (features, won); and the number of passed tiles found in a wait set."""
    nk = FAMILY_KINDS[FAMILIES.index("beijing")]
    tabs = get_tables()
    dead = rules.dead_wall_tiles
    ready_rows, danger_rows, win_rows = [], [], []
    tf = np.zeros((4, NT))
    pt = np.zeros(4)
    feat = np.zeros((4, nk, BNF))
    q = np.zeros((4, nk))
    safe = np.zeros((4, nk), dtype=np.uint8)
    wk = np.zeros(nk, dtype=np.int8)
    wf = np.zeros(NW)
    unseen = np.zeros(nk, dtype=np.int32)
    n_violations = 0
    deal_win = []  # (row index in win_rows, seat) of the current deal
    for d in replay(n, seed, strategies, rules):
        if not isinstance(d, Discard):  # the deal's end: d is the winner
            for row, seat in deal_win:
                win_rows[row][NW] = float(seat == d)
            deal_win = []
            continue
        st, obs, s, t = d.st, d.obs, d.s, d.t
        D.danger_table(obs, tf, pt, feat, q, safe)
        held = np.flatnonzero(st.conc[s])
        for r in range(4):
            if r == s:
                continue
            n_w = bj_wait_set_k(st.conc[r], st.mk[r], st.mt[r], st.nm[r], tabs, wk)
            waits = wk >= 0
            ready_rows.append(np.r_[tf[r], pt[r], float(n_w > 0)])
            block = np.zeros((len(held), BNF + 7), dtype=np.float32)
            block[:, :BNF] = feat[r, held]
            block[:, BNF] = q[r, held]
            block[:, BNF + 1] = safe[r, held]
            block[:, BNF + 2] = waits[held]
            block[:, BNF + 3] = n_w > 0
            block[:, BNF + 4] = pt[r]
            block[:, BNF + 5] = held == t
            block[:, BNF + 6] = len(ready_rows) - 1
            n_violations += int((safe[r, held] & waits[held]).sum())
            danger_rows.append(block)
        # the hand kept after the discard (restored: the replay throws the tile itself)
        st.conc[s, t] -= 1
        obs.hand[t] -= 1
        D.unseen_34(obs, unseen)
        sh = bj_shanten_k(st.conc[s], st.nm[s], tabs)
        uk = bj_ukeire_k(st.conc[s], st.nm[s], tabs, unseen, sh)
        V.win_features(sh, uk, max(d.left - dead, 0) / 4.0, D.open_hand(obs, s), wf)
        st.conc[s, t] += 1
        deal_win.append((len(win_rows), s))
        win_rows.append(np.r_[wf, 0.0])
    return (
        np.array(ready_rows, dtype=np.float64),
        np.concatenate(danger_rows),
        np.array(win_rows, dtype=np.float64),
        n_violations,
    )


def fit_logistic(X: np.ndarray, y: np.ndarray, l2: float = 1e-3):
    """Maximum-likelihood logistic weights (a small ridge keeps empty features at zero)."""

    def nll(w):
        z = X @ w
        ll = y * z - np.logaddexp(0.0, z)
        g = X.T @ (y - 1.0 / (1.0 + np.exp(-z)))
        return -ll.sum() + l2 * (w @ w), -g + 2 * l2 * w

    res = optimize.minimize(nll, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B")
    return res.x, res


def win_probability(X: np.ndarray, w: np.ndarray) -> np.ndarray:
    """:func:`daqing_sim.families.beijing.value.win_probability` of feature rows."""
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    not_ready = X[:, V.W_SH1 : V.W_SH3 + 1].sum(axis=1) > 0  # shanten 1 or more
    p[not_ready & (X[:, V.W_DRAWS] <= 0)] = 0.0
    return p


def report_beijing(ready, danger, win, n_violations: int, fit: bool) -> None:
    if fit:
        wt, _ = fit_logistic(ready[:, :NT], ready[:, NT + 1])
        # P(in waits | ready) on the rows whose seat is ready and whose tile did not pass it
        keep = (danger[:, BNF + 3] > 0) & (danger[:, BNF + 1] == 0)
        X, y = danger[keep, :BNF].astype(np.float64), danger[keep, BNF + 2].astype(np.float64)
        ww, res = fit_hazard(X, y, D, 0.5)
        wp, _ = fit_logistic(win[:, :NW], win[:, NW])
        print("TENPAI_W =", json.dumps([round(float(v), 4) for v in wt]))
        print("DANGER_W =", json.dumps([round(float(v), 4) for v in ww]), "nll", round(float(res.fun), 1))
        print("WIN_W =", json.dumps([round(float(v), 4) for v in wp]))
        # the tables below with the fitted weights (in-sample)
        V.WIN_W[:] = wp
        ready[:, NT] = 1.0 / (1.0 + np.exp(-(ready[:, :NT] @ wt)))
        danger[:, BNF + 4] = ready[danger[:, BNF + 6].astype(np.int64), NT]
        live = danger[:, BNF + 1] == 0
        danger[live, BNF] = -np.expm1(-hazard(np.log(ww), danger[live, :BNF], D))
    passed = danger[:, BNF + 1] > 0
    print(
        f"{len(ready)} ready rows ({ready[:, NT + 1].mean():.3f} ready), {len(danger)} held-tile rows, "
        f"{len(win)} win rows; passed tiles {int(passed.sum())}, of them in a wait set {n_violations}"
    )
    print_table("P(ready), every other seat at every discard:", ready[:, NT], ready[:, NT + 1])
    keep = ~passed & (danger[:, BNF + 3] > 0)
    print_table(
        "P(in waits | ready), held tiles against ready seats (passed tiles left out):",
        danger[keep, BNF].astype(np.float64),
        danger[keep, BNF + 2].astype(np.float64),
    )
    p = (danger[:, BNF] * danger[:, BNF + 4]).astype(np.float64)
    y = danger[:, BNF + 2].astype(np.float64)
    print_table(
        "P(deal in) = P(ready) x P(in waits | ready), held tiles (passed left out):", p[~passed], y[~passed]
    )
    thrown = (danger[:, BNF + 5] > 0) & ~passed
    print_table("P(deal in), the tiles thrown (passed left out):", p[thrown], y[thrown])
    print_table("P(win | hand kept), every discard:", win_probability(win[:, :NW], V.WIN_W), win[:, NW])


# ---------------------------------------------------------------- shared


def hazard(theta: np.ndarray, X: np.ndarray, model: ModuleType) -> np.ndarray:
    """``S`` of the family's danger hazard (:func:`daqing_sim.families.daqing.expert.danger_sum`,
    :func:`daqing_sim.families.beijing.danger.hazard`) for weights ``exp(theta)``: the wait shapes,
    discounted by the pond weight when seen in the pond, and the honors' term."""
    w = np.exp(theta)
    ns, wp = model.N_SHAPES, model.W_POND
    fh, wh = (model.F_Z, model.W_ZHONG) if model is expert else (model.F_HONOR, model.W_HONOR)
    S = X[:, :ns] @ w[:ns] + w[wp] * (X[:, ns : 2 * ns] @ w[:ns])
    hs = X[:, fh] + w[wp] * X[:, fh + 2]
    hd = X[:, fh + 1] + w[wp] * X[:, fh + 3]
    return S + w[wh] * (w[0] * hs + w[1] * hd)


def fit_hazard(X: np.ndarray, y: np.ndarray, model: ModuleType, pond0: float):
    """Maximum-likelihood weights of P = 1 - exp(-S) (log-parametrised, so all positive), from
    the shapes' weights 1, the pond weight ``pond0`` and the honors' 0.5."""

    def nll(theta):
        S = np.clip(hazard(theta, X, model), 1e-9, 50)
        return -(y * np.log(-np.expm1(-S)) - (1 - y) * S).sum()

    theta0 = np.log(np.r_[np.ones(model.N_SHAPES), pond0, 0.5])
    res = optimize.minimize(nll, theta0, method="L-BFGS-B", bounds=[(-12, 5)] * len(theta0))
    return np.exp(res.x), res


def deciles(pred: np.ndarray, y: np.ndarray) -> list[tuple]:
    """Predicted vs observed by decile of predicted (ties may make a decile larger)."""
    edges = np.quantile(pred, np.linspace(0, 1, 11))
    idx = np.clip(np.searchsorted(edges, pred, side="right") - 1, 0, 9)
    out = []
    for d in range(10):
        m = idx == d
        if not m.any():
            continue
        ci = stats.binomtest(int(y[m].sum()), int(m.sum())).proportion_ci(method="wilson")
        out.append((d + 1, int(m.sum()), float(pred[m].mean()), float(y[m].mean()), ci.low, ci.high))
    return out


def print_table(title: str, pred: np.ndarray, y: np.ndarray) -> None:
    print(
        f"\n{title}\n| decile | n | mean predicted | observed | 95% Wilson |\n| --- | --- | --- | --- | --- |"
    )
    for d, m, p, o, lo, hi in deciles(pred, y):
        print(f"| {d} | {m} | {p:.4f} | {o:.4f} | {lo:.4f} - {hi:.4f} |")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "what", choices=["fit", "table"], help="fit the weights (and print the tables), or the tables"
    )
    ap.add_argument(
        "--family", choices=sorted(DEFAULTS), default="daqing", help="rule family (default daqing)"
    )
    ap.add_argument("--n", type=int, help="deals (default: daqing 4000, beijing 3000)")
    ap.add_argument("--seed", type=int, help="seed (default: daqing 1001, beijing 1101)")
    ap.add_argument("--field", nargs=4, default=["greedy"] * 4, help="the four players (default greedy)")
    a = ap.parse_args(argv)
    n = DEFAULTS[a.family][0] if a.n is None else a.n
    seed = DEFAULTS[a.family][1] if a.seed is None else a.seed
    rules = RuleSet(family=a.family)
    if a.family == "daqing":
        report_daqing(collect_daqing(n, seed, tuple(a.field), rules), a.what == "fit")
    else:
        report_beijing(*collect_beijing(n, seed, tuple(a.field), rules), fit=a.what == "fit")


if __name__ == "__main__":
    main()
