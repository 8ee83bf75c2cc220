"""Per-suit lookup tables for the hand evaluator, built once and cached on disk.

A suit is a vector of nine counts (0-4). Every suit vector a hand can hold (sum <= 14)
gets a dense *rank* (0 .. 405,349) computed from a small offset table, so the big tables
are indexed by rank instead of the sparse base-5 key.

Tables (returned by :func:`get_tables` as one tuple ``tabs``, passed to every kernel):

``off`` (9, 19, 5) int32
    rank of a suit = ``sum(off[i, prefix_sum_i, c_i])``.
``suit_std`` (R, 10) uint8
    fewest tiles a suit must gain to hold exactly ``m`` melds and ``p`` pairs (column
    ``2*m + p``), each kind at most four copies: the standard-shanten building block.
``suit_dq`` (R, 80) uint8
    the same with required features ``F`` (column ``10*F + 2*m + p``): bit 1 a split with a
    sequence, bit 2 a kind with three or more copies, bit 4 a terminal (rank 1 or 9).
    The target must have *at least* the features of ``F``; ``F = 0`` equals ``suit_std``.
``comp_idx`` (R,) int32
    index of a *complete* suit (all its tiles split into melds and at most one pair), else -1.
``comp_flags`` (C,) uint8
    bit 1 some split has a sequence, bit 2 some split has a triplet.
``comp_roles`` (C, 9) uint32
    for each position, bit ``4*role + 2*has_seq + has_trip`` is set when some split puts a tile
    of that position in ``role`` (wait kind code) while the split has / lacks a sequence and a
    triplet group.

and, past the merge tables (``std_id``, ``ab_id``, ``fin``, ``dq_id``, ``dq_rows``,
``fin_suits``, see :func:`_std_merge_tables`), last in the tuple:

``key_std_id`` (5^9,) uint8
    ``std_id`` of a suit by its base-5 key ``sum(c_i * 5**i)``, so a one-tile change is
    ``key ± 5**i`` and one lookup (derived at load time, not stored in the cache file).

The distance tables use ``f(c) = 0`` when ``c`` covers a target, else
``1 + min_i f(c + e_i)``, swept over all 5^9 vectors in order of their tile sum.
"""

from __future__ import annotations

import itertools
import os
from collections import namedtuple
from pathlib import Path

import numpy as np
from numba import njit

from daqing_sim.codes import DUAL_PAIR, EDGE, KANCHAN, SINGLE, TWO_SIDED

TABLE_VERSION = 3
MAX_SUIT_SUM = 14
F_SEQ, F_TRIP, F_TERM = 1, 2, 4
N_FLAGSETS = 8
N_COLS = 10 * N_FLAGSETS
INF = 99
POW5 = 5 ** np.arange(9, dtype=np.int64)
N_KEYS = 5**9

_cache: tuple | None = None


def _rank_offsets() -> tuple[np.ndarray, int]:
    # n_vec[j, b]: vectors of length j, entries 0-4, sum <= b
    n_vec = np.zeros((10, 40), dtype=np.int64)
    n_vec[0, :] = 1
    for j in range(1, 10):
        for b in range(40):
            n_vec[j, b] = sum(n_vec[j - 1, b - u] for u in range(5) if b - u >= 0)
    off = np.zeros((9, 19, 5), dtype=np.int32)
    for i in range(9):
        for s in range(19):
            acc = 0
            for v in range(5):
                off[i, s, v] = acc
                left = MAX_SUIT_SUM - s - v
                acc += n_vec[8 - i, left] if left >= 0 else 0
    return off, int(n_vec[9, MAX_SUIT_SUM])


def _decompositions():
    """Every split of a suit into <= 4 melds and <= 1 pair with no kind above 4 copies.

    Yields ``(w, n_melds, n_pairs, has_seq, has_trip, groups)`` where groups are
    ``(kind, start)`` with kind 0 sequence, 1 triplet, 2 pair.
    """
    melds = [(0, j) for j in range(7)] + [(1, j) for j in range(9)]
    for k in range(5):
        for combo in itertools.combinations_with_replacement(melds, k):
            for pair in [None, *range(9)]:
                w = np.zeros(9, dtype=np.int64)
                for kind, j in combo:
                    if kind == 0:
                        w[j : j + 3] += 1
                    else:
                        w[j] += 3
                groups = list(combo)
                if pair is not None:
                    w[pair] += 2
                    groups.append((2, pair))
                if w.max() > 4:
                    continue
                has_seq = any(kind == 0 for kind, _ in combo)
                has_trip = any(kind == 1 for kind, _ in combo)
                yield w, k, int(pair is not None), has_seq, has_trip, groups


def _roles(groups) -> np.ndarray:
    """Bitmask per position of the roles (wait kind codes) its tiles play in one split."""
    roles = np.zeros(9, dtype=np.int64)
    for kind, j in groups:
        if kind == 0:
            roles[j + 1] |= 1 << KANCHAN
            roles[j] |= 1 << (EDGE if j == 6 else TWO_SIDED)  # RULES: 边张 7 on 89
            roles[j + 2] |= 1 << (EDGE if j == 0 else TWO_SIDED)  # RULES: 边张 3 on 12
        elif kind == 1:
            roles[j] |= 1 << DUAL_PAIR
        else:
            roles[j] |= 1 << SINGLE
    return roles


@njit(cache=True)
def _sweep(member: np.ndarray, sums: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Distance of every base-5 key to the nearest member of each family (column)."""
    n_keys, n_cols = member.shape
    dist = np.empty((n_keys, n_cols), dtype=np.uint8)
    # covered(c) = member(c) or covered(c - e_i): ascending tile sum
    for idx in range(n_keys):
        key = order[idx]
        for col in range(n_cols):
            dist[key, col] = 0 if member[key, col] else 255
        k = key
        p = 1
        for _i in range(9):
            if k % 5 > 0:
                below = key - p
                for col in range(n_cols):
                    if dist[below, col] == 0:
                        dist[key, col] = 0
            k //= 5
            p *= 5
    # f(c) = 1 + min f(c + e_i): descending tile sum
    for idx in range(n_keys - 1, -1, -1):
        key = order[idx]
        k = key
        p = 1
        best = np.full(n_cols, 254, dtype=np.uint8)
        for _i in range(9):
            if k % 5 < 4:
                above = key + p
                for col in range(n_cols):
                    if dist[above, col] < best[col]:
                        best[col] = dist[above, col]
            k //= 5
            p *= 5
        for col in range(n_cols):
            if dist[key, col] != 0:
                v = best[col] + 1
                dist[key, col] = v if v < INF else INF
    return dist


@njit(cache=True)
def _ranks_of_keys(off: np.ndarray, n_keys: int) -> np.ndarray:
    ranks = np.full(n_keys, -1, dtype=np.int64)
    for key in range(n_keys):
        k = key
        s = 0
        r = 0
        for i in range(9):
            v = k % 5
            k //= 5
            if s + v > 18:
                s = 99
                break
            r += off[i, s, v]
            s += v
        if s <= MAX_SUIT_SUM:
            ranks[key] = r
    return ranks


def build_tables() -> tuple:
    """Build all tables from scratch (a few seconds)."""
    off, n_ranks = _rank_offsets()
    keys = np.arange(N_KEYS, dtype=np.int64)
    digits = (keys[:, None] // POW5[None, :]) % 5
    sums = digits.sum(axis=1)
    order = np.argsort(sums, kind="stable")

    member = np.zeros((N_KEYS, N_COLS), dtype=np.bool_)
    comp_flags_by_key: dict[int, int] = {}
    comp_roles_by_key: dict[int, np.ndarray] = {}
    for w, m, p, has_seq, has_trip, groups in _decompositions():
        key = int(w @ POW5)
        feats = (F_SEQ if has_seq else 0) | (F_TRIP if w.max() >= 3 else 0)
        feats |= F_TERM if (w[0] > 0 or w[8] > 0) else 0
        for f in range(N_FLAGSETS):
            if f & feats == f:
                member[key, 10 * f + 2 * m + p] = True
        if w.sum() <= MAX_SUIT_SUM:
            flags = comp_flags_by_key.get(key, 0)
            comp_flags_by_key[key] = flags | (2 if has_seq else 0) | (4 if has_trip else 0)
            roles = _roles(groups)
            shift = 2 * int(has_seq) + int(has_trip)
            acc = comp_roles_by_key.setdefault(key, np.zeros(9, dtype=np.int64))
            for pos in range(9):
                for role in range(5):
                    if roles[pos] >> role & 1:
                        acc[pos] |= 1 << (4 * role + shift)

    dist = _sweep(member, sums, order)
    ranks = _ranks_of_keys(off, N_KEYS)
    valid = ranks >= 0
    assert valid.sum() == n_ranks
    suit_dq = np.empty((n_ranks, N_COLS), dtype=np.uint8)
    suit_dq[ranks[valid]] = dist[valid]
    suit_std = np.ascontiguousarray(suit_dq[:, :10])

    comp_keys = sorted(comp_flags_by_key)
    comp_idx = np.full(n_ranks, -1, dtype=np.int32)
    comp_flags = np.zeros(len(comp_keys), dtype=np.uint8)
    comp_roles = np.zeros((len(comp_keys), 9), dtype=np.uint32)
    for ci, key in enumerate(comp_keys):
        comp_idx[ranks[key]] = ci
        comp_flags[ci] = comp_flags_by_key[key] >> 1
        comp_roles[ci] = comp_roles_by_key[key]
    std_id, ab_id, fin, fin_suits = _std_merge_tables(suit_std)
    dq_rows, dq_id = _unique_rows(suit_dq)
    return (
        off,
        suit_std,
        suit_dq,
        comp_idx,
        comp_flags,
        comp_roles,
        std_id,
        ab_id,
        fin,
        dq_id.astype(np.uint16),
        dq_rows,
        fin_suits,
    )


def _unique_rows(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(a, axis=0, return_inverse=True)`` for uint8 rows, via a byte view (fast)."""
    a = np.ascontiguousarray(a)
    view = a.view(np.dtype((np.void, a.shape[1]))).ravel()
    _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
    return a[first], inverse.ravel()


def _std_merge_tables(suit_std: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Standard shanten by three small lookups instead of a min-plus merge per hand.

    Only ~130 distinct suit rows exist, so suits are named by row id (``std_id``); two suits
    merge through ``ab_id[id_a, id_b]`` into a row of the pair, and
    ``fin[ab, id_c, n_zhong, melds]`` is the distance of the whole hand.
    """
    rows, std_id = _unique_rows(suit_std)
    rows = rows.astype(np.int64)
    n = len(rows)
    a = rows[:, None, :]
    b = rows[None, :, :]
    merged = np.empty((n, n, 10), dtype=np.int64)
    for m in range(5):
        v0 = np.full((n, n), 10 * INF, dtype=np.int64)
        v1 = v0.copy()
        for m1 in range(m + 1):
            m2 = m - m1
            v0 = np.minimum(v0, a[..., 2 * m1] + b[..., 2 * m2])
            v1 = np.minimum(v1, a[..., 2 * m1] + b[..., 2 * m2 + 1])
            v1 = np.minimum(v1, a[..., 2 * m1 + 1] + b[..., 2 * m2])
        merged[..., 2 * m], merged[..., 2 * m + 1] = v0, v1
    ab_rows, ab_id = np.unique(merged.reshape(n * n, 10), axis=0, return_inverse=True)
    ab_id = ab_id.reshape(n, n).astype(np.int32)
    n_ab = len(ab_rows)
    fin = np.full((n_ab, n, 5, 5), 255, dtype=np.int64)
    ab = ab_rows[:, None, :]
    c = rows[None, :, :]
    for z in range(5):
        pair_cost = max(0, 2 - z)
        trip_cost = max(0, 3 - z)
        for melds in range(5):
            best = np.full((n_ab, n), 10 * INF, dtype=np.int64)
            for m3 in range(melds + 1):
                r = melds - m3
                best = np.minimum(best, c[..., 2 * m3] + ab[..., 2 * r + 1])
                best = np.minimum(best, c[..., 2 * m3 + 1] + ab[..., 2 * r])
                best = np.minimum(best, pair_cost + c[..., 2 * m3] + ab[..., 2 * r])
                if r >= 1:
                    best = np.minimum(best, trip_cost + c[..., 2 * m3] + ab[..., 2 * (r - 1) + 1])
                    best = np.minimum(best, trip_cost + c[..., 2 * m3 + 1] + ab[..., 2 * (r - 1)])
            fin[:, :, z, melds] = np.minimum(best, 254)
    # the three suits alone, for m melds and p pairs: fin_suits[ab, id_c, m, p]
    fin_suits = np.full((n_ab, n, 5, 2), 255, dtype=np.int64)
    for melds in range(5):
        for p in range(2):
            best = np.full((n_ab, n), 10 * INF, dtype=np.int64)
            for m3 in range(melds + 1):
                r = melds - m3
                for p3 in range(p + 1):
                    best = np.minimum(best, c[..., 2 * m3 + p3] + ab[..., 2 * r + p - p3])
            fin_suits[:, :, melds, p] = np.minimum(best, 254)
    return std_id.astype(np.uint8), ab_id, fin.astype(np.uint8), fin_suits.astype(np.uint8)


_NAMES = (
    "off",
    "suit_std",
    "suit_dq",
    "comp_idx",
    "comp_flags",
    "comp_roles",
    "std_id",
    "ab_id",
    "fin",
    "dq_id",
    "dq_rows",
    "fin_suits",
)


#: The evaluator's lookup tables, passed to every kernel as one argument (a namedtuple of arrays
#: is a numba type: fields are read by name in the kernels and cached like any argument).
Tables = namedtuple("Tables", (*_NAMES, "key_std_id"))


def cache_dir() -> Path:
    """Where the tables are cached: ``$DAQING_SIM_CACHE`` or ``~/.cache/daqing_sim``."""
    env = os.environ.get("DAQING_SIM_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "daqing_sim"


def get_tables() -> Tables:
    """The evaluator tables, from memory, the disk cache, or built (and cached)."""
    global _cache
    if _cache is not None:
        return _cache
    path = cache_dir() / f"tables-v{TABLE_VERSION}.npz"
    tabs = None
    if path.exists():
        try:
            with np.load(path) as data:
                tabs = tuple(data[name] for name in _NAMES)
        except (OSError, ValueError, KeyError):
            tabs = None  # a damaged cache is rebuilt below
    if tabs is None:
        tabs = build_tables()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
            np.savez(tmp, **dict(zip(_NAMES, tabs, strict=True)))
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only home only costs a rebuild next time
    ranks = _ranks_of_keys(tabs[0], N_KEYS)
    key_std_id = np.where(ranks >= 0, tabs[6][np.maximum(ranks, 0)], 0).astype(np.uint8)
    _cache = Tables(*(np.ascontiguousarray(t) for t in (*tabs, key_std_id)))
    return _cache
