"""The advisor's table for a position seen by a seat of a running deal (a
:class:`~daqing_sim.players.interface.Observation`, e.g. of a ``DealEnv``), as ``daqing-sim play``
shows it on ``?``."""

from __future__ import annotations

import numpy as np

from daqing_sim.advisor.api import advise
from daqing_sim.game.play import meld_code
from daqing_sim.hand.notation import hand_from_arrays
from daqing_sim.hand.tiles import tile_name
from daqing_sim.players.interface import Observation
from daqing_sim.rules import RuleSet


def _meld_tiles(kind: str, low: int) -> tuple[int, ...]:
    """The tile kinds of a meld (its lowest tile ``low``)."""
    if kind == "chi":
        return (low, low + 1, low + 2)
    return (low,) * (3 if kind == "peng" else 4)


def advise_position(obs: Observation, rules: RuleSet, k: int = 2):
    """The advisor's table (:func:`daqing_sim.advise`) for the seat's decision, from what the
    seat sees (the position's hand, ponds, melds, ready seats and the kinds they let pass)."""
    seat, n = obs.seat, obs.n_seats
    own = obs.melds[seat]
    hand = hand_from_arrays(obs.hand, [meld_code[m.kind] for m in own], [m.tile for m in own], len(own))
    claim = claim_from = None
    if obs.decision == "claim":
        claim = obs.claim_tile
        order = [(seat - j) % n for j in range(1, n)]  # the previous seat first (上家)
        claim_from = next((s for s in order if obs.ponds[s] and obs.ponds[s][-1].tile == claim), order[0])
    # the tiles seen on the table, each once: unclaimed discards (the one on offer is the claim)
    # and the others' melds (a claimed discard is there; the seat's own melds are its hand)
    seen = np.zeros(obs.n_kinds, dtype=np.int64)
    ponds = {}
    for s in range(n):
        tiles = [p.tile for p in obs.ponds[s] if p.claimed_by < 0]
        if s == claim_from:
            tiles = tiles[:-1]
        seen[tiles] += 1
        if tiles:
            ponds[s] = "".join(tile_name(t) for t in tiles)
    melds = {}
    for s in range(n):
        shown = [m for m in obs.melds[s] if m.tile >= 0]
        if s != seat and shown:
            parts = [hand_from_arrays(np.zeros(obs.n_kinds), [meld_code[m.kind]], [m.tile], 1) for m in shown]
            melds[s] = " ".join(str(h.melds[0]) for h in parts)
            for m in shown:
                seen[list(_meld_tiles(m.kind, m.tile))] += 1
    ready = tuple(s for s in range(n) if s != seat and obs.ready[s])
    # kinds a ready seat let pass that the seat saw go (one it claimed itself is in its own hand)
    passed = {s: "".join(tile_name(int(t)) for t in np.flatnonzero(obs.safe[s] & (seen > 0))) for s in ready}
    passed = {s: v for s, v in passed.items() if v}
    concealed = tuple(all(m.claimed_from < 0 for m in obs.melds[s]) for s in range(n))
    table = {"ready": ready, "passed": passed, "concealed": concealed, "wall_left": obs.wall_left}
    if rules.family == "beijing":  # nobody declares; the wall's count includes the undrawn tiles
        kongs = sum(m.kind in ("kong", "concealed_kong", "added_kong") for ms in obs.melds for m in ms)
        undrawn = rules.dead_wall_tiles + 2 * max(0, kongs - 1)
        table = {"wall_left": max(0, obs.wall_left - undrawn)}
    elif rules.family == "two_player":  # the opponent's 门清 pays nothing
        table = {"ready": ready, "passed": passed, "wall_left": obs.wall_left}
    return advise(
        hand, ponds=ponds, melds=melds, dealer=obs.dealer, seat=seat, claim=claim,
        claim_from=claim_from, k=k, rules=rules, **table,
    )  # fmt: skip


def advice_lines(obs: Observation, rules: RuleSet) -> list[str]:
    """The advisor's table for the position, or one line saying why there is none."""
    if obs.decision == "kong":
        return ["the advisor rates discards and claims, not kongs: answer the kong, then ask again"]
    try:
        df = advise_position(obs, rules)
    except ValueError as e:
        return [f"the advisor cannot rate this position: {e}"]
    cols = [c for c in ("action", "discard", "shanten", "outs", "p_ready_1", "p_ready_2", "p_win", "ev",
                        "danger") if c in df.columns]  # fmt: skip
    return [
        "advisor (exact model, k=2; see ds.advise):",
        *df[cols].head(12).to_string(index=False).splitlines(),
    ]


__all__ = ["advise_position", "advice_lines"]
