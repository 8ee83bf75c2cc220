"""The Beijing family's spec (docs/RULES_BEIJING.md): what the rest of the package reads about it."""

from __future__ import annotations

from daqing_sim.families.spec import FamilySpec, Fan, Flag

FANS = (
    Fan("all_triplets", "对对和", "all triplets", 2),
    Fan("big_single_wait", "大钓", "big single wait", 2),
    Fan("catch_five", "捉五魁", "catch the five", 2),
    Fan("last_tile", "海底捞月", "last tile", 2),
    Fan("dragon", "一条龙", "pure straight", 3),
    Fan("seven_pairs", "七对", "seven pairs", 4),
    Fan("kong_bloom", "杠上开花", "win on a kong's replacement", 5),
    Fan("one_suit", "清一色", "one suit", 6),
    Fan("luxury_seven_pairs", "豪华七对", "luxury seven pairs", 8),
    Fan("plain_win", "", "plain win", 1),
    Fan("last_discard", "", "last discard", 1),
)

FLAGS = (
    Flag(
        "multiple_winners",
        False,
        "false (true is not played yet)",
        "several players may win on one discard (`false`: 截和, the first in turn order)",
    ),
    Flag("rob_added_kong", True, "true or false", "a win on the tile added to a peng (抢杠)"),
    Flag(
        "rob_concealed_kong_with_dragon", True, "true or false", "a hand with 一条龙 may rob a concealed kong"
    ),
    Flag(
        "fan_combine",
        "add",
        '"add" or "double"',
        '`"add"`: value = base x F; `"double"`: base x 2^(F - plain_win), at least base',
    ),
    Flag("base_points", 1000, "0-10^9", "the value of one fan for a concealed hand"),
    Flag(
        "open_hand_factor",
        0.5,
        "(0, 1]; x base_points whole points",
        "the factor for an open hand (chi, peng or exposed kong)",
    ),
    Flag("mutual_bao", True, "true or false", "互包 after three claims from one player"),
    Flag("burn_dealer", True, "true or false", "烧庄 and its wind obligation"),
    Flag("burn_points", 1000, "0-10^9", "the first round of 烧庄, per player"),
    Flag(
        "dead_wall_tiles",
        14,
        "0-80",
        "tiles left undrawn at the end of the wall (plus 2 per kong after the first)",
    ),
    *(Flag(f"fans_{f.code}", f.value, "0-64", f"fans of {f.code} ({f.zh or f.en})") for f in FANS),
)

SPEC = FamilySpec(
    name="beijing",
    title="Beijing",
    rules_page="docs/RULES_BEIJING.md",
    seats=4,
    kinds=34,
    wall=136,
    flags=FLAGS,
    fans=FANS,
    columns=(
        "family",
        "deal",
        "outcome",
        "winner",
        "discarder",
        "dealer",
        "robbed_kong",
        "wait_kind",
        "win_tile",
        "draws",
        "fan_total",
        "value",
        *(f"fan_{f.code}" for f in FANS),
        "pay_<seat>",
        "concealed_<seat>",
        "own_draws_<seat>",
        "tenpai_turn_<seat>",
        "winner_kongs",
        "deal_kongs",
        "burn_rounds",
        "mutual_bindings",
        "mutual_payer",
        "strategy_<seat>",
    ),
    players=("expert", "greedy", "random", "expert1", "expert2"),
    default_field=("expert",) * 4,
    headline=(
        ("outcome_self_draw",),
        ("outcome_deal_in",),
        ("tenpai_kaplan_meier_dealer_k6",),
        ("tenpai_kaplan_meier_non_dealer_k6",),
        ("value_mean",),
        ("fan_type_share_seven_pairs",),
        ("burn_share",),
        ("mutual_paid_share",),
        ("robbed_kong_share",),
        ("diff_value",),
    ),
)
