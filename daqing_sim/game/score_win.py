"""``ds.score_win``: what one win is worth, in every rule family.

Beijing: the win's fans by their code names (docs/RULES.md, Beijing), F and the value
(base x F, half the base for an open hand). Two-player: the patterns by their code names
(docs/RULES_TWO_PLAYER.md), F (limit hands at the cap) and the value (F x multiplier x points
per fan). Daqing: each loser's fans and amount, as
:func:`daqing_sim.families.daqing.scoring.settle_detail` gives them, from the hand (kanchan or not, bao,
kongs) instead of the caller's flags.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from daqing_sim.families import family_module
from daqing_sim.hand.notation import Hand
from daqing_sim.hand.score import WinScore
from daqing_sim.hand.tiles import family_title
from daqing_sim.rules import RuleSet

__all__ = ["WinScore", "score_win"]


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
    extra_draw: bool = False,
    declared: bool = False,
    declared_first: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    renhou: bool = False,
    flowers: str | Sequence[str | int] = (),
    match_game: int = 0,
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
        to a kong (抢杠: paid by the kong's declarer, three self-draw shares). Two-player: a
        self-draw of the last of the 71 tiles (河底捞月, ``haitei``), the opponent's last discard
        (河底捞鱼, ``houtei``), a kong replacement (``rinshan``), the opponent's added kong (抢杠,
        scored as a self-draw).
    extra_draw, declared, declared_first, tenhou, chiihou, renhou : bool
        Two-player: a self-draw in the extra draws after the 71 tiles (海底捞月); the winner had
        declared ready (报听), at its first turn (天听); the dealer's win on the deal (天和), a
        win on the dealer's first discard (地和), the non-dealer's self-draw on its first draw
        (人和).
    flowers : str or sequence of tiles
        Two-player: the face-up flower tiles (at most ``rules.flower_tiles``), e.g. ``"5p"``;
        each tile of their kinds in the winning hand is worth a fan.
    match_game : int
        Two-player: the game's index in a match (0 first); under ``match_doubling`` the value
        doubles with each game before it.
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
    >>> two = ds.RuleSet(family="two_player", multiplier=5, points_per_fan=10)
    >>> w = ds.score_win("234567m23p456p77s", "1p", rules=two, self_draw=True, declared=True)
    >>> w.fans, w.total_fans, w.value
    ({'concealed': 1, 'riichi': 1, 'pinfu': 1, 'tsumo': 1}, 4, 200)
    >>> ds.score_win("19m19p19s1234567z", "1m", rules=two, self_draw=False).fans
    {'kokushi': 13}
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
    two = {
        "extra_draw": extra_draw,
        "declared": declared,
        "declared_first": declared_first,
        "tenhou": tenhou,
        "chiihou": chiihou,
        "renhou": renhou,
    }
    for name, value in two.items():
        _flag(value, name)
    if rules.family != "two_player":
        given = [name for name, value in two.items() if value]
        given += [name for name, v in (("flowers", flowers), ("match_game", match_game)) if v]
        if given:
            title = family_title(rules.family)
            raise ValueError(f"{given[0]} is a two-player way of winning; {title} has none: drop {given[0]}=")
    if rules.family == "daqing":
        return _score_daqing(hand, t, rules, self_draw, dealer, discarder, discarder_ready, concealed, bao)
    if bao is not None:
        title = family_title(rules.family)
        raise ValueError(f"{title[0].upper() + title[1:]} has no bao: drop bao=")
    score = family_module(rules.family, "score").score
    if rules.family == "beijing":
        return score(hand, t, rules, **flags)
    from daqing_sim.hand.notation import _parse_tiles

    if isinstance(flowers, str):
        kinds = tuple(_parse_tiles(flowers, "flowers"))
    else:
        kinds = tuple(_tile_kind(f, "flowers", rules.family) for f in flowers)
    return score(hand, t, rules, **flags, **two, flowers=kinds, match_game=match_game)


def _score_daqing(hand, t, rules, self_draw, dealer, discarder, discarder_ready, concealed, bao):
    from daqing_sim.families.daqing.scoring import settle_detail
    from daqing_sim.hand.evaluator import analyze_hand
    from daqing_sim.hand.tiles import tile_name

    if bao is not None and not self_draw:
        raise ValueError("a bao win is a self-draw: pass self_draw=True with bao=")
    counts = hand.counts.copy()
    counts[t] += 1
    full = Hand(counts=counts, melds=hand.melds, order=(*hand.order, t))
    a = analyze_hand(full, rules, win_tile=t, bao=bao)
    if not a.is_win:
        raise ValueError(f"{tile_name(t)} does not win {hand} under these Daqing rules: {a.no_win_reason}")
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
