"""The deal's integer layouts, in one place (numba-free).

Each layout is a list of ``(name, width)`` fields; offsets are computed from it, so a field (a
rule family's, say) is added in one line and every later offset and the total follow. The
kernels use the module-level constants below (plain ints, frozen when a kernel compiles).

>>> RESULT_ROW.size, RESULT_ROW.offset("pay"), RESULT_ROW.width("pay")
(64, 8, 4)
>>> Layout("demo", [("a", 1), ("b", 3)]).offset("b")
1
"""

from __future__ import annotations

from collections.abc import Sequence

from daqing_sim.codes import N_KINDS, N_KINDS_ALL

SEATS = 4
MAX_MELDS = 4
MAX_POND = 64


class Layout:
    """Named fields of given widths laid end to end in one integer array."""

    def __init__(self, what: str, fields: Sequence[tuple[str, int]]) -> None:
        names = [name for name, _ in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"{what}: a field name appears twice")
        if any(width < 1 for _, width in fields):
            raise ValueError(f"{what}: every field needs a width of at least 1")
        self.what = what
        self.fields = tuple(fields)
        self._offset: dict[str, int] = {}
        self._width: dict[str, int] = {}
        at = 0
        for name, width in fields:
            self._offset[name] = at
            self._width[name] = width
            at += width
        self.size = at

    def offset(self, name: str) -> int:
        return self._offset[name]

    def width(self, name: str) -> int:
        return self._width[name]

    def constants(self, prefix: str) -> dict[str, int]:
        """Each field's offset named as the kernels import it: ``prefix`` + the name in capitals.

        >>> Layout("demo", [("a", 1), ("b", 3)]).constants("D_")
        {'D_A': 0, 'D_B': 1}
        """
        return {prefix + name.upper(): at for name, at in self._offset.items()}

    def __repr__(self) -> str:
        return f"Layout({self.what!r}, {len(self.fields)} fields, size {self.size})"


# ``out`` of the deal kernel: one int32 row per deal (the frame's columns, game.simulate).
RESULT_ROW = Layout(
    "result row",
    [
        ("outcome", 1),
        ("winner", 1),
        ("discarder", 1),
        ("big", 1),
        ("bao", 1),
        ("wait", 1),
        ("win_tile", 1),
        ("draws", 1),
        ("pay", SEATS),
        ("fans", SEATS),
        ("ready_turn", SEATS),
        ("ready_wait", SEATS),
        ("ready_outs", SEATS),
        ("concealed", SEATS),
        ("winner_kongs", 1),
        ("bao_replacements", 1),
        ("final_bao", 1),
        ("discarder_ready", 1),
        ("own_draws", SEATS),
        ("ready_wait_tiles", SEATS),
        ("ready_wait_mask", SEATS),
        # a rule family's fields (-1 or 0 under Daqing): Beijing's win, 烧庄, 互包, readiness
        ("fan_total", 1),  # F of the win
        ("value", 1),  # the win's value (base x F, halved for an open hand)
        ("fan_mask", 1),  # bit i: the win holds fan i (families.beijing.hand.FAN_NAMES order)
        ("how", 1),  # the win's context bits (families.beijing.hand.HOW_*)
        ("burn_rounds", 1),  # 烧庄 rounds
        ("mutual_payer", 1),  # the winner's 互包 partner who paid, -1 if none
        ("deal_kongs", 1),  # kongs declared by anyone in the deal
        ("n_bindings", 1),  # 互包 pairs formed
        ("tenpai_turn", SEATS),  # own draws when the seat's hand first waited (听牌), -1 never
        # the two-player family's fields (0 elsewhere)
        ("fan_mask_high", 1),  # bits 31 up of the win's fan mask (families.two_player.hand.FAN_NAMES)
        ("flower_fans", 1),  # the win's 花牌 fans
        ("flowers", 1),  # the face-up flower tiles: 6-bit fields, kind + 1 (0 none)
        ("extra_draws", 1),  # tiles drawn in 海底捞月
    ],
)
globals().update(RESULT_ROW.constants("O_"))
FAN_MASK_LOW_BITS = 31  # fan bits in the int32 fan_mask; the rest from bit 0 of fan_mask_high
N_OUT = RESULT_ROW.size

# ``out_hand``: the winner's 13-tile hand (int8): concealed counts, meld kinds and tiles, melds.
HAND_ROW = Layout("hand row", [("counts", N_KINDS), ("mk", MAX_MELDS), ("mt", MAX_MELDS), ("nm", 1)])
globals().update(HAND_ROW.constants("H_"))
H_WIDTH = HAND_ROW.size
# the same for a family of 34 kinds (Beijing)
HAND_ROW_ALL = Layout(
    "hand row, 34 kinds", [("counts", N_KINDS_ALL), ("mk", MAX_MELDS), ("mt", MAX_MELDS), ("nm", 1)]
)
globals().update(HAND_ROW_ALL.constants("HA_"))
HA_WIDTH = HAND_ROW_ALL.size

# ``out_final`` rows (each N_KINDS wide): the four seats' tiles, unclaimed discards, never played.
FINAL_ROWS = Layout("final rows", [("seats", SEATS), ("pool", 1), ("rest", 1)])
globals().update(FINAL_ROWS.constants("F_"))
N_FINAL = FINAL_ROWS.size

# ``ctl`` (int64): the control block of a deal stepped from outside (game.engine.step_deal_k).
CONTROL = Layout(
    "control block",
    [
        ("status", 1),
        ("decision", 1),
        ("seat", 1),
        ("tile", 1),
        ("opts", 1),
        ("answer", 1),
        ("declare", 1),
        ("phase", 1),
        ("cur", 1),
        ("drawn", 1),
        ("last_live", 1),
        ("must_declare", 1),
        ("front", 1),
        ("back", 1),
        ("n_draws", 1),
        ("n_repl", 1),
        ("n_log", 1),
        ("bao", 1),
        ("d", 1),
        ("claimable", 1),
        ("stage", 1),
        ("spare", 11),  # room for a family's loop-carried scalars
        ("legal", N_KINDS_ALL),  # LEGAL_DISCARD | LEGAL_DECLARE per tile kind (any family)
        ("spare_end", 4),
    ],
)
globals().update(CONTROL.constants("C_"))
LEGAL_DISCARD, LEGAL_DECLARE = 1, 2  # bits of ctl[C_LEGAL + t] at a paused discard
N_CTL = CONTROL.size

# ``DealState.result`` (int64): the deal's result scalars, for settling and recording.
DEAL_RESULT = Layout(
    "deal result",
    [
        ("winner", 1),
        ("method", 1),
        ("discarder", 1),
        ("discarder_ready", 1),
        ("win_tile", 1),
        ("win_kind", 1),
        ("big", 1),
        ("bao_kind", 1),
        ("win_drawn", 1),  # the self-drawn winning tile (to record the 13-tile hand before it)
        ("bao", 1),  # the bao at the end
        ("front", 1),  # the live wall left: front .. back
        ("back", 1),
        ("n_draws", 1),
        ("n_repl", 1),  # 换宝 count
    ],
)
globals().update(DEAL_RESULT.constants("R_"))
N_RESULT = DEAL_RESULT.size

# ``BeijingDealState.bj`` (int64): the Beijing deal's own loop scalars (families.beijing.deal).
BEIJING_STATE = Layout(
    "beijing state",
    [
        ("kongs", 1),  # kongs declared so far (the wall end moves 2 for each after the first)
        ("how", 1),  # the win's context (families.beijing.hand.HOW_* bits)
        ("burn_rounds", 1),  # 烧庄 rounds completed
        ("burn_live", 1),  # 1 while every discard so far followed the dealer's
        ("burn_tile", 1),  # the dealer's discard of the round under way
        ("burn_count", 1),  # others who followed it this round
        ("n_bindings", 1),  # 互包 pairs formed
        ("shanten", SEATS),  # each seat's table shanten after its last discard (-2: not known)
    ],
)
globals().update(BEIJING_STATE.constants("B_"))
N_BEIJING_STATE = BEIJING_STATE.size

# ``TwoPlayerDealState.tp`` (int64): the two-player deal's own loop scalars (families.two_player.deal).
TWO_PLAYER_STATE = Layout(
    "two-player state",
    [
        ("ctx", 1),  # how the win happened (families.two_player.hand.CTX_* bits, the flowers above them)
        ("flowers", 1),  # the face-up flower tiles, packed as in ctx >> FLOWER_SHIFT
        ("kongs", 1),  # kongs declared so far
        ("ticks", 1),  # discards so far (the clock of "ready first")
        ("extra_draws", 1),  # tiles drawn in 海底捞月
        ("win_offer", 1),  # ctx + 1 of a declared seat's pending win on the discard, 0 none
        ("shanten", SEATS),  # each seat's table shanten after its last discard (-2: not known)
        ("ready_since", SEATS),  # the tick from which the hand has waited (听牌) unbroken, -1 not waiting
        ("declared_first", SEATS),  # 1: declared (报听) with its first discard, concealed (天听)
        ("waits", SEATS),  # the winning tiles as bits, with WAITS_KNOWN, while shanten is 0; 0 unknown
    ],
)
globals().update(TWO_PLAYER_STATE.constants("T_"))
WAITS_KNOWN = 1 << 40  # the bit of a known wait set in T_WAITS (bits 0-33: its tiles)
N_TWO_PLAYER_STATE = TWO_PLAYER_STATE.size

# The packed public view of a paused decision (int16), for Python players: one copy per
# decision (game.engine.pack_view writes it, players.interface reads it); pond fields are
# (4, MAX_POND) row-major.
N_INFO = 9
PUBLIC_VIEW = Layout(
    "public view",
    [
        ("hand", N_KINDS_ALL),  # the kinds fields are 34 wide: a Daqing view leaves 28-33 at 0
        ("visible", N_KINDS_ALL),
        ("safe", SEATS * N_KINDS_ALL),
        ("ready", SEATS),
        ("ready_draw", SEATS),
        ("table_mk", SEATS * MAX_MELDS),
        ("table_mt", SEATS * MAX_MELDS),
        ("table_nm", SEATS),
        ("meld_from", SEATS * MAX_MELDS),
        ("n_pond", SEATS),
        ("info", 12),  # N_INFO scalars and room for three more
        ("legal", N_KINDS_ALL),
        ("kong", N_KINDS_ALL),
        ("decision", 1),
        ("claim_tile", 1),
        ("claim_opts", 1),
        ("n_options", 1),
        ("pond", SEATS * MAX_POND),
        ("pond_flag", SEATS * MAX_POND),
        ("pond_claimer", SEATS * MAX_POND),
        ("options", 2 * N_KINDS_ALL),  # the discard options as 2 * tile + declare, n_options of them
        ("n_kinds", 1),  # the family's tile kinds: 28 (Daqing) or 34 (Beijing)
    ],
)
globals().update(PUBLIC_VIEW.constants("P_"))
N_PUB = PUBLIC_VIEW.size
assert PUBLIC_VIEW.width("info") >= N_INFO

LAYOUTS = (
    RESULT_ROW,
    HAND_ROW,
    HAND_ROW_ALL,
    FINAL_ROWS,
    CONTROL,
    DEAL_RESULT,
    BEIJING_STATE,
    TWO_PLAYER_STATE,
    PUBLIC_VIEW,
)
