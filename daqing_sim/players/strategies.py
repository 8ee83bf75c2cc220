"""Simulated players: strategy names, knobs, and the jitted decision functions.

Each seat plays one strategy with a ``float64`` knob vector. The engine asks three
questions, each answered by a jitted function that sees only an *observation*:

* :func:`choose_discard` — which tile to discard, and whether that discard declares ready;
* :func:`choose_claim` — whether to claim another player's discard (peng, kong or chi);
* :func:`choose_kong` — whether to declare a concealed or added kong on one's own turn.

The observation is the seat's own concealed counts ``hand`` (28,) and melds ``(mk, mt, nm)``,
``visible`` (28,) counts of every discard and exposed meld tile, ``ready`` (4,) flags,
``safe`` (4, 28) tiles each locked ready player has let pass, the number of tiles left in
the live wall, the bao (``-1`` unless this seat has declared ready), the seat and its PRNG
state ``rng`` (updated in place). Winning is not a decision: a ready player always wins.

Strategies
----------
``greedy``
    Discards to minimise the Daqing shanten (``daqing_shanten_k``), breaking ties by ukeire
    (unseen tiles near the hand, a held 中 or within two ranks of a held tile of its suit,
    that lower the standard shanten below the discard's; a standard-ready hand that is not
    ready counts as one away, so there every near unseen tile counts), then by the lower
    standard shanten, then by the lowest tile kind. A discard more than ``EXACT_DEPTH`` from
    ready is rated by its standard shanten (the kernel only gives a table bound there).
    Claims chi/peng/kong when that opens the door without raising its shanten, or lowers
    it; declares a kong that does not raise it; declares ready at once, on the wait with
    the most live outs.
``jia_hunter``
    Greedy, but when declaring ready it prefers a 夹 (kanchan / big) wait unless that wait's
    live outs fall below ``min_outs_fraction`` of the best wait's.
``defensive``
    Greedy, but when an opponent is ready and its own shanten is at least ``fold_shanten``
    it discards the safest tile (one the ready player let pass; else a kind whose other
    copies are all visible) and claims nothing, to avoid dealing in while not ready (点黑炮).
``random``
    Uniformly random legal discards, claims and kongs; declares ready whenever it can.
``scripted``
    For constructed test deals and worked examples: discards the tiles of ``script`` (tile
    names or kinds) in order as they are in hand, otherwise the tile just drawn (or, after
    a claim, its highest tile); claims (kong > peng > chi) when ``claim`` is 1 and declares
    kongs when ``kong`` is 1; declares ready whenever it can.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba import njit

from daqing_sim.codes import (
    ADDED_KONG,
    CHI,
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    CLAIM_KONG,
    CLAIM_PENG,
    CONCEALED_KONG,
    KONG,
    OPT_ADDED_KONG,
    OPT_CONCEALED_KONG,
    PASS,
    PENG,
    ZHONG,
)
from daqing_sim.hand.kernels import daqing_shanten_k, may_declare_k, std_shanten_k, wait_set_k

RANDOM, GREEDY, JIA_HUNTER, DEFENSIVE, SCRIPTED = 0, 1, 2, 3, 4
STRATEGY_NAMES = ("random", "greedy", "jia_hunter", "defensive", "scripted")

KNOB_NAMES = ("min_outs_fraction", "fold_shanten", "claim", "kong")
K_MIN_OUTS_FRACTION, K_FOLD_SHANTEN, K_CLAIM, K_KONG = 0, 1, 2, 3
K_SCRIPT = len(KNOB_NAMES)
MAX_SCRIPT = 24
N_KNOBS = K_SCRIPT + MAX_SCRIPT

#: Strategy name -> its knobs and their defaults.
STRATEGIES: dict[str, dict[str, float]] = {
    "greedy": {},
    "jia_hunter": {"min_outs_fraction": 0.5},
    "defensive": {"fold_shanten": 2.0},
    "random": {},
    "scripted": {"claim": 0.0, "kong": 0.0, "script": ()},
}

# Beyond this standard shanten the Daqing value is only a table bound: greedy compares the
# standard shanten there, which is ten times cheaper.
EXACT_DEPTH = 2
UNKNOWN = -99
N_SCRATCH = 4  # rows of the int32 (N_SCRATCH, 28) scratch array ``sc`` of choose_discard


# ---------------------------------------------------------------------------- Python side
def strategy_code(name: str) -> int:
    """Numeric code of a strategy name."""
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; valid strategies: {', '.join(STRATEGIES)}")
    return STRATEGY_NAMES.index(name)


def encode_strategies(
    strategies: Sequence[Any], knobs: Sequence[Mapping[str, float] | None] | None = None
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """Validate four seat strategies and encode them for the engine.

    Parameters
    ----------
    strategies : sequence of 4
        Each a strategy name or ``(name, {knob: value})``.
    knobs : sequence of 4 mappings, optional
        Extra knob overrides per seat (applied after those given with the names).

    Returns
    -------
    names : tuple of str
    codes : numpy.ndarray
        ``int64 (4,)``.
    knob_values : numpy.ndarray
        ``float64 (4, N_KNOBS)``, defaults filled in.

    Raises
    ------
    ValueError
        On a wrong number of seats, an unknown strategy or knob, or a knob out of range.
    """
    if isinstance(strategies, str) or not isinstance(strategies, Sequence):
        raise ValueError(
            f"strategies must be four strategy names (one per seat), not {strategies!r}; "
            f"e.g. ('greedy',) * 4; valid: {', '.join(STRATEGIES)}"
        )
    if len(strategies) != 4:
        raise ValueError(f"strategies has {len(strategies)} entries: give one per seat (four)")
    if knobs is not None and (isinstance(knobs, str | Mapping) or len(knobs) != 4):
        raise ValueError("knobs must be four mappings (one per seat, None for defaults)")
    names = []
    codes = np.zeros(4, dtype=np.int64)
    values = np.zeros((4, N_KNOBS), dtype=np.float64)
    for seat, item in enumerate(strategies):
        over: dict[str, Any] = {}
        if isinstance(item, tuple | list) and len(item) == 2 and isinstance(item[1], Mapping | None):
            name, extra = item[0], dict(item[1] or {})
            over.update(extra)
        else:
            name = item
        if not isinstance(name, str):
            raise ValueError(f"strategy of seat {seat} must be a name, not {name!r}")
        codes[seat] = strategy_code(name)
        if knobs is not None and knobs[seat]:
            over.update(knobs[seat])
        allowed = STRATEGIES[name]
        bad = sorted(set(over) - set(allowed))
        if bad:
            valid = ", ".join(allowed) or "none"
            raise ValueError(f"unknown knob(s) {', '.join(bad)} for strategy {name!r}; valid knobs: {valid}")
        full = {**allowed, **over}
        script = full.pop("script", ())
        if name == "scripted":
            values[seat, K_SCRIPT:] = -1.0
            values[seat, K_SCRIPT : K_SCRIPT + len(_script_tiles(script, seat))] = _script_tiles(script, seat)
        for k, v in full.items():
            if isinstance(v, bool) or not isinstance(v, int | float | np.integer | np.floating):
                raise ValueError(f"knob {k} of seat {seat} must be a number, not {v!r}")
            values[seat, KNOB_NAMES.index(k)] = float(v)
        if "min_outs_fraction" in full and not 0.0 <= full["min_outs_fraction"] <= 1.0:
            raise ValueError(f"min_outs_fraction={full['min_outs_fraction']} is out of range: use 0 to 1")
        if "fold_shanten" in full and full["fold_shanten"] < 0:
            raise ValueError(f"fold_shanten={full['fold_shanten']} is negative: use 0 (always fold) or more")
        names.append(name)
    return tuple(names), codes, values


def _script_tiles(script: Any, seat: int) -> list[int]:
    from daqing_sim.hand.tiles import tile_from_name

    if isinstance(script, str):
        from daqing_sim.hand.notation import parse_hand

        return list(parse_hand(script, require_full=False).order)
    tiles = []
    for x in script:
        t = tile_from_name(x) if isinstance(x, str) else x
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 0 <= t < 28:
            raise ValueError(
                f"script of seat {seat}: {x!r} is not a tile (use names like '4m' or kinds 0-27)"
            )
        tiles.append(int(t))
    if len(tiles) > MAX_SCRIPT:
        raise ValueError(f"script of seat {seat} has {len(tiles)} tiles: at most {MAX_SCRIPT}")
    return tiles


# ---------------------------------------------------------------------------- randomness
@njit(cache=True)
def splitmix64(x):
    """One splitmix64 output of the state ``x`` (uint64)."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def rand_below(rng, seat, n):
    """Uniform integer in ``0 .. n-1`` from seat ``seat``'s stream (advances ``rng[seat]``)."""
    rng[seat] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[seat]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(n))


# ---------------------------------------------------------------------------- helpers
@njit(cache=True)
def unseen_counts(hand, mk, mt, nm, visible, out):
    """Copies of each kind this seat cannot see (its hand, concealed kongs, visible tiles)."""
    for t in range(28):
        out[t] = 4 - np.int32(hand[t]) - np.int32(visible[t])
    for i in range(nm):
        if mk[i] == CONCEALED_KONG:
            out[mt[i]] -= 4
    for t in range(28):
        if out[t] < 0:
            out[t] = 0


@njit(cache=True, inline="always")
def _near(hand, u):
    if hand[u] > 0:
        return True
    if u == ZHONG:
        return False
    r = u % 9
    for d in range(-2, 3):
        if 0 <= r + d <= 8 and hand[u + d] > 0:
            return True
    return False


_POW5 = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)


@njit(cache=True, inline="always")
def _suit_key(hand, base):
    key = 0
    for i in range(8, -1, -1):
        key = 5 * key + np.int64(hand[base + i])
    return key


# Standard shanten of one-tile changes by the merge tables of daqing_sim.hand.tables: a suit is
# named by its base-5 key, so a change is ``key ± 5**i`` and one lookup in ``key_std_id``
# (``key_std_id``), and the two untouched suits are merged once (``ab_id``) for all
# changes in the third (the greedy inner loop: every discard, then every tile it could draw).
@njit(cache=True, inline="always")
def _suit_split(hand, tabs):
    """Per-suit keys, the row id of each suit, the 中 count, the meld target, and the merged
    row of each pair of suits (``ab12`` leaves out suit 0, ``ab02`` suit 1, ``ab01`` suit 2)."""
    kid = tabs.key_std_id
    ab_id = tabs.ab_id
    n = 0
    for t in range(28):
        n += np.int64(hand[t])
    k0 = _suit_key(hand, 0)
    k1 = _suit_key(hand, 9)
    k2 = _suit_key(hand, 18)
    i0 = kid[k0]
    i1 = kid[k1]
    i2 = kid[k2]
    return k0, k1, k2, i2, np.int64(hand[ZHONG]), n, ab_id[i1, i2], ab_id[i0, i2], ab_id[i0, i1]


@njit(cache=True)
def discard_shanten(hand, tabs, out):
    """``out[t]`` = standard shanten of the ``3k+2`` ``hand`` without one ``t`` (99 where
    ``hand[t] == 0``); ``hand`` is not modified."""
    kid = tabs.key_std_id
    fin = tabs.fin
    k0, k1, k2, i2, z, n, ab12, ab02, ab01 = _suit_split(hand, tabs)
    melds = n // 3
    for t in range(28):
        if hand[t] == 0:
            out[t] = 99
        elif t == ZHONG:
            out[t] = np.int64(fin[ab01, i2, z - 1, melds]) - 1
        elif t < 9:
            out[t] = np.int64(fin[ab12, kid[k0 - _POW5[t]], z, melds]) - 1
        elif t < 18:
            out[t] = np.int64(fin[ab02, kid[k1 - _POW5[t - 9]], z, melds]) - 1
        else:
            out[t] = np.int64(fin[ab01, kid[k2 - _POW5[t - 18]], z, melds]) - 1


@njit(cache=True)
def ukeire_after(hand, d, level, unseen, tabs):
    """Unseen tiles that lower the standard shanten of the ``3k+2`` ``hand`` without one ``d``
    below ``level`` (that hand's shanten): the greedy tie-break. Only tiles near the hand
    (:func:`_near`) are tried: an isolated tile never helps. ``hand`` is restored."""
    kid = tabs.key_std_id
    fin = tabs.fin
    hand[d] -= 1
    k0, k1, k2, i2, z, n, ab12, ab02, ab01 = _suit_split(hand, tabs)
    melds = (n + 1) // 3
    total = 0
    for u in range(28):
        if unseen[u] == 0 or not _near(hand, u):
            continue
        if u == ZHONG:
            v = fin[ab01, i2, z + 1, melds]
        elif u < 9:
            v = fin[ab12, kid[k0 + _POW5[u]], z, melds]
        elif u < 18:
            v = fin[ab02, kid[k1 + _POW5[u - 9]], z, melds]
        else:
            v = fin[ab01, kid[k2 + _POW5[u - 18]], z, melds]
        if np.int64(v) - 1 < level:
            total += unseen[u]
    hand[d] += 1
    return total


@njit(cache=True)
def wait_outs(hand, mk, mt, nm, rules, tabs, unseen, tk, tb):
    """``(n_waits, live_outs, big_outs)`` of a 13-tile hand; fills ``tk``/``tb``."""
    n = wait_set_k(hand, mk, mt, nm, rules, tabs, tk, tb)
    outs = 0
    big = 0
    if n > 0:
        for w in range(28):
            if tk[w] >= 0:
                outs += unseen[w]
                if tb[w]:
                    big += unseen[w]
    return n, outs, big


@njit(cache=True)
def _can_declare_after(hand, mk, mt, nm, rules):
    for t in range(28):
        if hand[t] > 0:
            hand[t] -= 1
            ok = may_declare_k(hand, mk, mt, nm, rules)
            hand[t] += 1
            return ok
    return False


@njit(cache=True)
def _is_open(mk, nm):
    for i in range(nm):
        if mk[i] != CONCEALED_KONG:
            return True
    return False


@njit(cache=True)
def _pick_ready_discard(code, kn, hand, mk, mt, nm, rules, tabs, unseen, cand, tk, tb, rng, seat):
    """Among discards ``t`` with ``cand[t]`` that leave a ready hand, the one to declare on."""
    best_t = -1
    best_outs = -1
    jia_t = -1
    jia_outs = -1
    n_ready = 0
    for t in range(28):
        if not cand[t] or hand[t] == 0:
            continue
        hand[t] -= 1
        n, outs, big = wait_outs(hand, mk, mt, nm, rules, tabs, unseen, tk, tb)
        hand[t] += 1
        if n == 0:
            continue
        n_ready += 1
        if code == RANDOM:
            if rand_below(rng, seat, n_ready) == 0:
                best_t = t
            continue
        if outs > best_outs:
            best_outs = outs
            best_t = t
        if big > 0 and outs > jia_outs:
            jia_outs = outs
            jia_t = t
    if code == JIA_HUNTER and jia_t >= 0 and jia_outs >= kn[K_MIN_OUTS_FRACTION] * best_outs:
        return jia_t
    return best_t


# ---------------------------------------------------------------------------- decisions
@njit(cache=True)
def choose_discard(
    code,
    kn,
    hand,
    mk,
    mt,
    nm,
    visible,
    ready,
    safe,
    wall_left,
    bao,
    seat,
    rng,
    rules,
    tabs,
    drawn,
    memo,
    must_declare,
    keep_ready,
    sc,
    tk,
    tb,
):
    """Choose a discard from the seat's ``3k+2`` concealed tiles.

    ``drawn`` is the tile just drawn (-1 after a claim); ``memo`` the seat's own memory row.
    ``must_declare``: the discard must declare ready (after a 上听吃三家 chi).
    ``keep_ready``: the seat is ready with an unlocked hand and must stay ready.
    ``sc`` is an ``int32 (4, 28)`` scratch array, ``tk``/``tb`` wait-set scratch.

    Returns
    -------
    (tile, declare, shanten)
        ``shanten`` is the Daqing shanten of the hand left (``UNKNOWN`` if not computed).
    """
    unseen = sc[0]
    cand = sc[1]
    unseen_counts(hand, mk, mt, nm, visible, unseen)
    if keep_ready or must_declare:
        for t in range(28):
            cand[t] = 1 if hand[t] > 0 else 0
        t = _pick_ready_discard(code, kn, hand, mk, mt, nm, rules, tabs, unseen, cand, tk, tb, rng, seat)
        return t, must_declare, 0
    if code == RANDOM or code == SCRIPTED:
        t = simple_discard(code, kn, hand, drawn, memo, rng, seat)
        hand[t] -= 1
        declare = maybe_ready(hand) and may_declare_k(hand, mk, mt, nm, rules)
        if declare:
            declare = ready_shape(hand, mk, mt, nm, rules, tabs, tk, tb)
        hand[t] += 1
        return t, declare, UNKNOWN
    return _greedy_discard(
        code, kn, hand, mk, mt, nm, visible, ready, safe, seat, rng, rules, tabs, unseen, sc, tk, tb
    )


@njit(cache=True, inline="always")
def maybe_ready(hand):
    """Cheap necessary condition for a 13-tile hand to be ready: at most one isolated tile
    (a single copy with no tile of its suit within two ranks)."""
    isolated = 0
    for t in range(28):
        if hand[t] != 1:
            continue
        alone = True
        if t != ZHONG:
            r = t % 9
            for d in (-2, -1, 1, 2):
                if 0 <= r + d <= 8 and hand[t + d] > 0:
                    alone = False
                    break
        if alone:
            isolated += 1
            if isolated > 1:
                return False
    return True


@njit(cache=True)
def ready_shape(hand, mk, mt, nm, rules, tabs, tk, tb):
    """Is the 13-tile ``hand`` ready (non-empty wait set)? Open door is not checked."""
    return std_shanten_k(hand, tabs) == 0 and wait_set_k(hand, mk, mt, nm, rules, tabs, tk, tb) > 0


@njit(cache=True, inline="always")
def simple_discard(code, kn, hand, drawn, memo, rng, seat):
    """Discard of the strategies that never evaluate the hand (``random``, ``scripted``).

    Kept apart from :func:`choose_discard` so the engine can call it without the hand tables.
    """
    if code == SCRIPTED:
        return _scripted_discard(kn, hand, drawn, memo)
    return random_discard(hand, rng, seat)


@njit(cache=True, inline="always")
def random_discard(hand, rng, seat):
    """A uniformly random kind among those in ``hand``."""
    kinds = 0
    for t in range(28):
        if hand[t] > 0:
            kinds += 1
    k = rand_below(rng, seat, kinds)
    for t in range(28):
        if hand[t] > 0:
            if k == 0:
                return t
            k -= 1
    return -1


@njit(cache=True, inline="always")
def simple_claim(code, kn, options, rng, seat):
    """Claim decision of ``random`` and ``scripted`` (see :func:`choose_claim`)."""
    if options == 0:
        return PASS
    if code == SCRIPTED:
        if kn[K_CLAIM] <= 0:
            return PASS
        for a in (CLAIM_KONG, CLAIM_PENG, CHI_LOW, CHI_MID, CHI_HIGH):
            if options & (1 << a):
                return a
        return PASS
    return random_claim(options, rng, seat)


@njit(cache=True, inline="always")
def random_claim(options, rng, seat):
    """Pass or one of the legal claims in ``options``, uniformly."""
    n = 1
    for a in range(1, 6):
        if options & (1 << a):
            n += 1
    k = rand_below(rng, seat, n)
    if k == 0:
        return PASS
    for a in range(1, 6):
        if options & (1 << a):
            k -= 1
            if k == 0:
                return a
    return PASS


@njit(cache=True, inline="always")
def _scripted_discard(kn, hand, drawn, memo):
    p = memo[1]
    if p < MAX_SCRIPT and kn[K_SCRIPT + p] >= 0:
        t = np.int64(kn[K_SCRIPT + p])
        if hand[t] > 0:
            memo[1] = p + 1
            return t
    if drawn >= 0:
        return drawn
    for t in range(27, -1, -1):
        if hand[t] > 0:
            return t
    return -1


@njit(cache=True)
def _greedy_discard(
    code, kn, hand, mk, mt, nm, visible, ready, safe, seat, rng, rules, tabs, unseen, sc, tk, tb
):
    std = sc[1]
    dq = sc[2]
    discard_shanten(hand, tabs, std)
    lo = 99
    for t in range(28):
        dq[t] = 99
        if std[t] < lo:
            lo = std[t]
    folding = False
    if code == DEFENSIVE:
        for r in range(4):
            if r != seat and ready[r]:
                folding = True
    if folding and lo >= kn[K_FOLD_SHANTEN]:  # daqing >= standard: already far enough to fold
        return _safest_discard(hand, visible, ready, safe, seat, std, unseen), False, UNKNOWN
    cand = sc[3]
    if lo == 0:
        n_ready = 0
        for t in range(28):
            cand[t] = 0
            if std[t] == 0:
                hand[t] -= 1
                if ready_shape(hand, mk, mt, nm, rules, tabs, tk, tb):
                    cand[t] = 1
                    n_ready += 1
                hand[t] += 1
        if n_ready > 0:
            t = _pick_ready_discard(code, kn, hand, mk, mt, nm, rules, tabs, unseen, cand, tk, tb, rng, seat)
            return t, _can_declare_after(hand, mk, mt, nm, rules), 0
        for t in range(28):
            if std[t] == 0:
                std[t] = 1  # not ready: at least one exchange away
        lo = 1
    if lo > EXACT_DEPTH:
        return _far_discard(hand, std, lo, unseen, tabs), False, lo
    # Branch and bound on (Daqing shanten, -ukeire): the standard shanten is a lower bound of
    # the Daqing one, so discards are visited level by level, best ukeire first, and a level
    # stops at the first discard that reaches its bound.
    uk = sc[3]  # cand (same row) is no longer needed
    for t in range(28):
        uk[t] = -1
    best = 99
    best_t = -1
    best_u = -1
    level = lo
    while level <= best and level <= 13:
        for t in range(28):
            if std[t] == level:
                uk[t] = ukeire_after(hand, t, level, unseen, tabs)
        while True:
            t = -1
            for x in range(28):
                if std[x] == level and dq[x] == 99 and (t < 0 or uk[x] > uk[t]):
                    t = x
            if t < 0 or (level == best and uk[t] <= best_u):
                break
            if level > EXACT_DEPTH:
                v = level  # far from ready the table bound is all the kernel would give
            else:
                hand[t] -= 1
                v = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
                hand[t] += 1
            dq[t] = v
            if v < best or (v == best and uk[t] > best_u):
                best = v
                best_t = t
                best_u = uk[t]
            if v == level:
                break
        level += 1
    if folding and best >= kn[K_FOLD_SHANTEN]:
        return _safest_discard(hand, visible, ready, safe, seat, std, unseen), False, UNKNOWN
    return best_t, False, best


@njit(cache=True)
def _far_discard(hand, std, lo, unseen, tabs):
    """Far from ready: the discard with standard shanten ``lo`` and the most ukeire (lowest
    kind on ties)."""
    best_t = -1
    best_u = -1
    for t in range(28):
        if std[t] == lo:
            u = ukeire_after(hand, t, lo, unseen, tabs)
            if u > best_u:
                best_u = u
                best_t = t
    return best_t


@njit(cache=True)
def _safest_discard(hand, visible, ready, safe, seat, sh, unseen):
    """Fewest ready opponents it can hit; then fewest unseen copies; then lowest shanten
    (``sh``, standard shanten after each discard)."""
    best_t = -1
    best_key = 1 << 30
    for t in range(28):
        if hand[t] == 0:
            continue
        danger = 0
        for r in range(4):
            if r == seat or not ready[r] or safe[r, t]:
                continue
            danger += 2 if visible[t] + hand[t] < 4 else 1
        key = (danger * 8 + unseen[t]) * 128 + min(sh[t], 99)
        if key < best_key:
            best_key = key
            best_t = t
    return best_t


@njit(cache=True)
def _claim_take(hand, t, action):
    """Remove from ``hand`` the tiles a claim of ``t`` uses; return the meld's lowest tile."""
    if action == CLAIM_PENG:
        hand[t] -= 2
        return t
    if action == CLAIM_KONG:
        hand[t] -= 3
        return t
    low = t - (action - CHI_LOW)
    for x in range(low, low + 3):
        if x != t:
            hand[x] -= 1
    return low


@njit(cache=True)
def _claim_give(hand, t, action, low):
    if action == CLAIM_PENG:
        hand[t] += 2
    elif action == CLAIM_KONG:
        hand[t] += 3
    else:
        for x in range(low, low + 3):
            if x != t:
                hand[x] += 1


@njit(cache=True)
def _discard_shanten_below(hand, mk, mt, nm, rules, tabs, limit, out):
    """Least Daqing shanten over the discards of the ``3k+2`` ``hand`` when below ``limit``,
    else ``limit``: discards visited by rising standard shanten (a lower bound), stopping at
    the first that reaches its bound. Same value as ``daqing_shanten_k`` on the hand, capped,
    with the same stand-in beyond ``EXACT_DEPTH`` as :func:`choose_discard`."""
    discard_shanten(hand, tabs, out)
    best = limit
    level = 0
    while level < best:
        for t in range(28):
            if out[t] == level:
                if level > EXACT_DEPTH:
                    return level
                hand[t] -= 1
                v = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
                hand[t] += 1
                if v < best:
                    best = v
                if v == level:
                    return level
        level += 1
    return best


@njit(cache=True)
def current_shanten(hand, mk, mt, nm, rules, tabs, memo):
    """Daqing shanten of the seat's 13-tile hand, cached in ``memo[0]``."""
    if memo[0] == UNKNOWN:
        v = std_shanten_k(hand, tabs)
        if v <= EXACT_DEPTH:  # as in discards: beyond, the standard shanten stands in
            v = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
        memo[0] = v
    return memo[0]


@njit(cache=True)
def choose_claim(
    code,
    kn,
    hand,
    mk,
    mt,
    nm,
    visible,
    ready,
    safe,
    wall_left,
    bao,
    seat,
    rng,
    rules,
    tabs,
    t,
    options,
    memo,
):
    """Claim the discard ``t``? ``options`` is a bit mask of legal actions ``1 << action``.

    Returns the action (``PASS`` to let it go). The engine has already checked legality
    (priority, 手把一, 上听吃三家); a win is never asked (a ready player always wins).
    """
    if code == RANDOM or code == SCRIPTED or options == 0:
        return simple_claim(code, kn, options, rng, seat)
    cur = current_shanten(hand, mk, mt, nm, rules, tabs, memo)
    if code == DEFENSIVE and cur >= kn[K_FOLD_SHANTEN]:
        for r in range(4):
            if r != seat and ready[r]:
                return PASS
    is_open = _is_open(mk, nm)
    best_a = PASS
    best_v = cur if is_open else cur + 1  # opening the door is worth one step
    old_k = mk[min(nm, 3)]
    old_t = mt[min(nm, 3)]
    out = np.empty(28, dtype=np.int32)
    for a in (CLAIM_KONG, CLAIM_PENG, CHI_LOW, CHI_MID, CHI_HIGH):
        if not options & (1 << a):
            continue
        low = _claim_take(hand, t, a)
        mk[nm] = KONG if a == CLAIM_KONG else (PENG if a == CLAIM_PENG else CHI)
        mt[nm] = low
        if a == CLAIM_KONG:  # 13 tiles before the replacement draw
            v = std_shanten_k(hand, tabs)
            if v < best_v and v <= EXACT_DEPTH:
                v = daqing_shanten_k(hand, mk, mt, nm + 1, rules, tabs)
        else:  # 14 tiles: the best discard after the claim
            v = _discard_shanten_below(hand, mk, mt, nm + 1, rules, tabs, best_v, out)
        if v < best_v:
            best_v = v
            best_a = a
        _claim_give(hand, t, a, low)
    if nm < 4:
        mk[nm] = old_k
        mt[nm] = old_t
    return best_a


@njit(cache=True)
def choose_kong(
    code,
    kn,
    hand,
    mk,
    mt,
    nm,
    visible,
    ready,
    safe,
    wall_left,
    bao,
    seat,
    rng,
    rules,
    tabs,
    kong_opts,
):
    """Declare a kong on one's own turn? ``kong_opts[t]`` is ``OPT_CONCEALED_KONG`` or
    ``OPT_ADDED_KONG`` for each legal kong. Returns the tile kind, or -1 for none."""
    n = 0
    for t in range(28):
        if kong_opts[t]:
            n += 1
    if n == 0:
        return -1
    if code == SCRIPTED:
        if kn[K_KONG] > 0:
            for t in range(28):
                if kong_opts[t]:
                    return t
        return -1
    if code == RANDOM:
        k = rand_below(rng, seat, n + 1)
        for t in range(28):
            if kong_opts[t]:
                k -= 1
                if k < 0:
                    return t
        return -1
    cur = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
    for t in range(28):
        if kong_opts[t] == OPT_CONCEALED_KONG and nm < 4:
            old_k = mk[nm]
            old_t = mt[nm]
            hand[t] -= 4
            mk[nm] = CONCEALED_KONG
            mt[nm] = t
            v = daqing_shanten_k(hand, mk, mt, nm + 1, rules, tabs)
            hand[t] += 4
            mk[nm] = old_k
            mt[nm] = old_t
            if v <= cur:
                return t
        elif kong_opts[t] == OPT_ADDED_KONG:
            i = 0
            while i < nm and not (mk[i] == PENG and mt[i] == t):
                i += 1
            hand[t] -= 1
            mk[i] = ADDED_KONG
            v = daqing_shanten_k(hand, mk, mt, nm, rules, tabs)
            mk[i] = PENG
            hand[t] += 1
            if v <= cur:
                return t
    return -1


__all__ = [
    "STRATEGIES",
    "STRATEGY_NAMES",
    "KNOB_NAMES",
    "encode_strategies",
    "strategy_code",
    "choose_discard",
    "choose_claim",
    "choose_kong",
    "RANDOM",
    "GREEDY",
    "JIA_HUNTER",
    "DEFENSIVE",
    "SCRIPTED",
]
