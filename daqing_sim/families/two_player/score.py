"""A two-player win scored on its hand: patterns by code name, F and value (:func:`score`; the
public entry point is :func:`daqing_sim.game.score_win.score_win`)."""

from __future__ import annotations

import numpy as np

from daqing_sim.codes import N_KINDS_ALL, WAIT_KINDS
from daqing_sim.hand.notation import Hand
from daqing_sim.hand.score import WinScore
from daqing_sim.hand.tables import get_tables
from daqing_sim.hand.tiles import tile_name
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int

# score_two_player's ways of winning -> (the kernel's context bit, a self-draw?); None: not drawn
TWO_PLAYER_CONTEXT = {
    "kong_replacement": ("CTX_KONG_REPLACEMENT", True),
    "last_tile": ("CTX_LAST_TILE", True),
    "extra_draw": ("CTX_EXTRA_DRAW", True),
    "tenhou": ("CTX_TENHOU", True),
    "renhou": ("CTX_RENHOU", True),
    "last_discard": ("CTX_LAST_DISCARD", False),
    "chiihou": ("CTX_CHIIHOU", False),
    "robbed_kong": ("CTX_ROBBED_KONG", False),
    "declared": ("CTX_DECLARED", None),
    "declared_first": ("CTX_DECLARED_FIRST", None),
}
_FIRST_TURN = ("tenhou", "chiihou", "renhou")


def two_player_context(
    hand: Hand, rules: RuleSet, self_draw: bool, flowers: tuple[int, ...], **how: bool
) -> int:
    """The kernel's ``ctx`` of a two-player win, after one-line errors for a way of winning that
    cannot happen (docs/RULES_TWO_PLAYER.md, reading 24)."""
    from daqing_sim.families.two_player import hand as T

    on = {name for name, value in how.items() if value}
    drawn = sorted(n for n in on if TWO_PLAYER_CONTEXT[n][1] is True)
    taken = sorted(n for n in on if TWO_PLAYER_CONTEXT[n][1] is False)
    if self_draw and taken:
        raise ValueError(f"{', '.join(taken)} is a win on the opponent's tile: pass self_draw=False")
    if not self_draw and drawn:
        raise ValueError(f"{', '.join(drawn)} is a self-draw: pass self_draw=True")
    if len(taken) > 1:
        raise ValueError(f"{' and '.join(taken)} are two different tiles of the opponent: pass one of them")
    if "last_tile" in on and "extra_draw" in on:
        raise ValueError("last_tile is the last of the 71 tiles and extra_draw a draw after them: pass one")
    first = [n for n in _FIRST_TURN if n in on]
    if first:
        others = sorted(on - {first[0]})
        if others:
            raise ValueError(f"{first[0]} is a win at the first turn: it goes with no {', '.join(others)}")
        if hand.melds:
            raise ValueError(f"{first[0]} is a win at the first turn, before any meld; {hand} has melds")
    opened = any(m.exposed for m in hand.melds)
    if "declared_first" in on and opened:
        raise ValueError(f"declared_first (天听) comes before any chi, peng or kong; {hand} is open")
    if on & {"declared", "declared_first"} and "kong_replacement" in on:
        raise ValueError("a declared hand (报听) is locked: it makes no kong, so no kong replacement win")
    if "kong_replacement" in on and not any(m.kind not in ("chi", "peng") for m in hand.melds):
        raise ValueError(f"kong_replacement needs a kong among the melds; {hand} has none")
    if len(flowers) > rules.flower_tiles:
        raise ValueError(
            f"{len(flowers)} flower tiles given, but flower_tiles={rules.flower_tiles} are turned face up"
        )
    ctx = T.CTX_SELF_DRAW if self_draw else 0
    for name in on:
        ctx |= getattr(T, TWO_PLAYER_CONTEXT[name][0])
    for i, kind in enumerate(flowers):
        ctx |= (kind + 1) << (T.FLOWER_SHIFT + 6 * i)
    return ctx


def score_two_player(
    hand: Hand,
    t: int,
    rules: RuleSet,
    *,
    self_draw: bool,
    flowers: tuple[int, ...] = (),
    match_game: int = 0,
    **how: bool,
) -> WinScore:
    """A two-player win of tile kind ``t`` on the 13-tile ``hand`` (validated by the caller,
    :func:`daqing_sim.game.score_win.score_win`): the patterns of the split worth the most, F and
    the value. ``how`` holds the ways of winning of :data:`TWO_PLAYER_CONTEXT`; ``flowers`` the
    kinds of the face-up flower tiles."""
    from daqing_sim.compile_notice import announce
    from daqing_sim.families.two_player import hand as T

    match_game = check_int(match_game, "match_game")
    if match_game > 40:
        raise ValueError(f"match_game={match_game} is too large: games of a match are counted 0, 1, ... 40")
    ctx = two_player_context(hand, rules, self_draw, flowers, **how)
    total = hand.total_counts()
    for kind in set(flowers):
        copies = int(total[kind]) + flowers.count(kind) + (kind == t)
        if copies > 4:
            raise ValueError(
                f"{copies} copies of {tile_name(kind)} with the face-up flower tile(s): at most 4"
            )
    announce("hand_two_player")
    tabs = get_tables()
    kinds, tiles, n = hand.meld_arrays()
    counts = hand.counts.astype(np.uint8)  # as the engine's: one signature per kernel
    waits = np.empty(N_KINDS_ALL, dtype=np.int8)
    T.tp_wait_set_k(counts.copy(), kinds, tiles, n, tabs, waits)
    if waits[t] < 0:
        raise ValueError(f"{tile_name(t)} does not complete {hand}: it is not a winning tile")
    counts[t] += 1
    out = np.zeros(T.N_FANS, dtype=np.int64)
    enc = rules.encode()
    total_fans, wait = (int(x) for x in T.tp_fans_wait_k(counts, kinds, tiles, n, t, ctx, enc, out))
    if total_fans < 0:  # pragma: no cover - the wait set said it wins
        raise AssertionError(f"{tile_name(t)} completes {hand} but the fan kernel finds no win")
    value = int(T.tp_value_k(total_fans, match_game, enc))
    fans = {name: int(out[i]) for i, name in enumerate(T.FAN_NAMES) if out[i]}
    return WinScore(hand, tile_name(t), rules, fans, total_fans, value, value, wait_kind=WAIT_KINDS[wait])


score = score_two_player  # the family protocol's name
