"""Fit and check the expert's danger estimate on self-play (not part of the package).

Plays deals one at a time with the event log on, rebuilds every seat's public view from the
log (the same arrays the engine shares with its observations), and at each discard facing a
ready opponent records, for every kind the discarding seat holds, the danger features and
prediction of :func:`daqing_sim.players.expert.danger_table` and the truth: is that kind in the
ready seat's wait set (its locked hand's, from the reconstructed hands).

    python tools/calibrate_danger.py fit --n 4000 --seed 1001        # prints fitted DANGER_W
    python tools/calibrate_danger.py table --n 4000 --seed 20261203  # deciles on a fresh seed
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from scipy import optimize, stats

from daqing_sim.codes import ADDED_KONG, CHI, CHI_LOW, CLAIM_KONG, CLAIM_PENG, CONCEALED_KONG, KONG, PENG
from daqing_sim.game.engine import (
    EV_ADDED_KONG,
    EV_CLAIM,
    EV_CONCEALED_KONG,
    EV_DISCARD,
    EV_DRAW,
)
from daqing_sim.game.simulate import run_walls
from daqing_sim.game.state import new_deal_state, observe
from daqing_sim.game.wall import N_LIVE, generate_walls
from daqing_sim.hand.kernels import wait_set_k
from daqing_sim.hand.tables import get_tables
from daqing_sim.players import expert
from daqing_sim.players.observation import CLAIMED, DECLARED, DRAWN_AND_THROWN, MAX_POND
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet


def collect(n, seed, strategies=("greedy",) * 4, rules=RuleSet()):
    """Rows (features..., predicted, truth, thrown, seat-is-ready) over ``n`` deals of ``seed``."""
    _, codes, knobs = encode_strategies(strategies)
    walls, _, seeds = generate_walls(n, seed=seed)
    enc = rules.encode()
    tabs = get_tables()
    L = rules.last_tiles_no_claim
    rows = []
    feat = np.zeros((28, expert.N_FEATURES))
    pred = np.zeros(28)
    wk = np.zeros(28, dtype=np.int8)
    wb = np.zeros(28, dtype=np.uint8)
    for i in range(n):
        log = run_walls(walls[i : i + 1], seeds[i : i + 1], rules, codes, knobs, 0, record_log=True)["log"]
        st, obs = new_deal_state()
        pos = 0
        for k in range(4):
            for _ in range(14 if k == 0 else 13):
                st.conc[k, walls[i, pos]] += 1
                pos += 1
        drawn = np.full(4, -1)
        last_live = N_LIVE + 1
        waits = {}
        for code, s, t, a, b in log.astype(int):
            if code == EV_DRAW:
                st.conc[s, t] += 1
                st.own_draws[s] += 1
                drawn[s] = t
                last_live = b + 1
            elif code == EV_DISCARD:
                opp = [r for r in range(4) if r != s and st.ready[r]]
                if opp and not st.ready[s]:
                    observe(st, obs, s, 0, last_live - 1, -1, -1, False, False)
                    for r in opp:
                        expert.danger_table(obs, r, feat, pred)
                        for x in np.flatnonzero(st.conc[s]):
                            rows.append([*feat[x], pred[x], x in waits[r], x == t, x])
                st.conc[s, t] -= 1
                st.visible[t] += 1
                j = st.n_pond[s]
                st.pond[s, j] = t
                st.pond_flag[s, j] = DRAWN_AND_THROWN if t == drawn[s] else 0
                st.n_pond[s] = j + 1
                drawn[s] = -1
                if a:
                    st.ready[s] = 1
                    st.ready_draw[s] = st.own_draws[s]
                    st.pond_flag[s, j] |= DECLARED
                    n_w = wait_set_k(st.conc[s], st.mk[s], st.mt[s], st.nm[s], enc, tabs, wk, wb)
                    assert n_w > 0
                    waits[s] = set(np.flatnonzero(wk >= 0).tolist())
                if last_live > L:
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
        assert st.n_pond.max() <= MAX_POND
    return np.array(rows, dtype=np.float64)


NF = expert.N_FEATURES


def hazard(theta, X):
    """``S`` of :func:`daqing_sim.players.expert.danger_sum` for weights ``exp(theta)``."""
    w = np.exp(theta)
    ns, fz, wp = expert.N_SHAPES, expert.F_Z, expert.W_POND
    S = X[:, :ns] @ w[:ns] + w[wp] * (X[:, ns : 2 * ns] @ w[:ns])
    zs = X[:, fz] + w[wp] * X[:, fz + 2]
    zd = X[:, fz + 1] + w[wp] * X[:, fz + 3]
    return S + w[expert.W_ZHONG] * (w[0] * zs + w[1] * zd)


def fit(rows):
    """Maximum-likelihood weights of P = 1 - exp(-S) (log-parametrised, so all positive);
    passed tiles (certain) left out."""
    keep = rows[:, NF] >= 0
    X, y = rows[keep, :NF], rows[keep, NF + 1]

    def nll(theta):
        S = np.clip(hazard(theta, X), 1e-9, 50)
        return -(y * np.log(-np.expm1(-S)) - (1 - y) * S).sum()

    theta0 = np.log(np.r_[np.ones(expert.N_SHAPES), 0.05, 0.5])
    res = optimize.minimize(nll, theta0, method="L-BFGS-B", bounds=[(-12, 5)] * len(theta0))
    return np.exp(res.x), res


def table(rows, which="held"):
    """Predicted vs observed by decile of predicted danger (passed tiles left out)."""
    pred, y, thrown = rows[:, NF], rows[:, NF + 1], rows[:, NF + 2]
    keep = pred >= 0
    if which == "thrown":
        keep &= thrown > 0
    pred, y = pred[keep], y[keep]
    edges = np.quantile(pred, np.linspace(0, 1, 11))
    idx = np.clip(np.searchsorted(edges, pred, side="right") - 1, 0, 9)
    out = []
    for d in range(10):
        m = idx == d
        ci = stats.binomtest(int(y[m].sum()), int(m.sum())).proportion_ci(method="wilson")
        out.append((d + 1, int(m.sum()), float(pred[m].mean()), float(y[m].mean()), ci.low, ci.high))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["fit", "table"])
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--field", nargs=4, default=["greedy"] * 4)
    a = ap.parse_args(argv)
    rows = collect(a.n, a.seed, tuple(a.field))
    safe = rows[rows[:, NF] < 0]
    print(f"{len(rows)} rows; passed tiles {len(safe)}, of them in a wait set {int(safe[:, NF + 1].sum())}")
    if a.what == "fit":
        w, res = fit(rows)
        print("DANGER_W =", json.dumps([round(float(v), 4) for v in w]), "nll", round(float(res.fun), 1))
    for which in ("held", "thrown"):
        print(f"\n{which} tiles: | decile | n | mean predicted | observed | 95% Wilson |")
        for d, m, p, o, lo, hi in table(rows, which):
            print(f"| {d} | {m} | {p:.4f} | {o:.4f} | {lo:.4f} - {hi:.4f} |")


if __name__ == "__main__":
    main()
