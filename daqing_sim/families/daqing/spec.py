"""The Daqing family's spec (docs/RULES.md): what the rest of the package reads about it."""

from __future__ import annotations

from typing import Any

from daqing_sim.families.spec import FamilySpec, Fan, Flag, Labels

FLAGS = (
    Flag(
        "bao_replacement",
        True,
        "true or false",
        "换宝: replace the bao when three copies are visible; `false` is the newer practice",
    ),
    Flag(
        "bao_kan_instant",
        False,
        "true or false",
        "宝卡: a ready player whose kanchan tile is the bao wins at sight, as a self-drawn 宝中宝",
    ),
    Flag(
        "kong_fan", False, "true or false", "杠: each kong of the winner is one more fan (a ninth fan type)"
    ),
    Flag(
        "chi_any_seat_for_ready",
        False,
        "true or false",
        "上听吃三家: a chi that makes the hand ready may be taken from any seat",
    ),
    Flag("jia_includes_edge", False, "true or false", "an edge wait (边张) is a big win"),
    Flag("jia_includes_single", False, "true or false", "a single wait (单钓) is a big win"),
    Flag("require_open", True, "true or false", "condition 1: an exposed meld before declaring ready"),
    Flag("require_two_suits", True, "true or false", "condition 6: no one-suit wins"),
    Flag("require_terminal", True, "true or false", "condition 3: a terminal (or 中) in the hand"),
    Flag("require_triplet", True, "true or false", "condition 4: a triplet (or 中), with the 对倒 exception"),
    Flag("require_sequence", True, "true or false", "condition 7: a sequence in the winning division"),
    Flag("dragon_waives_sequence", False, "true or false", "a 中 in the hand also waives condition 7"),
    Flag("min_concealed_at_ready", 4, "1-13", "condition 2: concealed tiles needed to declare ready"),
    Flag(
        "last_tiles_no_claim",
        4,
        "0-58",
        "a discard cannot be claimed when the wall held this many tiles or fewer before the draw it follows",
    ),
    Flag(
        "lock_after_ready",
        True,
        "true or false",
        "a ready hand discards every non-winning draw, claims only wins, makes no kongs",
    ),
)

# Each fan doubles what one loser owes (docs/RULES.md, Scoring): every fan is worth 1.
FANS = (
    Fan("dealer", "庄", "dealer", 1),
    Fan("concealed", "门清", "concealed", 1),
    Fan("self_draw", "自摸", "self-draw", 1),
    Fan("big", "夹", "big win", 1),
    Fan("bao", "宝", "bao", 1),
    Fan("bao_edge", "宝边", "bao edge", 1),
    Fan("bao_in_bao", "宝中宝", "bao in bao", 1),
    Fan("deal_in_not_ready", "点黑炮", "deal-in while not ready", 1),
    Fan("kong", "杠", "kong (flag kong_fan)", 1),
)


def check(rules: Any) -> None:
    """One-line errors for Daqing flags out of their range."""
    if not 1 <= rules.min_concealed_at_ready <= 13:
        raise ValueError(
            f"min_concealed_at_ready={rules.min_concealed_at_ready} is impossible: "
            "a ready hand keeps 1 to 13 concealed tiles (classic: 4)"
        )
    if not 0 <= rules.last_tiles_no_claim <= 58:
        raise ValueError(
            f"last_tiles_no_claim={rules.last_tiles_no_claim} is impossible: "
            "use 0 (claims until the end) to 58 (the live wall; classic: 4)"
        )


LABELS = Labels(
    wall_line="",  # the live wall is said after the bao
    ready_line="     seat {seat} is ready, {wait} wait, {outs} live outs; it sees the bao {bao}",
    move_ready="seat {seat} declares ready (上听): {wait} wait, {outs} live outs; it now sees the bao",
    move_ready_public="seat {seat} declares ready (上听); it now sees the bao",
    exhaustive_draw="the live wall is empty: exhaustive draw (荒庄), nobody pays",
    viewer_boxes=(
        (
            "bao 宝",
            '<div id="bao-box"><span id="bao" class="dq"></span>'
            "<span>face down; a ready seat sees it</span></div>",
        ),
    ),
    seat_badge='<span class="sees-bao" hidden></span>',
    hidden="hands, bao",
)

SPEC = FamilySpec(
    name="daqing",
    title="Daqing",
    rules_page="docs/RULES.md",
    seats=4,
    kinds=28,
    wall=112,
    flags=FLAGS,
    fans=FANS,
    columns=(
        "deal",
        "outcome",
        "winner",
        "discarder",
        "dealer",
        "big",
        "bao",
        "wait_kind",
        "win_tile",
        "draws",
        "pay_<seat>",
        "fans_<seat>",
        "ready_turn_<seat>",
        "ready_wait_<seat>",
        "ready_outs_<seat>",
        "concealed_<seat>",
        "winner_kongs",
        "bao_replacements",
        "own_draws_<seat>",
        "ready_wait_tiles_<seat>",
        "ready_wait_mask_<seat>",
        "strategy_<seat>",
    ),
    players=("greedy", "jia_hunter", "defensive", "random", "scripted", "expert", "expert1", "expert2"),
    default_field=("expert",) * 4,
    headline=(
        ("deals",),
        ("deals_won_share", "win_rate"),
        ("win_rate_non_dealer",),
        ("deal_in_rate_non_dealer",),
        ("outcome_deal_in_not_ready",),
        ("outcome_exhaustive_draw",),
        ("big_share",),
        ("bao_share_bao",),
        ("ready_kaplan_meier_dealer_k6", "ready_by_draw_dealer_k6"),
        ("ready_kaplan_meier_non_dealer_k6", "ready_by_draw_non_dealer_k6"),
        ("wait_ready_pure_kanchan_only", "wait_ready_label_kanchan"),
        ("pay_mean_dealer",),
        ("pays_64_share",),
        ("draws_q50",),
        ("diff_win",),
        ("diff_dealer_pay",),
    ),
    check=check,
    bao_position=53,
    # a seated player's discard, claim and kong (CPU s, inclusive: the hand kernels they call, the
    # first time; 2026-12-05, tools/compile_timings.py main-job)
    player_seconds=(
        ("expert", "discard", 22),
        ("expert", "claim", 3),
        ("expert", "kong", 1),
        ("greedy", "discard", 17),
        ("greedy", "claim", 3),
        ("greedy", "kong", 2),
        ("jia_hunter", "discard", 17),
        ("defensive", "discard", 17),
    ),
    state_type="DealState",
    labels=LABELS,
)
