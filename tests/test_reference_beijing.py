"""Checks of the plain-Python Beijing reference itself (tests/reference_beijing.py): the worked
examples of the rules page, hand-worked shapes and waits, and the reference against itself
(direct wait sets = trying all 34 kinds). No numba, no ``daqing_sim``."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
import reference_beijing as R
from beijing_gen import BeijingGen

EXAMPLES = Path(__file__).parent / "data" / "beijing_examples.csv"


def _rows() -> list[dict[str, str]]:
    with EXAMPLES.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_examples_file_has_every_fan_type_of_the_page():
    rows = _rows()
    assert len(rows) == 12
    seen = {p.split("=")[0] for r in rows for p in r["fans"].split(";")}
    assert seen == set(R.DEFAULT_FANS)


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r["case"])
def test_reference_reproduces_the_worked_examples(row):
    flags = {k: row[k] == "True" for k in ("self_draw", "last_tile", "last_discard", "kong_replacement")}
    s = R.score_notation(row["hand"], row["win_tile"], **flags)
    expected = {k: int(v) for k, v in (p.split("=") for p in row["fans"].split(";"))}
    assert (s.fans, s.total_fans, s.value) == (expected, int(row["total_fans"]), int(row["value"]))


# ---------------------------------------------------------------- notation


def test_honors_as_characters_and_as_z_digits_are_the_same_tiles():
    assert R.parse("东南西北白发中") == R.parse("1234567z")
    assert R.parse("C")[0] == R.parse("7z")[0] == R.parse("中")[0]
    assert [R.tile_kind(n) for n in ("1z", "2z", "3z", "4z", "5z", "6z", "7z")] == [
        28,
        29,
        30,
        31,
        32,
        33,
        27,
    ]
    assert R.tile_kind("5m") == 4 and R.tile_kind("1p") == 9 and R.tile_kind("9s") == 26


@pytest.mark.parametrize(
    "text, melds",
    [
        ("5z [123m] [777s] [456p] [2222s]", [("chi", 0), ("peng", 24), ("chi", 12), ("kong", 19)]),
        ("234m456p2233z (7777s)", [("concealed_kong", 24)]),
        ("11m [东东东]", [("peng", 28)]),
    ],
)
def test_melds_are_read_by_their_brackets(text, melds):
    assert R.parse(text)[1] == melds


@pytest.mark.parametrize("text", ["11111m", "1111m [111m]", "8z", "[124m]", "(111m)", "12x"])
def test_bad_notation_is_an_error(text):
    with pytest.raises(ValueError):
        R.parse(text)


def test_notation_round_trips_on_random_cases():
    for c in BeijingGen(5).cases(500):
        for honors in ("z", "char"):
            counts, melds = R.parse(c.hand(honors))
            assert (tuple(counts), tuple(melds)) == (c.counts, c.melds)


# ---------------------------------------------------------------- shapes and waits


def test_every_split_is_found_once():
    # 111222333m: three triplets or three 123 sequences
    counts, melds = R.parse("111222333m456p77z")
    assert len(R.standard_splits(counts, 4)) == 2
    # 22334455667788s: pair 22, 55 or 88 with four sequences, and seven pairs
    s = R.score_notation("2233445566778s", "8s", self_draw=False)
    assert s.splits == 4
    assert s.fans == {"one_suit": 6, "seven_pairs": 4}  # 10 beats one_suit alone (6)
    # 1111 2222 3333 44m: pair 44 with 123 x4 or 111 222 333 123; pair 11 with 123 123 234 234
    counts, _ = R.parse("11112222333344m")
    splits = set(R.standard_splits(counts, 4))
    assert splits == {
        (3, (("S", 0),) * 4),
        (3, (("T", 0), ("S", 0), ("T", 1), ("T", 2))),
        (0, (("S", 0), ("S", 0), ("S", 1), ("S", 1))),
    }


@pytest.mark.parametrize(
    "hand, waits",
    [
        ("1112345678999m", "123456789m"),  # nine gates
        ("123m456p789s1122z", "12z"),  # shanpon
        ("1133m2255p7799s1z", "1z"),  # seven pairs
        ("11113355m2255p7z", "7z"),  # luxury: the four 1m are two pairs
        ("4556m123p456p789p", "5m"),
        ("5555z123m456p789s", ""),  # the fifth 5z does not exist
        ("5z [123m] [777s] [456p] [2222s]", "5z"),
        ("46m123789p456s77z", "5m"),
        ("2345678m", None),  # not 13 tiles
    ],
)
def test_wait_sets_by_hand(hand, waits):
    counts, melds = R.parse(hand)
    if waits is None:
        with pytest.raises(ValueError):
            R.wait_set(counts, melds)
        return
    expected = [t for t, n in enumerate(R.parse(waits)[0]) if n]
    assert R.wait_set(counts, melds) == expected == R.wait_set_brute(counts, melds)


def _perturbed_13(rng: random.Random, counts, melds):
    """A 13-tile hand near a winning one: one concealed tile swapped for another kind."""
    c = list(counts)
    total = R.total_counts(c, melds)
    out = rng.choice([t for t in range(R.N_KINDS) if c[t]])
    into = rng.choice([t for t in range(R.N_KINDS) if total[t] < 4 and t != out])
    c[out] -= 1
    c[into] += 1
    return c


def test_direct_wait_set_equals_trying_all_34_kinds():
    rng = random.Random(11)
    n_ready = 0
    for case in BeijingGen(7).cases(3000):
        melds = list(case.melds)
        for counts in (list(case.counts), _perturbed_13(rng, case.counts, melds)):
            direct = R.wait_set(counts, melds)
            assert direct == R.wait_set_brute(counts, melds), R.notation(counts, melds)
            n_ready += bool(direct)
    assert n_ready > 3000  # every unperturbed case is ready, and some perturbed ones


def test_generated_cases_are_wins_within_four_copies():
    cases = BeijingGen(3).cases(2000)
    assert {c.shape for c in cases} == set(__import__("beijing_gen").SHAPES)
    for c in cases:
        total = R.total_counts(list(c.counts), list(c.melds))
        assert max(total) <= 4 and total[c.win_tile] < 4
        assert c.win_tile in R.wait_set(list(c.counts), list(c.melds))
        assert sum(c.counts) + 3 * len(c.melds) == 13
        assert not (c.robbed_kong and c.self_draw) and not (c.kong_replacement and not c.self_draw)
    assert BeijingGen(3).cases(50) == cases[:50]  # seeded


# ---------------------------------------------------------------- fans and value


@pytest.mark.parametrize(
    "hand, win, flags, fans, value",
    [
        ("111222333m777p5z", "5z", {}, {"all_triplets": 2}, 2000),  # the split worth most
        ("123456789p555s5m", "5m", {}, {"catch_five": 2, "dragon": 3}, 5000),  # single on 5m
        ("34m123789p456s77z", "5m", {}, {"plain_win": 1}, 1000),  # 2m-5m: not the only tile
        ("5z [123m] [777s] [456p] (2222s)", "5z", {}, {"plain_win": 1}, 500),  # a concealed kong
        ("123456789m1z [123p]", "1z", {}, {"dragon": 3}, 1500),
        ("1234566m789s [789m]", "6m", {}, {"dragon": 3}, 1500),  # the chi completes the dragon
        ("234m456p678s2233z", "3z", {"robbed_kong": True}, {"plain_win": 1}, 1000),
        (
            "234m456p2233z [7777s]",
            "3z",
            {"self_draw": True, "kong_replacement": True},
            {"kong_bloom": 5},
            2500,
        ),
        (
            "2233z [111m] [999p] [4444s]",
            "3z",
            {"self_draw": True, "last_tile": True},
            {"all_triplets": 2, "last_tile": 2},
            2000,
        ),
        ("3z [111m] [999p] [4444s] [777z]", "3z", {}, {"all_triplets": 2, "big_single_wait": 2}, 2000),
    ],
)
def test_fans_worked_by_hand(hand, win, flags, fans, value):
    s = R.score_notation(hand, win, **{"self_draw": False, **flags})
    assert (s.fans, s.total_fans, s.value) == (fans, sum(fans.values()), value)


def test_catch_five_on_seven_pairs_and_on_both_roles():
    # seven pairs waiting on 5m alone: the pair is the single wait
    s = R.score_notation("1133m2255p7799s5m", "5m", self_draw=False)
    assert s.fans == {"catch_five": 2, "seven_pairs": 4}
    # 4556m: 456 + 5 (single) and 46 + 55 (kanchan): 5m is the only tile either way
    s = R.score_notation("4556m123p456p789p", "5m", self_draw=False)
    assert (s.fans, s.splits) == ({"catch_five": 2, "dragon": 3}, 1)
    # a 5m pair that is half of a shanpon (5m or 7p) is not the only tile
    s = R.score_notation("55m77p123s456s789s", "5m", self_draw=False)
    assert s.fans == {"dragon": 3}


def test_fan_values_and_double_combination():
    s = R.score_notation("1133m2255p7799s1z", "1z", self_draw=False, fan_combine="double")
    assert s.value == 1000 * 2 ** (4 - 1)
    s = R.score_notation("1133m2255p7799s1z", "1z", self_draw=False, fan_values={"seven_pairs": 3})
    assert (s.fans, s.value) == ({"seven_pairs": 3}, 3000)
    s = R.score_notation("234m456p678s2233z", "3z", self_draw=False, base_points=800, open_hand_factor=0.25)
    assert s.value == 800
    with pytest.raises(ValueError, match="fan_combine"):
        R.score_notation("234m456p678s2233z", "3z", self_draw=False, fan_combine="max")


@pytest.mark.parametrize(
    "hand, win, kw",
    [
        ("234m456p678s2233z", "4z", {}),  # does not complete
        ("234m456p678s2233z", "3z", {"robbed_kong": True, "self_draw": True}),
        ("234m456p678s2233z", "3z", {"last_tile": True}),  # 海底捞月 is a self-draw
        ("234m456p2233z [7777s]", "3z", {"kong_replacement": True}),
        ("234m456p678s2233z", "3z", {"self_draw": True, "last_discard": True}),
        ("234m456p678s2233z", "3z", {"robbed_kong": True, "last_discard": True}),
        ("234m456p678s223z", "3z", {}),  # 12 tiles
    ],
)
def test_score_errors(hand, win, kw):
    with pytest.raises(ValueError):
        R.score_notation(hand, win, **{"self_draw": False, **kw})


def test_robbing_a_concealed_kong_needs_a_dragon():
    counts, melds = R.parse("123456789m11z23p")  # 4p wins with 123 456 789m
    assert R.may_rob_concealed_kong(counts, melds, R.tile_kind("4p"))
    assert R.may_rob_concealed_kong(counts, melds, R.tile_kind("1p"))
    counts, melds = R.parse("234567789m11z23p")  # 4p wins, but as 234 567 789m
    assert R.tile_kind("4p") in R.wait_set(counts, melds)
    assert not R.may_rob_concealed_kong(counts, melds, R.tile_kind("4p"))
    assert not R.may_rob_concealed_kong(*R.parse("123456789m11z23p"), R.tile_kind("5p"))


# ---------------------------------------------------------------- payments


@pytest.mark.parametrize(
    "kw, expected",
    [
        ({"self_draw": False, "discarder": 2}, [1000, 0, -1000, 0]),
        ({"self_draw": True}, [3000, -1000, -1000, -1000]),
        ({"self_draw": False, "robbed_from": 3}, [3000, 0, 0, -3000]),
        ({"self_draw": False, "discarder": 2, "bound_partner": 1}, [1000, -1000, 0, 0]),
        ({"self_draw": True, "bound_partner": 1}, [3000, -3000, 0, 0]),
        ({"self_draw": False, "robbed_from": 3, "bound_partner": 1}, [3000, -3000, 0, 0]),
    ],
)
def test_payments(kw, expected):
    assert R.payments(1000, 0, **kw) == expected
    assert sum(expected) == 0


@pytest.mark.parametrize(
    "kw",
    [
        {"self_draw": True, "discarder": 1},
        {"self_draw": False},
        {"self_draw": False, "discarder": 0},
        {"self_draw": True, "robbed_from": 1},
        {"self_draw": True, "bound_partner": 0},
    ],
)
def test_payment_errors(kw):
    with pytest.raises(ValueError):
        R.payments(1000, 0, **kw)


def test_burn_payments():
    assert R.burn_payments(1, dealer=0) == [-3000, 1000, 1000, 1000]
    assert R.burn_payments(2, dealer=1) == [3000, -9000, 3000, 3000]  # 1,000 then 2,000 more each
    assert R.burn_payments(3, dealer=0, drawn=True) == [0, 0, 0, 0]


def test_splits_suit_by_suit_equal_one_search_over_all_kinds():
    rng = random.Random(13)
    for case in BeijingGen(17).cases(3000):
        counts = list(case.counts)
        counts[case.win_tile] += 1
        for c in (counts, _perturbed_13(rng, counts, list(case.melds))):
            n = 4 - len(case.melds)
            assert sorted(R.standard_splits(c, n)) == sorted(R.standard_splits_generic(c, n)), R.notation(c)


HOW = {
    "discard": {},
    "the last discard": {"last_discard": True},
    "self-drawn last tile": {"self_draw": True, "last_tile": True},
    "self-draw": {"self_draw": True},
    "kong replacement": {"self_draw": True, "kong_replacement": True},
}


def test_the_worked_examples_of_docs_rules_beijing_are_the_csv_rows_and_right():
    doc = (Path(__file__).parents[1] / "docs" / "RULES_BEIJING.md").read_text(encoding="utf-8")
    table = doc.split("### Worked examples")[1].split("## Payments")[0]
    rows = [
        [c.strip() for c in line.strip("|").split("|")]
        for line in table.splitlines()
        if line.startswith("| `")
    ]
    assert len(rows) == 11
    csv_rows = {(r["hand"], r["win_tile"]): r for r in _rows()}
    for hand, win, how, fans, total, value in rows:
        hand = hand.strip("`")
        s = R.score_notation(hand, win, **{"self_draw": False, **HOW[how]})
        listed = {n: int(f) for n, f in (p.split() for p in fans.split(", "))}
        assert (s.fans, s.total_fans, s.value) == (listed, int(total), int(value.replace(",", "")))
        assert (hand, win) in csv_rows


def test_docs_rules_beijing_lists_every_flag_of_the_page():
    doc = (Path(__file__).parents[1] / "docs" / "RULES_BEIJING.md").read_text(encoding="utf-8")
    flags = doc.split("## Rule flags")[1].split("## Readings")[0]
    for name, default in [
        ("multiple_winners", "false"),
        ("rob_added_kong", "true"),
        ("rob_concealed_kong_with_dragon", "true"),
        ("fan_combine", '"add"'),
        ("base_points", "1000"),
        ("open_hand_factor", "0.5"),
        ("mutual_bao", "true"),
        ("burn_dealer", "true"),
        ("burn_points", "1000"),
        ("dead_wall_tiles", "14"),
    ]:
        assert f"| `{name}` | `{default}` |" in flags
    for name, fans in R.DEFAULT_FANS.items():
        assert f"`fans_{name}={fans}`" in flags


# ---------------------------------------------------------------- shanten


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("234m456p678s2233z", 0),
        ("234m456p678s2235z", 1),
        ("1133m2255p7799s1z", 0),  # seven pairs
        ("1133m2255p779s12z", 1),  # five pairs and three singles: one exchange from seven pairs
        ("11113355m2255p7z", 0),  # a four is two pairs
        ("1112345678999m", 0),
        ("5z [123m] [777s] [456p] [2222s]", 0),
        ("5555z123m456p789s", 1),  # ready only on a fifth 5z: not ready
        ("147m258p369s1234z", 6),  # seven singles from seven pairs' six
        ("159m159p159s1234z", 6),
        ("234m456p678s22333z", -1),
        ("1133m2255p7799s11z", -1),
        ("234m456p2233z (7777s) 4z", 0),  # 14 tiles: throw 4z
    ],
)
def test_shanten_by_hand(hand, expected):
    assert R.shanten(*R.parse(hand)) == expected


def _random_deal(rng: random.Random, n: int) -> list[int]:
    wall = [t for t in range(R.N_KINDS) for _ in range(4)]
    rng.shuffle(wall)
    counts = [0] * R.N_KINDS
    for t in wall[:n]:
        counts[t] += 1
    return counts


def _exchanges(counts, melds):
    total = R.total_counts(counts, melds)
    for x in range(R.N_KINDS):
        if counts[x]:
            for y in range(R.N_KINDS):
                if y != x and total[y] < 4:
                    c = list(counts)
                    c[x] -= 1
                    c[y] += 1
                    yield c


def test_shanten_is_one_exchange_from_the_next():
    """By induction this pins shanten down: 0 exactly when the wait set is not empty, and from
    s >= 1 the best exchange of one tile reaches s - 1 and none goes further."""
    rng = random.Random(23)
    hands = [(_random_deal(rng, 13), []) for _ in range(12)]
    for case in BeijingGen(29).cases(8):
        melds = list(case.melds)
        c = _perturbed_13(rng, case.counts, melds)
        hands.append((_perturbed_13(rng, c, melds), melds))
    for counts, melds in hands:
        s = R.shanten(counts, melds)
        assert (s == 0) == bool(R.wait_set(counts, melds)), R.notation(counts, melds)
        if s >= 1:
            assert min(R.shanten(c, melds) for c in _exchanges(counts, melds)) == s - 1


def test_shanten_of_generated_wins():
    for case in BeijingGen(31).cases(400):
        counts, melds = list(case.counts), list(case.melds)
        assert R.shanten(counts, melds) == 0
        counts[case.win_tile] += 1
        assert R.shanten(counts, melds) == -1


# ---------------------------------------------------------------- deal rules


def test_wall_end():
    assert [R.wall_end_tiles(k) for k in range(4)] == [14, 14, 16, 18]
    assert R.wall_end_tiles(2, dead_wall_tiles=10) == 12


def test_bindings_form_at_the_third_claim_from_one_seat():
    claims = [(1, 0), (2, 1), (1, 0), (3, 2), (2, 1), (1, 0), (2, 1), (0, 1)]
    assert R.bindings(claims[:5]) == []
    assert R.bindings(claims[:6]) == [(0, 1)]  # seat 1's third claim from seat 0
    assert R.bindings(claims) == [(0, 1), (1, 2)]
    assert R.bound_partner(1, R.bindings(claims)) == 0  # the first binding it is in
    assert R.bound_partner(2, R.bindings(claims)) == 1
    assert R.bound_partner(3, R.bindings(claims)) is None
    assert R.bindings([(1, 0), (0, 1), (1, 0), (0, 1)]) == []  # two each way is not three
    with pytest.raises(ValueError):
        R.bindings([(2, 2)])


@pytest.mark.parametrize(
    "hand, tile, from_left, last, expected",
    [
        ("234m456p678s2233z", "3z", True, False, {"win": True, "peng": True, "kong": False, "chi": []}),
        ("3444m56p789s2233z", "4m", True, False, {"win": False, "peng": True, "kong": True, "chi": []}),
        ("3444m56p789s2233z", "2m", True, False, {"win": False, "peng": False, "kong": False, "chi": [1]}),
        ("3444m56p789s2233z", "5m", True, False, {"win": False, "peng": False, "kong": False, "chi": [2]}),
        ("3444m56p789s2233z", "5m", False, False, {"win": False, "peng": False, "kong": False, "chi": []}),
        ("3444m56p789s2233z", "4p", True, False, {"win": False, "peng": False, "kong": False, "chi": [12]}),
        ("3444m56p789s2233z", "7p", True, False, {"win": False, "peng": False, "kong": False, "chi": [13]}),
        ("3444m56p789s2233z", "4m", True, True, {"win": False, "peng": False, "kong": False, "chi": []}),
        ("12m456p789s22333z", "3m", True, True, {"win": True, "peng": False, "kong": False, "chi": []}),
        ("89m456p789s22333z", "1p", True, False, {"win": False, "peng": False, "kong": False, "chi": []}),
    ],
)
def test_claim_options(hand, tile, from_left, last, expected):
    counts, melds = R.parse(hand)
    got = R.claim_options(counts, melds, R.tile_kind(tile), from_left=from_left, last_discard=last)
    assert got == expected


@pytest.mark.parametrize(
    "discarder, answers, seat",
    [
        (0, {1: "chi", 2: "peng"}, 2),  # peng before chi
        (0, {1: "chi", 3: "win"}, 3),
        (0, {2: "win", 3: "win"}, 2),  # 截和: the first after the discarder
        (2, {3: "win", 1: "win"}, 3),
        (3, {0: "chi", 1: "pass"}, 0),
        (1, {2: "pass", 3: "pass", 0: "pass"}, None),
        (1, {3: "kong", 2: "chi"}, 3),
    ],
)
def test_claim_priority(discarder, answers, seat):
    assert R.claim_taken(discarder, answers) == seat


@pytest.mark.parametrize("answers", [{2: "chi"}, {0: "win"}, {1: "ron"}])
def test_bad_claims(answers):
    with pytest.raises(ValueError):
        R.claim_taken(0, answers)


def test_burn_rounds_and_the_wind_obligation():
    east, south = R.tile_kind("东"), R.tile_kind("南")
    assert R.burn_rounds([[east] * 4, [5, 5, 5, 5], [5, 5, 6, 5]]) == 2
    assert R.burn_rounds([[east, east, east, south]]) == 0
    assert R.burn_rounds([]) == 0
    counts, _ = R.parse("123m456p789s11m东南西")
    assert R.must_follow_wind(east, counts, first_discard=True)
    assert not R.must_follow_wind(east, counts, first_discard=False)
    assert not R.must_follow_wind(R.tile_kind("北"), counts, first_discard=True)
    assert not R.must_follow_wind(R.tile_kind("中"), R.parse("123m456p789s11m中中")[0], first_discard=True)
