"""Small Python players: templates for writing one, and the trivial player of the speed bench.

>>> import daqing_sim as ds
>>> df = ds.simulate(3, strategies=(RandomLegal(), "greedy", "greedy", "greedy"), seed=5)
>>> list(df["strategy_0"].astype(str))
['RandomLegal', 'RandomLegal', 'RandomLegal']
"""

from __future__ import annotations

from daqing_sim.codes import ZHONG
from daqing_sim.players.interface import Claim, Discard, Kong, Observation, Player


class RandomLegal(Player):
    """Every decision uniformly at random among the legal options (passing included), from the
    seat's own generator ``obs.rng``: the trivial agent of the speed comparison."""

    def discard(self, obs: Observation) -> Discard:
        options = obs.legal_discards
        return options[int(obs.rng.random() * len(options))]

    def claim(self, obs: Observation, options: tuple[Claim, ...]) -> Claim | None:
        k = int(obs.rng.random() * (len(options) + 1))
        return options[k] if k < len(options) else None

    def kong(self, obs: Observation, options: tuple[Kong, ...]) -> Kong | None:
        k = int(obs.rng.random() * (len(options) + 1))
        return options[k] if k < len(options) else None


class DeclareFirst(Player):
    """Declares ready whenever it can, otherwise throws a lone 中 or the first legal tile; takes
    every claim it is offered (the door must be open to declare). Shows reading the observation
    (``obs.hand``, ``obs.legal_discards``)."""

    def claim(self, obs: Observation, options: tuple[Claim, ...]) -> Claim | None:
        return options[0]

    def discard(self, obs: Observation) -> Discard:
        options = obs.legal_discards
        for option in options:
            if option.declare:
                return option
        if obs.hand[ZHONG] == 1:
            return Discard(ZHONG, False)
        return options[0]
