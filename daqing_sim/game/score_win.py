"""``ds.score_win``: what one win is worth, in every rule family.

Beijing: the win's fans by their code names (docs/RULES.md, Beijing), F and the value
(base x F, half the base for an open hand). Daqing: each loser's fans and amount, as
:func:`daqing_sim.game.scoring.settle_detail` gives them, from the hand (kanchan or not, bao,
kongs) instead of the caller's flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from daqing_sim.codes import N_KINDS_ALL
from daqing_sim.hand.notation import Hand
from daqing_sim.rules import RuleSet


@dataclass(frozen=True)
class WinScore:
    """A scored win.

    Attributes
    ----------
    fans : dict
        Beijing: fan code name -> its fans, for the split worth the most (``plain_win`` when no
        fan type applies; ``last_discard`` adds to the rest). Daqing: loser seat -> the names of
        its fans (``2 ** len(names)`` is what it owes before 包庄).
    total_fans : int
        Beijing: F, the sum of the fans. Daqing: the most fans any loser has.
    value : int
        Beijing: what one loser pays (base x F; x 2^(F-1) under ``fan_combine="double"``).
        Daqing: what the winner receives.
    total : int
        What the winner receives in all (Beijing: 3 x value on a self-draw or a robbed kong).
    settlement : Settlement or None
        Daqing only: the full settlement (payments by seat, 包庄).
    """

    hand: Hand
    win_tile: str
    rules: RuleSet
    fans: dict
    total_fans: int
    value: int
    total: int
    settlement: object | None = field(default=None, repr=False)

    def __str__(self) -> str:
        if self.settlement is not None:
            return str(self.settlement)
        fans = ", ".join(f"{k} {v}" for k, v in self.fans.items())
        return (
            f"{self.hand} + {self.win_tile}: {fans} = {self.total_fans} fan(s), "
            f"value {self.value}, receives {self.total}"
        )


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def score_win(
    hand: Hand | str,
    win_tile: str | int,
    *,
    rules: RuleSet = RuleSet(),
    self_draw: bool,
    last_tile: bool = False,
    last_discard: bool = False,
    kong_replacement: bool = False,
    robbed_kong: bool = False,
    dealer: int = 0,
    discarder: int | None = None,
    discarder_ready: bool = True,
    concealed: Sequence[bool] = (False,) * 4,
    bao: str | int | None = None,
) -> WinScore:
    """Score a win: the 13 tiles before it, the winning tile and how it was won.

    Parameters
    ----------
    hand : Hand or str
        The winner's 13 tiles (concealed tiles and melds) before the winning tile.
    win_tile : str or int
        The winning tile, e.g. ``"5m"`` or ``"7z"``.
    rules : RuleSet
        The family and its flags (Daqing by default).
    self_draw : bool
        Self-drawn (自摸) or won on a discard.
    last_tile, last_discard, kong_replacement, robbed_kong : bool
        Beijing: a self-draw of the last drawable tile (海底捞月), a win on the discard of the
        last tile, a self-draw of a kong's replacement tile (杠上开花), a win on a tile added
        to a kong (抢杠: paid by the kong's declarer, three self-draw shares).
    dealer, discarder, discarder_ready, concealed, bao :
        Daqing: the winner is seat 0; the dealer's seat, the discarder of a deal-in (default
        seat 1) and whether it was ready (``False``: 点黑炮), which losers are concealed, and the
        bao (a self-drawn bao win when ``win_tile`` is the bao).

    Returns
    -------
    WinScore

    Raises
    ------
    ValueError
        When the tile does not complete the hand, or on a context the family has not.

    Examples
    --------
    >>> import daqing_sim as ds
    >>> beijing = ds.RuleSet(family="beijing")
    >>> w = ds.score_win("1122334567899m", "9m", rules=beijing, self_draw=True)
    >>> w.fans, w.total_fans, w.value, w.total
    ({'dragon': 3, 'one_suit': 6}, 9, 9000, 27000)
    >>> ds.score_win("234m456p678s2233z", "3z", rules=beijing, self_draw=False, last_discard=True).fans
    {'plain_win': 1, 'last_discard': 1}
    >>> d = ds.score_win("13m456p789s中中 [345m]", "2m", self_draw=True)
    >>> d.value, d.settlement.payments.tolist()  # a big (夹) self-draw by the dealer
    (24, [24, -8, -8, -8])
    """
    from daqing_sim.hand.evaluator import _as_hand, _rules, _tile_kind

    rules = _rules(rules)
    hand = _as_hand(hand, rules)
    if hand.size != 13:
        raise ValueError(f"score_win takes the 13 tiles before the win; {hand} has {hand.size}")
    t = _tile_kind(win_tile, "win_tile", rules.family)
    flags = {
        "self_draw": self_draw,
        "last_tile": last_tile,
        "last_discard": last_discard,
        "kong_replacement": kong_replacement,
        "robbed_kong": robbed_kong,
    }
    for name, value in flags.items():
        _flag(value, name)
    if rules.family == "daqing":
        return _score_daqing(hand, t, rules, self_draw, dealer, discarder, discarder_ready, concealed, bao)
    if bao is not None:
        raise ValueError(f"{rules.family.capitalize()} has no bao: drop bao=")
    return _score_beijing(hand, t, rules, **flags)


def _score_beijing(hand, t, rules, *, self_draw, last_tile, last_discard, kong_replacement, robbed_kong):
    from daqing_sim.hand import beijing as B
    from daqing_sim.hand.tables import get_tables
    from daqing_sim.hand.tiles import tile_name

    if self_draw and (last_discard or robbed_kong):
        raise ValueError(
            "a self-draw is not a win on a discard: last_discard and robbed_kong need self_draw=False"
        )
    if not self_draw and (last_tile or kong_replacement):
        raise ValueError(
            "last_tile (海底捞月) and kong_replacement (杠上开花) are self-draws: pass self_draw=True"
        )
    if robbed_kong and last_discard:
        raise ValueError("a robbed kong is not the last discard: pass one of robbed_kong, last_discard")
    tabs = get_tables()
    kinds, tiles, n = hand.meld_arrays()
    counts = hand.counts.astype(np.int64)
    waits = np.empty(N_KINDS_ALL, dtype=np.int8)
    n_waits = B.bj_wait_set_k(counts.copy(), kinds, tiles, n, tabs, waits)
    if waits[t] < 0:
        raise ValueError(f"{tile_name(t)} does not complete {hand}: it is not a winning tile")
    counts[t] += 1
    how = (
        (B.HOW_SELF_DRAW if self_draw else 0)
        | (B.HOW_LAST_TILE if last_tile else 0)
        | (B.HOW_LAST_DISCARD if last_discard else 0)
        | (B.HOW_KONG_REPLACEMENT if kong_replacement else 0)
        | (B.HOW_ROBBED_KONG if robbed_kong else 0)
    )
    out = np.zeros(B.N_FANS, dtype=np.int64)
    enc = rules.encode()
    total_fans = int(B.bj_fans_k(counts, kinds, tiles, n, t, n_waits == 1, how, enc, out))
    is_open = any(m.exposed for m in hand.melds)
    value = int(B.bj_value_k(total_fans, is_open, enc))
    fans = {name: int(getattr(rules, f"fans_{name}")) for i, name in enumerate(B.FAN_NAMES) if out[i]}
    total = 3 * value if (self_draw or robbed_kong) else value
    return WinScore(hand, tile_name(t), rules, fans, total_fans, value, total)


def _score_daqing(hand, t, rules, self_draw, dealer, discarder, discarder_ready, concealed, bao):
    from daqing_sim.game.scoring import settle_detail
    from daqing_sim.hand.evaluator import analyze_hand
    from daqing_sim.hand.notation import Hand as _Hand
    from daqing_sim.hand.tiles import tile_name

    if bao is not None and not self_draw:
        raise ValueError("a bao win is a self-draw: pass self_draw=True with bao=")
    counts = hand.counts.copy()
    counts[t] += 1
    full = _Hand(counts=counts, melds=hand.melds, order=(*hand.order, t))
    a = analyze_hand(full, rules, win_tile=t, bao=bao)
    if not a.is_win:
        why = str(a).splitlines()[-1]
        raise ValueError(f"{tile_name(t)} does not win {hand} under these Daqing rules: {why}")
    if not a.may_declare:
        raise ValueError(f"{hand} could not have declared ready ({a._why_not_declare()}), so it cannot win")
    method = "self_draw" if self_draw else "deal_in"
    if not self_draw and discarder is None:
        discarder = 1
    kongs = sum(m.kind in ("kong", "concealed_kong", "added_kong") for m in hand.melds)
    s = settle_detail(
        0,
        dealer,
        method,
        discarder=None if self_draw else discarder,
        discarder_ready=discarder_ready,
        big=a.win.big,
        bao=a.bao_kind,
        concealed=concealed,
        winner_kongs=kongs,
        rules=rules,
    )
    fans = {seat: list(names) for seat, names in s.fans.items()}
    most = max((len(v) for v in fans.values()), default=0)
    return WinScore(hand, tile_name(t), rules, fans, most, s.total, s.total, s)
