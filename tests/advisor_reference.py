"""Plain-Python references for the exact advisor (:func:`daqing_sim.advise`).

They enumerate every sequence of own draws (without replacement from the unseen tiles) and
every discard, with no pruning, and take the best discard separately for each quantity, as
the advisor's model says. A "ready shape" is what the public ``daqing_shanten`` counts as
ready (0 for 13 tiles; for 14 tiles, <= 0 means some discard leaves a ready shape). Wins are
scored through the public ``analyze_hand`` (bao interpretation) and ``settle`` (2^N), not
through the advisor's kernels.

Independence, exactly: these references call the evaluator kernels behind
``ds.daqing_shanten``, ``ds.analyze_hand`` and ``ds.wait_set`` (``daqing_shanten_k``,
``wait_set_k``, ``bao_win_k``) and the scorer behind ``ds.settle`` (``settle_kernel``);
those are checked against the plain-Python ``tests/reference.py`` in
``test_evaluator_reference.py``, ``test_scoring.py`` and ``test_engine_invariants.py``. They
are independent of everything in ``daqing_sim.advisor`` (its enumeration, pruning, world
model, probabilities and expected values), which is what the advisor tests check.
"""

from __future__ import annotations

from functools import cache

import numpy as np

import daqing_sim as ds
from daqing_sim.codes import MELD_KINDS, N_KINDS
from daqing_sim.hand.notation import Hand, Meld

CLASSIC = ds.RuleSet()


def make_hand(counts, melds) -> Hand:
    counts = np.asarray(counts, dtype=np.uint8)
    order = tuple(t for t in range(N_KINDS) for _ in range(int(counts[t])))
    return Hand(counts=counts.copy(), melds=tuple(Meld(MELD_KINDS[k], t) for k, t in melds), order=order)


@cache
def _shanten(counts: tuple, melds: tuple, rules: ds.RuleSet) -> int:
    return ds.daqing_shanten(make_hand(counts, melds), rules)


def ready13(counts, melds, rules=CLASSIC) -> bool:
    return _shanten(tuple(int(c) for c in counts), tuple(melds), rules) == 0


def can_ready14(counts, melds, rules=CLASSIC) -> bool:
    return _shanten(tuple(int(c) for c in counts), tuple(melds), rules) <= 0


def ref_p_ready_1(counts13, melds, unseen, rules=CLASSIC) -> float:
    """Live copies of the tiles t such that hand + t has a discard leaving a ready shape."""
    n = sum(unseen)
    good = 0
    for t in range(N_KINDS):
        if unseen[t] == 0:
            continue
        c = list(counts13)
        c[t] += 1
        if can_ready14(c, melds, rules):
            good += unseen[t]
    return good / n


def _kongs(melds) -> int:
    return sum(MELD_KINDS[k] in ("kong", "concealed_kong", "added_kong") for k, _ in melds)


@cache
def _win_pay(counts13: tuple, melds: tuple, drawn: int, bao: int, rules, seat, dealer, concealed) -> float:
    """The seat's income when its ready ``counts13`` self-draws ``drawn`` (bao ``bao``); 0 if no win."""
    c = list(counts13)
    c[drawn] += 1
    a = ds.analyze_hand(make_hand(c, melds), rules, win_tile=drawn, bao=bao)
    if not a.is_win:
        return 0.0
    pay = ds.settle(
        seat, dealer, "self_draw", big=a.win.big, bao=a.bao_kind, concealed=concealed,
        winner_kongs=_kongs(melds), rules=rules,
    )  # fmt: skip
    return float(pay[seat])


def ref_win(counts13, melds, unseen, draws, rules=CLASSIC, seat=0, dealer=0, concealed=(True,) * 4):
    """(p_win, ev) of a locked ready hand: the bao is a uniform unseen tile, then ``draws`` draws."""
    key = tuple(int(c) for c in counts13)
    n = sum(unseen)
    p_win = ev = 0.0
    for b in range(N_KINDS):
        if unseen[b] == 0:
            continue
        pool = list(unseen)
        pool[b] -= 1
        if rules.bao_kan_instant:
            kinds = {w.tile_kind: w.kind for w in ds.wait_set(make_hand(counts13, melds), rules)}
            if kinds.get(b) == "kanchan":  # 宝卡: a self-drawn 宝中宝 at sight
                pay = ds.settle(
                    seat, dealer, "self_draw", big=True, bao="bao_in_bao", concealed=concealed,
                    winner_kongs=_kongs(melds), rules=rules,
                )  # fmt: skip
                p_win += unseen[b] / n
                ev += unseen[b] / n * float(pay[seat])
                continue
        p, e = _draw_until_win(
            key, tuple(melds), tuple(pool), draws, b, rules, seat, dealer, tuple(concealed)
        )
        p_win += unseen[b] / n * p
        ev += unseen[b] / n * e
    return p_win, ev


def _draw_until_win(counts13, melds, pool, draws, bao, rules, seat, dealer, concealed):
    if draws == 0:
        return 0.0, 0.0
    n = sum(pool)
    p_win = ev = 0.0
    for x in range(N_KINDS):
        if pool[x] == 0:
            continue
        px = pool[x] / n
        pay = _win_pay(counts13, melds, x, bao if x == bao else None, rules, seat, dealer, concealed)
        if pay > 0:
            p_win += px
            ev += px * pay
            continue
        rest = list(pool)
        rest[x] -= 1
        p, e = _draw_until_win(counts13, melds, tuple(rest), draws - 1, bao, rules, seat, dealer, concealed)
        p_win += px * p
        ev += px * e
    return p_win, ev


def ref_values(counts13, melds, unseen, k, draws, rules=CLASSIC, win=True, **scoring) -> np.ndarray:
    """[p_ready_1..p_ready_k, p_win, ev] of a 13-tile state by full enumeration (small k only).

    With ``win=False`` only the ready probabilities (p_win and ev left 0), so that a long
    horizon ``draws`` costs nothing.
    """
    key = (tuple(int(c) for c in counts13), tuple(melds), tuple(int(u) for u in unseen))
    return np.array(_values(*key, 0, k, draws, rules, win, scoring))


def _values(counts13, melds, pool, j, k, draws, rules, win, scoring):
    if ready13(counts13, melds, rules):
        first = max(j - 1, 0)  # ready by own draw j (or already at the start)
        w = ref_win(counts13, melds, pool, draws - j, rules, **scoring) if win else (0.0, 0.0)
        return [0.0] * first + [1.0] * (k - first) + list(w)
    out = [0.0] * (k + 2)
    if j >= min(k, draws):
        return out
    n = sum(pool)
    for x in range(N_KINDS):
        if pool[x] == 0:
            continue
        rest = list(pool)
        rest[x] -= 1
        c = list(counts13)
        c[x] += 1
        best = [0.0] * (k + 2)
        if not win and j + 1 == min(k, draws):  # the last draw: is some discard ready?
            if can_ready14(c, melds, rules):
                out = [o + (pool[x] / n if i >= j and i < k else 0.0) for i, o in enumerate(out)]
            continue
        for d in range(N_KINDS):
            if c[d] == 0:
                continue
            c[d] -= 1
            v = _values(tuple(c), melds, tuple(rest), j + 1, k, draws, rules, win, scoring)
            c[d] += 1
            best = [max(a, b) for a, b in zip(best, v, strict=True)]
        out = [o + pool[x] / n * b for o, b in zip(out, best, strict=True)]
    return out
