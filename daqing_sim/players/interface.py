"""Players written in Python: the :class:`Player` interface, its options (:class:`Discard`,
:class:`Claim`, :class:`Kong`) and the frozen :class:`Observation` it decides on.

The engine stays jitted: at a decision of a Python seat it pauses (``game.engine.step_deal_k``),
the seat's array observation (:class:`daqing_sim.players.observation.Observation`, built by
``game.state.observe``, the one place that decides what a seat sees) is packed into one
``int16`` view (``game.engine.pack_view``, layout ``players.observation.P_*``), which an
:class:`Observation` copies and reads, and the answer is checked
against the legal options before the deal goes on. So a Python player sees exactly what a
jitted one sees: its own tiles, the public table, the bao only once it is ready.

Examples
--------
>>> import daqing_sim as ds
>>> class FirstTile(ds.Player):
...     def discard(self, obs):
...         return obs.legal_discards[0]
>>> df = ds.simulate(4, strategies=(FirstTile(), "greedy", "greedy", "greedy"), seed=1)
>>> int(df[[f"pay_{s}" for s in range(4)]].to_numpy().sum())
0
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np

from daqing_sim.codes import (
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    CLAIM_KONG,
    CLAIM_PENG,
    CLAIM_WIN,
    DECISIONS,
    FAMILY_SEATS,
    MELD_KINDS,
    N_KINDS,
    N_KINDS_ALL,
)
from daqing_sim.hand.tiles import tile_name
from daqing_sim.players.observation import (
    CLAIMED,
    DECLARED,
    DRAWN_AND_THROWN,
    I_BAO,
    I_DEALER,
    I_DRAWN,
    I_KEEP_READY,
    I_MUST_DECLARE,
    I_OWN_DRAWS,
    I_SEAT,
    I_WALL_LEFT,
    MAX_POND,
    P_CLAIM_OPTS,
    P_CLAIM_TILE,
    P_DECISION,
    P_HAND,
    P_INFO,
    P_KONG,
    P_MELD_FROM,
    P_N_KINDS,
    P_N_OPTIONS,
    P_N_POND,
    P_OPTIONS,
    P_POND,
    P_POND_CLAIMER,
    P_POND_FLAG,
    P_READY,
    P_READY_DRAW,
    P_SAFE,
    P_TABLE_MK,
    P_TABLE_MT,
    P_TABLE_NM,
    P_VISIBLE,
)


class Discard(NamedTuple):
    """A discard option: the tile kind (0-27) and whether this discard declares ready (听)."""

    tile: int
    declare: bool = False

    def __str__(self) -> str:
        return tile_name(self.tile) + (" (declare ready)" if self.declare else "")


class Claim(NamedTuple):
    """A claim of another seat's discard ``tile``: ``action`` is ``codes.CLAIM_PENG``,
    ``CLAIM_KONG`` or ``CHI_LOW`` / ``CHI_MID`` / ``CHI_HIGH`` (the claimed tile is the low,
    middle or high tile of the sequence); two-player: ``CLAIM_WIN``, a declared (报听) hand
    taking the win it may also pass."""

    action: int
    tile: int

    @property
    def kind(self) -> str:
        """``"peng"``, ``"kong"``, ``"chi"`` or ``"win"``."""
        return {CLAIM_PENG: "peng", CLAIM_KONG: "kong", CLAIM_WIN: "win"}.get(self.action, "chi")

    @property
    def meld(self) -> tuple[int, ...]:
        """The tile kinds of the meld this claim makes (a win: the tile won on)."""
        if self.action == CLAIM_WIN:
            return (self.tile,)
        if self.action == CLAIM_PENG:
            return (self.tile,) * 3
        if self.action == CLAIM_KONG:
            return (self.tile,) * 4
        low = self.tile - (self.action - CHI_LOW)
        return (low, low + 1, low + 2)

    def __str__(self) -> str:
        return f"{self.kind} {''.join(tile_name(t) for t in self.meld)}"


class Kong(NamedTuple):
    """A kong on one's own turn: concealed (four in hand) or added to an exposed peng."""

    tile: int
    concealed: bool

    def __str__(self) -> str:
        return f"{'concealed' if self.concealed else 'added'} kong {tile_name(self.tile)}"


class PondTile(NamedTuple):
    """One discard in a seat's pond."""

    tile: int
    drawn_and_thrown: bool  # 摸打: the tile just drawn (not from the hand)
    claimed_by: int  # seat that claimed it, -1 if none
    declared: bool  # the discard that declared ready


class TableMeld(NamedTuple):
    """An exposed (or concealed) meld on the table; ``tile`` is -1 for another seat's concealed kong."""

    kind: str  # codes.MELD_KINDS
    tile: int  # lowest tile kind
    claimed_from: int  # seat it was claimed from, -1 for a concealed or added-from-hand kong


_DISCARD_OF = tuple(Discard(c // 2, bool(c % 2)) for c in range(2 * N_KINDS_ALL))  # by 2 * tile + declare
_CLAIM_ACTIONS = (CLAIM_PENG, CLAIM_KONG, CHI_LOW, CHI_MID, CHI_HIGH, CLAIM_WIN)


class Observation:
    """What one seat sees at one decision (a copy: changing it changes nothing in the deal).

    Attributes
    ----------
    seat, dealer : int
        Own seat and the dealer's seat (0-3; two-player 0-1).
    decision : str
        ``"discard"``, ``"claim"`` or ``"kong"`` (``""`` off turn, :meth:`DealEnv.observe`).
    family : str
        The rule family of the deal (``"daqing"``, ``"beijing"``, ``"two_player"``); ``n_kinds``
        its tile kinds (28 or 34), the length of ``hand``, ``visible`` and each row of ``safe``;
        ``n_seats`` its seats (4, two-player 2), the length of the per-seat tuples below.
    hand : numpy.ndarray
        Own concealed tiles as counts ``(n_kinds,)``, the tile just drawn included.
    drawn : int or None
        The tile just drawn (None after a claim or off turn).
    wall_left : int
        Tiles left in the live wall.
    own_draws : int
        Own draws so far (kong replacements included).
    bao : int or None
        The bao (宝牌): known only once this seat is ready.
    ready : tuple of bool
        Each seat's ready flag (two-player: declared 报听); ``ready_draw`` the own draw count at
        which it declared (-1).
    visible : numpy.ndarray
        ``(n_kinds,)`` copies of each kind in ponds and exposed melds.
    safe : numpy.ndarray
        ``(n_seats, n_kinds)`` kinds each locked ready seat let pass after declaring (safe
        against it; all 0 under Beijing, where nobody declares).
    melds : tuple of n_seats tuples of TableMeld
        Every seat's melds with the seat each was claimed from (another seat's concealed kong
        shows tile -1).
    ponds : tuple of n_seats tuples of PondTile
        Every seat's discards in order: drawn-and-thrown or from the hand, claimed by whom,
        the declaring discard.
    must_declare : bool
        This discard must declare ready (after a 上听吃三家 chi).
    keep_ready : bool
        Ready with an unlocked hand (``lock_after_ready=False``): the discard should keep a wait.
    legal_discards : tuple of Discard
        The legal options of a ``"discard"`` decision, declaring ones last.
    claim_tile : int or None
        The discard a ``"claim"`` decision is about.
    rng : numpy.random.Generator
        This seat's generator for this deal (from the deal's seed and the seat): take any
        randomness from it, so a deal replays exactly.
    hand_text : str
        Own hand in hand notation, melds in brackets.
    """

    __slots__ = ("_v", "_rng", "_legal", "_melds", "_ponds", "_family")

    def __init__(self, view: np.ndarray, rng: Any = None, family: str | None = None) -> None:
        if view.flags.writeable:
            view.flags.writeable = False
        object.__setattr__(self, "_v", view)
        object.__setattr__(self, "_family", family)
        object.__setattr__(self, "_rng", rng)
        object.__setattr__(self, "_legal", None)
        object.__setattr__(self, "_melds", None)
        object.__setattr__(self, "_ponds", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Observation is read-only (tried to set {name!r})")

    def _info(self, i: int) -> int:
        return int(self._v[P_INFO + i])

    seat = property(lambda self: self._info(I_SEAT))
    dealer = property(lambda self: self._info(I_DEALER))
    wall_left = property(lambda self: self._info(I_WALL_LEFT))
    own_draws = property(lambda self: self._info(I_OWN_DRAWS))
    must_declare = property(lambda self: bool(self._info(I_MUST_DECLARE)))
    keep_ready = property(lambda self: bool(self._info(I_KEEP_READY)))

    @property
    def decision(self) -> str:
        return DECISIONS[int(self._v[P_DECISION])]

    @property
    def drawn(self) -> int | None:
        t = self._info(I_DRAWN)
        return t if t >= 0 else None

    @property
    def bao(self) -> int | None:
        t = self._info(I_BAO)
        return t if t >= 0 else None

    @property
    def n_kinds(self) -> int:
        return int(self._v[P_N_KINDS])

    @property
    def family(self) -> str:
        """``"daqing"``, ``"beijing"`` or ``"two_player"``."""
        if self._family is not None:
            return self._family
        return "daqing" if self.n_kinds == N_KINDS else "beijing"

    @property
    def n_seats(self) -> int:
        """Seats at the table: 4, two-player 2 (the per-seat tuples have this many entries)."""
        return FAMILY_SEATS[self.family]

    @property
    def hand(self) -> np.ndarray:
        return self._v[P_HAND : P_HAND + self.n_kinds]

    @property
    def visible(self) -> np.ndarray:
        return self._v[P_VISIBLE : P_VISIBLE + self.n_kinds]

    @property
    def safe(self) -> np.ndarray:
        rows = self._v[P_SAFE : P_SAFE + 4 * N_KINDS_ALL].reshape(4, N_KINDS_ALL)
        return rows[: self.n_seats, : self.n_kinds]

    @property
    def ready(self) -> tuple[bool, ...]:
        return tuple(bool(x) for x in self._v[P_READY : P_READY + self.n_seats])

    @property
    def ready_draw(self) -> tuple[int, ...]:
        return tuple(int(x) for x in self._v[P_READY_DRAW : P_READY_DRAW + self.n_seats])

    @property
    def claim_tile(self) -> int | None:
        t = int(self._v[P_CLAIM_TILE])
        return t if t >= 0 else None

    @property
    def rng(self) -> Any:
        return self._rng.get() if isinstance(self._rng, SeatRandom) else self._rng

    @property
    def legal_discards(self) -> tuple[Discard, ...]:
        if self._legal is None:
            codes = self._v[P_OPTIONS : P_OPTIONS + self._v[P_N_OPTIONS]].tolist()
            object.__setattr__(self, "_legal", tuple([_DISCARD_OF[c] for c in codes]))
        return self._legal

    @property
    def melds(self) -> tuple[tuple[TableMeld, ...], ...]:
        if self._melds is None:
            v = self._v
            melds = tuple(
                tuple(
                    TableMeld(
                        MELD_KINDS[v[P_TABLE_MK + 4 * s + j]],
                        int(v[P_TABLE_MT + 4 * s + j]),
                        int(v[P_MELD_FROM + 4 * s + j]),
                    )
                    for j in range(v[P_TABLE_NM + s])
                )
                for s in range(self.n_seats)
            )
            object.__setattr__(self, "_melds", melds)
        return self._melds

    @property
    def ponds(self) -> tuple[tuple[PondTile, ...], ...]:
        if self._ponds is None:
            v = self._v
            ponds = []
            for s in range(self.n_seats):
                n = min(int(v[P_N_POND + s]), MAX_POND)
                tiles = v[P_POND + MAX_POND * s : P_POND + MAX_POND * s + n].tolist()
                flags = v[P_POND_FLAG + MAX_POND * s : P_POND_FLAG + MAX_POND * s + n].tolist()
                by = v[P_POND_CLAIMER + MAX_POND * s : P_POND_CLAIMER + MAX_POND * s + n].tolist()
                ponds.append(
                    tuple(
                        PondTile(t, bool(f & DRAWN_AND_THROWN), c if f & CLAIMED else -1, bool(f & DECLARED))
                        for t, f, c in zip(tiles, flags, by, strict=True)
                    )
                )
            object.__setattr__(self, "_ponds", tuple(ponds))
        return self._ponds

    @property
    def hand_text(self) -> str:
        from daqing_sim.hand.notation import format_hand, hand_from_arrays

        v, s = self._v, self.seat
        mk = v[P_TABLE_MK + 4 * s : P_TABLE_MK + 4 * s + 4]
        mt = v[P_TABLE_MT + 4 * s : P_TABLE_MT + 4 * s + 4]
        return format_hand(hand_from_arrays(self.hand, mk, mt, int(v[P_TABLE_NM + s])))

    @staticmethod
    def tile_name(tile: int) -> str:
        """Name of a tile kind (``0 -> "1m"``, ``27 -> "中"``)."""
        return tile_name(tile)

    def claim_options(self) -> tuple[Claim, ...]:
        """The claim options of a ``"claim"`` decision."""
        return claim_options(int(self._v[P_CLAIM_TILE]), int(self._v[P_CLAIM_OPTS]))

    def kong_options(self) -> tuple[Kong, ...]:
        """The kong options of a ``"kong"`` decision."""
        return kong_options(self._v[P_KONG : P_KONG + self.n_kinds])

    def __repr__(self) -> str:
        return f"<Observation seat {self.seat} {self.decision or 'off turn'}: {self.hand_text}>"


class SeatRandom:
    """A seat's generator for one deal, made on first use (from the deal seed and the seat)."""

    __slots__ = ("seed", "seat", "gen")

    def __init__(self, seed: int, seat: int) -> None:
        self.seed = int(seed)
        self.seat = seat
        self.gen = None

    def get(self) -> np.random.Generator:
        if self.gen is None:
            self.gen = np.random.default_rng([self.seed, self.seat])
        return self.gen


class Player:
    """A player written in Python. Subclass it and define :meth:`discard`; :meth:`claim` and
    :meth:`kong` not defined by the subclass are decided as the built-in ``greedy`` player
    decides them (claim when it opens the door without raising the Daqing shanten, or lowers
    it; kong when that does not raise it), so that a player with only ``discard`` opens its
    door (开门) and can win under the classic rules.

    A player is used in ``ds.simulate(strategies=...)``, experiments (``"module:Class"`` in the
    TOML), ``ds.tournament``, ``ds.replay`` and ``ds.DealEnv``. It must be picklable (for
    ``n_jobs > 1``) and keep no state from one deal to the next, and take its randomness from
    ``obs.rng``: then results are the same for any number of workers. ``name`` (default: the class
    name) labels it in results.
    """

    name: str | None = None

    def discard(self, obs: Observation) -> Discard:
        """One of ``obs.legal_discards``."""
        raise NotImplementedError(f"{type(self).__name__} must define discard(self, obs)")

    def claim(self, obs: Observation, options: tuple[Claim, ...]) -> Claim | None:
        """One of ``options`` on the discard ``obs.claim_tile``, or None to pass.

        Not overridden, the engine answers with the ``greedy`` player's claim instead of
        calling it (it decides on the engine's own state); called directly, it passes.
        """
        return None

    def kong(self, obs: Observation, options: tuple[Kong, ...]) -> Kong | None:
        """One of ``options`` (a kong on one's own turn), or None.

        Not overridden, the engine answers with the ``greedy`` player's kong instead of
        calling it; called directly, it declines.
        """
        return None

    @property
    def label(self) -> str:
        """The name this player has in results."""
        return self.name or type(self).__name__


@functools.cache
def claim_options(tile: int, mask: int) -> tuple[Claim, ...]:
    """The :class:`Claim` options of a bit mask of actions (``1 << action``) on ``tile``."""
    return tuple(Claim(a, tile) for a in _CLAIM_ACTIONS if mask >> a & 1)


def kong_options(kong_opts: Any) -> tuple[Kong, ...]:
    """The :class:`Kong` options of the engine's ``kong_opts`` array (1 concealed, 2 added)."""
    return tuple(Kong(int(t), bool(kong_opts[t] == 1)) for t in np.flatnonzero(kong_opts))


__all__ = [
    "Player",
    "Observation",
    "Discard",
    "Claim",
    "Kong",
    "PondTile",
    "TableMeld",
    "SeatRandom",
    "claim_options",
    "kong_options",
]
