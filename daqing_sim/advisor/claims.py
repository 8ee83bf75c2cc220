"""The claims a seat may make on a discarded tile, as the engine allows them (docs/RULES.md).

Chi only from the previous seat (上家), or from any seat under ``chi_any_seat_for_ready`` when
the chi leaves a hand that can declare ready; peng with two copies, an exposed kong with three
(and a tile left in the wall); every new meld must leave ``min_concealed_at_ready`` concealed
tiles (手把一); nothing may be claimed after the last tiles (``last_tiles_no_claim``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from daqing_sim.advisor import hand_calls as H
from daqing_sim.codes import CHI, KONG, PENG, ZHONG
from daqing_sim.hand.notation import Meld
from daqing_sim.rules import RuleSet


@dataclass(frozen=True)
class Claim:
    """One claim: the meld made and the concealed tiles and meld arrays after it."""

    action: str  # "chi", "peng" or "kong"
    meld: Meld
    counts: np.ndarray  # int64 (28,), concealed tiles after the claim (before any discard)
    meld_kind: np.ndarray
    meld_tile: np.ndarray
    n_melds: int

    @property
    def label(self) -> str:
        return f"{self.action} {self.meld}"


def _with_meld(counts, meld_kind, meld_tile, n_melds, kind, low, used) -> tuple:
    c = counts.astype(np.int64).copy()
    for t in used:
        c[t] -= 1
    mk = meld_kind.copy()
    mt = meld_tile.copy()
    mk[n_melds] = kind
    mt[n_melds] = low
    return c, mk, mt, n_melds + 1


def _chi_leaves_declarable(c, mk, mt, nm, rules_enc, tabs) -> bool:
    wk = np.empty(28, dtype=np.int8)
    wb = np.empty(28, dtype=np.uint8)
    for d in range(28):
        if c[d] == 0:
            continue
        c[d] -= 1
        ok = (
            H.may_declare(c, mk, mt, nm, rules_enc) and H.wait_set(c, mk, mt, nm, rules_enc, tabs, wk, wb) > 0
        )
        c[d] += 1
        if ok:
            return True
    return False


def claim_options(
    counts: np.ndarray,
    meld_kind: np.ndarray,
    meld_tile: np.ndarray,
    n_melds: int,
    tile: int,
    from_previous: bool,
    wall_left: int,
    rules: RuleSet,
) -> list[Claim]:
    """Legal claims of the 13-tile hand ``counts`` (+ melds) on the discarded ``tile``.

    Examples
    --------
    >>> from daqing_sim.hand.notation import parse_hand
    >>> h = parse_hand("46m55p789s1s中中 [345m]")
    >>> [c.label for c in claim_options(h.counts, *h.meld_arrays(), 4, True, 40, RuleSet())]
    ['chi [456m]']
    """
    if wall_left + 1 <= rules.last_tiles_no_claim:  # RULES: 荒庄前最后四张
        return []
    if 13 - 3 * (n_melds + 1) < rules.min_concealed_at_ready:  # RULES: 手把一
        return []
    enc = rules.encode()
    out: list[Claim] = []
    if tile != ZHONG:
        base = 9 * (tile // 9)
        for low in (tile - 2, tile - 1, tile):
            if low < base or low - base > 6:
                continue
            used = [t for t in (low, low + 1, low + 2) if t != tile]
            if any(counts[t] == 0 for t in used):
                continue
            args = _with_meld(counts, meld_kind, meld_tile, n_melds, CHI, low, used)
            if not from_previous and not (
                rules.chi_any_seat_for_ready and _chi_leaves_declarable(*args, enc, H.tables())
            ):
                continue
            out.append(Claim("chi", Meld("chi", low), *args))
    if counts[tile] >= 2:
        args = _with_meld(counts, meld_kind, meld_tile, n_melds, PENG, tile, [tile, tile])
        out.append(Claim("peng", Meld("peng", tile), *args))
    if counts[tile] >= 3 and wall_left >= 1:
        args = _with_meld(counts, meld_kind, meld_tile, n_melds, KONG, tile, [tile] * 3)
        out.append(Claim("kong", Meld("kong", tile), *args))
    return out
