"""The two-player family's spec (docs/RULES_TWO_PLAYER.md): what the rest of the package reads
about it. :data:`FANS` is the one fan table (the hand kernels, the frame, the replay and the
summaries read it from here)."""

from __future__ import annotations

from typing import Any

from daqing_sim.families.spec import FamilySpec, Fan, Flag, Labels

# The patterns in the page's order (fans 1, 2, 3, 4, 5, 6, then the limit hands, worth 0 here: a
# limit hand is worth the cap, limit_fans).
FANS = (
    Fan("plain_win", "推倒胡", "plain win (only when the win has no other pattern)", 1),
    Fan("concealed", "门清", "concealed hand", 1),
    Fan("riichi", "门清报听", "concealed ready declaration", 1),
    Fan("pinfu", "平和", "all sequences, two-sided wait", 1),
    Fan("tanyao", "断幺九", "all simples", 1),
    Fan("tsumo", "门清自摸", "concealed self-draw", 1),
    Fan("flower", "花牌", "flower tile (1 per tile)", 1),
    Fan("haitei", "河底捞月", "self-draw of the last tile", 1),
    Fan("houtei", "河底捞鱼", "win on the last discard", 1),
    Fan("extra_draw", "海底捞月", "self-draw in the extra draws", 1),
    Fan("double_riichi", "天听", "ready declared at the first turn", 2),
    Fan("iipeikou", "一杯口", "two identical sequences", 2),
    Fan("toitoi", "碰碰胡", "all triplets", 2),
    Fan("sanshoku", "三色同顺", "mixed triple sequence", 2),
    Fan("sanankou", "三暗刻", "three concealed triplets", 2),
    Fan("honroutou", "混老头", "all terminals and honors", 2),
    Fan("ittsu", "一气通贯", "pure straight", 2),
    Fan("rinshan", "杠上开花", "win on a kong's replacement", 2),
    Fan("chiitoitsu", "七对子", "seven pairs", 3),
    Fan("sanrenkou", "三连刻", "three consecutive triplets", 3),
    Fan("sanshoku_doukou", "三色同刻", "triple triplets", 3),
    Fan("chanta", "混全带幺", "terminal or honor in each set", 3),
    Fan("honitsu", "混一色", "half flush", 3),
    Fan("ryanpeikou", "两杯口", "twice two identical sequences", 4),
    Fan("junchan", "纯全带幺", "terminal in each set", 4),
    Fan("shousangen", "小三元", "little three dragons", 4),
    Fan("chinitsu", "清一色", "full flush", 5),
    Fan("dragon_seven_pairs", "龙七对", "seven pairs with four of a kind", 6),
    Fan("tenhou", "天和", "dealer's dealt hand wins", 0),
    Fan("chiihou", "地和", "win on the dealer's first discard", 0),
    Fan("renhou", "人和", "self-draw with the first draw", 0),
    Fan("suuankou", "四暗刻", "four concealed triplets", 0),
    Fan("daisangen", "大三元", "big three dragons", 0),
    Fan("shousuushii", "小四喜", "little four winds", 0),
    Fan("daisuushii", "大四喜", "big four winds", 0),
    Fan("tsuuiisou", "字一色", "all honors", 0),
    Fan("chinroutou", "清老头", "all terminals", 0),
    Fan("suukantsu", "四杠子", "four kongs", 0),
    Fan("ryuuiisou", "绿一色", "all green", 0),
    Fan("chuuren", "九莲宝灯", "nine gates", 0),
    Fan("kokushi", "国士无双", "thirteen orphans", 0),
    Fan("daisharin", "大车轮", "big wheels", 0),
    Fan("hyakumangoku", "百万石", "a million stones", 0),
    Fan("suurenkou", "四连刻", "four consecutive triplets", 0),
    Fan("benikujaku", "红孔雀", "red peacock", 0),
    Fan("tohoku_shinkansen", "东北新干线", "Tohoku bullet train", 0),
)

FLAGS = (
    Flag("flower_tiles", 1, "0-4", "tiles of the 65 unused ones turned face up"),
    Flag("limit_fans", 13, "1-64", "F of a limit hand, and the most F of any win"),
    Flag("multiplier", 1, "1, 2, 5 or 10", "the room's multiplier (倍数)"),
    Flag("points_per_fan", 1, "1-10^6", "what one fan is worth (1番N威望)"),
    Flag(
        "match_doubling",
        True,
        "true or false",
        "进阶倍数: each game of a match is worth twice the one before",
    ),
    Flag("open_pinfu", True, "true or false", "平和 in open hands too (`false`: concealed only, as riichi)"),
    Flag("extra_draws", 3, "0-3", "the extra draws of 海底捞月"),
)

MULTIPLIERS = (1, 2, 5, 10)  # 倍数协商: the rooms' multipliers


def check(rules: Any) -> None:
    """One-line errors for two-player flags out of their range."""
    if not 0 <= rules.flower_tiles <= 4:
        raise ValueError(
            f"flower_tiles={rules.flower_tiles} must be 0 to 4 tiles turned face up (two-player: 1)"
        )
    if not 1 <= rules.limit_fans <= 64:
        raise ValueError(f"limit_fans={rules.limit_fans} must be 1 to 64 fans (two-player: 13)")
    if rules.multiplier not in MULTIPLIERS:
        raise ValueError(
            f"multiplier={rules.multiplier} is not a room's: use {', '.join(map(str, MULTIPLIERS))}"
        )
    if not 1 <= rules.points_per_fan <= 10**6:
        raise ValueError(f"points_per_fan={rules.points_per_fan} must be 1 to 10^6 points (two-player: 1)")
    if not 0 <= rules.extra_draws <= 3:
        raise ValueError(f"extra_draws={rules.extra_draws} must be 0 to 3 draws (海底捞月; two-player: 3)")


LABELS = Labels(
    rules_note=" (two-player rules)",
    declare="报听",
    ready_badge="declared 报听",
    wall_line=(
        "wall: {wall_left} tiles to draw; when they are used up the seat waiting "
        "longest draws up to {extra_draws} more (海底捞月)"
    ),
    ready_line=(
        "     seat {seat} has declared (报听): its hand is locked; it may take or pass a win "
        "on the opponent's discard"
    ),
    move_ready="seat {seat} declares ready (报听): its hand is locked; it may win or pass",
    move_ready_public="seat {seat} declares ready (报听): its hand is locked; it may win or pass",
    exhaustive_draw="the tiles are used up and nobody wins (流局): nobody pays",
    viewer_wall='<h3>wall</h3><div><span id="wall-left"></span> of the 71 tiles left to draw</div>',
    viewer_boxes=(
        ("flowers 花牌", '<div id="flowers" class="dq"></div>'),
        ("extra draws 海底捞月", '<div id="extra" class="dq">none</div>'),
    ),
    declare_mark="sideways with a red bar: the discard that declared (报听); ",
)

SPEC = FamilySpec(
    name="two_player",
    title="two-player",
    rules_page="docs/RULES_TWO_PLAYER.md",
    seats=2,
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
        "kong_replacement",
        "last_tile",
        "last_discard",
        "extra_draw_win",
        "declared_first_win",
        "wait_kind",
        "win_tile",
        "draws",
        "extra_draws",
        "fan_total",
        "value",
        *(f"fan_{f.code}" for f in FANS),
        "pay_<seat>",
        "concealed_<seat>",
        "declared_turn_<seat>",
        "tenpai_turn_<seat>",
        "own_draws_<seat>",
        "winner_kongs",
        "deal_kongs",
        *(f"flower_{i}" for i in range(4)),  # the face-up flower tiles, as many as the run turned up
        "strategy_<seat>",
    ),
    players=("expert", "greedy", "random", "expert1", "expert2"),
    default_field=("expert", "expert"),
    headline=(
        ("outcome_self_draw",),
        ("win_rate_dealer",),
        ("win_rate_non_dealer",),
        ("declared_dealer",),
        ("declared_non_dealer",),
        ("fan_total_mean",),
        ("value_mean_deal",),
        ("pattern_share_limit_any",),
        ("pay_mean_dealer",),
        ("diff_value",),
        ("diff_dealer_pay",),
    ),
    check=check,
    wall_width=78,  # 71 in play, the 3 extra draws, up to 4 flower tiles (game.wall)
    in_play=71,
    player_modules=(("expert", "expert2"), ("expert1", "expert"), ("expert2", "expert2")),
    # tools/compile_timings.py hand-two-player (2026-12-02: inclusive, the Beijing shanten and
    # waits they call included) and two-player (2026-12-03: greedy and expert seated, idle
    # machine; the expert's discard reuses greedy's hand kernels)
    hand_kernels=(
        ("hand", "tp_hand_shanten_k", 10),
        ("hand", "tp_wait_set_k", 1),
        ("hand", "tp_fans_wait_k", 9),
    ),
    player_seconds=(
        ("greedy", "greedy_seat_discard", 21),
        ("greedy", "greedy_seat_claim", 5),
        ("expert", "discard", 4),
        ("expert", "claim", 14),
    ),
    state_type="TwoPlayerDealState",
    labels=LABELS,
    ready_records_wait=False,
)
