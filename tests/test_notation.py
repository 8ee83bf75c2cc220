"""Hand notation (daqing_sim/notation.py): parsing, formatting, and every error class."""

from __future__ import annotations

import numpy as np
import pytest

from daqing_sim.codes import CHI, CONCEALED_KONG, KONG, PENG, ZHONG
from daqing_sim.hand.notation import Hand, Meld, format_hand, hand_from_arrays, parse_hand
from daqing_sim.hand.tiles import tile_from_name

# (text, canonical form, concealed tile count, meld kinds)
READABLE = [
    ("123m456p789s11m中中", "11123m456p789s中中", 13, ()),
    ("123m456p789s11mCC", "11123m456p789s中中", 13, ()),
    ("中123m456p789s11m中", "11123m456p789s中中", 13, ()),
    ("123m 456p 789s 11m 中中", "11123m456p789s中中", 13, ()),
    ("123m456p789s11m中中7s", "11123m456p7789s中中", 14, ()),
    ("23m456p789s11s中 [345m]", "23m456p11789s中 [345m]", 11, ("chi",)),
    ("3m456p789s11m中中 [345m]", "113m456p789s中中 [345m]", 11, ("chi",)),
    ("1m2m3m 4p5p6p 7s 7s 11m [999s]", "11123m456p77s [999s]", 10, ("peng",)),
    ("12m456p99s [777s] [789m]", "12m456p99s [777s] [789m]", 7, ("peng", "chi")),
    ("11m22p [1111s] [中中中] [789p]", "11m22p [1111s] [中中中] [789p]", 4, ("kong", "peng", "chi")),
    (
        "11m99p中 (2222m) [789s] [CCC]",
        "11m99p中 (2222m) [789s] [中中中]",
        5,
        ("concealed_kong", "chi", "peng"),
    ),
    ("5m [1111m] [2222m] [3333m] [4444m]", "5m [1111m] [2222m] [3333m] [4444m]", 1, ("kong",) * 4),
    (
        "55m (CCCC) [123p] [789p] [456s]",
        "55m (中中中中) [123p] [789p] [456s]",
        2,
        ("concealed_kong", "chi", "chi", "chi"),
    ),
    ("[ 789s ] 1234m 567p9p 1s 中", "1234m5679p1s中 [789s]", 10, ("chi",)),
]


def _same(a: Hand, b: Hand) -> bool:
    return np.array_equal(a.counts, b.counts) and a.melds == b.melds


@pytest.mark.parametrize("text, canonical, n_concealed, kinds", READABLE, ids=[r[0] for r in READABLE])
def test_parse_and_format(text, canonical, n_concealed, kinds):
    hand = parse_hand(text)
    assert hand.n_concealed == n_concealed
    assert tuple(m.kind for m in hand.melds) == kinds
    assert hand.size in (13, 14)
    assert hand.size == n_concealed + 3 * len(kinds)
    assert format_hand(hand) == canonical == str(hand)
    # the canonical form parses back to the same hand and is a fixed point
    again = parse_hand(canonical)
    assert _same(again, hand)
    assert format_hand(again) == canonical


@pytest.mark.parametrize("text, canonical, n_concealed, kinds", READABLE, ids=[r[0] for r in READABLE])
def test_hand_arrays_round_trip(text, canonical, n_concealed, kinds):
    hand = parse_hand(text)
    assert hand.counts.dtype == np.uint8 and hand.counts.shape == (28,)
    mk, mt, n = hand.meld_arrays()
    assert mk.dtype == mt.dtype == np.int8 and mk.shape == mt.shape == (4,)
    assert n == len(kinds)
    back = hand_from_arrays(hand.counts, mk, mt, n)
    assert _same(back, hand)
    assert format_hand(back) == canonical
    total = hand.total_counts()
    assert total.sum() == n_concealed + sum(len(m.tiles) for m in hand.melds)
    assert total.max() <= 4


def test_c_means_zhong():
    assert tile_from_name("C") == ZHONG == tile_from_name("中")
    a = parse_hand("123m456p789s11mCC")
    assert a.counts[ZHONG] == 2
    assert _same(a, parse_hand("123m456p789s11m中中"))
    meld = parse_hand("11m22p [1111s] [CCC] [789p]").melds[1]
    assert meld == Meld("peng", ZHONG)


def test_order_and_last_tile():
    hand = parse_hand("123m456p789s11m中中7s")
    assert hand.last_tile == tile_from_name("7s")
    assert hand.order[0] == tile_from_name("1m")
    assert len(hand.order) == hand.n_concealed
    assert parse_hand("", require_full=False).last_tile is None


def test_meld_codes_and_tiles():
    hand = parse_hand("11m99p中 (2222m) [789s] [CCC]")
    kinds, tiles, n = hand.meld_arrays()
    assert n == 3
    assert kinds[:3].tolist() == [CONCEALED_KONG, CHI, PENG]
    assert tiles[:3].tolist() == [tile_from_name("2m"), tile_from_name("7s"), ZHONG]
    assert [m.exposed for m in hand.melds] == [False, True, True]
    assert Meld("kong", 0).code == KONG
    assert Meld("chi", tile_from_name("7s")).tiles == [24, 25, 26]
    assert Meld("kong", ZHONG).tiles == [ZHONG] * 4


def test_meld_strings():
    assert str(Meld("chi", tile_from_name("4p"))) == "[456p]"
    assert str(Meld("peng", tile_from_name("9s"))) == "[999s]"
    assert str(Meld("kong", tile_from_name("1m"))) == "[1111m]"
    assert str(Meld("concealed_kong", ZHONG)) == "(中中中中)"
    assert str(Meld("added_kong", tile_from_name("3m"))) == "[3333m]"


def test_require_full_false_allows_partial_hands():
    hand = parse_hand("123m", require_full=False)
    assert hand.size == 3
    assert format_hand(hand) == "123m"
    assert format_hand(parse_hand("", require_full=False)) == ""


@pytest.mark.parametrize(
    "text, match",
    [
        # unknown character
        ("123m456p789s11m中中x", r"unknown character 'x'.*m/p/s, 中 or C, or the honors 东南西北白发"),
        ("c23m456p789s111s中", r"unknown character 'c'"),
        ("123m456p789s11m中發", r"unknown character '發'"),
        ("11m [x345m] 456p789s中中", r"unknown character 'x' at meld '\[x345m\]'"),
        ("11m [345z] 456p789s中中", r"西 is not a Daqing tile: Daqing plays m, p, s and 中"),
        ("11m [348z] 456p789s中中", r"'348z' at meld '\[348z\]': honors are 1z-7z"),
        ("0m23m456p789s11m中中", r"rank 0 in '0m'.*ranks are 1-9"),
        # missing suit letter
        ("123m456p789s11中中", r"'11' .*no suit letter.*write m, p or s"),
        ("123m4", r"'4' .*no suit letter"),
        ("1234m567p1s中 [789]", r"'789' at meld '\[789\]' have no suit letter"),
        # fifth copy, also counting copies in melds
        ("11111m23m456p789s中", r"5 copies of 1m in .*: at most 4"),
        ("11m23m456p789s中 [111m]", r"5 copies of 1m"),
        ("123m456p789s11m中 (1111m)", r"7 copies of 1m"),
        ("1p [1111p] [2222p] [3333p] (中中中中)", r"5 copies of 1p.*each tile has four"),
        ("123m456p789s中中中 [中中中]", r"6 copies of 中"),
        # malformed meld
        ("11m [1112m] 23m456p789s", r"\[1112m\] is not a meld.*chi.*peng.*kong"),
        ("11m [12m3p] 456p789s中", r"\[12m3p\] is not a meld"),
        ("11m [9m1p2p] 456p789s中", r"\[9m1p2p\] is not a meld"),
        ("11m [11m] 456p789s中中中", r"\[11m\] is not a meld"),
        ("11m [89m中] 456p789s中", r"is not a meld"),
        ("11m [11111m]", r"is not a meld|copies of 1m"),
        ("[123m) 12m", r"opens with '\[' but closes with '\)'"),
        # concealed non-kong in parentheses
        ("(123m) 123m456p789s1m", r"concealed meld \(123m\) must be a kong"),
        ("(111m) 123m456p789s1p", r"concealed meld \(111m\) must be a kong"),
        # unbalanced brackets
        ("[123m 456p789s11m中", r"unbalanced '\['.*\[345m\] or \(1111m\)"),
        ("123m] 456p789s11m中", r"unbalanced '\]'"),
        ("[[123m]] 456p789s11m", r"unbalanced '\['"),
        ("(1111m 456p789s11m中", r"unbalanced '\('"),
        # wrong tile count, with and without melds
        ("123m456p789s1m", r"10 concealed tiles beside 0 meld\(s\), 10 in all.*13 or 14 concealed"),
        ("123m456p789s11m中中12p", r"15 concealed tiles beside 0 meld.*13 or 14 concealed"),
        ("23m456p789s111s中 [345m]", r"12 concealed tiles beside 1 meld\(s\), 15 in all.*10 or 11 concealed"),
        ("123m456p789s11m中中 [345m] [777s]", r"13 concealed tiles beside 2 meld\(s\).*7 or 8 concealed"),
        ("[1111m] [2222m] [3333m] [4444m]", r"0 concealed tiles beside 4 meld\(s\).*1 or 2 concealed"),
        ("[111m][222m][333m][444m][555m] 66m", r"5 melds.*at most four"),
    ],
)
def test_errors(text, match):
    with pytest.raises(ValueError, match=match):
        parse_hand(text)


def test_fifth_copy_detected_without_full_hand():
    with pytest.raises(ValueError, match="6 copies of 9s"):
        parse_hand("99s (9999s)", require_full=False)


@pytest.mark.parametrize("copies", [256, 257, 260, 512])
def test_count_overflow_is_an_error_naming_the_tile(copies):
    # A uint8 count wraps at 256: 257 copies of 1m once read as one, a normal ready hand.
    text = "1" * copies + "3m456p789s中中 [345m]"
    with pytest.raises(
        ValueError, match=rf"^{copies} copies of 1m in '1111.*\.\.\. \(.* characters\): at most 4"
    ):
        parse_hand(text)


def test_long_input_is_not_echoed_whole():
    text = "123m456p789s11m中中 " + "x" * 60_000
    with pytest.raises(ValueError) as err:
        parse_hand(text)
    assert len(str(err.value)) < 300 and "60,018 characters" in str(err.value)
    with pytest.raises(ValueError) as err:
        parse_hand("1m" * 30_000)
    assert len(str(err.value)) < 300 and "60,000 characters" in str(err.value)


@pytest.mark.parametrize("value", [None, 123, ["123m"], b"123m456p789s11mCC"])
def test_non_string_rejected(value):
    with pytest.raises(ValueError, match="must be a string in hand notation"):
        parse_hand(value)


def test_equal_hands_compare_equal():
    assert parse_hand("123m456p789s11m中中") == parse_hand("11123m456p789s中中")
