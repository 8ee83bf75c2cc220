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
    ``key ± 5**i`` and one lookup.

The cache file (:func:`cache_path`) is named by a hash of the sources the tables are built from
(:func:`fingerprint`) and checked when read (the hash stored inside, each table's dtype and
shape); anything else is rebuilt, in about two seconds.

The distance tables use ``f(c) = 0`` when ``c`` covers a target, else
``1 + min_i f(c + e_i)``, swept over all 5^9 vectors in order of their tile sum.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import zipfile
from collections import namedtuple
from pathlib import Path

import numpy as np
from numba import njit

from daqing_sim.codes import DUAL_PAIR, EDGE, KANCHAN, SINGLE, TWO_SIDED

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


def _decompositions() -> tuple[np.ndarray, ...]:
    """Every split of a suit into <= 4 melds and <= 1 pair with no kind above 4 copies.

    Returns arrays over the splits: ``key`` (base-5 key of the suit), ``melds``, ``pairs``,
    ``feats`` (the ``F_*`` features the suit has: a sequence in the split, a kind with three or
    more copies, a terminal), ``flags`` (bit 1 the split has a sequence group, bit 2 a triplet
    group) and ``roles`` (n, 9): per position the roles (wait kind codes) its tiles play in the
    split, as a bit mask. Plain Python over small ints (~24,000 splits, a tenth of a second).
    """
    melds = [(0, j) for j in range(7)] + [(1, j) for j in range(9)]
    pow5 = [5**i for i in range(9)]
    out: dict[str, list] = {k: [] for k in ("key", "melds", "pairs", "feats", "flags", "roles")}
    for k in range(5):
        for combo in itertools.combinations_with_replacement(melds, k):
            base = [0] * 9
            roles = [0] * 9
            for kind, j in combo:
                if kind == 0:
                    base[j] += 1
                    base[j + 1] += 1
                    base[j + 2] += 1
                    roles[j + 1] |= 1 << KANCHAN
                    roles[j] |= 1 << (EDGE if j == 6 else TWO_SIDED)  # RULES: 边张 7 on 89
                    roles[j + 2] |= 1 << (EDGE if j == 0 else TWO_SIDED)  # RULES: 边张 3 on 12
                else:
                    base[j] += 3
                    roles[j] |= 1 << DUAL_PAIR
            has_seq = any(kind == 0 for kind, _ in combo)
            has_trip = any(kind == 1 for kind, _ in combo)
            for pair in (None, *range(9)):
                w = base.copy()
                r = roles.copy()
                if pair is not None:
                    w[pair] += 2
                    r[pair] |= 1 << SINGLE
                if max(w) > 4:
                    continue
                feats = (F_SEQ if has_seq else 0) | (F_TRIP if max(w) >= 3 else 0)
                feats |= F_TERM if (w[0] > 0 or w[8] > 0) else 0
                out["key"].append(sum(c * q for c, q in zip(w, pow5, strict=True)))
                out["melds"].append(k)
                out["pairs"].append(int(pair is not None))
                out["feats"].append(feats)
                out["flags"].append((1 if has_seq else 0) | (2 if has_trip else 0))
                out["roles"].append(r)
    names = ("key", "melds", "pairs", "feats", "flags", "roles")
    return tuple(np.array(out[k], dtype=np.int64) for k in names)


@njit(cache=True)
def _tile_sums(n_keys: int) -> np.ndarray:
    """Tile count of every base-5 suit key."""
    sums = np.zeros(n_keys, dtype=np.int8)
    for key in range(n_keys):
        k = key
        s = 0
        for _i in range(9):
            s += k % 5
            k //= 5
        sums[key] = s
    return sums


@njit(cache=True)
def _sweep(dist: np.ndarray, order: np.ndarray) -> None:
    """Distance of every base-5 key to the nearest member of each family (column), in place:
    ``dist`` holds 0 for members and 255 elsewhere on entry; ``order`` sorts keys by tile sum."""
    n_keys, n_cols = dist.shape
    # covered(c) = member(c) or covered(c - e_i): ascending tile sum (0 and 255 only: AND merges)
    for idx in range(n_keys):
        key = order[idx]
        k = key
        p = 1
        for _i in range(9):
            if k % 5 > 0:
                below = key - p
                for col in range(n_cols):
                    dist[key, col] &= dist[below, col]
            k //= 5
            p *= 5
    # f(c) = 1 + min f(c + e_i): descending tile sum
    best = np.empty(n_cols, dtype=np.uint8)
    for idx in range(n_keys - 1, -1, -1):
        key = order[idx]
        for col in range(n_cols):
            best[col] = 254
        k = key
        p = 1
        for _i in range(9):
            if k % 5 < 4:
                above = key + p
                for col in range(n_cols):
                    best[col] = min(best[col], dist[above, col])
            k //= 5
            p *= 5
        for col in range(n_cols):
            if dist[key, col] != 0:
                dist[key, col] = min(best[col] + 1, INF)


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
    """Build all tables from scratch (about a second)."""
    off, n_ranks = _rank_offsets()
    sums = _tile_sums(N_KEYS)
    order = np.argsort(sums, kind="stable")
    key, melds, pairs, feats, flags, roles = _decompositions()
    ranks = _ranks_of_keys(off, N_KEYS)
    valid = np.flatnonzero(ranks >= 0)
    assert valid.size == n_ranks
    key_of_rank = np.empty(n_ranks, dtype=np.int64)
    key_of_rank[ranks[valid]] = valid
    # the sweep goes over every key for a block of columns at a time: one buffer of a fifth of
    # the whole (fresh memory is slow to touch on a virtual machine)
    suit_dq = np.empty((n_ranks, N_COLS), dtype=np.uint8)
    block = 16
    dist = np.empty((N_KEYS, block), dtype=np.uint8)
    col = 10 * np.arange(N_FLAGSETS)[:, None] + 2 * melds[None, :] + pairs[None, :]
    has = (feats[None, :] & np.arange(N_FLAGSETS)[:, None]) == np.arange(N_FLAGSETS)[:, None]
    for c0 in range(0, N_COLS, block):
        dist[:] = 255  # 0 marks a member of the column's family
        for f in range(N_FLAGSETS):
            mine = has[f] & (col[f] >= c0) & (col[f] < c0 + block)
            dist[key[mine], col[f][mine] - c0] = 0
        _sweep(dist, order)
        suit_dq[:, c0 : c0 + block] = dist[key_of_rank]
    suit_std = np.ascontiguousarray(suit_dq[:, :10])

    # complete suits (at most 14 tiles): flags and roles over their splits
    small = sums[key] <= MAX_SUIT_SUM
    comp_keys, inverse = np.unique(key[small], return_inverse=True)
    comp_flags = np.zeros(len(comp_keys), dtype=np.uint8)
    np.bitwise_or.at(comp_flags, inverse, flags[small].astype(np.uint8))
    shift = 2 * (flags[small] & 1) + (flags[small] >> 1)  # 2 * has_seq + has_trip
    bits = np.zeros((int(small.sum()), 9), dtype=np.int64)
    for role in range(5):
        bits |= ((roles[small] >> role) & 1) << (4 * role + shift[:, None])
    comp_roles = np.zeros((len(comp_keys), 9), dtype=np.uint32)
    np.bitwise_or.at(comp_roles, inverse, bits.astype(np.uint32))
    comp_idx = np.full(n_ranks, -1, dtype=np.int32)
    comp_idx[ranks[comp_keys]] = np.arange(len(comp_keys), dtype=np.int32)

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
    """``np.unique(a, axis=0, return_inverse=True)`` for uint8 rows (the same rows in the same
    order, and the same inverse), by a 64-bit hash of each row: sorting 400,000 hashes is ten
    times faster than sorting the rows. Rows are compared after: a hash collision is an error."""
    a = np.ascontiguousarray(a)
    weights = np.random.default_rng(0).integers(1, 2**63, size=a.shape[1], dtype=np.uint64) | np.uint64(1)
    h = np.zeros(a.shape[0], dtype=np.uint64)
    for j in range(a.shape[1]):
        h += a[:, j].astype(np.uint64) * weights[j]
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    rows = a[first]
    for lo in range(0, a.shape[0], 1 << 16):  # every row equals its representative
        if not np.array_equal(a[lo : lo + (1 << 16)], rows[inverse[lo : lo + (1 << 16)]]):
            raise RuntimeError("hash collision between table rows")  # pragma: no cover
    lex = np.lexsort(rows.T[::-1])  # np.unique's order: rows compared byte by byte
    rank = np.empty_like(lex)
    rank[lex] = np.arange(len(lex))
    return rows[lex], rank[inverse.ravel()]


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


def fingerprint() -> str:
    """The tables' identity: a hash of the sources they are built from (this module and
    :mod:`daqing_sim.codes`, whose wait kind codes they store). A cache file is named by it, so an
    edit of either file never loads tables built by other code."""
    from daqing_sim import codes

    digest = hashlib.sha256()
    for path in (__file__, codes.__file__):
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:20]


def cache_path() -> Path:
    """The cache file of the tables built by the current sources."""
    return cache_dir() / f"tables-{fingerprint()}.npz"


#: dtype and number of dimensions of every table (a cache file that differs is rebuilt)
_SPEC = {
    "off": ("int32", 3),
    "suit_std": ("uint8", 2),
    "suit_dq": ("uint8", 2),
    "comp_idx": ("int32", 1),
    "comp_flags": ("uint8", 1),
    "comp_roles": ("uint32", 2),
    "std_id": ("uint8", 1),
    "ab_id": ("int32", 2),
    "fin": ("uint8", 4),
    "dq_id": ("uint16", 1),
    "dq_rows": ("uint8", 2),
    "fin_suits": ("uint8", 4),
    "key_std_id": ("uint8", 1),
}
#: cache files of other sources kept (the most recently used), e.g. for other checkouts
_KEEP_OTHERS = 3


def _key_std_id(off: np.ndarray, std_id: np.ndarray) -> np.ndarray:
    ranks = _ranks_of_keys(off, N_KEYS)
    return np.where(ranks >= 0, std_id[np.maximum(ranks, 0)], 0).astype(np.uint8)


#: tables not stored in the cache file but rebuilt from others on loading (most of the bytes:
#: a compressed save of them took half a second of a first run)
_DERIVED = ("suit_std", "suit_dq")


def _load(path: Path, stamp: str) -> tuple | None:
    """The tables of a cache file, or None when it is missing, damaged or not of ``stamp``."""
    try:
        with np.load(path) as data:
            if str(data["fingerprint"]) != stamp:
                return None
            stored = {name: data[name] for name in Tables._fields if name not in _DERIVED}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None  # a damaged cache is rebuilt
    for name, t in stored.items():
        dtype, ndim = _SPEC[name]
        if t.dtype != np.dtype(dtype) or t.ndim != ndim:
            return None
    dq_rows, dq_id = stored["dq_rows"], stored["dq_id"]
    if dq_rows.shape[1] != N_COLS or dq_id.size == 0 or int(dq_id.max()) >= len(dq_rows):
        return None
    suit_dq = dq_rows[dq_id]  # dq_rows, dq_id are suit_dq's distinct rows and its row ids
    tabs = {**stored, "suit_dq": suit_dq, "suit_std": np.ascontiguousarray(suit_dq[:, :10])}
    n_ranks = suit_dq.shape[0]
    if stored["off"].shape != (9, 19, 5) or stored["key_std_id"].shape != (N_KEYS,):
        return None
    if stored["comp_idx"].shape != (n_ranks,) or stored["std_id"].shape != (n_ranks,):
        return None
    return tuple(tabs[name] for name in Tables._fields)


def _save(path: Path, stamp: str, tabs: tuple) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        stored = {n: t for n, t in zip(Tables._fields, tabs, strict=True) if n not in _DERIVED}
        np.savez_compressed(tmp, fingerprint=np.array(stamp), **stored)
        os.replace(tmp, path)
        others = sorted(
            (f for f in path.parent.glob("tables-*.npz") if f != path and ".tmp" not in f.name),
            key=lambda f: f.stat().st_mtime,
        )
        for f in others[:-_KEEP_OTHERS]:
            f.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only or full cache directory only costs a rebuild next time


def type_stand_ins() -> Tables:
    """Tables of one entry each, of the real tables' dtypes and dimensions: a kernel compiled for
    them (``dispatcher.compile(signature)``) is compiled for the real tables, which need not be
    built yet."""
    return Tables(**{name: np.zeros((1,) * ndim, dtype=dtype) for name, (dtype, ndim) in _SPEC.items()})


def get_tables() -> Tables:
    """The evaluator tables, from memory, the disk cache, or built (and cached)."""
    global _cache
    if _cache is not None:
        return _cache
    stamp = fingerprint()
    path = cache_dir() / f"tables-{stamp}.npz"
    tabs = _load(path, stamp) if path.exists() else None
    if tabs is None:
        built = build_tables()
        tabs = (*built, _key_std_id(built[0], built[6]))
        _save(path, stamp, tabs)
    _cache = Tables(*(np.ascontiguousarray(t) for t in tabs))
    return _cache
