"""Jitted hand kernels of the two-player family (二人麻将: 34 kinds, the full fan table). Private:
the public API is :func:`daqing_sim.hand.evaluator.analyze_hand` and
:func:`daqing_sim.game.score_win.score_win`; the rules are docs/RULES_TWO_PLAYER.md.

Shapes: four melds and a pair, seven pairs (four identical concealed tiles count as two pairs,
as Beijing's) and thirteen orphans (国士无双). Shanten and wait sets are Beijing's kernels
(:mod:`daqing_sim.hand.kinds34`, the same first two shapes) with thirteen orphans added.

Fans (:func:`tp_fans_k`) are read on every split of the hand (every pair, every split of each
suit into sequences and triplets, every group the winning tile can complete, and the seven pairs
and thirteen orphans shapes) and the split worth the most is kept. Patterns are indexed by
``FAN_NAMES``: the first ``N_PATTERNS`` add their ``FAN_VALUES``, the rest are limit hands
(役满), which give F = ``rules[R_LIMIT_FANS]`` however many of them the hand holds and show
alone. How the win happened is the ``CTX_*`` bit mask ``ctx``; the face-up flower tiles ride in
it too (``FLOWER_SHIFT``: four 6-bit fields, each a tile kind + 1, 0 for none).
Nothing here is compiled for a Daqing or Beijing run.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daqing_sim.codes import (
    CHI,
    CONCEALED_KONG,
    DUAL_PAIR,
    EAST,
    EDGE,
    GREEN,
    KANCHAN,
    N_KINDS_ALL,
    NORTH,
    PENG,
    SINGLE,
    TWO_SIDED,
    WHITE,
    ZHONG,
)
from daqing_sim.families.two_player.spec import SPEC
from daqing_sim.hand.kernels import meld_copies
from daqing_sim.hand.kinds34 import bj_complete_k, bj_hand_shanten_k, bj_wait_set_k
from daqing_sim.jit import njit_no_refs
from daqing_sim.rules import R_LIMIT_FANS, R_MATCH_DOUBLING, R_MULTIPLIER, R_OPEN_PINFU, R_POINTS_PER_FAN

# The patterns in the page's order, with their fans: the spec's one fan table.
FAN_TABLE = tuple((f.code, f.value) for f in SPEC.fans)
FAN_NAMES = tuple(name for name, _ in FAN_TABLE)
FAN_VALUES = np.array([fans for _, fans in FAN_TABLE], dtype=np.int64)
N_FANS = len(FAN_TABLE)  # 46
N_PATTERNS = FAN_NAMES.index("tenhou")  # 28: the patterns whose fans add; the limit hands follow
(
    F_PLAIN_WIN,
    F_CONCEALED,
    F_RIICHI,
    F_PINFU,
    F_TANYAO,
    F_TSUMO,
    F_FLOWER,
    F_HAITEI,
    F_HOUTEI,
    F_EXTRA_DRAW,
    F_DOUBLE_RIICHI,
    F_IIPEIKOU,
    F_TOITOI,
    F_SANSHOKU,
    F_SANANKOU,
    F_HONROUTOU,
    F_ITTSU,
    F_RINSHAN,
    F_CHIITOITSU,
    F_SANRENKOU,
    F_SANSHOKU_DOUKOU,
    F_CHANTA,
    F_HONITSU,
    F_RYANPEIKOU,
    F_JUNCHAN,
    F_SHOUSANGEN,
    F_CHINITSU,
    F_DRAGON_SEVEN_PAIRS,
    F_TENHOU,
    F_CHIIHOU,
    F_RENHOU,
    F_SUUANKOU,
    F_DAISANGEN,
    F_SHOUSUUSHII,
    F_DAISUUSHII,
    F_TSUUIISOU,
    F_CHINROUTOU,
    F_SUUKANTSU,
    F_RYUUIISOU,
    F_CHUUREN,
    F_KOKUSHI,
    F_DAISHARIN,
    F_HYAKUMANGOKU,
    F_SUURENKOU,
    F_BENIKUJAKU,
    F_TOHOKU_SHINKANSEN,
) = range(46)
assert N_FANS == 46 and FAN_NAMES[F_TOHOKU_SHINKANSEN] == "tohoku_shinkansen" and N_PATTERNS == F_TENHOU
LIMIT_MASK = ((1 << N_FANS) - 1) ^ ((1 << N_PATTERNS) - 1)

# How the win happened (``ctx`` of tp_fans_k): bits, then the flower tiles from FLOWER_SHIFT on.
CTX_SELF_DRAW = 1  # 自摸
CTX_KONG_REPLACEMENT = 2  # the self-drawn tile is a kong's replacement (杠上开花)
CTX_LAST_TILE = 4  # the self-drawn tile is the last of the 71 (河底捞月)
CTX_LAST_DISCARD = 8  # a win on the opponent's last discard (河底捞鱼)
CTX_EXTRA_DRAW = 16  # self-drawn in the extra draws after the 71 tiles (海底捞月)
CTX_DECLARED = 32  # the winner had declared ready (报听)
CTX_DECLARED_FIRST = 64  # ... at its first turn (天听)
CTX_TENHOU = 128  # the dealer's win on the deal (天和)
CTX_CHIIHOU = 256  # the non-dealer's win on the dealer's first discard (地和)
CTX_RENHOU = 512  # the non-dealer's self-draw on its first draw (人和)
CTX_ROBBED_KONG = 1024  # a win on the tile of the opponent's added kong (抢杠: scored as a self-draw)
FLOWER_SHIFT = 16  # four 6-bit fields from here: a face-up flower tile's kind + 1 (0: none)
MAX_FLOWERS = 4

# Dragons 中 白 发, winds 东南西北, the thirteen orphans, the tiles of 绿一色 and 红孔雀.
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_GREEN = (19, 20, 21, 23, 25, GREEN)  # 2s 3s 4s 6s 8s 发
_RED = (ZHONG, 18, 22, 24, 26)  # 中 1s 5s 7s 9s
NO_WAIT = -1

# the winning tile's place in a split (how it was waited on): the pair, a triplet, or a sequence
# starting AT_SEQUENCE + k places below it (k = 0, 1, 2)
AT_PAIR, AT_TRIPLET, AT_SEQUENCE = 0, 1, 2
MAX_SPLITS = 16  # splits of one suit: a choice of triplets among at most four ranks with three copies


@njit(cache=True, inline="always")
def _is_orphan(t):
    return t >= ZHONG or t % 9 == 0 or t % 9 == 8


@njit_no_refs
def tp_kokushi_shanten_k(counts):
    """Thirteen orphans shanten of 13 or 14 concealed tiles: 13 - orphan kinds held - (1 if one of
    them is a pair); -1 is a complete 14-tile thirteen orphans."""
    kinds = 0
    pair = 0
    # the 13 orphan kinds only (the greedy players ask this at every discard of a concealed hand)
    for t in range(0, ZHONG, 9):
        kinds += _held(counts[t]) + _held(counts[t + 8])
        pair |= _paired(counts[t]) | _paired(counts[t + 8])
    for t in range(ZHONG, N_KINDS_ALL):
        kinds += _held(counts[t])
        pair |= _paired(counts[t])
    return 13 - kinds - pair


@njit(cache=True, inline="always")
def _held(c):
    return 1 if c > 0 else 0


@njit(cache=True, inline="always")
def _paired(c):
    return 1 if c >= 2 else 0


@njit_no_refs
def tp_complete_k(counts, n_melds, tabs):
    """Is a 14-tile hand (3k+2 concealed tiles) a winning shape of the family?"""
    if bj_complete_k(counts, n_melds, tabs):
        return True
    if n_melds > 0:
        return False
    n = 0
    for t in range(N_KINDS_ALL):
        n += counts[t]
    return n == 14 and tp_kokushi_shanten_k(counts) == -1


@njit_no_refs
def tp_wait_set_k(counts, meld_kind, meld_tile, n_melds, tabs, out_kind):
    """Wait set of a 13-tile hand: Beijing's (four melds and a pair, seven pairs) and the thirteen
    orphans' (a single wait, code ``SINGLE``). ``out_kind[t]`` is the wait kind of tile ``t`` (-1:
    not a winning tile); a tile with no copy left is excluded. Returns the number of waits."""
    n = bj_wait_set_k(counts, meld_kind, meld_tile, n_melds, tabs, out_kind)
    total = 0
    for t in range(N_KINDS_ALL):
        total += counts[t]
    if n_melds == 0 and total == 13 and tp_kokushi_shanten_k(counts) == 0:
        for t in TERMINALS_AND_HONORS:
            if out_kind[t] >= 0 or counts[t] + meld_copies(t, meld_kind, meld_tile, n_melds) >= 4:
                continue
            counts[t] += 1
            if tp_kokushi_shanten_k(counts) == -1:
                out_kind[t] = SINGLE
                n += 1
            counts[t] -= 1
    return n


@njit_no_refs
def tp_hand_shanten_k(counts, meld_kind, meld_tile, n_melds, tabs, wk):
    """Shanten of a hand with its melds: Beijing's (exact for -1, 0 and 1, counting only tiles
    with a copy left) or the thirteen orphans' when that is smaller. ``wk`` is a (34,) int8
    scratch; ``counts`` is restored."""
    s = bj_hand_shanten_k(counts, meld_kind, meld_tile, n_melds, tabs, wk)
    if n_melds == 0:
        n = 0
        for t in range(N_KINDS_ALL):
            n += counts[t]
        if n >= 13:
            k = tp_kokushi_shanten_k(counts)
            if k < s:
                return k
    return s


@njit(cache=True)
def _suit_splits(counts, base, pair, seqs, trips, row):
    """Every split of one suit's tiles (less a pair at rank ``pair``; -1: none) into sequences and
    triplets: ``seqs[row, j, r]`` the sequences starting at rank ``r`` (0-6) and ``trips[row, j]`` a
    bit mask of the triplet ranks of split ``j``. Returns the number of splits (0: none)."""
    c = np.empty(9, dtype=np.int64)
    w = np.empty(9, dtype=np.int64)
    ranks = np.empty(9, dtype=np.int64)
    nt = 0
    for i in range(9):
        c[i] = counts[base + i] - (2 if i == pair else 0)
        if c[i] >= 3:
            ranks[nt] = i
            nt += 1
    n = 0
    for mask in range(1 << nt):
        tm = 0
        for i in range(9):
            w[i] = c[i]
            seqs[row, n, i] = 0
        for j in range(nt):
            if mask >> j & 1:
                w[ranks[j]] -= 3
                tm |= 1 << ranks[j]
        ok = True
        for i in range(9):
            k = w[i]
            if k == 0:
                continue
            if i > 6 or w[i + 1] < k or w[i + 2] < k:
                ok = False
                break
            w[i + 1] -= k
            w[i + 2] -= k
            seqs[row, n, i] = k
        if ok:
            trips[row, n] = tm
            n += 1
    return n


@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _score(mask, n_flowers, cap):
    """(F, limit, raw, shown mask) of one split's patterns: the limit hands alone at the cap, else
    the fans added (``plain_win`` when there are none) and capped."""
    lim = mask & LIMIT_MASK
    if lim:
        return cap, 1, cap * _popcount(lim), lim
    raw = 0
    for i in range(N_PATTERNS):
        if mask >> i & 1:
            raw += n_flowers if i == F_FLOWER else FAN_VALUES[i]
    if raw == 0:
        mask = mask | (1 << F_PLAIN_WIN)
        raw = 1
    return min(raw, cap), 0, raw, mask


@njit(cache=True, inline="always")
def _better(f, lim, raw, mask, wk, bf, blim, braw, bmask, bwk):
    """The order of splits: F, then a limit hand, then the fans before the cap, then the larger
    bit mask of patterns (so that the choice among equal splits is fixed), then the wait kind in
    the Daqing tie order (the lower code: splits scored alike may be waited on differently)."""
    if f != bf:
        return f > bf
    if lim != blim:
        return lim > blim
    if raw != braw:
        return raw > braw
    if mask != bmask:
        return mask > bmask
    return wk < bwk


@njit(cache=True)
def tp_fans_k(counts, meld_kind, meld_tile, n_melds, win_tile, ctx, rules, out):
    """Fans of a two-player win: ``counts`` the concealed tiles with the winning tile, the melds,
    ``win_tile``, how it was won (``ctx``, ``CTX_*`` bits and the flower tiles) and the encoded
    rules. Fills ``out`` (46,) with the fans of each pattern of the split worth the most (a limit
    hand shows the cap; 0 for a pattern not held) and returns F, or -1 when it is no win."""
    return tp_fans_wait_k(counts, meld_kind, meld_tile, n_melds, win_tile, ctx, rules, out)[0]


@njit(cache=True)
def tp_fans_wait_k(counts, meld_kind, meld_tile, n_melds, win_tile, ctx, rules, out):
    """:func:`tp_fans_k` and the wait of the split it scored: (F, wait kind), the wait kind a
    ``codes`` wait code (the pair ``SINGLE``, a concealed triplet ``DUAL_PAIR``, a sequence
    ``KANCHAN``, ``EDGE`` or ``TWO_SIDED``; seven pairs and thirteen orphans ``SINGLE``), or
    (-1, -1) when it is no win. The 13 tiles' wait set cannot say it: a tile may complete the
    hand in several splits, each waited on differently (``7899s`` + ``9s``: ``78`` waiting
    two-sided beside the pair ``99``, or ``789`` with a single wait on ``9``)."""
    cap = rules[R_LIMIT_FANS]
    for i in range(N_FANS):
        out[i] = 0
    total = np.zeros(N_KINDS_ALL, dtype=np.int64)  # every tile of the hand, a kong's four
    chi_seq = np.zeros(27, dtype=np.int64)
    meld_trip = np.zeros(N_KINDS_ALL, dtype=np.int64)
    concealed = True
    n_kongs = 0
    n_concealed_kongs = 0
    n_tiles = 0
    for t in range(N_KINDS_ALL):
        total[t] = counts[t]
        n_tiles += counts[t]
    for i in range(n_melds):
        k = meld_kind[i]
        t = meld_tile[i]
        if k == CHI:
            total[t] += 1
            total[t + 1] += 1
            total[t + 2] += 1
            chi_seq[t] += 1
            concealed = False
        elif k == PENG:
            total[t] += 3
            meld_trip[t] = 1
            concealed = False
        else:
            total[t] += 4
            meld_trip[t] = 1
            n_kongs += 1
            if k == CONCEALED_KONG:
                n_concealed_kongs += 1
            else:
                concealed = False
    if n_tiles != 14 - 3 * n_melds or counts[win_tile] == 0:
        return -1, -1

    # patterns of the tiles and of how the win happened: the same in every split
    suit_mask = 0
    terminal = False
    honor = False
    simple = False
    green = True
    red = True
    rank_sum = 0
    for t in range(N_KINDS_ALL):
        if total[t] == 0:
            continue
        if t >= ZHONG:
            suit_mask |= 8
            honor = True
        else:
            suit_mask |= 1 << (t // 9)
            if t % 9 == 0 or t % 9 == 8:
                terminal = True
            else:
                simple = True
            rank_sum += (t % 9 + 1) * total[t]
        is_green = False
        for g in _GREEN:
            if t == g:
                is_green = True
        is_red = False
        for r in _RED:
            if t == r:
                is_red = True
        green = green and is_green
        red = red and is_red
    n_flowers = 0
    for f in range(MAX_FLOWERS):
        kind = (ctx >> (FLOWER_SHIFT + 6 * f)) & 63
        if kind > 0:
            n_flowers += total[kind - 1]
    from_discard = (ctx & (CTX_SELF_DRAW | CTX_ROBBED_KONG)) == 0
    common = 0
    if concealed:
        common |= 1 << F_CONCEALED
        if not from_discard:
            common |= 1 << F_TSUMO
        if ctx & CTX_DECLARED and not ctx & CTX_DECLARED_FIRST:
            common |= 1 << F_RIICHI
    if ctx & CTX_DECLARED_FIRST:
        common |= 1 << F_DOUBLE_RIICHI
    if not terminal and not honor:
        common |= 1 << F_TANYAO
    if n_flowers > 0:
        common |= 1 << F_FLOWER
    if ctx & CTX_LAST_TILE:
        common |= 1 << F_HAITEI
    if ctx & CTX_LAST_DISCARD:
        common |= 1 << F_HOUTEI
    if ctx & CTX_EXTRA_DRAW:
        common |= 1 << F_EXTRA_DRAW
    if ctx & CTX_KONG_REPLACEMENT:
        common |= 1 << F_RINSHAN
    if not simple and terminal and honor:
        common |= 1 << F_HONROUTOU
    one_suit = suit_mask == 1 or suit_mask == 2 or suit_mask == 4
    if one_suit:
        common |= 1 << F_CHINITSU
    if suit_mask == 9 or suit_mask == 10 or suit_mask == 12:
        common |= 1 << F_HONITSU
    if ctx & CTX_TENHOU:
        common |= 1 << F_TENHOU
    if ctx & CTX_CHIIHOU:
        common |= 1 << F_CHIIHOU
    if ctx & CTX_RENHOU:
        common |= 1 << F_RENHOU
    if n_kongs == 4:
        common |= 1 << F_SUUKANTSU
    if green:
        common |= 1 << F_RYUUIISOU
    if suit_mask == 1 and rank_sum >= 100:
        common |= 1 << F_HYAKUMANGOKU
    if n_melds == 0 and one_suit:  # 九莲宝灯: the 13 tiles before the win are 1112345678999
        base = 9 * (win_tile // 9) if win_tile < ZHONG else 0
        pure = win_tile < ZHONG
        for r in range(9):
            want = 3 if r == 0 or r == 8 else 1
            if counts[base + r] - (1 if base + r == win_tile else 0) != want:
                pure = False
        if pure:
            common |= 1 << F_CHUUREN

    bf = -1
    blim = 0
    braw = 0
    bmask = 0
    bwk = -1

    # four melds and a pair
    seqs = np.zeros((3, MAX_SPLITS, 9), dtype=np.int64)
    trips = np.zeros((3, MAX_SPLITS), dtype=np.int64)
    nsp = np.zeros(3, dtype=np.int64)
    seq_all = np.zeros(27, dtype=np.int64)
    trip_all = np.zeros(N_KINDS_ALL, dtype=np.int64)
    trip_hidden = np.zeros(N_KINDS_ALL, dtype=np.int64)
    open_ok = concealed or rules[R_OPEN_PINFU] != 0
    for pk in range(N_KINDS_ALL):
        if counts[pk] < 2:
            continue
        ok = True
        for h in range(ZHONG, N_KINDS_ALL):
            v = counts[h] - (2 if h == pk else 0)
            if v != 0 and v != 3:
                ok = False
        if not ok:
            continue
        for s in range(3):
            pr = pk - 9 * s if 9 * s <= pk < 9 * s + 9 else -1
            nsp[s] = _suit_splits(counts, 9 * s, pr, seqs, trips, s)
            if nsp[s] == 0:
                ok = False
                break
        if not ok:
            continue
        pair_term = _is_orphan(pk)
        for j0 in range(nsp[0]):
            for j1 in range(nsp[1]):
                for j2 in range(nsp[2]):
                    # the split's groups: concealed ones and the melds
                    n_seq = 0
                    for a in range(27):
                        seq_all[a] = chi_seq[a]
                    for r in range(7):
                        seq_all[r] += seqs[0, j0, r]
                        seq_all[9 + r] += seqs[1, j1, r]
                        seq_all[18 + r] += seqs[2, j2, r]
                    for a in range(27):
                        n_seq += seq_all[a]
                    n_hidden = n_concealed_kongs
                    for t in range(N_KINDS_ALL):
                        trip_hidden[t] = 0
                    for r in range(9):
                        trip_hidden[r] = trips[0, j0] >> r & 1
                        trip_hidden[9 + r] = trips[1, j1] >> r & 1
                        trip_hidden[18 + r] = trips[2, j2] >> r & 1
                    for h in range(ZHONG, N_KINDS_ALL):
                        if counts[h] - (2 if h == pk else 0) == 3:
                            trip_hidden[h] = 1
                    for t in range(N_KINDS_ALL):
                        trip_all[t] = trip_hidden[t] + meld_trip[t]
                        n_hidden += trip_hidden[t]
                    m = common
                    if n_seq == 0:
                        m |= 1 << F_TOITOI
                        if suit_mask == 8:
                            m |= 1 << F_TSUUIISOU
                        if not simple and not honor:
                            m |= 1 << F_CHINROUTOU
                        if red:
                            m |= 1 << F_BENIKUJAKU
                    same = 0
                    for a in range(27):
                        same += seq_all[a] // 2
                    if same >= 2:
                        m |= 1 << F_RYANPEIKOU
                    elif same == 1:
                        m |= 1 << F_IIPEIKOU
                    for r in range(7):
                        if seq_all[r] > 0 and seq_all[9 + r] > 0 and seq_all[18 + r] > 0:
                            m |= 1 << F_SANSHOKU
                    for r in range(9):
                        if trip_all[r] and trip_all[9 + r] and trip_all[18 + r]:
                            m |= 1 << F_SANSHOKU_DOUKOU
                    ittsu = False
                    for s in range(3):
                        b = 9 * s
                        if seq_all[b] > 0 and seq_all[b + 3] > 0 and seq_all[b + 6] > 0:
                            ittsu = True
                        for r in range(7):
                            if trip_all[b + r] and trip_all[b + r + 1] and trip_all[b + r + 2]:
                                m |= 1 << F_SANRENKOU
                                if r < 6 and trip_all[b + r + 3]:
                                    m |= 1 << F_SUURENKOU
                    if ittsu:
                        m |= 1 << F_ITTSU
                        if (trip_all[EAST] and pk == NORTH) or (trip_all[NORTH] and pk == EAST):
                            m |= 1 << F_TOHOKU_SHINKANSEN
                    outside = pair_term  # every group and the pair hold a terminal or an honor
                    for a in range(27):
                        if seq_all[a] > 0 and a % 9 != 0 and a % 9 != 6:
                            outside = False
                    for t in range(N_KINDS_ALL):
                        if trip_all[t] and not _is_orphan(t):
                            outside = False
                    if outside:
                        m |= (1 << F_CHANTA) if honor else (1 << F_JUNCHAN)
                    dragons = trip_all[ZHONG] + trip_all[WHITE] + trip_all[GREEN]
                    pair_dragon = pk == ZHONG or pk == WHITE or pk == GREEN
                    if dragons == 3:
                        m |= 1 << F_DAISANGEN
                    elif dragons == 2 and pair_dragon:
                        m |= 1 << F_SHOUSANGEN
                    winds = trip_all[EAST] + trip_all[EAST + 1] + trip_all[EAST + 2] + trip_all[NORTH]
                    if winds == 4:
                        m |= 1 << F_DAISUUSHII
                    elif winds == 3 and EAST <= pk <= NORTH:
                        m |= 1 << F_SHOUSUUSHII
                    # the groups the winning tile can complete: the wait changes pinfu and the
                    # concealed triplets (a triplet completed by a discard counts as exposed)
                    w = win_tile
                    for place in range(5):  # the pair, the triplet, or a sequence w-2.., w-1.., w..
                        two_sided = False
                        if place == AT_PAIR:
                            if pk != w:
                                continue
                            wk = SINGLE
                        elif place == AT_TRIPLET:
                            if not trip_hidden[w]:
                                continue
                            wk = DUAL_PAIR
                        else:
                            start = w - (place - AT_SEQUENCE)
                            if w >= ZHONG or start < 9 * (w // 9) or start % 9 > 6:
                                continue
                            if seq_all[start] - chi_seq[start] <= 0:  # a concealed sequence there
                                continue
                            # 45 waiting on 3 or 6 is two-sided; 12 on 3 and 89 on 7 are edges
                            off = place - AT_SEQUENCE
                            two_sided = (off == 0 and start % 9 != 6) or (off == 2 and start % 9 != 0)
                            wk = TWO_SIDED if two_sided else (KANCHAN if off == 1 else EDGE)
                        mm = m
                        hidden = n_hidden - (1 if place == AT_TRIPLET and from_discard else 0)
                        if hidden == 4:
                            mm |= 1 << F_SUUANKOU
                        elif hidden == 3:
                            mm |= 1 << F_SANANKOU
                        if n_seq == 4 and pk < ZHONG and two_sided and open_ok:
                            mm |= 1 << F_PINFU
                        f, lim, raw, shown = _score(mm, np.int64(n_flowers), cap)
                        if _better(f, lim, raw, shown, wk, bf, blim, braw, bmask, bwk):
                            bf, blim, braw, bmask, bwk = f, lim, raw, shown, wk

    if n_melds == 0:
        even = True
        four = False
        for t in range(N_KINDS_ALL):
            if counts[t] % 2 == 1:
                even = False
            if counts[t] == 4:
                four = True
        if even:  # seven pairs, four identical tiles as two pairs
            m = common
            if four and counts[win_tile] == 4:
                m |= 1 << F_DRAGON_SEVEN_PAIRS
            else:
                m |= 1 << F_CHIITOITSU
            if one_suit and not terminal:
                m |= 1 << F_DAISHARIN
            f, lim, raw, shown = _score(m, np.int64(n_flowers), cap)
            if _better(f, lim, raw, shown, SINGLE, bf, blim, braw, bmask, bwk):
                bf, blim, braw, bmask, bwk = f, lim, raw, shown, SINGLE
        if tp_kokushi_shanten_k(counts) == -1:
            f, lim, raw, shown = _score(common | (1 << F_KOKUSHI), np.int64(n_flowers), cap)
            if _better(f, lim, raw, shown, SINGLE, bf, blim, braw, bmask, bwk):
                bf, blim, braw, bmask, bwk = f, lim, raw, shown, SINGLE
    if bf < 0:
        return -1, -1
    for i in range(N_FANS):
        if bmask >> i & 1:
            if i >= N_PATTERNS:
                out[i] = cap
            elif i == F_FLOWER:
                out[i] = n_flowers
            else:
                out[i] = FAN_VALUES[i]
    return bf, bwk


@njit(cache=True)
def tp_value_k(total_fans, match_game, rules):
    """A win's value: F x multiplier x points per fan, doubled for each game of a match before
    this one (``match_game`` 0, 1, ...) under ``match_doubling``. The opponent pays it."""
    v = total_fans * rules[R_MULTIPLIER] * rules[R_POINTS_PER_FAN]
    if rules[R_MATCH_DOUBLING]:
        v = v << match_game
    return v
