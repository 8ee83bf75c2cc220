"""Decisions per CPU second of the ``search`` player (issue 36): the CPU time of its discard
decisions over ``n`` deals of seed 36900, ``search`` at seat 0 and three experts.

    python tools/search_rate.py daqing "{}" 30
    python tools/search_rate.py beijing "{'worlds': 24, 'candidates': 3, 'min_t': 1}" 20
    python tools/search_rate.py two_player "{}" 60
"""

from __future__ import annotations

import ast
import sys
import time
from typing import Any

import daqing_sim as ds
from daqing_sim.codes import DECISION_DISCARD
from daqing_sim.search.player import SearchPlayer


class Timed(SearchPlayer):
    """The search player, counting the CPU time of its discard decisions."""

    def __init__(self, **knobs: Any) -> None:
        super().__init__(**knobs)
        self.cpu = 0.0
        self.n = 0

    def decide_paused(self, deal: Any, kind: int, rng: Any) -> Any:
        t = time.process_time()
        answer = super().decide_paused(deal, kind, rng)
        if kind == DECISION_DISCARD:
            self.cpu += time.process_time() - t
            self.n += 1
        return answer


def main() -> None:
    family = sys.argv[1] if len(sys.argv) > 1 else "daqing"
    knobs = ast.literal_eval(sys.argv[2]) if len(sys.argv) > 2 else {}
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    player = Timed(**knobs)
    rules = ds.RuleSet(family=family)
    seats = (player, "expert", "expert", "expert")[: 2 if family == "two_player" else 4]
    ds.simulate(1, rules=rules, strategies=seats, seed=99)  # compiles
    player.cpu, player.n, player.decisions, player.switches, player.confirmations = 0.0, 0, 0, 0, 0
    wall = time.time()
    ds.simulate(n, rules=rules, strategies=seats, seed=36900)
    print(
        f"{family} {knobs or 'defaults'}: {player.n} discard decisions ({player.decisions} searched, "
        f"{player.switches} not the expert's, {player.confirmations} evaluated again) "
        f"in {player.cpu:.1f} CPU s: {player.n / player.cpu:.1f} decisions/s "
        f"(wall clock of the run {time.time() - wall:.0f} s)"
    )


if __name__ == "__main__":
    main()
