"""Fit and check the Beijing expert's estimates on Beijing self-play (not part of the package).

Plays deals one at a time with the event log on, rebuilds every seat's public view from the
log (the same arrays the engine shares with its observations) and, at every discard, records
from the discarding seat's view (:func:`daqing_sim.players.beijing_danger.danger_table`):

* for every other seat ``r``: its ready features and predicted P(ready), and the truth (its
  13 tiles wait on something: a non-empty Beijing wait set);
* for every kind the discarding seat holds, against every other seat: the wait features, the
  predicted P(in r's waits | ready), whether it passed ``r`` (then it is certain: never a
  winning tile, counted), the truth (in ``r``'s wait set), and whether it was the tile thrown;
* for the discarding seat: the win features of the hand it keeps
  (:func:`daqing_sim.players.beijing_value.win_features`) and whether it went on to win.

    python tools/calibrate_danger_beijing.py fit --n 3000 --seed 1101     # prints fitted weights
    python tools/calibrate_danger_beijing.py table --n 3000 --seed 20261213  # deciles, fresh seed
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from scipy import optimize, stats

from daqing_sim.codes import ADDED_KONG, CHI, CHI_LOW, CLAIM_KONG, CLAIM_PENG, CONCEALED_KONG, KONG, PENG
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
from daqing_sim.game.wall import generate_walls
from daqing_sim.hand.beijing import bj_shanten_k, bj_ukeire_k, bj_wait_set_k
from daqing_sim.hand.tables import get_tables
from daqing_sim.players import beijing_danger as D
from daqing_sim.players import beijing_value as V
from daqing_sim.players.observation import CLAIMED, DRAWN_AND_THROWN
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet

NK = 34
LIVE_START = 53
NF, NT, NW = D.N_DF, D.N_TF, V.N_WF


def replay(n, seed, strategies=("greedy",) * 4, rules=None):
    """Replay ``n`` logged deals of ``seed``; yields ``(i, st, obs, s, t, left)`` at every discard
    (``obs`` is seat ``s``'s view before it throws ``t``, ``left`` the undrawn tiles), then
    ``(i, None, None, winner, -1, left)`` at the end of deal ``i`` (winner -1: a draw)."""
    rules = rules or RuleSet(family="beijing")
    _, codes, knobs = encode_strategies(strategies, family="beijing")
    walls, _, seeds = generate_walls(n, seed=seed, family="beijing")
    for i in range(n):
        log = run_walls(walls[i : i + 1], seeds[i : i + 1], rules, codes, knobs, 0, record_log=True)["log"]
        st, obs = new_deal_state("beijing")
        pos = 0
        for k in range(4):
            for _ in range(14 if k == 0 else 13):
                st.conc[k, walls[i, pos]] += 1
                pos += 1
        drawn = np.full(4, -1)
        left = len(walls[i]) - LIVE_START
        winner = -1
        for code, s, t, a, b in log.astype(int):
            if code == EV_DRAW:
                st.conc[s, t] += 1
                st.own_draws[s] += 1
                drawn[s] = t
                left = b
            elif code == EV_DISCARD:
                observe(st, obs, s, 0, left, -1, -1, False, False)
                yield i, st, obs, s, t, left
                st.conc[s, t] -= 1
                st.visible[t] += 1
                j = st.n_pond[s]
                st.pond[s, j] = t
                st.pond_flag[s, j] = DRAWN_AND_THROWN if t == drawn[s] else 0
                st.n_pond[s] = j + 1
                drawn[s] = -1
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
        yield i, None, None, winner, -1, left


def collect(n, seed, strategies=("greedy",) * 4, rules=None):
    """Three row arrays over ``n`` deals of ``seed``: ready rows (features, predicted, truth),
    danger rows (features, q, passed, in waits, ready, P(ready), thrown, ready row) and win rows
    (features, won); and the number of passed tiles found in a wait set."""
    rules = rules or RuleSet(family="beijing")
    tabs = get_tables()
    dead = rules.dead_wall_tiles
    ready_rows, danger_rows, win_rows = [], [], []
    tf = np.zeros((4, NT))
    pt = np.zeros(4)
    feat = np.zeros((4, NK, NF))
    q = np.zeros((4, NK))
    safe = np.zeros((4, NK), dtype=np.uint8)
    wk = np.zeros(NK, dtype=np.int8)
    wf = np.zeros(NW)
    unseen = np.zeros(NK, dtype=np.int32)
    n_violations = 0
    deal_win = []  # (row index in win_rows, seat) of the current deal
    for _, st, obs, s, t, left in replay(n, seed, strategies, rules):
        if st is None:  # the deal's end: s is the winner
            for row, seat in deal_win:
                win_rows[row][NW] = float(seat == s)
            deal_win = []
            continue
        D.danger_table(obs, tf, pt, feat, q, safe)
        held = np.flatnonzero(st.conc[s])
        for r in range(4):
            if r == s:
                continue
            n_w = bj_wait_set_k(st.conc[r], st.mk[r], st.mt[r], st.nm[r], tabs, wk)
            waits = wk >= 0
            ready_rows.append(np.r_[tf[r], pt[r], float(n_w > 0)])
            block = np.zeros((len(held), NF + 7), dtype=np.float32)
            block[:, :NF] = feat[r, held]
            block[:, NF] = q[r, held]
            block[:, NF + 1] = safe[r, held]
            block[:, NF + 2] = waits[held]
            block[:, NF + 3] = n_w > 0
            block[:, NF + 4] = pt[r]
            block[:, NF + 5] = held == t
            block[:, NF + 6] = len(ready_rows) - 1
            n_violations += int((safe[r, held] & waits[held]).sum())
            danger_rows.append(block)
        # the hand kept after the discard (restored: the replay throws the tile itself)
        st.conc[s, t] -= 1
        obs.hand[t] -= 1
        D.unseen_34(obs, unseen)
        sh = bj_shanten_k(st.conc[s], st.nm[s], tabs)
        uk = bj_ukeire_k(st.conc[s], st.nm[s], tabs, unseen, sh)
        V.win_features(sh, uk, max(left - dead, 0) / 4.0, D.open_hand(obs, s), wf)
        st.conc[s, t] += 1
        deal_win.append((len(win_rows), s))
        win_rows.append(np.r_[wf, 0.0])
    return (
        np.array(ready_rows, dtype=np.float64),
        np.concatenate(danger_rows),
        np.array(win_rows, dtype=np.float64),
        n_violations,
    )


def fit_logistic(X, y, l2=1e-3):
    """Maximum-likelihood logistic weights (a small ridge keeps empty features at zero)."""

    def nll(w):
        z = X @ w
        ll = y * z - np.logaddexp(0.0, z)
        g = X.T @ (y - 1.0 / (1.0 + np.exp(-z)))
        return -ll.sum() + l2 * (w @ w), -g + 2 * l2 * w

    res = optimize.minimize(nll, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B")
    return res.x, res


def hazard(theta, X):
    """``S`` of :func:`daqing_sim.players.beijing_danger.hazard` for weights ``exp(theta)``."""
    w = np.exp(theta)
    ns, fh, wp = D.N_SHAPES, D.F_HONOR, D.W_POND
    S = X[:, :ns] @ w[:ns] + w[wp] * (X[:, ns : 2 * ns] @ w[:ns])
    hs = X[:, fh] + w[wp] * X[:, fh + 2]
    hd = X[:, fh + 1] + w[wp] * X[:, fh + 3]
    return S + w[D.W_HONOR] * (w[0] * hs + w[1] * hd)


def fit_waits(danger):
    """Maximum-likelihood weights of P(in waits | ready) = 1 - exp(-S) on the rows whose seat is
    ready and whose tile did not pass it."""
    keep = (danger[:, NF + 3] > 0) & (danger[:, NF + 1] == 0)
    X, y = danger[keep, :NF].astype(np.float64), danger[keep, NF + 2].astype(np.float64)

    def nll(theta):
        S = np.clip(hazard(theta, X), 1e-9, 50)
        return -(y * np.log(-np.expm1(-S)) - (1 - y) * S).sum()

    theta0 = np.log(np.r_[np.ones(D.N_SHAPES), 0.5, 0.5])
    res = optimize.minimize(nll, theta0, method="L-BFGS-B", bounds=[(-12, 5)] * len(theta0))
    return np.exp(res.x), res


def deciles(pred, y):
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


def print_table(title, pred, y):
    print(
        f"\n{title}\n| decile | n | mean predicted | observed | 95% Wilson |\n| --- | --- | --- | --- | --- |"
    )
    for d, m, p, o, lo, hi in deciles(pred, y):
        print(f"| {d} | {m} | {p:.4f} | {o:.4f} | {lo:.4f} - {hi:.4f} |")


def report(ready, danger, win, n_violations):
    passed = danger[:, NF + 1] > 0
    print(
        f"{len(ready)} ready rows ({ready[:, NT + 1].mean():.3f} ready), {len(danger)} held-tile rows, "
        f"{len(win)} win rows; passed tiles {int(passed.sum())}, of them in a wait set {n_violations}"
    )
    print_table("P(ready), every other seat at every discard:", ready[:, NT], ready[:, NT + 1])
    keep = ~passed & (danger[:, NF + 3] > 0)
    print_table(
        "P(in waits | ready), held tiles against ready seats (passed tiles left out):",
        danger[keep, NF].astype(np.float64),
        danger[keep, NF + 2].astype(np.float64),
    )
    p = (danger[:, NF] * danger[:, NF + 4]).astype(np.float64)
    y = danger[:, NF + 2].astype(np.float64)
    print_table(
        "P(deal in) = P(ready) x P(in waits | ready), held tiles (passed left out):", p[~passed], y[~passed]
    )
    thrown = (danger[:, NF + 5] > 0) & ~passed
    print_table("P(deal in), the tiles thrown (passed left out):", p[thrown], y[thrown])
    print_table("P(win | hand kept), every discard:", win_probability(win[:, :NW], V.WIN_W), win[:, NW])


def win_probability(X, w):
    """:func:`daqing_sim.players.beijing_value.win_probability` of feature rows."""
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    not_ready = X[:, V.W_SH1 : V.W_SH3 + 1].sum(axis=1) > 0  # shanten 1 or more
    p[not_ready & (X[:, V.W_DRAWS] <= 0)] = 0.0
    return p


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["fit", "table"])
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1101)
    ap.add_argument("--field", nargs=4, default=["greedy"] * 4)
    a = ap.parse_args(argv)
    ready, danger, win, n_violations = collect(a.n, a.seed, tuple(a.field))
    if a.what == "fit":
        wt, _ = fit_logistic(ready[:, :NT], ready[:, NT + 1])
        ww, res = fit_waits(danger)
        wp, _ = fit_logistic(win[:, :NW], win[:, NW])
        print("TENPAI_W =", json.dumps([round(float(v), 4) for v in wt]))
        print("DANGER_W =", json.dumps([round(float(v), 4) for v in ww]), "nll", round(float(res.fun), 1))
        print("WIN_W =", json.dumps([round(float(v), 4) for v in wp]))
        # the tables below with the fitted weights (in-sample)
        V.WIN_W[:] = wp
        ready[:, NT] = 1.0 / (1.0 + np.exp(-(ready[:, :NT] @ wt)))
        danger[:, NF + 4] = ready[danger[:, NF + 6].astype(np.int64), NT]
        live = danger[:, NF + 1] == 0
        danger[live, NF] = -np.expm1(-hazard(np.log(ww), danger[live, :NF]))
    report(ready, danger, win, n_violations)


if __name__ == "__main__":
    main()
