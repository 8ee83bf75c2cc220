"""A scored win (:class:`WinScore`), as every family's ``score`` module returns it
(``daqing_sim.families.<name>.score``; the public entry point is
:func:`daqing_sim.game.score_win.score_win`, for every family).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from daqing_sim.hand.notation import Hand
from daqing_sim.rules import RuleSet


@dataclass(frozen=True)
class WinScore:
    """A scored win.

    Attributes
    ----------
    fans : dict
        Beijing: fan code name -> its fans, for the split worth the most (``plain_win`` when no
        fan type applies; ``last_discard`` adds to the rest). Two-player: pattern code name -> its
        fans, for the split worth the most (a limit hand shows the cap, and only the limit hands
        show; ``plain_win`` when nothing else applies). Daqing: loser seat -> the names of its
        fans (``2 ** len(names)`` is what it owes before 包庄).
    total_fans : int
        Beijing: F, the sum of the fans. Two-player: F, the sum of the fans up to the cap
        (``limit_fans``), the cap for a limit hand. Daqing: the most fans any loser has.
    value : int
        Beijing: what one loser pays (base x F; x 2^(F - plain_win) under
        ``fan_combine="double"``, ``plain_win`` the flag ``fans_plain_win``).
        Two-player: F x multiplier x points per fan (x 2^k in game k of a match), paid by the
        opponent. Daqing: what the winner receives.
    total : int
        What the winner receives in all (Beijing: 3 x value on a self-draw or a robbed kong;
        two-player: the value).
    settlement : Settlement or None
        Daqing only: the full settlement (payments by seat, 包庄).
    wait_kind : str or None
        Two-player only: how the winning tile was waited on in the split the fans were scored on
        (``codes.WAIT_KINDS``: "two_sided" for 平和, "single" for the pair, seven pairs and
        thirteen orphans, "dual_pair" for a concealed triplet, "kanchan", "edge"); the
        ``wait_kind`` column of the two-player frame.
    """

    hand: Hand
    win_tile: str
    rules: RuleSet
    fans: dict
    total_fans: int
    value: int
    total: int
    settlement: object | None = field(default=None, repr=False)
    wait_kind: str | None = None

    def __str__(self) -> str:
        if self.settlement is not None:
            return str(self.settlement)
        fans = ", ".join(f"{k} {v}" for k, v in self.fans.items())
        return (
            f"{self.hand} + {self.win_tile}: {fans} = {self.total_fans} fan(s), "
            f"value {self.value}, receives {self.total}"
        )
