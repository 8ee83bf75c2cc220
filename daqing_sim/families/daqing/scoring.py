"""Settlement of a win: 2^N per loser (docs/RULES.md, "Scoring").

For each loser the fans N are counted (dealer, concealed, self-draw, big win, bao,
bao edge / bao-in-bao, deal-in while not ready, and with ``kong_fan`` one per kong of
the winner); the loser owes ``2**N``. A deal-in by a player who was not ready (点黑炮)
makes that player pay all three amounts (包庄).

The game engine calls :func:`settle_kernel` from inside its own jitted loop; the public
:func:`settle` and :func:`settle_detail` validate their arguments and call the same
kernel, so there is one source of truth for the arithmetic.

Examples
--------
>>> settle(winner=0, dealer=0, method="self_draw").tolist()
[12, -4, -4, -4]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from daqing_sim.codes import BAO, BAO_EDGE, BAO_IN_BAO, BAO_KINDS, DEAL_IN, METHODS, NO_BAO, SELF_DRAW
from daqing_sim.rules import R_KONG_FAN, RuleSet

# Win method codes (shared with the engine, see docs/DESIGN.md).


# Bao kind codes: none, 摸宝, 宝边, 宝中宝.


N_SEATS = 4
MAX_KONGS = 4


@njit(cache=True)
def settle_kernel(
    winner,
    dealer,
    method,
    discarder,
    discarder_ready,
    big,
    bao_kind,
    concealed,
    winner_kongs,
    rules,
    out_pay,
    out_fans,
):  # pragma: no cover - compiled; covered through settle() and the kernel tests
    """Settle one win into ``out_pay`` and ``out_fans``; arguments are not checked.

    Parameters
    ----------
    winner, dealer : int
        Seats 0-3.
    method : int
        ``SELF_DRAW`` (0) or ``DEAL_IN`` (1).
    discarder : int
        Seat of the discarder on a deal-in; ignored (pass -1) on a self-draw.
    discarder_ready : bool
        False makes a deal-in 点黑炮 (extra fan, discarder pays all).
    big : bool
        Big win (夹).
    bao_kind : int
        ``NO_BAO``, ``BAO``, ``BAO_EDGE`` or ``BAO_IN_BAO`` (0-3).
    concealed : ndarray
        ``(4,)`` uint8 or bool, 门清 per seat; the winner's entry is ignored.
    winner_kongs : int
        Kongs of the winner (a fan each when ``rules[R_KONG_FAN]``).
    rules : ndarray
        ``RuleSet.encode()``.
    out_pay : ndarray
        ``(4,)`` int64, overwritten: winner positive, sum zero.
    out_fans : ndarray
        ``(4,)`` int64, overwritten: fans N of each loser, -1 for the winner.
    """
    # Fans shared by every loser.
    common = 0
    if method == SELF_DRAW:
        common += 1
    if big:
        common += 1
    if bao_kind != NO_BAO:
        common += 1
    if bao_kind == BAO_EDGE or bao_kind == BAO_IN_BAO:
        common += 1
    if rules[R_KONG_FAN] != 0:
        common += winner_kongs  # RULES: kong_fan counts the winner's kongs only
    pays_all = method == DEAL_IN and not discarder_ready  # RULES: 点黑炮 -> 包庄
    total = 0
    for seat in range(4):
        out_pay[seat] = 0
    for seat in range(4):
        if seat == winner:
            out_fans[seat] = -1
            continue
        n = common
        if winner == dealer or seat == dealer:
            n += 1
        if concealed[seat]:
            n += 1
        if pays_all and seat == discarder:
            n += 1
        out_fans[seat] = n
        owed = np.int64(1) << n
        total += owed
        if pays_all:
            out_pay[discarder] -= owed
        else:
            out_pay[seat] -= owed
    out_pay[winner] = total


def _seat(value, name: str, allow_none: bool = False) -> int:
    if value is None and allow_none:
        return -1
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be a seat number 0-3, not {value!r}")
    if not 0 <= value < N_SEATS:
        raise ValueError(f"{name}={value} is out of range: seats are 0, 1, 2, 3")
    return int(value)


def _flag(value, name: str) -> bool:
    if isinstance(value, bool | np.bool_) or (isinstance(value, int | np.integer) and value in (0, 1)):
        return bool(value)
    raise ValueError(f"{name} must be True or False, not {value!r}")


def _encode(
    winner,
    dealer,
    method,
    discarder,
    discarder_ready,
    big,
    bao,
    concealed,
    winner_kongs,
    rules,
):
    """Validate the public arguments and turn them into kernel arguments."""
    winner = _seat(winner, "winner")
    dealer = _seat(dealer, "dealer")
    if method not in METHODS:
        raise ValueError(f"method={method!r} is unknown: use 'self_draw' (自摸) or 'deal_in' (点炮)")
    method_code = METHODS.index(method)
    discarder_ready = _flag(discarder_ready, "discarder_ready")
    big = _flag(big, "big")
    if method_code == DEAL_IN:
        if discarder is None:
            raise ValueError("method='deal_in' needs discarder=: the seat that discarded the winning tile")
        discarder = _seat(discarder, "discarder")
        if discarder == winner:
            raise ValueError(
                f"discarder={discarder} is the winner: a player cannot deal in to itself; "
                "use method='self_draw'"
            )
    else:
        if discarder is not None:
            raise ValueError(
                f"discarder={discarder!r} given for a self-draw: leave it out, or use method='deal_in'"
            )
        if not discarder_ready:
            raise ValueError(
                "discarder_ready=False given for a self-draw: it only applies to method='deal_in'"
            )
        discarder = -1
    if bao not in BAO_KINDS:
        raise ValueError(f"bao={bao!r} is unknown: use one of {', '.join(map(repr, BAO_KINDS))}")
    bao_code = BAO_KINDS.index(bao)
    if bao_code != NO_BAO and method_code == DEAL_IN:
        raise ValueError(
            f"bao={bao!r} on a deal-in: a bao only wins when self-drawn; use method='self_draw' or bao='none'"
        )
    if bao_code == BAO_EDGE and big:
        raise ValueError("bao='bao_edge' (宝边) is a small win: with big=True use bao='bao_in_bao' (宝中宝)")
    if bao_code == BAO_IN_BAO and not big:
        raise ValueError("bao='bao_in_bao' (宝中宝) is a big win: set big=True, or use bao='bao_edge' (宝边)")
    if isinstance(concealed, str) or not isinstance(concealed, Sequence | np.ndarray):
        raise ValueError(f"concealed must be four True/False values, one per seat, not {concealed!r}")
    if len(concealed) != N_SEATS:
        raise ValueError(f"concealed has {len(concealed)} values: give one True/False per seat (four)")
    concealed_arr = np.array([_flag(c, f"concealed[{i}]") for i, c in enumerate(concealed)], dtype=np.uint8)
    if isinstance(winner_kongs, bool | np.bool_) or not isinstance(winner_kongs, int | np.integer):
        raise ValueError(f"winner_kongs must be a whole number 0-4, not {winner_kongs!r}")
    if not 0 <= winner_kongs <= MAX_KONGS:
        raise ValueError(f"winner_kongs={winner_kongs} is impossible: a hand has 0 to 4 kongs")
    if not isinstance(rules, RuleSet):
        raise ValueError(f"rules must be a RuleSet, not {type(rules).__name__}; e.g. RuleSet(kong_fan=True)")
    if rules.family != "daqing":
        raise ValueError(f"settle is the Daqing settlement; for {rules.family} wins use ds.score_win")
    return (
        winner,
        dealer,
        method_code,
        discarder,
        discarder_ready,
        big,
        bao_code,
        concealed_arr,
        int(winner_kongs),
        rules.encode(),
    )


def _run(args) -> tuple[np.ndarray, np.ndarray]:
    pay = np.zeros(N_SEATS, dtype=np.int64)
    fans = np.zeros(N_SEATS, dtype=np.int64)
    settle_kernel(*args, pay, fans)
    return pay, fans


def settle(
    winner: int,
    dealer: int,
    method: str,
    discarder: int | None = None,
    discarder_ready: bool = True,
    big: bool = False,
    bao: str = "none",
    concealed: Sequence[bool] = (False,) * 4,
    winner_kongs: int = 0,
    rules: RuleSet = RuleSet(),
) -> np.ndarray:
    """Payments of one win.

    Parameters
    ----------
    winner, dealer : int
        Seats 0-3 of the winner and of the dealer (庄).
    method : {"self_draw", "deal_in"}
        自摸 or 点炮 (won on another player's discard).
    discarder : int, optional
        Seat that discarded the winning tile; required for ``"deal_in"``, absent otherwise.
    discarder_ready : bool
        Whether the discarder had declared ready. ``False`` is 点黑炮: one more fan for the
        discarder, who then pays all three amounts (包庄).
    big : bool
        Big win (大胡, 夹).
    bao : {"none", "bao", "bao_edge", "bao_in_bao"}
        摸宝, 宝边 (small wins only) or 宝中宝 (big wins only); self-draws only.
    concealed : sequence of 4 bool
        Whether each seat is still concealed (门清); the winner's own entry is ignored.
    winner_kongs : int
        Kongs of the winner, 0-4; each is a fan under ``rules.kong_fan``.
    rules : RuleSet
        Only ``kong_fan`` matters here.

    Returns
    -------
    numpy.ndarray
        ``int64`` shape ``(4,)``: the winner's gain (positive), losers' payments (negative),
        summing to zero.

    Raises
    ------
    ValueError
        On a seat out of range, a missing or superfluous discarder, a bao on a deal-in, a bao
        kind inconsistent with ``big``, or an impossible kong count.

    Examples
    --------
    Small self-draw by the dealer, seat 1 concealed:

    >>> settle(0, 0, "self_draw", concealed=(False, True, False, False)).tolist()
    [16, -8, -4, -4]

    Seat 2 (dealer) deals in without being ready, so it pays everyone's share (包庄):

    >>> settle(0, 2, "deal_in", discarder=2, discarder_ready=False).tolist()
    [6, 0, -6, 0]

    宝中宝 with two kongs under ``kong_fan``:

    >>> settle(1, 0, "self_draw", big=True, bao="bao_in_bao", winner_kongs=2,
    ...        rules=RuleSet(kong_fan=True)).tolist()
    [-128, 256, -64, -64]
    """
    pay, _ = _run(
        _encode(winner, dealer, method, discarder, discarder_ready, big, bao, concealed, winner_kongs, rules)
    )
    return pay


@dataclass(frozen=True)
class Settlement:
    """A settled win: who pays what and why.

    Attributes
    ----------
    winner, dealer : int
    method : str
        ``"self_draw"`` or ``"deal_in"``.
    discarder : int or None
    pays_all : bool
        包庄: the discarder, not ready, pays every loser's amount.
    payments : numpy.ndarray
        ``int64 (4,)``, winner positive, sum zero.
    fans : dict[int, list[str]]
        Loser seat -> its fan names; ``2 ** len(fans[L]) == owed[L]``.
    owed : dict[int, int]
        Loser seat -> its amount ``2^N`` before 包庄 (the seed tables' per-loser figures).
    """

    winner: int
    dealer: int
    method: str
    discarder: int | None
    pays_all: bool
    payments: np.ndarray
    fans: dict[int, list[str]]
    owed: dict[int, int]

    @property
    def total(self) -> int:
        """What the winner receives."""
        return int(self.payments[self.winner])

    def __str__(self) -> str:
        how = "self-draw" if self.method == "self_draw" else f"deal-in by seat {self.discarder}"
        lines = [f"seat {self.winner} wins by {how} (dealer: seat {self.dealer}), receives {self.total}"]
        for seat, names in self.fans.items():
            lines.append(
                f"  seat {seat}: {len(names)} fan(s) [{', '.join(names) or '-'}] -> owes {self.owed[seat]}"
            )
        if self.pays_all:
            lines.append(f"  seat {self.discarder} was not ready (点黑炮) and pays all (包庄)")
        lines.append("  payments: " + " ".join(f"{int(p):+d}" for p in self.payments))
        return "\n".join(lines)


def settle_detail(
    winner: int,
    dealer: int,
    method: str,
    discarder: int | None = None,
    discarder_ready: bool = True,
    big: bool = False,
    bao: str = "none",
    concealed: Sequence[bool] = (False,) * 4,
    winner_kongs: int = 0,
    rules: RuleSet = RuleSet(),
) -> Settlement:
    """Like :func:`settle`, with the fans and amounts of each loser.

    Parameters are those of :func:`settle`.

    Returns
    -------
    Settlement

    Examples
    --------
    >>> s = settle_detail(0, 1, "deal_in", discarder=1, discarder_ready=False,
    ...                   concealed=(False, True, False, False))
    >>> s.fans[1], s.owed
    (['dealer', 'concealed', 'deal_in_not_ready'], {1: 8, 2: 1, 3: 1})
    >>> print(s)
    seat 0 wins by deal-in by seat 1 (dealer: seat 1), receives 10
      seat 1: 3 fan(s) [dealer, concealed, deal_in_not_ready] -> owes 8
      seat 2: 0 fan(s) [-] -> owes 1
      seat 3: 0 fan(s) [-] -> owes 1
      seat 1 was not ready (点黑炮) and pays all (包庄)
      payments: +10 -10 +0 +0
    """
    args = _encode(
        winner, dealer, method, discarder, discarder_ready, big, bao, concealed, winner_kongs, rules
    )
    pay, n_fans = _run(args)
    winner, dealer, method_code, discarder_code, ready, big, bao_code, conc, kongs, enc = args
    pays_all = method_code == DEAL_IN and not ready
    fans: dict[int, list[str]] = {}
    owed: dict[int, int] = {}
    for seat in range(N_SEATS):
        if seat == winner:
            continue
        names = []
        if dealer in (winner, seat):
            names.append("dealer")
        if conc[seat]:
            names.append("concealed")
        if method_code == SELF_DRAW:
            names.append("self_draw")
        if big:
            names.append("big")
        if bao_code != NO_BAO:
            names.append("bao")
        if bao_code in (BAO_EDGE, BAO_IN_BAO):
            names.append(BAO_KINDS[bao_code])
        if pays_all and seat == discarder_code:
            names.append("deal_in_not_ready")
        if enc[R_KONG_FAN]:
            names += ["kong"] * kongs
        if len(names) != n_fans[seat]:  # pragma: no cover - the names mirror the kernel
            raise AssertionError(f"fan names {names} disagree with the kernel's {n_fans[seat]} fans")
        fans[seat] = names
        owed[seat] = 1 << int(n_fans[seat])
    return Settlement(
        winner=winner,
        dealer=dealer,
        method=METHODS[method_code],
        discarder=None if discarder_code < 0 else discarder_code,
        pays_all=pays_all,
        payments=pay,
        fans=fans,
        owed=owed,
    )


__all__ = [
    "settle",
    "settle_detail",
    "settle_kernel",
    "Settlement",
    "SELF_DRAW",
    "DEAL_IN",
    "METHODS",
    "NO_BAO",
    "BAO",
    "BAO_EDGE",
    "BAO_IN_BAO",
    "BAO_KINDS",
]
