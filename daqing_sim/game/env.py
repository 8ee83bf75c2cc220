"""``DealEnv``: one deal stepped from outside, for agent authors and notebooks.

It follows the PettingZoo AEC conventions where they fit (without depending on it): one seat
acts at a time (:attr:`DealEnv.agent_selection`), :meth:`DealEnv.step` takes its action,
:meth:`DealEnv.last` returns ``(observation, reward, termination, truncation, info)`` for it.
It runs on the same jitted engine as :func:`daqing_sim.game.simulate.simulate`
(:class:`daqing_sim.game.external.SteppedDeal`), so a deal played here is the same deal, row for
row, as that deal of ``simulate`` with the same seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from daqing_sim.codes import DECISIONS, FAMILY_SEATS
from daqing_sim.compile_notice import announce
from daqing_sim.game.engine import C_DECISION, O_PAY
from daqing_sim.game.external import PlayerError, SteppedDeal, encode_answer, seat_rngs
from daqing_sim.game.simulate import _check_dealer, _check_family_seats, _check_rules, results_frame
from daqing_sim.game.wall import generate_walls
from daqing_sim.players.interface import Observation, Player
from daqing_sim.players.registry import default_field, encode_strategies
from daqing_sim.players.seats import table_players
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int


class _Caller(Player):
    """Stands for a seat the caller drives (only its label is used)."""

    name = "caller"


def _bad_action(action: Any, decision: str, seat: int, options: Sequence[Any]) -> str:
    shown = ", ".join(str(o) for o in options) or "none"
    give = "a Discard" if decision == "discard" else f"a {decision.capitalize()} or None (pass)"
    hint = ""
    if isinstance(action, str | int) and decision == "discard":
        hint = "; a discard is a Discard(tile, declare) tuple, e.g. env.legal_actions()[0]"
    return (
        f"step({action!r}) is not a legal answer to seat {seat}'s {decision} decision: give {give} "
        f"from env.legal_actions(){hint}; legal options: {shown}"
    )


class DealEnv:
    """Deal ``deal`` of ``seed``, played step by step; ``None`` seats are driven by the caller.

    Parameters
    ----------
    seed, deal : int
        Identify the deal, as in :func:`daqing_sim.game.simulate.simulate` (the same wall and
        in-game seeds).
    rules : RuleSet
        Rule flags.
    players : sequence of 4 (two-player: 2), optional
        Per seat ``None`` (the caller decides), a built-in name, ``(name, {knob: value})`` or a
        :class:`~daqing_sim.players.interface.Player`; by default the caller at seat 0 and the
        family's default field at the others (``players.registry.default_field``).
    dealer : int
        The dealer's seat.

    Examples
    --------
    >>> env = DealEnv(seed=1, deal=0, players=(None, "greedy", "greedy", "greedy"))
    >>> obs = env.reset()
    >>> while not env.done:
    ...     obs = env.step(env.legal_actions()[0] if obs.decision == "discard" else None)
    >>> sum(env.payments)
    0
    """

    def __init__(
        self,
        seed: int,
        deal: int = 0,
        *,
        rules: RuleSet = RuleSet(),
        players: Sequence[Any] | None = None,
        dealer: int = 0,
    ) -> None:
        self.seed = check_int(seed, "seed")
        self.deal = check_int(deal, "deal")
        self.rules = _check_rules(rules)
        family = self.rules.family
        self.dealer = _check_dealer(dealer, family)
        n = FAMILY_SEATS.get(family, 4)
        if players is None:  # the caller at seat 0 against the family's default field
            players = (None, *default_field(family)[1:])
        if isinstance(players, str) or not isinstance(players, Sequence) or len(players) != n:
            what = "four seats" if n == 4 else f"{n} seats under the {family} family"
            raise ValueError(f"players must be {what} (None, a name or a Player), not {players!r}")
        self.players = tuple(_Caller() if p is None else p for p in players)
        self.caller_seats = tuple(s for s, p in enumerate(players) if p is None)
        self.names, codes, knobs = encode_strategies(self.players, None, self.rules.family)
        _check_family_seats(self.rules, self.names, self.players)
        announce("stepped", table_players(codes), self.rules.family)
        self._engine = SteppedDeal(self.rules.encode(), codes, knobs, self.dealer, record_log=True)
        walls, _, seeds = generate_walls(1, self.seed, self.deal, family=self.rules.family)
        self._wall, self._deal_seed = walls[0], seeds[0]
        self._rngs: list[Any] = []
        self._obs: Observation | None = None
        self.agents = tuple(range(n))
        self.possible_agents = self.agents

    def reset(self) -> Observation | None:
        """Deal again from the start; the first observation of a caller seat (None if the deal
        ends without one)."""
        self._rngs = seat_rngs(self._deal_seed, self.players)
        self._engine.start(self._wall, self._deal_seed)
        return self._advance()

    def step(self, action: Any) -> Observation | None:
        """Answer the pending decision of :attr:`agent_selection` with one of
        :meth:`legal_actions` (``None`` passes a claim or kong); the next caller observation."""
        if self._obs is None:
            raise ValueError("no decision is pending: call reset() first (or the deal is over)")
        kind = int(self._engine.ctl[C_DECISION])
        seat = self._engine.seat
        options = self.legal_actions()
        try:
            answer = encode_answer(action, kind, options, ("the caller", seat, self.deal))
        except PlayerError:
            raise ValueError(_bad_action(action, DECISIONS[kind], seat, options)) from None
        self._engine.resume(*answer)
        return self._advance()

    def _advance(self) -> Observation | None:
        eng = self._engine
        while eng.paused and not isinstance(self.players[eng.seat], _Caller):
            eng.play_out_one(self.players, self._rngs, self.deal)
        self._obs = eng.observation(self._rngs[eng.seat]) if eng.paused else None
        return self._obs

    def legal_actions(self) -> tuple:
        """The options of the pending decision (``Discard``, ``Claim`` or ``Kong`` tuples)."""
        return () if self._obs is None else self._engine.options(self._obs)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` sees now: the pending observation for :attr:`agent_selection`, an
        off-turn view (no options) for the others."""
        seat = check_int(seat, "seat")
        if seat >= len(self.agents):
            raise ValueError(f"seat must be 0-{len(self.agents) - 1}, not {seat}")
        if self._obs is not None and seat == self.agent_selection:
            return self._obs
        view = self._engine.observe_seat(seat, self._rngs[seat] if self._rngs else None)
        return view

    def last(self) -> tuple[Observation | None, int, bool, bool, dict[str, Any]]:
        """``(observation, reward, termination, truncation, info)`` of the seat to act (of the
        caller's first seat once the deal is over; the reward is that seat's payment)."""
        seat = self.agent_selection if self.agent_selection is not None else self.caller_seats[0]
        reward = self.payments[seat] if self.done else 0
        return self._obs, reward, self.done, False, {"seat": seat}

    @property
    def agent_selection(self) -> int | None:
        """The caller seat whose decision is pending (None when the deal is over)."""
        return self._engine.seat if self._obs is not None else None

    @property
    def done(self) -> bool:
        return self._engine.done

    @property
    def payments(self) -> tuple[int, ...]:
        """Each seat's result of the deal (2^N units under Daqing, points under Beijing and
        two-player; zeros until it is over)."""
        n = len(self.agents)
        if not self.done:
            return (0,) * n
        return tuple(int(x) for x in self._engine.orow[O_PAY : O_PAY + n])

    def result(self) -> pd.DataFrame:
        """The deal's row, as :func:`daqing_sim.game.simulate.simulate` gives it."""
        if not self.done:
            raise ValueError("the deal is not over yet: step() until done")
        return results_frame(
            self._engine.orow[None, :].copy(), self.deal, self.dealer, self.names, family=self.rules.family
        )

    def __repr__(self) -> str:
        state = "over" if self.done else f"seat {self.agent_selection} to act"
        return f"<DealEnv seed {self.seed} deal {self.deal}: {', '.join(self.names)}; {state}>"


__all__ = ["DealEnv"]
