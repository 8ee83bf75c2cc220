"""Deals with seats decided outside the jitted engine: Python :class:`~daqing_sim.players.interface.Player`
objects and the caller of a :class:`~daqing_sim.game.env.DealEnv`.

One engine: :class:`SteppedDeal` runs ``game.engine.step_deal_k``, which plays until an
``EXTERNAL`` seat must decide, pauses with that seat's observation filled by
``game.state.observe``, and resumes with the answer. The answer is checked here against the
legal options, so a wrong answer stops the run with one line naming the player, seat, deal,
decision and options; the rules are never re-checked or re-played in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from daqing_sim.codes import (
    DECISION_CLAIM,
    DECISION_DISCARD,
    DECISION_KONG,
    DECISIONS,
    EXTERNAL,
    FAMILIES,
    FAMILY_KINDS,
    N_KINDS,
    PASS,
)
from daqing_sim.game.engine import (
    C_ANSWER,
    C_BACK,
    C_BAO,
    C_DECISION,
    C_DECLARE,
    C_FRONT,
    C_N_LOG,
    C_SEAT,
    C_STATUS,
    H_WIDTH,
    LOG_WIDTH,
    MAX_EVENTS,
    N_CTL,
    N_OUT,
    ST_DONE,
    ST_NEW,
    ST_PAUSED,
    pack_view,
)
from daqing_sim.game.handle import new_handle, step_handle_k
from daqing_sim.game.state import new_deal_state, observe
from daqing_sim.game.wall import TP_WIDTH
from daqing_sim.hand.tables import get_tables
from daqing_sim.layout import HA_WIDTH
from daqing_sim.players.dispatch import table_free_flags
from daqing_sim.players.interface import (
    Claim,
    Discard,
    Kong,
    Observation,
    Player,
    SeatRandom,
)
from daqing_sim.players.observation import N_PUB, P_CLAIM_OPTS, P_CLAIM_TILE
from daqing_sim.players.seats import builtin_functions, engine_seats
from daqing_sim.players.user import entry_with_ufns
from daqing_sim.rules import R_FAMILY

_NO_KNOBS = np.zeros(0)  # greedy has no knobs


class PlayerError(ValueError):
    """A Python player answered something that is not one of its legal options, or raised."""


class SteppedDeal:
    """One deal on the jitted engine, paused at every decision of an ``EXTERNAL`` seat.

    Parameters
    ----------
    rules_enc, codes, knobs : numpy.ndarray
        ``RuleSet.encode()``, the seats' player codes (``codes.EXTERNAL`` for outside seats)
        and knob vectors, as for ``play_batch_k``.
    dealer : int
        The dealer's seat.
    record_log : bool
        Keep the deal's event log (``log``) for replays.
    """

    def __init__(
        self,
        rules_enc: np.ndarray,
        codes: np.ndarray,
        knobs: np.ndarray,
        dealer: int = 0,
        record_log: bool = False,
    ) -> None:
        self.rules = np.ascontiguousarray(rules_enc, dtype=np.int64)
        self.knobs = np.ascontiguousarray(knobs, dtype=np.float64)
        self.dealer = int(dealer)
        self.family = FAMILIES[int(self.rules[R_FAMILY])]
        # the engine's codes: players that think with the tables are called through ``ufns``
        self.codes, ufns = engine_seats(codes, None, self.family)
        nk = FAMILY_KINDS[int(self.rules[R_FAMILY])]
        self.st, self.obs = new_deal_state(self.family)
        self.orow = np.zeros(N_OUT, dtype=np.int32)
        self.hrow = np.zeros(H_WIDTH if nk == N_KINDS else HA_WIDTH, dtype=np.int8)
        self.frow = np.zeros((6, nk), dtype=np.int8)
        self.log = np.zeros((MAX_EVENTS if record_log else 1, LOG_WIDTH), dtype=np.int16)
        self.ctl = np.zeros(N_CTL, dtype=np.int64)
        self.pub = np.zeros(N_PUB, dtype=np.int16)
        self._fixed = (
            self.dealer,
            self.rules,
            self.codes,
            self.knobs,
            table_free_flags(),
            get_tables(),
            self.st,
            self.obs,
            self.orow,
            self.hrow,
            self.frow,
            self.log,
            self.ctl,
            self.pub,
            ufns,
        )
        # this deal's wall (two-player: the 78 tiles drawn from the 136) and seed (buffers)
        self.wall = np.zeros(TP_WIDTH if self.family == "two_player" else 4 * nk, dtype=np.uint8)
        self.seed = np.zeros(1, dtype=np.uint64)
        self._entry: Any = None
        self._args: tuple[Any, ...] = ()

    def start(self, wall: np.ndarray, seed: int | np.integer) -> int:
        """Deal ``wall`` with in-game seed ``seed`` and play to the first outside decision."""
        self.wall[:] = wall
        self.seed[0] = seed
        self.ctl[C_STATUS] = ST_NEW
        return self._run()

    def resume(self, answer: int, declare: bool = False) -> int:
        """Answer the pending decision (tile, action code or kong tile, -1 for none) and play on."""
        self.ctl[C_ANSWER] = answer
        self.ctl[C_DECLARE] = 1 if declare else 0
        return self._run()

    def _run(self) -> int:
        if self._entry is None:
            args = (self.wall, self.seed, *self._fixed)
            self._handle = entry_with_ufns(new_handle, args)(*args)
            status = step_handle_k(self._handle)
            # later calls go straight to the compiled entry point (numba's type dispatch costs
            # more than the call, at every decision of a Python player)
            cres = step_handle_k.overloads.get((numba.typeof(self._handle),))
            self._entry = cres.entry_point if cres is not None else step_handle_k
            self._args = (self._handle,)
            return int(status)
        return int(self._entry(self._handle))

    def play_out(self, players: Sequence[Any], rngs: Sequence[Any], deal_id: int, once: bool = False) -> None:
        """Answer every pending decision by asking the seat's Python player, to the deal's end
        (only the pending one with ``once``)."""
        ctl, pub, entry, args = self.ctl, self.pub, self._entry, self._args  # set by start()
        status = int(ctl[C_STATUS])
        while status == ST_PAUSED:
            s = int(ctl[C_SEAT])
            kind = int(ctl[C_DECISION])
            player = players[s]
            decide = getattr(player, "decide_paused", None)
            if decide is not None:  # the search player reads the paused deal (daqing_sim.search)
                ctl[C_ANSWER], ctl[C_DECLARE] = decide(self, kind, rngs[s])
                status = int(entry(*args))
                if once:
                    return
                continue
            obs = Observation(np.frombuffer(pub.tobytes(), dtype=np.int16), rngs[s], self.family)  # a copy
            if kind != DECISION_DISCARD and _greedy_default(player, kind):
                ctl[C_ANSWER] = self._greedy_answer(kind)
                ctl[C_DECLARE] = 0
                status = int(entry(*args))
                if once:
                    return
                continue
            try:
                if kind == DECISION_DISCARD:
                    options: Sequence[Any] = obs.legal_discards
                    ans = player.discard(obs)
                elif kind == DECISION_CLAIM:
                    options = obs.claim_options()
                    ans = player.claim(obs, options)
                else:
                    options = obs.kong_options()
                    ans = player.kong(obs, options)
            except Exception as e:  # a player's own bug, reported where it happened
                raise PlayerError(f"{_who(player, s, deal_id, kind)} raised {type(e).__name__}: {e}") from e
            if kind == DECISION_DISCARD and type(ans) is Discard and ans in options:
                ctl[C_ANSWER] = ans[0]
                ctl[C_DECLARE] = ans[1]
            else:
                ctl[C_ANSWER], ctl[C_DECLARE] = encode_answer(ans, kind, options, (player, s, deal_id))
            status = int(entry(*args))
            if once:
                return

    def _greedy_answer(self, kind: int) -> int:
        """The greedy player's claim action (or kong tile, -1 for none) for the paused seat,
        on the engine's own observation of it (``observe`` filled it before pausing): the greedy
        seat's own functions of this family."""
        from daqing_sim.compile_notice import announce
        from daqing_sim.players.registry import GREEDY

        if self.family == "daqing":
            announce("player_defaults")
        _, claim, kong = builtin_functions(GREEDY, self.family)
        tabs = get_tables()
        if kind == DECISION_CLAIM:
            t, mask = int(self.pub[P_CLAIM_TILE]), int(self.pub[P_CLAIM_OPTS])
            return int(claim(_NO_KNOBS, self.obs, self.rules, tabs, t, mask))
        return int(kong(_NO_KNOBS, self.obs, self.rules, tabs, self.st.kong_opts))

    def play_out_one(self, players: Sequence[Any], rngs: Sequence[Any], deal_id: int) -> None:
        """Answer the pending decision by asking the seat's Python player."""
        self.play_out(players, rngs, deal_id, once=True)

    @property
    def done(self) -> bool:
        return bool(self.ctl[C_STATUS] == ST_DONE)

    @property
    def paused(self) -> bool:
        return bool(self.ctl[C_STATUS] == ST_PAUSED)

    @property
    def seat(self) -> int:
        """The seat the paused deal waits for."""
        return int(self.ctl[C_SEAT])

    @property
    def decision(self) -> str:
        return DECISIONS[int(self.ctl[C_DECISION])]

    def observation(self, rng: Any = None) -> Observation:
        """The pending decision's observation for its seat."""
        return Observation(self.pub.copy(), rng, self.family)

    def options(self, obs: Observation | None = None) -> tuple:
        """The legal options of the pending decision."""
        obs = obs or self.observation()
        kind = int(self.ctl[C_DECISION])
        if kind == DECISION_DISCARD:
            return obs.legal_discards
        if kind == DECISION_CLAIM:
            return obs.claim_options()
        return obs.kong_options()

    def observe_seat(self, seat: int, rng: Any = None) -> Observation:
        """What ``seat`` sees now, off its turn (no options). Only between decisions: the
        pending decision's observation must be taken first."""
        bao = int(self.ctl[C_BAO]) if self.st.ready[seat] else -1
        left = int(self.ctl[C_BACK] - self.ctl[C_FRONT] + 1)
        view = np.zeros(N_PUB, dtype=np.int16)
        observe(self.st, self.obs, seat, self.dealer, left, bao, -1, False, False)
        ctl = np.zeros(N_CTL, dtype=np.int64)
        pack_view(self.obs, ctl, self.st.kong_opts, view)
        return Observation(view, rng, self.family)


def _greedy_default(player: Any, kind: int) -> bool:
    """Whether ``player`` leaves this claim or kong decision to the greedy default (it is a
    ``ds.Player`` that does not define its own ``claim`` or ``kong``)."""
    if not isinstance(player, Player):
        return False
    method = "claim" if kind == DECISION_CLAIM else "kong"
    return getattr(type(player), method) is getattr(Player, method)


def encode_answer(ans: Any, kind: int, options: Sequence[Any], who: tuple[Any, int, int]) -> tuple[int, bool]:
    """Check ``ans`` against ``options`` and encode it for ``SteppedDeal.resume``; ``who`` is
    (player, seat, deal) for the error message."""
    if kind == DECISION_DISCARD:
        if isinstance(ans, tuple) and len(ans) == 2 and ans in options:
            return int(ans[0]), bool(ans[1])
    elif ans is None:
        return (PASS, False) if kind == DECISION_CLAIM else (-1, False)
    elif kind == DECISION_CLAIM:
        if isinstance(ans, tuple) and len(ans) == 2 and ans in options:
            return int(ans[0]), False
    elif isinstance(ans, tuple) and len(ans) == 2 and ans in options:
        return int(ans[0]), False
    shown = ", ".join(str(o) for o in options) or "none"
    expected = {
        DECISION_DISCARD: "one of obs.legal_discards (a Discard)",
        DECISION_CLAIM: "one of the Claim options or None",
        DECISION_KONG: "one of the Kong options or None",
    }[kind]
    raise PlayerError(f"{_who(*who, kind)} returned {ans!r}, not {expected}; legal options: {shown}")


def _who(player: Any, seat: int, deal_id: int, kind: int) -> str:
    return f"{type(player).__name__} at seat {seat}, deal {deal_id}, {DECISIONS[kind]} decision:"


def seat_rngs(deal_seed: int, players: Sequence[Any]) -> list[Any]:
    """Each Python seat's generator for one deal (from the deal's seed and the seat only),
    made when the player first uses it."""
    return [SeatRandom(deal_seed, s) if isinstance(p, Player) else None for s, p in enumerate(players)]


def play_with_players(
    walls: np.ndarray,
    deal_seeds: np.ndarray,
    rules_enc: np.ndarray,
    codes: np.ndarray,
    knobs: np.ndarray,
    players: Sequence[Any],
    dealer: int,
    first_deal: int,
    record_hands: bool,
    record_final: bool,
    record_log: bool,
) -> dict[str, np.ndarray]:
    """:func:`daqing_sim.game.simulate.run_walls` for seat lists with Python players."""
    n = walls.shape[0]
    players = (*players, *(None,) * (len(codes) - len(players)))  # two-player: seats 2 and 3 unused
    codes = np.array([EXTERNAL if isinstance(p, Player) else c for p, c in zip(players, codes, strict=True)])
    deal = SteppedDeal(rules_enc, codes, knobs, dealer, record_log)
    out = np.empty((n, N_OUT), dtype=np.int32)
    hands = np.zeros((n if record_hands else 1, deal.hrow.shape[0]), dtype=np.int8)
    final = np.zeros((n if record_final else 1, *deal.frow.shape), dtype=np.int8)
    for i in range(n):
        deal.start(walls[i], deal_seeds[i])
        deal.play_out(players, seat_rngs(deal_seeds[i], players), first_deal + i)
        out[i] = deal.orow
        if record_hands:
            hands[i] = deal.hrow
        if record_final:
            final[i] = deal.frow
    result = {"out": out}
    if record_hands:
        result["hands"] = hands
    if record_final:
        result["final"] = final
    if record_log:
        result["log"] = deal.log[: min(int(deal.ctl[C_N_LOG]), MAX_EVENTS)].copy()
    return result


__all__ = [
    "SteppedDeal",
    "PlayerError",
    "play_with_players",
    "encode_answer",
    "seat_rngs",
    "Claim",
    "Discard",
    "Kong",
]
