"""The two-player family (docs/RULES_TWO_PLAYER.md) through the public API: flags, notation, one
hand per pattern and limit hand (the expected fans worked out by hand from the page, not computed
by the reference), the readings the page leaves open, the value, one-line errors, shanten and
waits, the CLI and the walls. tests/test_two_player_reference.py checks the same kernels against
the plain-Python reference and the riichi calculator on random hands.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import reference_two_player as R

import daqing_sim as ds
from daqing_sim.cli import main
from daqing_sim.rules import (
    FAMILY_FLAGS,
    R_EXTRA_DRAWS,
    R_FAMILY,
    R_FANS_LAST_DISCARD,
    R_FLOWER_TILES,
    RuleSet,
)

TWO = RuleSet(family="two_player")
DOC = Path(__file__).parents[1] / "docs" / "RULES_TWO_PLAYER.md"

# The flag table of docs/RULES_TWO_PLAYER.md, written out: flag -> default.
TWO_PLAYER_FLAGS = {
    "flower_tiles": 1,
    "limit_fans": 13,
    "multiplier": 1,
    "points_per_fan": 1,
    "match_doubling": True,
    "open_pinfu": True,
    "extra_draws": 3,
}


def win(hand: str, tile: str, rules: RuleSet = TWO, **how):
    return ds.score_win(hand, tile, rules=rules, **{"self_draw": False, **how})


# ---------------------------------------------------------------- flags


def test_defaults_equal_the_flag_table():
    assert TWO.to_dict() == {"family": "two_player", **TWO_PLAYER_FLAGS}
    assert TWO.changed() == {} and TWO.n_kinds == 34
    assert FAMILY_FLAGS["two_player"] == tuple(TWO_PLAYER_FLAGS)


def test_the_encoding_appends_the_two_player_flags():
    enc = TWO.encode()
    assert enc[R_FAMILY] == 2 and R_FLOWER_TILES == R_FANS_LAST_DISCARD + 1
    assert enc[R_FLOWER_TILES : R_EXTRA_DRAWS + 1].tolist() == [1, 13, 1, 1, 1, 1, 3]
    # Daqing's and Beijing's fields keep their places and defaults
    for other in (RuleSet(), RuleSet(family="beijing")):
        assert np.array_equal(other.encode()[:R_FAMILY], enc[:R_FAMILY])
        assert np.array_equal(
            other.encode()[R_FAMILY + 1 : R_FLOWER_TILES], enc[R_FAMILY + 1 : R_FLOWER_TILES]
        )
    changed = RuleSet(family="two_player", multiplier=10, match_doubling=False).encode()
    assert np.flatnonzero(changed != enc).tolist() == [R_FLOWER_TILES + 2, R_FLOWER_TILES + 4]


@pytest.mark.parametrize(
    "flags, match",
    [
        (
            {"kong_fan": True},
            r"kong_fan is a Daqing flag, not a two-player one; two-player flags: flower_tiles",
        ),
        ({"burn_dealer": False}, r"burn_dealer is a Beijing flag, not a two-player one"),
        ({"flowers": 1}, r"unknown rule flag\(s\) flowers; valid flags: flower_tiles, limit_fans"),
        ({"multiplier": 3}, r"multiplier=3 is not a room's: use 1, 2, 5, 10"),
        ({"flower_tiles": 5}, r"flower_tiles=5 must be 0 to 4"),
        ({"limit_fans": 0}, r"limit_fans=0 must be 1 to 64"),
        ({"points_per_fan": 0}, r"points_per_fan=0 must be 1 to 10\^6"),
        ({"extra_draws": 4}, r"extra_draws=4 must be 0 to 3"),
        ({"match_doubling": 1}, r"match_doubling must be true or false"),
    ],
)
def test_bad_flags_are_one_line_errors(flags, match):
    with pytest.raises(ValueError, match=match) as info:
        RuleSet(family="two_player", **flags)
    assert "\n" not in str(info.value)


def test_a_two_player_flag_elsewhere_is_a_one_line_error():
    with pytest.raises(ValueError, match="flower_tiles is a two-player flag, not a Daqing one; Daqing flags"):
        RuleSet(flower_tiles=0)
    with pytest.raises(ValueError, match="multiplier is a two-player flag, not a Beijing one"):
        RuleSet(family="beijing", multiplier=2)


def test_toml_and_flag_strings(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text('[rules]\nfamily = "two_player"\nmultiplier = 5\nflower_tiles = 0\n', encoding="utf-8")
    assert RuleSet.from_toml(path) == RuleSet(family="two_player", multiplier=5, flower_tiles=0)
    rules = RuleSet.from_flag_strings(["family=two_player", "match_doubling=off", "points_per_fan=10"])
    assert rules.changed() == {"match_doubling": False, "points_per_fan": 10}
    assert repr(rules) == "RuleSet(family='two_player', points_per_fan=10, match_doubling=False)"


def test_the_docs_list_every_flag():
    flags = DOC.read_text(encoding="utf-8").split("## Rule flags")[1].split("## Readings")[0]
    for name, default in TWO_PLAYER_FLAGS.items():
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        assert f"| `{name}` | `{shown}` |" in flags, name


# ---------------------------------------------------------------- notation


def test_two_player_hands_have_the_34_kinds():
    h = ds.parse_hand("123m456p789s1122z", family="two_player")
    assert h.counts.shape == (34,) and h == ds.parse_hand("123m456p789s东东南南", family="two_player")


@pytest.mark.parametrize(
    "text, match",
    [
        ("11111z23m456p789s", "5 copies of 东"),
        ("123m456p789s11m8z", "honors are 1z-7z"),
        ("123m456p789s1z [123z]", "is not a meld"),
        ("123m456p789s1z", "has 10 concealed tiles"),
    ],
)
def test_bad_notation_is_a_one_line_error(text, match):
    with pytest.raises(ValueError, match=match) as info:
        ds.parse_hand(text, family="two_player")
    assert "\n" not in str(info.value)


# ---------------------------------------------------------------- one hand per pattern

SD = {"self_draw": True}
# (pattern shown, 13 tiles before the win, winning tile, how, every fan expected)
PATTERN_CASES = [
    ("plain_win", "234m456p78s22z [123p]", "9s", {}, {"plain_win": 1}),
    ("concealed", "234m456p789s1122z", "1z", {}, {"concealed": 1}),
    ("riichi", "234m456p789s1122z", "1z", {"declared": True}, {"concealed": 1, "riichi": 1}),
    ("pinfu", "234m456p78s55p [123s]", "9s", {}, {"pinfu": 1}),
    ("tanyao", "234m456p678s5588s", "5s", {}, {"concealed": 1, "tanyao": 1}),
    ("tsumo", "234m456p789s1122z", "1z", SD, {"concealed": 1, "tsumo": 1}),
    ("flower", "234m456p78s22z [123p]", "9s", {"flowers": "2z"}, {"flower": 2}),
    (
        "haitei",
        "234m456p789s1122z",
        "1z",
        {**SD, "last_tile": True},
        {"concealed": 1, "tsumo": 1, "haitei": 1},
    ),
    ("houtei", "234m456p789s1122z", "1z", {"last_discard": True}, {"concealed": 1, "houtei": 1}),
    (
        "extra_draw",
        "234m456p789s1122z",
        "1z",
        {**SD, "extra_draw": True},
        {"concealed": 1, "tsumo": 1, "extra_draw": 1},
    ),
    (
        "double_riichi",
        "234m456p789s1122z",
        "1z",
        {"declared_first": True},
        {"concealed": 1, "double_riichi": 2},
    ),
    ("iipeikou", "123m123m456p789s5s", "5s", {}, {"concealed": 1, "iipeikou": 2}),
    ("toitoi", "111m999p55s22z [777s]", "5s", {}, {"toitoi": 2}),
    ("sanshoku", "123m123p12s456s99s", "3s", {}, {"concealed": 1, "sanshoku": 2}),
    ("sanankou", "111m333p555s78m22z", "9m", {}, {"concealed": 1, "sanankou": 2}),
    ("honroutou", "1199m1199p119s11z", "9s", {}, {"concealed": 1, "honroutou": 2, "chiitoitsu": 3}),
    ("ittsu", "123456789m11p45s", "3s", {}, {"concealed": 1, "pinfu": 1, "ittsu": 2}),
    (
        "rinshan",
        "234m456p2233z (7777s)",
        "3z",
        {**SD, "kong_replacement": True},
        {"concealed": 1, "tsumo": 1, "rinshan": 2},
    ),
    ("chiitoitsu", "1133m2255p7799s1z", "1z", {}, {"concealed": 1, "chiitoitsu": 3}),
    ("sanrenkou", "222333444p5m [789s]", "5m", {}, {"sanankou": 2, "sanrenkou": 3}),
    ("sanshoku_doukou", "222m222p22s456m77z", "2s", {}, {"concealed": 1, "sanshoku_doukou": 3}),
    ("chanta", "123m789p99s11z [789m]", "1z", {}, {"chanta": 3}),
    ("honitsu", "123456m77m22z [111z]", "2z", {}, {"honitsu": 3}),
    ("ryanpeikou", "223344m667788p5s", "5s", {}, {"concealed": 1, "tanyao": 1, "ryanpeikou": 4}),
    ("junchan", "123m789m12p99s [789s]", "3p", {}, {"junchan": 4}),
    ("shousangen", "123m45p555666z77z", "6p", {}, {"concealed": 1, "shousangen": 4}),
    ("chinitsu", "12345m99m [567m] [789m]", "3m", {}, {"pinfu": 1, "chinitsu": 5}),
    ("dragon_seven_pairs", "111m2255p7799s11z", "1m", {}, {"concealed": 1, "dragon_seven_pairs": 6}),
    ("tenhou", "123m456p789s1122z", "1z", {**SD, "tenhou": True}, {"tenhou": 13}),
    ("chiihou", "123m456p789s1122z", "1z", {"chiihou": True}, {"chiihou": 13}),
    ("renhou", "123m456p789s1122z", "1z", {**SD, "renhou": True}, {"renhou": 13}),
    ("suuankou", "111222333m777p5z", "5z", {}, {"suuankou": 13}),
    ("daisangen", "12m99p555666777z", "3m", {}, {"daisangen": 13}),
    ("shousuushii", "123m1112223334z", "4z", {}, {"shousuushii": 13}),
    ("daisuushii", "5m111222333z [444z]", "5m", {}, {"daisuushii": 13}),
    ("tsuuiisou", "111222555z66z77z", "6z", {}, {"tsuuiisou": 13}),
    ("chinroutou", "111m999p11s99s [999m]", "1s", {}, {"chinroutou": 13}),
    ("suukantsu", "5z [1111m] [2222p] (3333s) [9999s]", "5z", {}, {"suukantsu": 13}),
    ("ryuuiisou", "223344666s88s66z", "6z", {}, {"ryuuiisou": 13}),
    ("chuuren", "1112345678999m", "5m", {}, {"chuuren": 13}),
    ("kokushi", "19m19p19s1234567z", "1m", {}, {"kokushi": 13}),
    ("daisharin", "2233445566778p", "8p", {}, {"daisharin": 13}),
    ("hyakumangoku", "678m777m4m [888m] [999m]", "4m", {}, {"hyakumangoku": 13}),  # ranks add to 101
    ("suurenkou", "333444555p6m [222p]", "6m", {}, {"suurenkou": 13}),
    ("benikujaku", "111555777s99s77z", "7z", {}, {"benikujaku": 13}),
    ("tohoku_shinkansen", "123456789s111z4z", "4z", {}, {"tohoku_shinkansen": 13}),
]


def test_every_pattern_and_limit_hand_has_a_case():
    from daqing_sim.families.two_player.hand import FAN_NAMES

    assert [c[0] for c in PATTERN_CASES] == list(FAN_NAMES)


@pytest.mark.parametrize("pattern, hand, tile, how, fans", PATTERN_CASES, ids=[c[0] for c in PATTERN_CASES])
def test_each_pattern(pattern, hand, tile, how, fans):
    w = win(hand, tile, **how)
    assert w.fans == fans
    limit = R.PATTERNS[pattern] is None
    assert w.total_fans == (13 if limit else sum(fans.values()))
    assert w.value == w.total == w.total_fans  # multiplier 1, 1 point per fan, the first game
    ref = R.score_notation(hand, tile, **{"self_draw": False, **how, "flowers": _flower_kinds(how)})
    assert ref.fans == fans  # the plain-Python reference reads it the same way


def _flower_kinds(how: dict) -> tuple[int, ...]:
    return tuple(R.RB._tiles(how["flowers"])) if "flowers" in how else ()


# ---------------------------------------------------------------- the readings, one by one

C = {"concealed": 1}
HM = {"hyakumangoku": 13}


def L(*names: str) -> dict[str, int]:
    return dict.fromkeys(names, 13)


READING_CASES = [
    # 1: plain win only alone; a concealed hand always has 门清
    ("plain win only alone", "234m456p78s22z [123p]", "9s", {}, {"plain_win": 1}),
    # 3: the split worth the most: 111 222 333 as triplets (toitoi, sanankou, sanrenkou) beats
    # 123 123 123 (iipeikou)
    (
        "triplets over sequences",
        "111222333m77p55z",
        "7p",
        {},
        {"concealed": 1, "toitoi": 2, "sanankou": 2, "sanrenkou": 3},
    ),
    # ... and 两杯口 over 七对子, but 龙七对 over 两杯口
    (
        "ryanpeikou over seven pairs",
        "111122223333m4m",
        "4m",
        {},
        {"concealed": 1, "pinfu": 1, "ryanpeikou": 4, "chinitsu": 5},
    ),
    (
        "dragon pairs over ryanpeikou",
        "11112222333m44m",
        "3m",
        {},
        {"concealed": 1, "chinitsu": 5, "dragon_seven_pairs": 6},
    ),
    # 5: a robbed kong is scored as a self-draw
    (
        "robbed kong is a self-draw",
        "23m456p789s11122z",
        "4m",
        {"robbed_kong": True},
        {"concealed": 1, "tsumo": 1},
    ),
    ("the same on a discard", "23m456p789s11122z", "4m", {}, {"concealed": 1}),
    # 6: 报听 of an open hand is worth nothing; 天听 replaces 门清报听
    ("declared open hand", "234m456p78s22z [123p]", "9s", {"declared": True}, {"plain_win": 1}),
    (
        "double riichi alone",
        "234m456p789s1122z",
        "1z",
        {"declared": True, "declared_first": True},
        {"concealed": 1, "double_riichi": 2},
    ),
    # 7: pinfu needs a suited pair and a two-sided wait; open hands too
    ("no pinfu on an honor pair", "234567m23p456p11z", "1p", {}, {"concealed": 1}),
    ("no pinfu on a closed wait", "234567m13p456p77s", "2p", {}, {"concealed": 1}),
    ("no pinfu on an edge wait", "234567m12p456p77s", "3p", {}, {"concealed": 1}),
    ("pinfu concealed", "234567m23p456p77s", "1p", {}, {"concealed": 1, "pinfu": 1}),
    # 9: two face-up flower tiles of one kind make its tiles worth 2 each
    ("two flowers of a kind", "234m456p78s22z [123p]", "9s", {"flowers": "9s9s"}, {"flower": 2}),
    # 11: three identical sequences are 一杯口, four are 两杯口
    ("three equal sequences", "123123m456p5s [123m]", "5s", {}, {"iipeikou": 2}),
    ("four equal sequences", "123123m12m55z [123m]", "3m", {}, {"chanta": 3, "honitsu": 3, "ryanpeikou": 4}),
    # ... concealed: 123 x 4 (11) beats the seven pairs with the four 3m (dragon_seven_pairs, honitsu,
    # concealed: 10) and 111 222 333 123 with the 3m on the edge (sanankou, sanrenkou, ...: 9)
    (
        "four equal sequences, concealed",
        "123123123m12m55z",
        "3m",
        {},
        {**C, "chanta": 3, "honitsu": 3, "ryanpeikou": 4},
    ),
    # 13: a triplet completed by a discard counts as exposed; self-drawn it is concealed
    ("discard triplet is exposed", "111m333p55s789m22z", "5s", {}, {"concealed": 1}),
    (
        "self-drawn triplet is concealed",
        "111m333p55s789m22z",
        "5s",
        SD,
        {"concealed": 1, "tsumo": 1, "sanankou": 2},
    ),
    (
        "four concealed, one from a discard",
        "111222333m77p55z",
        "5z",
        {},
        {"concealed": 1, "toitoi": 2, "sanankou": 2, "sanrenkou": 3},
    ),
    ("four concealed, self-drawn", "111222333m77p55z", "7p", SD, {"suuankou": 13}),
    # 14, 15: 混老头 with 碰碰胡 and 混全带幺
    (
        "honroutou with toitoi and chanta",
        "111m999p11s99s [111z]",
        "1s",
        {},
        {"toitoi": 2, "honroutou": 2, "chanta": 3},
    ),
    # 19: 龙七对 only when the winning tile completes the four
    ("four held, won elsewhere", "1111m255p7799s11z", "2p", {}, {"concealed": 1, "chiitoitsu": 3}),
    # 20: seven pairs of honors is no 字一色
    ("seven pairs of honors", "1122334455667z", "7z", {}, {"concealed": 1, "chiitoitsu": 3}),
    # 22: nine gates not waiting on all nine is no limit hand
    ("impure nine gates", "1112345678899m", "9m", {}, {"concealed": 1, "chinitsu": 5}),
    ("nine gates on a discard", "1112345678999p", "9p", {}, {"chuuren": 13}),
    # 23: 百万石 needs 100 (678 777 888 999 with 44 is 101, with 33 it is 99); the text's 130 is
    # four kongs 9999 8888 7777 6666 with 55 (四杠子 and 四连刻 as well)
    ("hyakumangoku at 99", "678m777m3m [888m] [999m]", "3m", {}, {"sanrenkou": 3, "chinitsu": 5}),
    (
        "hyakumangoku at 130",
        "5m [9999m] [8888m] [7777m] [6666m]",
        "5m",
        {},
        {**L("suukantsu", "suurenkou"), **HM},
    ),
    # 2: several limit hands count once
    ("three limit hands", "777888999m666m5m", "5m", {}, {**L("suuankou", "suurenkou"), **HM}),
    (
        "tohoku needs the other wind as the pair",
        "123456789s111z3z",
        "3z",
        {},
        {"concealed": 1, "ittsu": 2, "honitsu": 3},
    ),
    ("orphans on a single wait", "19m19p19s1234566z", "7z", {}, {"kokushi": 13}),
]


@pytest.mark.parametrize("name, hand, tile, how, fans", READING_CASES, ids=[c[0] for c in READING_CASES])
def test_readings(name, hand, tile, how, fans):
    flowers = "flowers" in how
    rules = RuleSet(family="two_player", flower_tiles=2) if flowers else TWO
    assert win(hand, tile, rules, **how).fans == fans
    kinds = tuple(R.RB.tile_kind(f) for f in ("9s", "9s")) if flowers else ()
    kw = {k: v for k, v in how.items() if k != "flowers"}
    assert (
        R.score_notation(hand, tile, **{"self_draw": False, **kw}, flowers=kinds, flower_tiles=2).fans == fans
    )


@pytest.mark.parametrize(
    "hand, tile, how, wait",
    [
        # 平和: 78 beside the pair 99, not 789 with a single wait on 9 (the 13 tiles' tie order)
        ("123p7899s [345m] [678p]", "9s", {"self_draw": True}, "two_sided"),
        ("123p789s5m [345m] [678p]", "5m", {}, "single"),
        ("123p789s99s34m [567m]", "2m", {}, "two_sided"),
        ("123p789s99s35m [567m]", "4m", {}, "kanchan"),
        ("123p789s99s12m [567m]", "3m", {}, "edge"),
        ("123p789s99s55m [567m]", "5m", {}, "dual_pair"),
        ("1133m2255p7799s1z", "1z", {}, "single"),
    ],
)
def test_the_wait_kind_is_the_scored_splits(hand, tile, how, wait):
    assert win(hand, tile, **how).wait_kind == wait


def test_open_pinfu_flag():
    closed = RuleSet(family="two_player", open_pinfu=False)
    assert win("234m456p78s55p [123s]", "9s", closed).fans == {"plain_win": 1}
    assert win("234567m23p456p77s", "1p", closed).fans == {"concealed": 1, "pinfu": 1}


def test_the_cap_and_the_value():
    capped = RuleSet(family="two_player", limit_fans=8)
    w = win("111122223333m4m", "4m", capped)
    assert w.total_fans == 8 and sum(w.fans.values()) == 11  # the fans listed, F at the cap
    assert win("1112345678999m", "5m", capped).fans == {"chuuren": 8}
    room = RuleSet(family="two_player", multiplier=5, points_per_fan=10)
    assert win("123m123m456p789s5s", "5s", room).value == 3 * 5 * 1 * 10  # the text's example: 150
    assert win("123m123m456p789s5s", "5s", room, match_game=2).value == 150 * 4
    flat = RuleSet(family="two_player", multiplier=5, points_per_fan=10, match_doubling=False)
    assert win("123m123m456p789s5s", "5s", flat, match_game=2).value == 150


def test_the_worked_examples_of_the_docs():
    table = DOC.read_text(encoding="utf-8").split("## Worked examples")[1].split("## Rule flags")[0]
    rows = [
        [c.strip() for c in line.strip("|").split("|")]
        for line in table.splitlines()
        if line.startswith("| `")
    ]
    assert len(rows) >= 15
    for hand, tile, how, fans, total in rows:
        kw: dict = {}
        for part in how.split(", "):
            if part == "self-draw":
                kw["self_draw"] = True
            elif part.startswith("flower "):
                kw["flowers"] = part.split()[1]
            elif part != "discard":
                kw[{"declared": "declared", "kong replacement": "kong_replacement"}[part]] = True
        w = win(hand.strip("`"), tile, **kw)
        listed = {n: int(f) for n, f in (p.split() for p in fans.split(", "))}
        assert (w.fans, w.total_fans) == (listed, int(total)), hand


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "hand, tile, how, match",
    [
        (
            "234m456p789s1122z",
            "1z",
            {"self_draw": True, "last_discard": True},
            "last_discard is a win on the opponent's tile",
        ),
        ("234m456p2233z (7777s)", "3z", {"kong_replacement": True}, "kong_replacement is a self-draw"),
        ("234m456p789s1122z", "1z", {"last_discard": True, "robbed_kong": True}, "two different tiles"),
        ("234m456p789s1122z", "1z", {"self_draw": True, "last_tile": True, "extra_draw": True}, "pass one"),
        (
            "234m456p789s1122z",
            "1z",
            {"self_draw": True, "tenhou": True, "declared": True},
            "tenhou is a win at the first turn",
        ),
        ("234m456p78s22z [123p]", "9s", {"chiihou": True}, "before any meld"),
        ("234m456p78s22z [123p]", "9s", {"declared_first": True}, "comes before any chi, peng or kong"),
        (
            "234m456p2233z (7777s)",
            "3z",
            {"self_draw": True, "declared": True, "kong_replacement": True},
            "locked",
        ),
        ("234m456p789s1122z", "1z", {"self_draw": True, "kong_replacement": True}, "needs a kong"),
        ("234m456p789s1122z", "1z", {"flowers": "1z5z"}, "2 flower tiles given, but flower_tiles=1"),
        ("234m456p789s2z (1111z)", "2z", {"flowers": "1z"}, "5 copies of 东 with the face-up flower"),
        ("234m456p789s1122z", "1z", {"match_game": -1}, "match_game=-1 is too small"),
        ("234m456p789s1122z", "1z", {"match_game": 41}, "match_game=41 is too large"),
        ("234m456p789s1122z", "1z", {"bao": "1z"}, "Two-player has no bao"),
        ("234m456p789s1122z", "3z", {}, "3z|西 does not complete"),
        ("234m456p789s1122z", "8z", {}, "is not a tile"),
        ("234m456p789s1122z", "1z", {"declared": 1}, "declared must be True or False"),
    ],
)
def test_score_win_errors_are_one_line(hand, tile, how, match):
    with pytest.raises(ValueError, match=match) as info:
        win(hand, tile, **how)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(family="beijing")], ids=["daqing", "beijing"])
@pytest.mark.parametrize(
    "how", [{"extra_draw": True, "self_draw": True}, {"declared": True}, {"flowers": "5m"}]
)
def test_two_player_ways_of_winning_elsewhere_are_errors(rules, how):
    with pytest.raises(ValueError, match="is a two-player way of winning") as info:
        ds.score_win("234m456p678s2233m", "3m", rules=rules, **{"self_draw": False, **how})
    assert "\n" not in str(info.value)


def test_engine_entry_points_refuse_two_player(tmp_path):
    # advise rates two-player hands (tests/test_advisor_families.py)
    assert ds.advise("123m456p789s11m22z3z", rules=TWO, k=1).iloc[0]["recommended"]
    path = tmp_path / "two.toml"
    text = 'name = "two"\nn_deals = 100\nseed = 1\n\n[rules]\nfamily = "two_player"\n\n'
    path.write_text(text + '[[variants]]\nname = "base"\n', encoding="utf-8")
    # experiment files and DealEnv play the family (tests/test_experiment_two_player.py,
    # tests/test_two_player_env.py)
    assert ds.load_experiment(path).variants[0].strategies == ("expert", "expert")


# ---------------------------------------------------------------- shanten, waits, analysis, CLI


@pytest.mark.parametrize(
    "hand, shanten, waits",
    [
        ("19m19p19s1234567z", 0, "19m19p19s1234567z"),  # thirteen-sided
        ("19m19p19s1234566z", 0, "7z"),
        ("19m19p19s1234556z", 0, "7z"),
        ("19m19p19s1234555z", 1, ""),  # 11 kinds and a pair: two tiles short
        ("19m19p18s1234567z", 1, ""),  # 12 kinds, no pair
        ("1133m2255p7799s1z", 0, "1z"),  # seven pairs, as Beijing
        ("234m456p678s2233z", 0, "23z"),
    ],
)
def test_shanten_and_waits(hand, shanten, waits):
    a = ds.analyze_hand(hand, rules=TWO)
    want = [t for t, n in enumerate(R.RB.parse(waits)[0]) if n] if waits else []
    assert (a.shanten, sorted(w.tile_kind for w in a.waits)) == (shanten, want)
    counts, melds = R.RB.parse(hand)
    assert (R.shanten(counts, melds), R.wait_set(counts, melds)) == (shanten, want)


def test_a_winning_14_tile_hand():
    a = ds.analyze_hand("19m19p19s1234567z 1m", rules=TWO)
    assert a.is_win and a.shanten == -1 and a.win.kind == "single"
    assert not ds.analyze_hand("19m19p19s1234567z 2m", rules=TWO).is_win
    assert [str(w) for w in ds.wait_set("19m19p19s1234566z", rules=TWO)] == ["中:single"]


def test_the_hand_command(capsys):
    assert main(["hand", "123m123m456p789s5s5s", "--rules", "family=two_player"]) == 0
    out = capsys.readouterr().out
    assert "(Two-player)" in out
    assert "on a discard:     {'concealed': 1, 'iipeikou': 2} = 3 fan(s), value 3" in out
    assert "self-drawn:       {'concealed': 1, 'tsumo': 1, 'iipeikou': 2} = 4 fan(s), value 4" in out
    assert main(["hand", "123m456p789s11m22z", "--rules", "family=two_player,burn_dealer=0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "burn_dealer is a Beijing flag, not a two-player one" in err


# ---------------------------------------------------------------- walls


def test_two_player_walls():
    walls, bao, seeds = ds.generate_walls(4000, seed=3, start=4000, family="two_player")
    assert walls.shape == (4000, 78) and walls.dtype == np.uint8 and bao == -1 and seeds.shape == (4000,)
    per_row = np.stack([np.bincount(w, minlength=34) for w in walls])
    assert per_row.max() == 4 and per_row.sum(axis=1).tolist() == [78] * 4000
    # a uniform 78 of the 136: each kind 78 / 34 times a row on average, the flower slot too
    assert abs(per_row.mean() - 78 / 34) < 1e-9 and np.ptp(per_row.mean(axis=0)) < 0.12
    assert np.ptp(np.bincount(walls[:, 74], minlength=34)) < 80
    # split into chunks the same; a stream of its own (not Beijing's first 78)
    again, _, seeds2 = ds.generate_walls(5, seed=3, start=4100, family="two_player")
    assert np.array_equal(again, walls[100:105]) and np.array_equal(seeds2, seeds[100:105])
    beijing = ds.generate_walls(5, seed=3, start=4100, family="beijing")[0]
    assert not np.array_equal(beijing[:, :78], again)
