"""The Beijing family's spec (docs/RULES_BEIJING.md): what the rest of the package reads about it."""

from __future__ import annotations

from typing import Any

from daqing_sim.families.spec import FamilySpec, Fan, Flag, Labels

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
        ("add", "double"),
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


def check(rules: Any) -> None:
    """One-line errors for Beijing flags out of their range."""
    if rules.multiple_winners:
        raise ValueError(
            "multiple_winners=true is not played yet: one winner per discard (截和), first in turn order"
        )
    if not 0 < rules.open_hand_factor <= 1:
        raise ValueError(f"open_hand_factor={rules.open_hand_factor} must be in (0, 1] (Beijing: 0.5)")
    for name in ("base_points", "burn_points"):
        if not 0 <= getattr(rules, name) <= 10**9:
            raise ValueError(f"{name}={getattr(rules, name)} must be 0 to 10^9 points (Beijing: 1000)")
    if rules.open_hand_factor * rules.base_points != int(rules.open_hand_factor * rules.base_points):
        raise ValueError("open_hand_factor x base_points must be whole points (Beijing: 0.5 x 1000)")
    if not 0 <= rules.dead_wall_tiles <= 80:
        raise ValueError(f"dead_wall_tiles={rules.dead_wall_tiles} must be 0 to 80 (Beijing: 14)")
    for flag in FLAGS:
        if flag.name.startswith("fans_") and not 0 <= getattr(rules, flag.name) <= 64:
            raise ValueError(f"{flag.name}={getattr(rules, flag.name)} must be 0 to 64 fans")


LABELS = Labels(
    rules_note=" (Beijing rules)",
    wall_line=(
        "wall: {wall_left} tiles to draw; play stops with {dead_wall_tiles} left "
        "(+2 per kong after the first)"
    ),
    exhaustive_draw="{wall_left} tiles left undrawn: a drawn deal (荒牌), nobody pays",
    viewer_wall=(
        '<h3>wall</h3><div><span id="wall-left"></span> tiles left; play stops with '
        "{dead_wall} left (+2 per kong after the first)</div>"
    ),
    viewer_boxes=(("烧庄 burn", '<div id="burn">none</div>'),),
    seat_badge='<span class="badge bound" hidden></span>',
    declare_mark="",
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
    check=check,
    # ``expert`` is the stronger version (issue 38; docs/EXPERT.md): expert2 since session 18
    player_modules=(("expert", "expert2"), ("expert1", "expert"), ("expert2", "expert2")),
    # measured 2026-12-01 on the busy machine: 14 s and 11 s wall
    hand_kernels=(("daqing_sim.hand.kinds34", "bj_hand_shanten_k", 14), ("hand", "bj_fans_k", 11)),
    player_seconds=(("expert", "discard", 15), ("players", "greedy_seat_discard", 8)),
    state_type="BeijingDealState",
    labels=LABELS,
)
