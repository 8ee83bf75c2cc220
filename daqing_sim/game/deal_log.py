"""Structured event log of one deal: :func:`deal_log` -> one DataFrame row per event.

Built from the jitted engine's own event log (:mod:`daqing_sim.game.engine`, ``EV_*`` codes),
run on the same wall and deal seed as :func:`daqing_sim.game.simulate.simulate`, plus the
deal's opening (the dealt tiles, the bao) and the end state of every tile; any rule family. The schema is
in docs/DESIGN.md (event log); :func:`daqing_sim.game.replay.replay` renders it as text and
``daqing-sim replay --json`` prints it as JSON lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.codes import (
    BAO_KINDS,
    FAMILY_SEATS,
    METHODS,
    N_KINDS,
    N_KINDS_ALL,
    OUTCOMES,
    WAIT_KINDS,
)
from daqing_sim.families import family_module, family_spec
from daqing_sim.game.engine import (
    EV_ADDED_KONG,
    EV_BAO_REPLACED,
    EV_BURN,
    EV_CLAIM,
    EV_CLAIM_OFFER,
    EV_CONCEALED_KONG,
    EV_DISCARD,
    EV_DRAW,
    EV_EXHAUSTIVE,
    EV_MUTUAL_BAO,
    EV_READY,
    EV_ROBBED_KONG,
    EV_WIN,
    EV_WIN_DETAIL,
    F_POOL,
    MAX_EVENTS,
    O_BAO,
    O_BIG,
    O_CONCEALED,
    O_DISCARDER,
    O_DISCARDER_READY,
    O_OUTCOME,
    O_WAIT,
    O_WINNER_KONGS,
)
from daqing_sim.game.events import EV_EXTRA_DRAW, EV_FLOWER
from daqing_sim.game.simulate import (
    _default_seats,
    _prepare,
    _python_seats,
    _with_players,
    results_frame,
    run_walls,
)
from daqing_sim.game.wall import N_LIVE, generate_walls
from daqing_sim.hand.tiles import tile_name
from daqing_sim.render.frames import DealLogFrame
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int

EVENTS = (
    "deal",
    "bao",
    "draw",
    "kong_draw",
    "discard",
    "ready",
    "claim_offer",
    "claim",
    "concealed_kong",
    "added_kong",
    "bao_replaced",
    "win",
    "bao_kan",
    "exhaustive_draw",
    "final",
    # Beijing: a robbed kong (抢杠), a 互包 binding, a 烧庄 round
    "robbed_kong",
    "mutual_bao",
    "burn",
    # two-player: a flower tile turned face up (花牌), an extra draw of 海底捞月
    "flower",
    "extra_draw",
)
# claim answers by code (codes.PASS .. CHI_HIGH, CLAIM_WIN: a declared two-player hand takes
# the win offered), then the two win methods
ACTIONS = ("pass", "peng", "kong", "chi_low", "chi_mid", "chi_high", "win") + METHODS
PLACES = ("hand", "pool", "rest")
TILE_NAMES = tuple(tile_name(t) for t in range(N_KINDS))
TILE_NAMES_ALL = tuple(tile_name(t) for t in range(N_KINDS_ALL))  # a family of 34 kinds
LIVE = {f: family_spec(f).live for f in FAMILY_SEATS}  # tiles to draw after the deal
SEATS = FAMILY_SEATS
COLUMNS = (
    "step",
    "event",
    "seat",
    "tile",
    "tile_name",
    "from_seat",
    "action",
    "options",
    "wall_left",
    "ready",
    "bao",
    "wait",
    "outs",
    "bao_kind",
    "other_tile",
    "place",
    "count",
)
_INTS = {
    "step": np.int16,
    "seat": np.int8,
    "tile": np.int8,
    "from_seat": np.int8,
    "options": np.int8,
    "wall_left": np.int16,
    "bao": np.int8,
    "outs": np.int16,
    "other_tile": np.int8,
    "count": np.int8,
}


def _row(event: str, seat: int = -1, tile: int = -1, **kw) -> dict:
    r = {"event": event, "seat": seat, "tile": tile, "from_seat": -1, "action": None, "options": 0}
    r.update({"wait": None, "outs": -1, "bao_kind": None, "other_tile": -1, "place": None, "count": 1})
    r.update(kw)
    return r


def _opening(wall: np.ndarray, dealer: int, family: str = "daqing") -> list[dict]:
    rows = []
    pos = 0
    n = SEATS[family]
    for k in range(n):
        s = (dealer + k) % n
        for _ in range(14 if k == 0 else 13):
            rows.append(_row("deal", s, int(wall[pos])))
            pos += 1
    bao = family_spec(family).bao_position
    if bao >= 0:
        rows.append(_row("bao", -1, int(wall[bao])))
    return rows


def _events(log: np.ndarray, row: np.ndarray, family: str = "daqing") -> list[dict]:
    rows: list[dict] = []
    discarder = -1
    wait_recorded = family_spec(family).ready_records_wait
    for code, seat, tile, a, b in log.astype(int).tolist():
        if code == EV_READY and not wait_recorded:
            a, b = -1, -1  # e.g. 报听: the engine records no wait kind nor outs for it
        if code == EV_DRAW:
            rows.append(_row("kong_draw" if a else "draw", seat, tile))
        elif code == EV_DISCARD:
            discarder = seat
            rows.append(_row("discard", seat, tile, ready_after=bool(b)))
        elif code == EV_READY:
            rows.append(_row("ready", seat, -1, wait=WAIT_KINDS[a] if a >= 0 else None, outs=b))
        elif code == EV_CLAIM_OFFER:
            rows.append(_row("claim_offer", seat, tile, from_seat=discarder, action=ACTIONS[b], options=a))
        elif code == EV_CLAIM:
            rows.append(_row("claim", seat, tile, from_seat=b, action=ACTIONS[a]))
        elif code == EV_CONCEALED_KONG:
            rows.append(_row("concealed_kong", seat, tile))
        elif code == EV_ADDED_KONG:
            rows.append(_row("added_kong", seat, tile))
        elif code == EV_BAO_REPLACED:
            rows.append(_row("bao_replaced", -1, tile, other_tile=a, wall_after=b))
        elif code == EV_WIN:
            wait = WAIT_KINDS[row[O_WAIT]] if row[O_WAIT] >= 0 else None
            rows.append(_row("win", seat, tile, from_seat=b, action=METHODS[a], wait=wait))
        elif code == EV_WIN_DETAIL:
            win = rows[-1]
            win["other_tile"] = tile
            win["bao_kind"] = BAO_KINDS[a]
            if b:  # RULES: 宝卡 — won on a new bao, with no draw
                win["event"] = "bao_kan"
        elif code == EV_EXHAUSTIVE:
            rows.append(_row("exhaustive_draw"))
        elif code == EV_ROBBED_KONG:  # options: 1 when the kong was concealed
            rows.append(_row("robbed_kong", seat, tile, from_seat=a, options=b))
        elif code == EV_MUTUAL_BAO:
            rows.append(_row("mutual_bao", seat, -1, from_seat=a))
        elif code == EV_BURN:  # count: the round
            rows.append(_row("burn", seat, tile, count=a))
        elif code == EV_FLOWER:  # count: which flower tile (1-4)
            rows.append(_row("flower", -1, tile, count=a + 1))
        elif code == EV_EXTRA_DRAW:  # count: which extra draw (1-3); options: 1 when it wins
            rows.append(_row("extra_draw", seat, tile, options=a, count=b + 1))
    return rows


def _final(final: np.ndarray) -> list[dict]:
    rows = []
    for i in range(6):
        seat, place = (i, "hand") if i < F_POOL else (-1, "pool" if i == F_POOL else "rest")
        for t in range(final.shape[1]):
            if final[i, t]:
                rows.append(_row("final", seat, t, place=place, count=int(final[i, t])))
    return rows


def _fill_state(rows: list[dict], live: int = N_LIVE) -> None:
    """The state columns (after each event): wall_left, the seat's ready (报听 for two players),
    the bao in force."""
    left = live
    bao = -1
    ready = [False] * 4
    for r in rows:
        ev = r["event"]
        if ev in ("draw", "kong_draw"):
            left -= 1
        elif ev == "bao":
            bao = r["tile"]
        elif ev == "bao_replaced":
            left -= 1
            bao = r["tile"]
            if r.pop("wall_after") != left:
                raise AssertionError("event log out of step with the wall (a bug: please report it)")
        elif ev == "ready":
            ready[r["seat"]] = True
        elif ev == "discard":
            ready[r["seat"]] = r.pop("ready_after")
        r["wall_left"] = left
        r["bao"] = bao
        r["ready"] = ready[r["seat"]] if r["seat"] >= 0 else False


def frame_from_rows(rows: list[dict], family: str = "daqing") -> pd.DataFrame:
    """The typed frame of :func:`deal_log` from its row dicts."""
    df = pd.DataFrame(rows)
    df["step"] = np.arange(len(df))
    for col, dtype in _INTS.items():
        df[col] = df[col].astype(dtype)
    df["ready"] = df["ready"].astype(bool)
    df["tile_name"] = pd.Categorical.from_codes(
        np.where(df["tile"] >= 0, df["tile"], -1),
        categories=list(TILE_NAMES if family_spec(family).kinds == N_KINDS else TILE_NAMES_ALL),
    )
    for col, cats in (
        ("event", EVENTS),
        ("action", ACTIONS),
        ("wait", WAIT_KINDS),
        ("bao_kind", BAO_KINDS),
        ("place", PLACES),
    ):
        df[col] = pd.Categorical(df[col], categories=list(cats))
    return df[list(COLUMNS)]


def deal_log_wall(
    wall: np.ndarray,
    deal_seed: int,
    rules: RuleSet,
    codes: np.ndarray,
    knob_values: np.ndarray,
    dealer: int = 0,
    players: Sequence[Any] | None = None,
    deal: int = 0,
) -> tuple[pd.DataFrame, np.ndarray]:
    """The event frame of one given wall and the deal's result row (``out``, N_OUT values)."""
    raw = run_walls(
        wall[None, :],
        np.array([deal_seed], dtype=np.uint64),
        rules,
        codes,
        knob_values,
        dealer,
        record_final=True,
        record_log=True,
        players=players,
        first_deal=deal,
    )
    row = raw["out"][0]
    return events_frame(wall, dealer, rules.family, raw["log"], row, raw["final"][0]), row


def events_frame(
    wall: np.ndarray,
    dealer: int,
    family: str,
    log: np.ndarray,
    row: np.ndarray,
    final: np.ndarray | None = None,
) -> pd.DataFrame:
    """The event frame of one deal from the engine's own event ``log`` (``LOG_WIDTH`` columns):
    the opening, the events, and with ``final`` (the deal is over) where every tile ended.

    Also for a deal still being played (``DealEnv``): the rows so far, ``row`` read only for a win.
    """
    if len(log) >= MAX_EVENTS:
        raise AssertionError(f"more than {MAX_EVENTS} events in one deal: raise engine.MAX_EVENTS")
    rows = _opening(wall, dealer, family) + _events(log, row, family)
    _fill_state(rows, LIVE[family])
    end = _final(final) if final is not None else []
    for r in end:
        r.update(wall_left=rows[-1]["wall_left"], bao=rows[-1]["bao"], ready=False)
    return frame_from_rows(rows + end, family)


def deal_log(
    seed: int,
    deal: int,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] | None = None,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
) -> pd.DataFrame:
    """Every event of deal ``deal`` of ``seed``, one typed row each (schema: docs/DESIGN.md).

    The rows are the dealt tiles (``deal``), the bao (``bao``), the moves in order — draws,
    discards, declarations, every claim offer with its options and answer, claims, kongs,
    bao replacements —, the end (``win``, ``bao_kan`` for 宝卡, or ``exhaustive_draw``) and
    where all 112 tiles are at the end (``final``: per seat, unclaimed discards, rest).

    Parameters
    ----------
    seed, deal : int
        Identify the deal, as in the ``deal`` column of :func:`daqing_sim.game.simulate`.
    rules, strategies, dealer, knobs
        As given to :func:`daqing_sim.game.simulate` (the log is that run's deal; no
        strategies: the family's default field, ``players.registry.default_field``). Under
        Beijing there is no bao row, and the rows ``robbed_kong`` (抢杠: ``from_seat`` the
        kong's declarer, ``options`` 1 for a concealed kong), ``mutual_bao`` (互包: the seat and
        ``from_seat`` are bound) and ``burn`` (烧庄: ``count`` the round) show its mechanics.
        A two-player game deals to two seats and has the rows ``flower`` (a flower tile face
        up), ``ready`` for 报听, a ``claim_offer`` with the action ``win`` offered to a declared
        hand (answered ``win`` or ``pass``) and ``extra_draw`` (海底捞月: ``count`` the draw,
        ``options`` 1 when it wins).

    Returns
    -------
    pandas.DataFrame
        ``attrs`` holds ``seed``, ``deal``, ``dealer`` and the ``strategies`` names. In Jupyter
        the frame shows the table at the deal's end above its rows
        (:class:`~daqing_sim.render.frames.DealLogFrame`; ``ds.replay_html`` steps through it).

    Examples
    --------
    >>> import daqing_sim as ds
    >>> log = ds.deal_log(0, 3, strategies=("random",) * 4)
    >>> int((log.event == "deal").sum()), int(log.loc[log.event == "final", "count"].sum())
    (53, 112)
    """
    df, _ = logged_deal(seed, deal, rules, strategies, dealer, knobs)
    frame = DealLogFrame(df)  # drawn as the table in Jupyter (daqing_sim.render.frames)
    frame.attrs.update(df.attrs)  # the constructor does not carry attrs over
    return frame


def logged_deal(
    seed: int,
    deal: int,
    rules: RuleSet,
    strategies: Sequence[Any],
    dealer: int,
    knobs: Sequence[Mapping[str, float] | None] | None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """:func:`deal_log`'s validated play of one deal: the event frame (``attrs``: seed, deal,
    dealer, strategies) and the deal's result row (``game.engine.O_*``)."""
    seed = check_int(seed, "seed")
    deal = check_int(deal, "deal")
    strategies = _with_players(_default_seats(strategies, rules))
    rules, dealer, names, codes, knob_values = _prepare(rules, strategies, knobs, dealer)
    walls, _, seeds = generate_walls(1, seed, deal, family=rules.family)
    df, row = deal_log_wall(
        walls[0], seeds[0], rules, codes, knob_values, dealer, _python_seats(strategies), deal
    )
    df.attrs.update(seed=seed, deal=deal, dealer=dealer, strategies=list(names), family=rules.family)
    return df, row


def settlement(row: np.ndarray, winner: int, rules: RuleSet, dealer: int):
    """The :class:`~daqing_sim.families.daqing.scoring.Settlement` of a won deal from its result row,
    by the ``settle_detail`` of the family's ``scoring`` module (a family whose wins are settled
    per loser, as Daqing's; the others are read by :func:`result_row`)."""
    outcome = OUTCOMES[row[O_OUTCOME]]
    bao = BAO_KINDS[row[O_BAO]]
    method = "self_draw" if outcome == "self_draw" else "deal_in"
    return family_module(rules.family, "scoring").settle_detail(
        winner=winner,
        dealer=dealer,
        method=method,
        discarder=None if method == "self_draw" else int(row[O_DISCARDER]),
        discarder_ready=bool(row[O_DISCARDER_READY]) if method == "deal_in" else True,
        big=bool(row[O_BIG]),
        bao=bao,
        concealed=[bool(row[O_CONCEALED + s]) for s in range(4)],
        winner_kongs=int(row[O_WINNER_KONGS]),
        rules=rules,
    )


def result_row(row: np.ndarray, rules: RuleSet, dealer: int, names: Sequence[str]) -> dict[str, Any]:
    """The end of a Beijing or two-player deal, read from its row of the results frame (the
    family's frame builder of :func:`daqing_sim.simulate`, on the logged deal's result row).

    Returns
    -------
    dict
        ``frame`` (the one-row results frame), ``winner`` (-1: nobody won), ``how`` (self draw,
        deal in, robbed kong, extra draw, ...), ``fans`` (``(label, fans)`` of each fan held, the
        label its Chinese name when the rules give one and its code name), ``fan_total``,
        ``value``, ``payments`` (one per seat); Beijing: ``burn_rounds`` (烧庄) and
        ``mutual_payer`` (互包, -1 none).
    """
    family = rules.family
    frame = results_frame(row[None, :], 0, dealer, names, family=family, cap=rules.limit_fans)
    f = frame.iloc[0]
    n = SEATS[family]
    out: dict[str, Any] = {
        "frame": frame,
        "winner": int(f["winner"]),
        "payments": [int(f[f"pay_{s}"]) for s in range(n)],
        "fan_total": int(f["fan_total"]),
        "value": int(f["value"]),
    }
    # the family's own words: its fans with their values, how it was won, its extras
    out.update(family_module(family, "frame").win_details(f, rules))
    return out


def to_json_lines(df: pd.DataFrame) -> list[str]:
    """One JSON object per event (missing values as ``null``), as ``daqing-sim replay --json``."""
    return df.to_json(orient="records", lines=True, force_ascii=False).splitlines()


__all__ = [
    "deal_log",
    "deal_log_wall",
    "events_frame",
    "result_row",
    "settlement",
    "to_json_lines",
    "EVENTS",
    "ACTIONS",
    "COLUMNS",
]
