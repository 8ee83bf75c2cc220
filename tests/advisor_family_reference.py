"""Plain-Python brute force of the exact advisor with ``k = 1`` for Beijing and two-player hands
(:func:`daqing_sim.advise` with ``rules=RuleSet(family=...)``), from the model as the docstring
states it, over every unseen tile.

Independence: hands, wait sets and win values come from the plain-Python references
``reference_beijing`` and ``reference_two_player`` (no import of ``daqing_sim``); the
probabilities are hypergeometric (``math.comb``), not the advisor's products. Nothing here calls
``daqing_sim.advisor``.

The model with ``k = 1``, for a 13-tile state ``S`` with ``D`` own draws to come and ``N`` unseen
tiles: a ready ``S`` (non-empty wait set) has ``p_ready_1 = 1`` and wins when one of its ``D``
draws (then, two-player, ``extra`` more after the wall's end) is a winning tile; otherwise the
first draw ``x`` (probability ``unseen[x] / N``) must allow a discard leaving a ready hand, which
then has ``D - 1`` draws; ``p_win`` and ``ev`` take the best such discard, each on its own.
"""

from __future__ import annotations

from functools import cache
from math import comb

import reference_beijing as RB
import reference_two_player as RT

N_KINDS = 34


def _p_hit(n: int, hits: int, r: int) -> float:
    """P(at least one of ``hits`` tiles among ``r`` draws without replacement from ``n``)."""
    r = min(r, n)
    if r <= 0 or hits <= 0:
        return 0.0
    return 1.0 - comb(n - hits, r) / comb(n, r)


@cache
def waits(counts13: tuple, melds: tuple, family: str) -> tuple:
    ref = RB if family == "beijing" else RT
    return tuple(ref.wait_set(list(counts13), list(melds)))


def concealed(melds) -> bool:
    return all(kind == "concealed_kong" for kind, _ in melds)


@cache
def self_draw_pay(counts13: tuple, melds: tuple, t: int, family: str, declared: bool, when: str,
                  flowers: tuple) -> float:  # fmt: skip
    """The seat's income from a self-drawn win on ``t``; ``when``: "" (a wall tile), "last_tile"
    (the wall's last) or "extra_draw" (two-player, after the wall's end)."""
    how = {when: True} if when else {}
    if family == "beijing":
        return 3.0 * RB.score(list(counts13), list(melds), t, self_draw=True, **how).value
    if declared and concealed(melds):
        how["declared"] = True
    return float(RT.score(list(counts13), list(melds), t, self_draw=True, flowers=flowers, **how).value)


def win_phase(counts13, melds, unseen, r, family, last=False, extra=0, declared=False, flowers=()):
    """(p_win, ev) of a kept ready hand with ``r`` own draws (the last of them the wall's last
    tile when ``last``) and ``extra`` draws after the wall's end."""
    ws = waits(tuple(counts13), tuple(melds), family)
    n = sum(unseen)
    hits = sum(unseen[t] for t in ws)
    if hits == 0:
        return 0.0, 0.0
    key = (tuple(counts13), tuple(melds))

    def mean_pay(when):
        return sum(unseen[t] * self_draw_pay(*key, t, family, declared, when, flowers) for t in ws) / hits

    last = bool(last and r > 0)
    p1 = _p_hit(n, hits, r - last)  # a win before the last tile
    p2 = _p_hit(n, hits, r)
    p3 = _p_hit(n, hits, r + extra)
    ev = p1 * mean_pay("")
    if last:
        ev += (p2 - p1) * mean_pay("last_tile")
    if extra:
        ev += (p3 - p2) * mean_pay("extra_draw")
    return p3, ev


def values_k1(counts13, melds, unseen, draws, family, last=False, extra=0, declared_now=False, flowers=()):
    """``(p_ready_1, p_win, ev)`` of the 13-tile state with ``draws`` own draws (the last of them
    the wall's last tile when ``last``), ``k = 1``."""
    counts13 = list(counts13)
    if waits(tuple(counts13), tuple(melds), family):
        p, ev = win_phase(counts13, melds, unseen, draws, family, last, extra, declared_now, flowers)
        return 1.0, p, ev
    n = sum(unseen)
    if draws <= 0 or n <= 0:
        return 0.0, 0.0, 0.0
    later = concealed(melds)  # a hand made ready later declares (two-player) when concealed
    p_ready = p_win = ev = 0.0
    for x in range(N_KINDS):
        if unseen[x] == 0:
            continue
        px = unseen[x] / n
        c = list(counts13)
        c[x] += 1
        u = list(unseen)
        u[x] -= 1
        best_p = best_e = 0.0
        ready = False
        for d in range(N_KINDS):
            if c[d] == 0:
                continue
            c[d] -= 1
            if waits(tuple(c), tuple(melds), family):
                ready = True
                p, e = win_phase(c, melds, u, draws - 1, family, last, extra, later, flowers)
                best_p, best_e = max(best_p, p), max(best_e, e)
            c[d] += 1
        p_ready += px * ready
        p_win += px * best_p
        ev += px * best_e
    return p_ready, p_win, ev
