"""Simulate many complete deals: :func:`simulate` -> one DataFrame row per deal.

Deal ``i`` of seed ``s`` is fully determined by ``(s, i)``, the rules and the strategies:
its wall comes from :func:`daqing_sim.game.wall.generate_walls` and every in-game random choice
from its own deal seed, so results do not depend on ``n_jobs`` or on how a run is chunked.
The columns are the contract of docs/DESIGN.md ("Results DataFrame").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.codes import FAMILIES, FAMILY_KINDS, N_KINDS, WAIT_KINDS
from daqing_sim.compile_notice import announce
from daqing_sim.families import family_module, family_spec
from daqing_sim.game.engine import (
    H_WIDTH,
    LOG_WIDTH,
    MAX_EVENTS,
    N_OUT,
    play_batch_k,
)
from daqing_sim.game.external import play_with_players
from daqing_sim.game.state import new_deal_state
from daqing_sim.game.wall import BLOCK, TP_WIDTH, generate_walls
from daqing_sim.hand.tables import get_tables
from daqing_sim.hand.tiles import tile_name
from daqing_sim.layout import HA_WIDTH
from daqing_sim.players.dispatch import table_free_flags
from daqing_sim.players.interface import Player
from daqing_sim.players.plugins import resolve_seats
from daqing_sim.players.registry import FAMILY_SEATS, default_field, encode_strategies
from daqing_sim.players.seats import engine_seats, table_players
from daqing_sim.players.user import JittedPlayer, entry_with_ufns
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_fits_memory, check_int

WAIT_CATEGORIES = (*WAIT_KINDS, "none")
TILE_CATEGORIES = tuple(tile_name(t) for t in range(N_KINDS))
CHUNK = BLOCK


def _check_rules(rules: Any) -> RuleSet:
    if not isinstance(rules, RuleSet):
        raise ValueError(
            f"rules must be a RuleSet, not {type(rules).__name__}; e.g. RuleSet(bao_replacement=False)"
        )
    return rules


def _n_kinds(family: str) -> int:
    return FAMILY_KINDS[FAMILIES.index(family)]


def _check_family_seats(rules: RuleSet, names: Sequence[str], strategies: Sequence[Any]) -> None:
    """A family other than Daqing is played by its own built-in players, Python players and
    jitted players (one-line error for the others)."""
    if rules.family == "daqing":
        return
    builtin = [n for n, p in zip(names, strategies, strict=False) if not isinstance(p, Player | JittedPlayer)]
    players = family_spec(rules.family).players
    bad = sorted(set(builtin) - set(players))
    if bad:
        raise ValueError(
            f"{', '.join(bad)} does not play {rules.family} yet: use {' or '.join(players)} "
            f"(e.g. strategies=('greedy',) * {FAMILY_SEATS[rules.family]})"
        )


def _check_dealer(dealer: Any, family: str = "daqing") -> int:
    dealer = check_int(dealer, "dealer")
    n = FAMILY_SEATS.get(family, 4)
    if dealer >= n:
        raise ValueError(f"dealer={dealer} is out of range: seats are {', '.join(map(str, range(n)))}")
    return dealer


def _batch_feature(family: str) -> str:
    return {"daqing": "simulate", "beijing": "simulate_beijing"}.get(family, f"simulate_{family}")


def run_walls(
    walls: np.ndarray,
    deal_seeds: np.ndarray,
    rules: RuleSet,
    codes: np.ndarray,
    knob_values: np.ndarray,
    dealer: int = 0,
    record_hands: bool = False,
    record_final: bool = False,
    record_log: bool = False,
    players: Sequence[Any] | None = None,
    first_deal: int = 0,
) -> dict[str, np.ndarray]:
    """Run the deal kernel on prepared arrays and return its raw outputs.

    ``players``: the seats' strategies as given, when some are Python
    :class:`~daqing_sim.players.interface.Player` objects (their deals are stepped,
    :mod:`daqing_sim.game.external`; ``first_deal`` numbers deals in their error messages).

    Returns
    -------
    dict
        ``out`` (n, N_OUT) int32; with the flags also ``hands`` (n, H_WIDTH) int8 (``HA_WIDTH``
        for 34 kinds), ``final`` (n, 6, kinds) int8, and ``log`` (events, 5) int16 of the last deal.
    """
    walls = np.ascontiguousarray(walls, dtype=np.uint8)
    n = walls.shape[0]
    stepped = players is not None and any(isinstance(p, Player) for p in players)
    if n:
        feature = "stepped" if stepped else _batch_feature(rules.family)
        announce(feature, table_players(codes), rules.family)
    if stepped:
        if any(isinstance(p, JittedPlayer) for p in players):
            raise ValueError(
                "a seat list mixes Python players and JittedPlayers: play them in separate runs "
                "(Python seats step the engine, which runs user jitted players only in batches)"
            )
        return play_with_players(
            walls,
            np.ascontiguousarray(deal_seeds, dtype=np.uint64),
            rules.encode(),
            codes,
            knob_values,
            players,
            dealer,
            first_deal,
            record_hands,
            record_final,
            record_log,
        )
    nk = _n_kinds(rules.family)
    out = np.empty((n, N_OUT), dtype=np.int32)
    hands = np.zeros((n if record_hands else 1, H_WIDTH if nk == N_KINDS else HA_WIDTH), dtype=np.int8)
    final = np.zeros((n if record_final else 1, 6, nk), dtype=np.int8)
    log = np.zeros((MAX_EVENTS if record_log else 1, LOG_WIDTH), dtype=np.int16)
    if n:
        st, obs = new_deal_state(rules.family)
        # the table-thinking players are called through ``ufns``, each compiled only when seated
        engine_codes, ufns = engine_seats(codes, players, rules.family)
        args = (
            walls,
            np.ascontiguousarray(deal_seeds, dtype=np.uint64),
            dealer,
            rules.encode(),
            engine_codes,
            np.ascontiguousarray(knob_values, dtype=np.float64),
            table_free_flags(),
            get_tables(),
            st,
            obs,
            out,
            hands,
            final,
            log,
        )
        n_log = entry_with_ufns(play_batch_k, (*args, ufns))(*args, ufns)
    else:
        n_log = 0
    result = {"out": out}
    if record_hands:
        result["hands"] = hands
    if record_final:
        result["final"] = final
    if record_log:
        result["log"] = log[: min(n_log, MAX_EVENTS)].copy()
    return result


def results_frame(
    out: np.ndarray,
    first_deal: int,
    dealer: int,
    names: Sequence[str],
    hands: np.ndarray | None = None,
    family: str = "daqing",
    cap: int = 13,
) -> pd.DataFrame:
    """Turn the kernel's ``out`` rows into the results DataFrame of docs/DESIGN.md: the family's
    frame builder (``results_frame`` of its package's ``frame`` module; ``cap`` is a two-player
    run's ``limit_fans``)."""
    builder = family_module(family, "frame").results_frame
    return builder(out, first_deal, dealer, names, hands, cap)


def _prepare(rules, strategies, knobs, dealer):
    """Validated rules and dealer, and the seats encoded (``"module:Class"`` players made)."""
    rules = _check_rules(rules)
    dealer = _check_dealer(dealer, rules.family)
    names, codes, knob_values = encode_strategies(strategies, knobs, rules.family)
    _check_family_seats(rules, names, strategies)
    return rules, dealer, names, codes, knob_values


def simulate_walls(
    walls: np.ndarray,
    deal_seeds: np.ndarray,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] | None = None,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
    record_hands: bool = False,
    first_deal: int = 0,
) -> pd.DataFrame:
    """Play given walls (e.g. built with :func:`daqing_sim.game.wall.compose_wall`).

    Parameters
    ----------
    walls : array_like
        ``(n, 112)`` or ``(112,)`` tile kinds, layout of :mod:`daqing_sim.game.wall`; each a full
        set of 112 tiles.
    deal_seeds : array_like
        ``(n,)`` unsigned seeds for in-game randomness.
    rules, strategies, dealer, knobs, record_hands
        As for :func:`simulate`.
    first_deal : int
        Value of the ``deal`` column of the first row.

    Returns
    -------
    pandas.DataFrame
        One row per wall, columns of :func:`simulate`.
    """
    strategies = _with_players(_default_seats(strategies, rules))
    rules, dealer, names, codes, knob_values = _prepare(rules, strategies, knobs, dealer)
    walls = _check_walls(walls, rules.family)
    deal_seeds = np.atleast_1d(np.asarray(deal_seeds, dtype=np.uint64))
    if deal_seeds.shape != (walls.shape[0],):
        raise ValueError(
            f"deal_seeds has shape {deal_seeds.shape}: give one seed per wall ({walls.shape[0]})"
        )
    raw = run_walls(
        walls,
        deal_seeds,
        rules,
        codes,
        knob_values,
        dealer,
        record_hands=record_hands,
        players=_python_seats(strategies),
        first_deal=first_deal,
    )
    return results_frame(raw["out"], first_deal, dealer, names, raw.get("hands"), rules.family, _cap(rules))


def _default_seats(strategies: Any, rules: Any) -> Any:
    """The family's default field (``players.registry.default_field``) when no seats are given."""
    if strategies is None:
        return default_field(rules.family if isinstance(rules, RuleSet) else "daqing")
    return strategies


def _with_players(strategies: Any) -> Any:
    """The seats with ``"module:Class"`` entries made into Python players."""
    if isinstance(strategies, Sequence) and not isinstance(strategies, str):
        return resolve_seats(strategies)
    return strategies


def _python_seats(strategies: Sequence[Any]) -> tuple[Any, ...] | None:
    """The seats as given when some are player objects (Python or jitted; else None)."""
    return tuple(strategies) if any(isinstance(p, Player | JittedPlayer) for p in strategies) else None


def _cap(rules: RuleSet) -> int:
    return rules.limit_fans if rules.family == "two_player" else 13


def _check_walls(walls: Any, family: str = "daqing") -> np.ndarray:
    nk = _n_kinds(family)
    size = TP_WIDTH if family == "two_player" else 4 * nk
    walls = np.asarray(walls)
    if walls.ndim == 1:
        walls = walls[None, :]
    if walls.ndim != 2 or walls.shape[1] != size:
        raise ValueError(f"walls must have shape (n, {size}), not {walls.shape}")
    if walls.size and (walls.min() < 0 or walls.max() >= nk):
        raise ValueError(f"walls hold tile kinds 0-{nk - 1} only")
    walls = walls.astype(np.uint8)
    counts = np.apply_along_axis(np.bincount, 1, walls, minlength=nk) if walls.size else None
    if family == "two_player":
        if counts is not None and (counts > 4).any():
            bad = int(np.flatnonzero((counts > 4).any(axis=1))[0])
            raise ValueError(
                f"wall {bad} holds a kind more than four times: a two-player wall is 78 of the 136 tiles"
            )
        return walls
    if counts is not None and not (counts == 4).all():
        bad = int(np.flatnonzero((counts != 4).any(axis=1))[0])
        raise ValueError(
            f"wall {bad} is not a full set: every one of the {nk} kinds needs exactly four copies"
        )
    return walls


def _run_chunk(n, seed, start, rules, codes, knob_values, dealer, record_hands, players=None):
    walls, _, seeds = generate_walls(n, seed, start, family=rules.family)
    return run_walls(
        walls,
        seeds,
        rules,
        codes,
        knob_values,
        dealer,
        record_hands=record_hands,
        players=players,
        first_deal=start,
    )


def simulate(
    n_deals: int,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    record_hands: bool = False,
    start: int = 0,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Simulate deals ``start .. start + n_deals - 1`` of ``seed``.

    Parameters
    ----------
    n_deals : int
        Number of deals (>= 0).
    rules : RuleSet
        Rule flags.
    strategies : sequence of 4, optional
        Per seat a strategy name (see :data:`daqing_sim.players.registry.STRATEGIES`) or
        ``(name, {knob: value})``; by default the family's default field (four experts, under
        Daqing and under Beijing: ``players.registry.default_field``).
    seed : int
        Non-negative run seed.
    n_jobs : int
        Worker processes (joblib); results are identical for any value.
    record_hands : bool
        Add ``winner_hand``, the winner's 13-tile hand before the win, in hand notation.
    start : int
        Global index of the first deal.
    dealer : int
        Seat of the dealer (庄).
    knobs : sequence of 4 mappings, optional
        Knob overrides per seat.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    pandas.DataFrame
        One row per deal with the columns of docs/DESIGN.md.

    Raises
    ------
    ValueError
        On a negative count/seed/start, a dealer outside 0-3, a non-RuleSet ``rules``, or
        unknown strategies and knobs.

    Examples
    --------
    >>> df = simulate(20, strategies=("random",) * 4, seed=1)
    >>> len(df), int(df[[f"pay_{s}" for s in range(4)]].to_numpy().sum())
    (20, 0)
    """
    n_deals = check_int(n_deals, "n_deals")
    check_fits_memory(n_deals, "n_deals", "simulate fewer at a time, or run an experiment (run_experiment)")
    seed = check_int(seed, "seed")
    start = check_int(start, "start")
    if start + n_deals > 2**63 - 1:
        raise ValueError(f"start={start} + n_deals={n_deals} is beyond the int64 deal ids; use smaller ones")
    n_jobs = check_int(n_jobs, "n_jobs", minimum=None)
    if n_jobs == 0 or n_jobs < -1:
        raise ValueError(
            f"n_jobs={n_jobs} is invalid: use a positive number of processes, or -1 for all cores"
        )
    if not isinstance(record_hands, bool | np.bool_):
        raise ValueError(f"record_hands must be True or False, not {record_hands!r}")
    strategies = _with_players(_default_seats(strategies, rules))
    rules, dealer, names, codes, knob_values = _prepare(rules, strategies, knobs, dealer)
    # chunk edges on wall-block boundaries so no block is shuffled twice
    edges = [start]
    nxt = (start // CHUNK + 1) * CHUNK
    while nxt < start + n_deals:
        edges.append(nxt)
        nxt += CHUNK
    edges.append(start + n_deals)
    if n_deals:
        feature = "stepped" if _python_seats(strategies) is not None else _batch_feature(rules.family)
        announce(feature, table_players(codes), rules.family)
    tasks = [
        (b - a, seed, a, rules, codes, knob_values, dealer, bool(record_hands), _python_seats(strategies))
        for a, b in zip(edges[:-1], edges[1:], strict=True)
        if b > a
    ]
    if n_jobs == 1 or len(tasks) <= 1:
        it = (_run_chunk(*t) for t in tasks)
        if progress:
            from tqdm.auto import tqdm

            it = tqdm(it, total=len(tasks), unit="chunk", desc="simulate")
        raws = list(it)
    else:
        from joblib import Parallel, delayed

        raws = Parallel(n_jobs=n_jobs, verbose=5 if progress else 0)(delayed(_run_chunk)(*t) for t in tasks)
    if raws:
        out = np.concatenate([r["out"] for r in raws])
        hands = np.concatenate([r["hands"] for r in raws]) if record_hands else None
    else:
        out = np.empty((0, N_OUT), dtype=np.int32)
        width = H_WIDTH if rules.family == "daqing" else HA_WIDTH
        hands = np.empty((0, width), dtype=np.int8) if record_hands else None
    return results_frame(out, start, dealer, names, hands, rules.family, _cap(rules))


__all__ = ["simulate", "simulate_walls", "run_walls", "results_frame"]
