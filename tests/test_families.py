"""Rule families: RuleSet(family=...), 34-kind notation, and Beijing hands scored by the kernels.

The Beijing scoring is checked on the worked examples of the rules page (tests/data), on
hand-picked cases (the expected fans worked out by hand from docs/RULES.md), and the kernels'
wait sets against a brute force written here in plain Python (every tile tried, every split
enumerated), which calls none of the hand kernels.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.rules import FAMILY_FLAGS, R_FAMILY, RuleSet

BEIJING = RuleSet(family="beijing")
DATA = Path(__file__).parent / "data"

# The flag table of docs/RULES.md (Beijing), written out: flag -> default.
BEIJING_FLAGS = {
    "multiple_winners": False,
    "rob_added_kong": True,
    "rob_concealed_kong_with_dragon": True,
    "fan_combine": "add",
    "base_points": 1000,
    "open_hand_factor": 0.5,
    "mutual_bao": True,
    "burn_dealer": True,
    "burn_points": 1000,
    "dead_wall_tiles": 14,
    "fans_all_triplets": 2,
    "fans_big_single_wait": 2,
    "fans_catch_five": 2,
    "fans_last_tile": 2,
    "fans_dragon": 3,
    "fans_seven_pairs": 4,
    "fans_kong_bloom": 5,
    "fans_one_suit": 6,
    "fans_luxury_seven_pairs": 8,
    "fans_plain_win": 1,
    "fans_last_discard": 1,
}


def test_beijing_defaults_equal_the_flag_table():
    assert BEIJING.to_dict() == {"family": "beijing", **BEIJING_FLAGS}
    assert BEIJING.changed() == {}
    assert set(FAMILY_FLAGS["beijing"]) == set(BEIJING_FLAGS)
    assert RuleSet().family == "daqing" and "family" not in RuleSet().to_dict()


def test_family_is_encoded_and_daqing_encoding_keeps_its_prefix():
    assert RuleSet().encode()[R_FAMILY] == 0
    assert BEIJING.encode()[R_FAMILY] == 1
    assert RuleSet(family="beijing", fan_combine="double").encode()[R_FAMILY + 4] == 1


@pytest.mark.parametrize(
    "flags, match",
    [
        (
            {"family": "beijing", "kong_fan": True},
            r"kong_fan is a Daqing flag, not a Beijing one; Beijing flags: ",
        ),
        (
            {"burn_dealer": False},
            r"burn_dealer is a Beijing flag, not a Daqing one; Daqing flags: bao_replacement",
        ),
        ({"family": "tianjin"}, r"unknown rule family 'tianjin': use one of daqing, beijing"),
        ({"family": "beijing", "burn": 1}, r"unknown rule flag\(s\) burn; valid flags: multiple_winners"),
        ({"family": "beijing", "fan_combine": "multiply"}, r"fan_combine must be add or double"),
        ({"family": "beijing", "open_hand_factor": 0}, r"open_hand_factor=0 must be in \(0, 1\]"),
        ({"family": "beijing", "multiple_winners": True}, r"one winner per discard"),
        ({"family": "beijing", "base_points": 1001}, r"whole points"),
    ],
)
def test_bad_family_flags_are_one_line_errors(flags, match):
    with pytest.raises(ValueError, match=match) as info:
        RuleSet(**flags)
    assert "\n" not in str(info.value)


def test_family_from_toml_and_flag_strings(tmp_path):
    path = tmp_path / "bj.toml"
    path.write_text('[rules]\nfamily = "beijing"\nburn_dealer = false\n', encoding="utf-8")
    assert RuleSet.from_toml(path) == RuleSet(family="beijing", burn_dealer=False)
    path.write_text('[rules]\nfamily = "beijing"\nkong_fan = true\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"kong_fan is a Daqing flag.* in .*bj\.toml \[rules\]"):
        RuleSet.from_toml(path)
    rules = RuleSet.from_flag_strings(["family=beijing", "fan_combine=double", "open_hand_factor=1"])
    assert rules.changed() == {"fan_combine": "double", "open_hand_factor": 1.0}
    assert repr(rules) == "RuleSet(family='beijing', fan_combine='double', open_hand_factor=1.0)"


# --- notation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, kind",
    [("1z", 28), ("东", 28), ("2z", 29), ("南", 29), ("3z", 30), ("西", 30), ("4z", 31), ("北", 31),
     ("5z", 32), ("白", 32), ("6z", 33), ("发", 33), ("7z", 27), ("中", 27), ("C", 27), ("9s", 26)],
)  # fmt: skip
def test_honor_names(name, kind):
    assert ds.tile_from_name(name) == kind
    assert ds.tile_from_name(ds.tile_name(kind)) == kind


def test_a_daqing_hand_means_the_same_in_both_families():
    text = "123m456p789s11m中中中"
    dq = ds.parse_hand(text)
    bj = ds.parse_hand(text.replace("中", "7z"), family="beijing")
    assert dq.counts.shape == (28,) and bj.counts.shape == (34,)
    assert np.array_equal(bj.counts[:28], dq.counts) and bj.counts[28:].sum() == 0
    assert str(bj) == str(dq)


@pytest.mark.parametrize(
    "text, match",
    [
        ("123m456p789s11m东东东", "东 is not a Daqing tile: Daqing plays m, p, s and 中"),
        ("123m456p789s11m2z2z2z", "南 is not a Daqing tile"),
        ("123m456p789s11m [555z]", "白 is not a Daqing tile"),
    ],
)
def test_honors_of_another_family_are_an_error(text, match):
    with pytest.raises(ValueError, match=match):
        ds.parse_hand(text)


@pytest.mark.parametrize(
    "text, match",
    [
        ("123m456p789s1111z1z", "5 copies of 东"),
        ("123m456p789s11m8z", "honors are 1z-7z"),
        ("123m456p789s11m [123z]", "is not a meld"),
        ("12m456p789s11m东东 [东南西]", "is not a meld"),
    ],
)
def test_bad_beijing_notation(text, match):
    with pytest.raises(ValueError, match=match):
        ds.parse_hand(text, family="beijing")


def test_meld_and_hand_validate_their_input():
    with pytest.raises(ValueError, match="no chi starts at 9s"):
        ds.Meld("chi", 26)
    with pytest.raises(ValueError, match="no chi starts at 中"):
        ds.Meld("chi", 27)
    with pytest.raises(ValueError, match="unknown meld kind 'pong'"):
        ds.Meld("pong", 3)
    with pytest.raises(ValueError, match="out of range"):
        ds.Meld("peng", 34)
    counts = np.zeros(28, dtype=np.uint8)
    counts[0] = 2
    with pytest.raises(ValueError, match="6 copies of 1m"):
        ds.Hand(counts=counts, melds=(ds.Meld("kong", 0),))
    with pytest.raises(ValueError, match="28 .* or 34 counts"):
        ds.Hand(counts=np.zeros(27, dtype=np.uint8))
    with pytest.raises(ValueError, match="family='beijing'"):
        ds.Hand(counts=counts, melds=(ds.Meld("peng", 28),))
    with pytest.raises(ValueError, match="format_hand takes a Hand"):
        ds.format_hand("123m")
    with pytest.raises(ValueError, match="tile kind 34 is out of range"):
        ds.tile_name(34)
    with pytest.raises(ValueError, match="a tile name is a string"):
        ds.tile_from_name(3)


# --- Beijing scoring ---------------------------------------------------------------------


def _golden_rows():
    with (DATA / "beijing_examples.csv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize("row", _golden_rows(), ids=lambda r: r["case"])
def test_score_win_reproduces_the_worked_examples(row):
    flag = {k: row[k] == "True" for k in ("self_draw", "last_tile", "last_discard", "kong_replacement")}
    win = ds.score_win(row["hand"], row["win_tile"], rules=BEIJING, **flag)
    expected = {k: int(v) for k, v in (kv.split("=") for kv in row["fans"].split(";"))}
    assert win.fans == expected
    assert win.total_fans == int(row["total_fans"])
    assert win.value == int(row["value"])


@pytest.mark.parametrize(
    "hand, tile, how, fans, value",
    [
        # 捉五魁 needs 5m to be the only winning tile: 46m with 3m-pair shape also waits elsewhere
        ("46m123789p456s77z", "5m", {}, {"catch_five": 2}, 2000),
        ("3346m789p456s777z", "5m", {}, {"catch_five": 2}, 2000),  # 33m pair, 46m: 5m only
        ("34m123p789p456s77z", "5m", {}, {"plain_win": 1}, 1000),  # 34m waits on 2m and 5m
        # a single wait on 5m, the only winning tile
        ("5m123p456p789s111z", "5m", {}, {"catch_five": 2}, 2000),
        # a 5p single wait is no 捉五魁 (5m only)
        ("5p123m456m789s111z", "5p", {}, {"plain_win": 1}, 1000),
        # 一条龙 across a chi meld and concealed sequences, open: half the base
        ("456789m1p234s [123m]", "1p", {}, {"dragon": 3}, 1500),
        # 杠上开花 only on a self-draw; 海底捞月 only on a self-draw
        (
            "234m456p2233z (7777s)",
            "2z",
            {"self_draw": True, "kong_replacement": True},
            {"kong_bloom": 5},
            5000,
        ),
        # 豪华七对 replaces 七对, and four of a kind is two pairs
        ("11113355m2255p7z", "7z", {}, {"luxury_seven_pairs": 8}, 8000),
        # 对对和 with honors, concealed
        ("111m222p333s11z55z", "5z", {}, {"all_triplets": 2}, 2000),
        # 清一色 and 对对和 together (fans add)
        ("1112223335557m", "7m", {}, {"all_triplets": 2, "one_suit": 6}, 8000),
        # a win on the last discard adds one to the fans
        (
            "1112223335557m",
            "7m",
            {"last_discard": True},
            {"all_triplets": 2, "one_suit": 6, "last_discard": 1},
            9000,
        ),
    ],
)
def test_hand_picked_beijing_wins(hand, tile, how, fans, value):
    win = ds.score_win(hand, tile, rules=BEIJING, self_draw=how.get("self_draw", False), **{
        k: v for k, v in how.items() if k != "self_draw"
    })  # fmt: skip
    assert win.fans == fans
    assert win.value == value


def test_fan_combine_double_and_the_payments():
    double = RuleSet(family="beijing", fan_combine="double")
    w = ds.score_win("1122334567899m", "9m", rules=double, self_draw=True)
    assert w.total_fans == 9 and w.value == 1000 * 2 ** (9 - 1) and w.total == 3 * w.value
    robbed = ds.score_win("234m456p678s2233z", "3z", rules=BEIJING, self_draw=False, robbed_kong=True)
    assert robbed.fans == {"plain_win": 1} and robbed.total == 3000  # the declarer pays three shares
    assert ds.score_win("234m456p678s2233z", "3z", rules=BEIJING, self_draw=False).total == 1000


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"win_tile": "4m"}, "4m does not complete"),
        (
            {"win_tile": "3z", "self_draw": True, "last_discard": True},
            "a self-draw is not a win on a discard",
        ),
        ({"win_tile": "3z", "last_tile": True}, "are self-draws"),
        ({"win_tile": "3z", "bao": "3z"}, "Beijing has no bao"),
        ({"win_tile": "8z"}, "is not a tile"),
    ],
)
def test_score_win_errors(kwargs, match):
    kwargs = {"self_draw": False, **kwargs}
    with pytest.raises(ValueError, match=match):
        ds.score_win("234m456p678s2233z", rules=BEIJING, **kwargs)


def test_score_win_under_daqing_settles_as_settle_does():
    w = ds.score_win("13m456p789s中中 [345m]", "2m", self_draw=True)
    assert w.settlement.payments.tolist() == ds.settle(0, 0, "self_draw", big=True).tolist()
    with pytest.raises(ValueError, match="does not win"):
        ds.score_win("13m456p789s中中 [345m]", "3m", self_draw=True)
    with pytest.raises(ValueError, match="东 is not a Daqing tile"):
        ds.score_win("13m456p789s中中 [345m]", "东", self_draw=True)


# --- Beijing kernels against a plain-Python brute force ----------------------------------


def _splits(counts: list[int]) -> bool:
    """Can ``counts`` (34) be split into melds and exactly one pair? Plain recursion."""

    def melds_only(c: list[int]) -> bool:
        i = next((k for k in range(34) if c[k]), None)
        if i is None:
            return True
        if c[i] >= 3:
            c[i] -= 3
            ok = melds_only(c)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            ok = melds_only(c)
            for k in (i, i + 1, i + 2):
                c[k] += 1
            return ok
        return False

    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = melds_only(counts)
            counts[p] += 2
            if ok:
                return True
    return False


def _brute_complete(counts: list[int], n_melds: int) -> bool:
    if n_melds == 0 and all(c % 2 == 0 for c in counts):
        return True  # seven pairs, four of a kind as two pairs
    return _splits(list(counts))


def _brute_waits(hand) -> set[int]:
    counts = [int(x) for x in hand.counts]
    used = list(counts)
    for m in hand.melds:
        for t in m.tiles:
            used[t] += 1
    waits = set()
    for t in range(34):
        if used[t] >= 4:
            continue
        counts[t] += 1
        if _brute_complete(counts, len(hand.melds)):
            waits.add(t)
        counts[t] -= 1
    return waits


def _random_near_hands(rng: np.random.Generator, n: int):
    """13-tile hands near ready: a complete shape (melds, pairs) less one tile, some exposed."""
    for _ in range(n):
        pool = [4] * 34
        counts = [0] * 34
        melds = []
        seven = rng.random() < 0.25
        if seven:
            kinds = rng.choice(34, size=7, replace=False)
            for k in kinds:
                counts[k] += 2
            if rng.random() < 0.3:  # a four of a kind
                counts[kinds[0]] += 2
                counts[kinds[1]] -= 2
        else:
            n_open = int(rng.integers(0, 5))
            for g in range(4):
                for _try in range(20):
                    if rng.random() < 0.5:
                        t = int(rng.integers(0, 27))
                        t -= t % 9 // 7 * (t % 9 - 6)  # start 1-7 of its suit
                        tiles = [t, t + 1, t + 2]
                    else:
                        t = int(rng.integers(0, 34))
                        tiles = [t] * 3
                    if all(pool[x] - tiles.count(x) >= 0 for x in set(tiles)):
                        break
                for x in tiles:
                    pool[x] -= 1
                if g < n_open:
                    melds.append(ds.Meld("chi" if tiles[0] != tiles[1] else "peng", tiles[0]))
                else:
                    for x in tiles:
                        counts[x] += 1
            p = int(rng.choice([k for k in range(34) if pool[k] >= 2]))
            counts[p] += 2
        # drop one tile, maybe swap another for a random one
        held = [k for k in range(34) if counts[k]]
        counts[int(rng.choice(held))] -= 1
        if rng.random() < 0.3:
            held = [k for k in range(34) if counts[k]]
            counts[int(rng.choice(held))] -= 1
            used = [counts[k] + sum(m.tiles.count(k) for m in melds) for k in range(34)]
            counts[int(rng.choice([k for k in range(34) if used[k] < 4]))] += 1
        yield ds.Hand(counts=np.array(counts, dtype=np.uint8), melds=tuple(melds))


def test_beijing_wait_sets_equal_a_brute_force_on_random_hands():
    rng = np.random.default_rng(20261201)
    checked = ready = 0
    for hand in _random_near_hands(rng, 3000):
        expected = _brute_waits(hand)
        got = {w.tile_kind for w in ds.wait_set(hand, rules=BEIJING)}
        assert got == expected, str(hand)
        checked += 1
        ready += bool(expected)
    assert checked == 3000 and 600 < ready < 2900  # both kinds of case were exercised


def test_beijing_shanten_zero_exactly_when_waits_exist():
    rng = np.random.default_rng(7)
    for hand in _random_near_hands(rng, 500):
        a = ds.analyze_hand(hand, rules=BEIJING)
        assert (a.shanten == 0) == bool(a.waits), str(hand)
        assert a.shanten >= 0
    # a ready shape whose only winning tile is gone (all four held or melded) is not ready
    dead = ds.analyze_hand("2m [222m] [777p] [中中中] [777m]", rules=BEIJING)
    assert dead.waits == () and dead.shanten == 1 and dead.standard_shanten == 0


# --- what the engine does not deal yet: one-line errors, never a numba traceback ---------


def test_engine_entry_points_refuse_families_they_do_not_deal(tmp_path):
    # advise rates Beijing hands (tests/test_advisor_families.py)
    assert ds.advise("123m456p789s11m22z3z", rules=BEIJING, k=1).iloc[0]["recommended"]
    with pytest.raises(ValueError, match="settle is the Daqing settlement"):
        ds.settle(0, 0, "self_draw", rules=BEIJING)
    path = tmp_path / "bj.toml"
    path.write_text(
        'name = "bj"\nchunk_size = 4\n\n[tournament]\nentrants = ["greedy", "greedy", "random", "random"]\n'
        'n_walls = 8\nrules = { family = "two_player" }\n',
        encoding="utf-8",
    )
    # Beijing and two-player tournaments play (tests/test_tournament.py, test_experiment_two_player.py);
    # four entrants at a two-player table are a one-line error
    with pytest.raises(ValueError, match=r"bj\.toml \[tournament\] has 4 entrant\(s\)") as info:
        ds.load_experiment(path)
    assert "\n" not in str(info.value) and "exactly two" in str(info.value)


def test_a_daqing_run_compiles_no_beijing_or_two_player_kernel():
    """A family's kernels compile (or load from the cache) only when that family is used: after a
    Daqing simulation, hand analysis and settlement no Beijing and no two-player kernel has a
    signature (the engine imports the family modules, numba resolves their names in the deal
    loop, but it prunes their branches before compiling); a Beijing hand compiles none of the
    two-player kernels."""
    import subprocess
    import sys

    def compiled(extra: str) -> str:
        code = (
            "import sys, numba, daqing_sim as ds\n"
            "ds.simulate(2, seed=0)\n"
            "ds.analyze_hand('13m456p789s中中 [345m]')\n"
            "ds.score_win('13m456p789s中中 [345m]', '2m', self_draw=True)\n"
            f"{extra}\n"
            "from daqing_sim.hand import kinds34 as K\n"
            "from daqing_sim.families.beijing import hand as B, settle as G, deal as DB\n"
            "from daqing_sim.families.beijing import danger as PD, expert as PE, value as PV\n"
            "from daqing_sim.families.two_player import hand as T, deal as DT, expert as TE, greedy as TG\n"
            "from daqing_sim.game import deal34 as D34\n"
            "mods = (K, B, G, T, DB, DT, PD, PE, PV, TE, TG, D34)\n"
            "print(sorted(n for m in mods for n, f in vars(m).items()\n"
            "             if isinstance(f, numba.core.registry.CPUDispatcher) and f.signatures\n"
            "             and f.__module__ == m.__name__))\n"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1800)
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout.strip().splitlines()[-1]

    assert compiled("") == "[]"
    # the same check sees them once a family is used (so it can fail)
    beijing = compiled("ds.analyze_hand('1122334567899m', rules=ds.RuleSet(family='beijing'))")
    assert beijing.startswith("[") and "bj_hand_shanten_k" in beijing and "tp_" not in beijing
    two = compiled(
        "ds.score_win('1112345678999m', '5m', rules=ds.RuleSet(family='two_player'), self_draw=True)"
    )
    assert "tp_fans_wait_k" in two  # score_win reads the scored split's wait too
