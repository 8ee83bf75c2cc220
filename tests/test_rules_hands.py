"""Hand-picked hands, one or more per rule of RULES.md, through the public API.

Every expected value was worked out by hand from RULES.md and docs/DECISIONS.md. Waits
are written ``"<tile> <kind>"`` plus ``" big"`` for a 夹 big win.
"""

from __future__ import annotations

import pytest

import daqing_sim as ds
from daqing_sim.hand.notation import Hand, Meld
from daqing_sim.hand.tiles import tile_from_name
from daqing_sim.rules import RuleSet, unrestricted


def waits(text: str | Hand, **flags) -> set[str]:
    return {f"{w.tile} {w.kind}" + (" big" if w.big else "") for w in ds.wait_set(text, RuleSet(**flags))}


def ready(text: str | Hand, **flags) -> bool:
    return ds.analyze_hand(text, RuleSet(**flags)).ready


# ---------------------------------------------------------------- 1 open door (开门)


@pytest.mark.parametrize(
    "text",
    [
        "23m456p111s中中 [345m]",  # chi
        "23m456p111s中中 [777p]",  # peng
        "23m456p111s中中 [7777p]",  # exposed kong
    ],
)
def test_exposed_meld_opens_the_door(text):
    assert waits(text) == {"1m two_sided", "4m two_sided"}
    assert ready(text)


@pytest.mark.parametrize("text", ["23m456p111s中中 (7777p)", "123m23m456p111s中中"])
def test_concealed_hand_is_not_ready(text):
    # RULES: 1 — a concealed kong does not open; the wait set itself is not affected.
    assert waits(text) == {"1m two_sided", "4m two_sided"}
    assert not ready(text)
    assert ready(text, require_open=False)


def test_added_kong_opens_the_door():
    counts = ds.parse_hand("23m456p111s中中", require_full=False).counts
    hand = Hand(counts=counts, melds=(Meld("added_kong", tile_from_name("7p")),))
    assert hand.size == 13
    assert ready(hand)


# ---------------------------------------------------------------- 2 no 手把一


def test_one_concealed_tile_may_not_declare():
    text = "1m [789p] [234m] [111s] [456p]"
    assert waits(text) == {"1m single"}
    assert not ready(text)
    assert ready(text, min_concealed_at_ready=1)


def test_four_concealed_tiles_may_declare():
    text = "1m456p [789p] [234m] [111s]"
    assert waits(text) == {"1m single"}
    assert ready(text)
    assert not ready(text, min_concealed_at_ready=5)


# ---------------------------------------------------------------- 3 terminal (幺九)


def test_no_terminal_no_wait():
    text = "234m456p55s33m [666s]"
    assert waits(text) == set()
    # 3m: 333m + 234m, the 3 in the middle of 234m is kanchan; 5s completes 555s.
    assert waits(text, require_terminal=False) == {"3m kanchan big", "5s dual_pair"}


def test_terminal_in_a_meld_counts():
    assert waits("234m456p55s33m [999s]") == {"3m kanchan big", "5s dual_pair"}


def test_zhong_waives_terminal():
    assert waits("234m456p55s中中 [666s]") == {"5s dual_pair", "中 dual_pair"}


def test_terminal_is_read_on_the_13_tiles_not_the_winning_tile():
    # DECISIONS #2: 1m would bring a terminal, but only as the winning tile.
    text = "23m456p555s33m [678s]"
    assert waits(text) == set()
    # 2m: 22m + 333m.
    assert waits(text, require_terminal=False) == {"1m two_sided", "4m two_sided", "2m single"}
    assert not ds.analyze_hand("23m456p555s33m1m [678s]").is_win


# ---------------------------------------------------------------- 4 triplet (刻) and 对倒


def test_no_triplet_two_sided_wait_is_invalid():
    text = "23m456p789p11s [678s]"
    assert waits(text) == set()
    assert waits(text, require_triplet=False) == {"1m two_sided", "4m two_sided"}


@pytest.mark.parametrize(
    "text",
    [
        "23m456p789p11s [666s]",  # peng
        "23m456p789p11s (6666s)",  # concealed kong counts as a triplet
        "23m456p111s99p [678s]",  # concealed triplet
        "23m456p789p中中 [678s]",  # 中 waives the triplet
    ],
)
def test_triplet_sources(text):
    assert waits(text) == {"1m two_sided", "4m two_sided"}


def test_dual_pair_exception():
    # No triplet: only tiles completing a triplet (对倒) win.
    assert waits("11m99p456p234s [678s]") == {"1m dual_pair", "9p dual_pair"}


def test_dual_pair_exception_excludes_non_triplet_splits():
    # 2m makes 22 + 234 and 5m makes 22 + 345: no split holds a triplet. (Any split that
    # does hold one also holds a sequence here, since every other group is a sequence.)
    text = "2234m456p789p [678s]"
    assert waits(text) == set()
    assert waits(text, require_triplet=False) == {"2m single", "5m two_sided"}


# ---------------------------------------------------------------- 5 four melds + pair only


def test_no_seven_pairs():
    text = "1133m5577p1199s中"
    assert waits(text) == set()
    assert ds.wait_set(text, unrestricted()) == []


# ---------------------------------------------------------------- 6 two suits


def test_one_suit_is_not_a_win():
    assert waits("1112345678999m") == set()
    assert len(waits("1112345678999m", require_two_suits=False)) == 9


def test_zhong_is_no_suit():
    text = "11123m456m中中 [789m]"
    assert waits(text) == set()
    assert waits(text, require_two_suits=False) == {
        "1m dual_pair",  # 111 + 123 + 456
        "4m two_sided",  # 111 + 234 + 456
        "7m two_sided",  # 111 + 234 + 567
        "中 dual_pair",  # 中中中 + 11 + 123 + 456
    }


# ---------------------------------------------------------------- 7 sequence (顺)


def test_sequence_required():
    # 7s would give only triplets and a pair; 6s makes 55s + 567s.
    text = "111m999p555s7s [222m]"
    assert waits(text) == {"6s kanchan big"}
    assert waits(text, require_sequence=False) == {"6s kanchan big", "7s single"}


def test_chi_counts_as_sequence():
    assert waits("111m999p555s7s [234m]") == {"6s kanchan big", "7s single"}


@pytest.mark.parametrize("text", ["111m999p555s77s中中", "111m999p55s77s [中中中]"])
def test_dragon_waives_sequence(text):
    assert waits(text) == set()
    got = waits(text, dragon_waives_sequence=True)
    assert got and all(w.endswith("dual_pair") for w in got)
    assert "7s dual_pair" in got


def test_dragon_waives_sequence_exact_sets():
    assert waits("111m999p555s77s中中", dragon_waives_sequence=True) == {"7s dual_pair", "中 dual_pair"}
    assert waits("111m999p55s77s [中中中]", dragon_waives_sequence=True) == {"5s dual_pair", "7s dual_pair"}


# ---------------------------------------------------------------- wait kinds, tie order, big


@pytest.mark.parametrize(
    "text, flags, expected",
    [
        ("13m456p111s99s [789p]", {}, {"2m kanchan big"}),
        ("12m456p111s99s [789p]", {}, {"3m edge"}),
        ("12m456p111s99s [789p]", {"jia_includes_edge": True}, {"3m edge big"}),
        ("89m456p111s99s [789p]", {}, {"7m edge"}),
        ("89m456p111s99s [789p]", {"jia_includes_edge": True}, {"7m edge big"}),
        ("1m456p [789p] [234m] [111s]", {}, {"1m single"}),
        ("1m456p [789p] [234m] [111s]", {"jia_includes_single": True}, {"1m single big"}),
        ("1m456p [789p] [234m] [111s]", {"jia_includes_edge": True}, {"1m single"}),
        (
            "23m456p111s中中 [345m]",
            {"jia_includes_edge": True, "jia_includes_single": True},
            {"1m two_sided", "4m two_sided"},
        ),
        # tie order: kanchan (234m) beats dual_pair (333m)
        ("234m456p55s33m [999s]", {}, {"3m kanchan big", "5s dual_pair"}),
        # 3m in 123m (edge) or 345m (two-sided): edge wins the tie
        ("12345m456p111s99s", {}, {"3m edge", "6m two_sided"}),
        # 3m in 123m (edge) or the pair 33m (single): edge beats single ...
        ("1233m456p111s789s", {}, {"3m edge"}),
        # ... but a big win comes first
        ("1233m456p111s789s", {"jia_includes_single": True}, {"3m single big"}),
        ("1233m456p111s789s", {"jia_includes_edge": True, "jia_includes_single": True}, {"3m edge big"}),
    ],
)
def test_wait_kinds(text, flags, expected):
    assert waits(text, **flags) == expected


def test_no_fifth_copy():
    # DECISIONS #1: 9s single, but [999s] and the concealed 9s are all four copies.
    assert waits("9s456p123m [999s] [789p]") == set()
    assert waits("8s456p123m [999s] [789p]") == {"8s single"}


# ---------------------------------------------------------------- 14-tile wins


@pytest.mark.parametrize(
    "text, kind",
    [
        # seed 000 和牌的基本牌型 1-4, suits chosen, one group exposed; last tile wins
        ("234m456p777s中中 [678s]", "single"),
        ("55m123p678s444m [234s]", "dual_pair"),  # 44m + 4m: 对倒 completes the triplet
        ("55m234p789s444p [234m]", "dual_pair"),  # 4p: 444p (dual) beats 234p (two-sided)
        ("中中中234m678p88s [567s]", "single"),
        ("34m456p777s中中2m [678s]", "two_sided"),
        ("13m456p111s99s2m [789p]", "kanchan"),
    ],
)
def test_seed_hands_win(text, kind):
    a = ds.analyze_hand(text)
    assert a.is_win
    assert a.win.kind == kind
    assert a.shanten == -1


@pytest.mark.parametrize(
    "text, flags",
    [
        ("23m456p789p11s1m [678s]", {"require_triplet": False}),  # 对倒 only
        ("23m456p555s33m1m [678s]", {"require_terminal": False}),  # terminal only in 1m
        ("1112345678999m5p", {}),  # 5p is no winning tile at all
    ],
)
def test_fourteen_tiles_that_do_not_win(text, flags):
    assert not ds.analyze_hand(text).is_win
    if flags:
        assert ds.analyze_hand(text, RuleSet(**flags)).is_win


def test_winning_tile_is_the_last_written_or_given():
    # Same 14 tiles: on 1m the 13 tiles lack a triplet (对倒 works); on 4p, 5p or 9p they
    # hold 111m and the other roles count.
    text = "11m99p456p234s1m [678s]"
    assert ds.analyze_hand(text).win.kind == "dual_pair"
    assert ds.analyze_hand(text).win_tile == "1m"
    assert ds.analyze_hand(text, win_tile="4p").win.kind == "two_sided"
    assert ds.analyze_hand(text, win_tile="5p").win.kind == "kanchan"  # 111m 99p 46p 234s + 5p
    assert ds.analyze_hand(text, win_tile="9p").win.kind == "single"
    with pytest.raises(ValueError, match="winning tile"):
        ds.analyze_hand(text, win_tile="5m")


# ---------------------------------------------------------------- shanten examples


@pytest.mark.parametrize(
    "text, expected",
    [
        ("23m456p111s中中 [345m]", 0),
        ("1112345678999m", 1),  # one suit: swap any tile for another suit's
        ("23m456p789p11s [678s]", 1),  # no triplet: discard 2m, draw 1s -> 3m single
        ("123456789m1234p", 1),  # no triplet: discard 4p, draw 中 -> 中 single
        ("1111m234p567p789s", 1),  # no fifth 1m: standard shanten is 1 already
    ],
)
def test_daqing_shanten_examples(text, expected):
    assert ds.daqing_shanten(text) == expected


def test_standard_shanten_four_copies():
    # 111m + 1m single would need a fifth 1m.
    assert ds.standard_shanten(ds.parse_hand("1111m234p567p789s").counts) == 1
    assert ds.standard_shanten(ds.parse_hand("1112m234p567p789s").counts) == 0


def test_bad_hands_raise():
    with pytest.raises(ValueError, match="13-tile"):
        ds.wait_set("34m456p777s中中2m [678s]")
    with pytest.raises(ValueError):
        ds.analyze_hand("23m456p111s中 [345m]")


# --- bao drawn by a ready player (RULES: 宝; DECISIONS #9) --------------------------------


@pytest.mark.parametrize(
    "hand, bao, tile, kind, big, bao_kind",
    [
        # the bao is a winning tile itself: face value, 宝中宝 on a kanchan ...
        ("13m456p789s中中 [345m] 2m", "2m", "2m", "kanchan", True, "bao_in_bao"),
        # ... 宝边 on a small wait
        ("23m456p789s中中 [345m] 1m", "1m", "1m", "two_sided", False, "bao_edge"),
        # the bao is not in the wait set: wild (摸宝) for the best-scoring wait
        ("13m456p789s中中 [345m] 9p", "9p", "2m", "kanchan", True, "bao"),
        ("23m456p789s中中 [345m] 9p", "9p", "1m", "two_sided", False, "bao"),
    ],
)
def test_self_drawn_bao(hand, bao, tile, kind, big, bao_kind):
    a = ds.analyze_hand(hand, bao=bao)
    assert a.is_win
    assert (a.win.tile, a.win.kind, a.win.big, a.bao_kind) == (tile, kind, big, bao_kind)


def test_bao_not_drawn_is_a_plain_tile():
    # the drawn 9p is not the bao (7s is): no win, and no bao kind
    a = ds.analyze_hand("13m456p789s中中 [345m] 9p", bao="7s")
    assert a.hand.size == 14 and a.waits
    assert not a.is_win and a.bao_kind == "none"


def test_bao_wild_needs_a_wait_set():
    # 13m456p789s11p [345m] is not ready (no triplet, no 中; the kanchan 2m is no 对倒 win):
    # even the drawn bao does not win
    a = ds.analyze_hand("13m456p789s11p [345m] 9p", bao="9p")
    assert a.hand.size == 14
    assert not a.waits and not a.is_win and a.bao_kind == "none"
