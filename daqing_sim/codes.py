"""The integer codes shared by kernels, players and frames, defined once (numba-free).

Every module that uses a code imports it from here; the names follow docs/RULES.md's glossary.

>>> WAIT_KINDS[KANCHAN], OUTCOMES[WIN_DEAL_IN_NOT_READY], BAO_KINDS[BAO_IN_BAO]
('kanchan', 'deal_in_not_ready', 'bao_in_bao')
"""

from __future__ import annotations

from daqing_sim.families import FAMILY_PACKAGES, family_spec

# Tiles: 0-8 characters (m), 9-17 dots (p), 18-26 bamboo (s), 27 the red dragon 中: Daqing's 28.
# The 34-kind families (Beijing, two-player) add the winds and the other dragons after them, so
# Daqing's kinds are a prefix of theirs and a Daqing hand means the same in every family.
N_KINDS = 28
COPIES = 4
N_TILES = N_KINDS * COPIES  # 112
ZHONG = 27
EAST, SOUTH, WEST, NORTH, WHITE, GREEN = 28, 29, 30, 31, 32, 33
N_KINDS_ALL = 34
N_TILES_ALL = N_KINDS_ALL * COPIES  # 136
N_SEATS = 4

# Rule families (RuleSet.family), from the registry and the specs (daqing_sim.families): the
# code of each (its index: rules[R_FAMILY]), the tile kinds it plays, its name in sentences and
# the seats at its table (two-player: 2; seats 2 and 3 of the engine stay empty).
FAMILIES = tuple(FAMILY_PACKAGES)
FAMILY_KINDS = tuple(family_spec(f).kinds for f in FAMILIES)
FAMILY_TITLES = tuple(family_spec(f).title for f in FAMILIES)
FAMILY_SEATS = {f: family_spec(f).seats for f in FAMILIES}


def family_title(family: str) -> str:
    """A family's name in a sentence: ``"Daqing"``, ``"Beijing"``, ``"two-player"``."""
    return FAMILY_TITLES[FAMILIES.index(family)] if family in FAMILIES else family


# Wait kinds, in the RULES.md tie order (lower code wins a tie); -1 = not a winning tile.
KANCHAN, EDGE, SINGLE, DUAL_PAIR, TWO_SIDED = 0, 1, 2, 3, 4
WAIT_KINDS = ("kanchan", "edge", "single", "dual_pair", "two_sided")

# Meld kinds as stored in kernel arrays: a meld is (kind, lowest tile).
CHI, PENG, KONG, CONCEALED_KONG, ADDED_KONG = 0, 1, 2, 3, 4
MELD_KINDS = ("chi", "peng", "kong", "concealed_kong", "added_kong")

# How a deal was won (scoring), and which bao win it was.
SELF_DRAW, DEAL_IN = 0, 1
METHODS = ("self_draw", "deal_in")
NO_BAO, BAO, BAO_EDGE, BAO_IN_BAO = 0, 1, 2, 3
BAO_KINDS = ("none", "bao", "bao_edge", "bao_in_bao")

# How a deal ended (the `outcome` column).
WIN_SELF_DRAW, WIN_DEAL_IN, WIN_DEAL_IN_NOT_READY, EXHAUSTIVE_DRAW = 0, 1, 2, 3
OUTCOMES = ("self_draw", "deal_in", "deal_in_not_ready", "exhaustive_draw")

# Claims of another seat's discard: a player answers one action; options are a bit mask 1 << action.
PASS, CLAIM_PENG, CLAIM_KONG, CHI_LOW, CHI_MID, CHI_HIGH = 0, 1, 2, 3, 4, 5
CLAIM_NAMES = ("pass", "peng", "kong", "chi", "chi", "chi", "win")
# two-player: a declared (报听) hand chooses to win on the opponent's discard or to pass
CLAIM_WIN = 6

# Kong options on one's own turn (kong_opts[t]).
NO_KONG, OPT_CONCEALED_KONG, OPT_ADDED_KONG = 0, 1, 2

# The player code of a seat whose decisions come from outside the engine (a Python player or
# the caller of a DealEnv): the engine pauses at its decisions (game.engine, ``ctl``).
EXTERNAL = -1
# Codes of jitted players registered by users (players.user): USER_BASE + slot.
USER_BASE = 64
N_USER_SLOTS = 4

# Decisions a paused deal waits for (``ctl[C_DECISION]``).
DECISION_DISCARD, DECISION_CLAIM, DECISION_KONG = 1, 2, 3
DECISIONS = ("", "discard", "claim", "kong")
