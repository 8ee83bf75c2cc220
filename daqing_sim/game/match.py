"""Matches of the two-player family (docs/RULES_TWO_PLAYER.md, "Game and wall"): a sequence of
games where the first dealer is random, the winner deals the next game and the dealer deals again
after 流局, each game worth twice the one before under ``match_doubling`` (进阶倍数).

Game ``k`` of match ``m`` is deal ``m * games + k`` of the seed (its wall and deal seed, as
:func:`daqing_sim.game.wall.generate_walls` gives them), and the first dealer of match ``m``
comes from ``SeedSequence(seed, spawn_key=(m, 3))``: so a match depends on its seed and index
only. The games of one round of all matches are played in two batches (one per dealer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.game.simulate import _default_seats, _prepare, _python_seats, results_frame, run_walls
from daqing_sim.game.wall import generate_walls
from daqing_sim.layout import N_OUT
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_fits_memory, check_int

_FIRST_DEALER_KEY = 3  # the spawn key's second field of the first dealers' streams


def first_dealers(n_matches: int, seed: int) -> np.ndarray:
    """The first dealer (0 or 1) of matches ``0 .. n_matches - 1`` of ``seed``."""
    return np.array(
        [
            np.random.SeedSequence(seed, spawn_key=(m, _FIRST_DEALER_KEY)).generate_state(1)[0] & 1
            for m in range(n_matches)
        ],
        dtype=np.int64,
    )


def simulate_match(
    n_matches: int,
    games: int = 8,
    rules: RuleSet = RuleSet(family="two_player"),
    strategies: Sequence[Any] | None = None,
    seed: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
) -> pd.DataFrame:
    """Play ``n_matches`` two-player matches of ``games`` games each.

    Parameters
    ----------
    n_matches : int
        Matches (>= 0).
    games : int
        Games per match (>= 1; the text's example room plays 8).
    rules : RuleSet
        A two-player rule set (``match_doubling``, ``multiplier`` and ``points_per_fan`` set what
        a game is worth).
    strategies : sequence of 2, optional
        The seats' players (default: ``players.registry.default_field("two_player")``); seat 0
        is the same player through the match, whoever deals.
    seed : int
        Non-negative run seed.
    knobs : sequence of 2 mappings, optional
        Knob overrides per seat.

    Returns
    -------
    pandas.DataFrame
        One row per game, sorted by match and game: ``match``, ``game`` and the columns of
        :func:`daqing_sim.game.simulate.simulate` for the family (``dealer`` the game's dealer,
        ``value`` and ``pay_<s>`` as a first game's), then ``match_value``, ``match_pay_0`` and
        ``match_pay_1``: the game's value and payments in the match (x 2^game under
        ``match_doubling``).

    Raises
    ------
    ValueError
        On a rule set of another family, bad counts or seed, or what ``simulate`` rejects.

    Examples
    --------
    >>> import daqing_sim as ds
    >>> m = ds.simulate_match(3, games=4, strategies=("greedy", "random"), seed=1)
    >>> len(m), int((m.match_pay_0 + m.match_pay_1).abs().sum())
    (12, 0)
    """
    if not isinstance(rules, RuleSet) or rules.family != "two_player":
        raise ValueError(
            "simulate_match plays two-player matches: give rules=RuleSet(family='two_player', ...)"
        )
    n_matches = check_int(n_matches, "n_matches")
    games = check_int(games, "games", minimum=1)
    seed = check_int(seed, "seed")
    check_fits_memory(n_matches * games, "games (n_matches x games)", "play fewer matches at a time")
    strategies = _default_seats(strategies, rules)
    rules, _, names, codes, knob_values = _prepare(rules, strategies, knobs, 0)
    if _python_seats(strategies) is not None:
        raise ValueError("simulate_match seats built-in players only: play Python players with ds.simulate")
    walls, _, deal_seeds = generate_walls(n_matches * games, seed, 0, family="two_player")
    dealer = first_dealers(n_matches, seed)
    frames = []
    index = np.arange(n_matches, dtype=np.int64)
    for k in range(games):
        winner = np.full(n_matches, -1, dtype=np.int64)
        for d in (0, 1):
            ms = index[dealer == d]
            if not len(ms):
                continue
            deals = ms * games + k
            raw = run_walls(walls[deals], deal_seeds[deals], rules, codes, knob_values, d)
            df = results_frame(raw["out"], 0, d, names, None, "two_player", rules.limit_fans)
            df["deal"] = deals
            df.insert(0, "game", k)
            df.insert(0, "match", ms)
            frames.append(df)
            winner[ms] = df["winner"].to_numpy()
        dealer = np.where(winner >= 0, winner, dealer)  # RULES: the winner deals; 流局 keeps the dealer
    if not frames:
        out = results_frame(np.empty((0, N_OUT), dtype=np.int32), 0, 0, names, None, "two_player")
        out.insert(0, "game", pd.Series(dtype=np.int64))
        out.insert(0, "match", pd.Series(dtype=np.int64))
    else:
        out = pd.concat(frames, ignore_index=True).sort_values(["match", "game"], ignore_index=True)
    factor = np.left_shift(1, out["game"].to_numpy(dtype=np.int64)) if rules.match_doubling else 1
    out["match_value"] = out["value"].to_numpy(dtype=np.int64) * factor
    for s in range(2):
        out[f"match_pay_{s}"] = out[f"pay_{s}"].to_numpy(dtype=np.int64) * factor
    return out


__all__ = ["simulate_match", "first_dealers"]
