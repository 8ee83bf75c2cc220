"""Scoring (docs/RULES.md "Scoring"): the 90 golden seed-table rows and the 2^N rules."""

from __future__ import annotations

import csv
import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from reference import ref_fans, ref_settle

from daqing_sim.codes import BAO_KINDS, DEAL_IN, METHODS, SELF_DRAW
from daqing_sim.families.daqing.scoring import Settlement, settle, settle_detail, settle_kernel
from daqing_sim.rules import RuleSet

GOLDEN = Path(__file__).parent / "data" / "seed_score_tables.csv"
SEAT = {"A": 0, "B": 1, "C": 2, "D": 3}
LOSERS = {"B": 1, "C": 2, "D": 3}


def _golden_rows() -> list[dict[str, str]]:
    with GOLDEN.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


ROWS = _golden_rows()


def _arguments(row: dict[str, str]) -> dict:
    """settle() keyword arguments for one seed-table row: A (seat 0) wins, B (seat 1) discards."""
    kwargs = dict(
        winner=0,
        dealer=SEAT[row["dealer"]],
        big=row["size"] == "big",
        bao=row["bao"],
        concealed=(False,) + tuple(row[f"{x}_concealed"] == "1" for x in "BCD"),
    )
    if row["method"] == "self_draw":
        kwargs["method"] = "self_draw"
    else:
        kwargs.update(method="deal_in", discarder=1, discarder_ready=row["method"] == "ron_ready")
    return kwargs


def _row_id(row: dict[str, str]) -> str:
    conc = "".join(row[f"{x}_concealed"] for x in "BCD")
    return f"{row['method']}-{row['size']}-{row['bao']}-dealer{row['dealer']}-conc{conc}"


def test_golden_table_has_all_sections():
    assert len(ROWS) == 90
    sections = {r["section"] for r in ROWS}
    assert sections == {"小和点炮", "小和点黑炮", "小和自摸", "大和自摸"}


@pytest.mark.parametrize("row", ROWS, ids=[_row_id(r) for r in ROWS])
def test_settle_reproduces_seed_table_row(row):
    s = settle_detail(**_arguments(row))
    for letter, seat in LOSERS.items():
        assert s.owed[seat] == int(row[f"{letter}_table"]), f"{letter}'s table amount"
    assert s.payments[0] == int(row["winner_total"])
    assert s.payments.sum() == 0
    if row["method"] == "ron_not_ready":
        assert s.pays_all
        assert -s.payments[1] == int(row["B_pays_total"])
        assert s.payments[2] == s.payments[3] == 0
    else:
        assert not s.pays_all
        assert row["B_pays_total"] == ""
        for letter, seat in LOSERS.items():
            assert -s.payments[seat] == int(row[f"{letter}_table"])
    np.testing.assert_array_equal(settle(**_arguments(row)), s.payments)


DEAL_IN_ROWS = [r for r in ROWS if r["method"] != "self_draw"]


@pytest.mark.parametrize("row", DEAL_IN_ROWS, ids=[_row_id(r) for r in DEAL_IN_ROWS])
def test_big_deal_in_is_small_table_times_two(row):
    """大和点炮 / 大和点黑炮 are not in the seeds: one more fan than the small tables."""
    assert row["size"] == "small"
    kwargs = _arguments(row) | {"big": True}
    s = settle_detail(**kwargs)
    for letter, seat in LOSERS.items():
        assert s.owed[seat] == 2 * int(row[f"{letter}_table"])
        assert "big" in s.fans[seat]
    assert s.payments[0] == 2 * int(row["winner_total"])
    if row["B_pays_total"]:
        assert -s.payments[1] == 2 * int(row["B_pays_total"])


def _reference_fans(winner, dealer, method, discarder, ready, big, bao, concealed, kongs, kong_fan):
    """Plain restatement of the fan list of RULES.md, per loser."""
    fans = {}
    for loser in range(4):
        if loser == winner:
            continue
        n = int(dealer in (winner, loser)) + int(concealed[loser])
        n += int(method == "self_draw") + int(big)
        n += int(bao != "none") + int(bao in ("bao_edge", "bao_in_bao"))
        n += int(method == "deal_in" and loser == discarder and not ready)
        n += kongs if kong_fan else 0
        fans[loser] = n
    return fans


def _all_wins():
    """Every valid combination of the scoring arguments except concealed and kongs."""
    for winner, dealer in itertools.product(range(4), range(4)):
        for big in (False, True):
            for bao in ("none", "bao", "bao_in_bao" if big else "bao_edge"):
                yield dict(winner=winner, dealer=dealer, method="self_draw", big=big, bao=bao)
            for discarder in set(range(4)) - {winner}:
                for ready in (True, False):
                    yield dict(
                        winner=winner,
                        dealer=dealer,
                        method="deal_in",
                        discarder=discarder,
                        discarder_ready=ready,
                        big=big,
                    )


@pytest.mark.parametrize("kong_fan", [False, True])
def test_every_valid_win_matches_reference_and_sums_to_zero(kong_fan):
    rules = RuleSet(kong_fan=kong_fan)
    n = 0
    for base in _all_wins():
        for concealed in itertools.product((False, True), repeat=4):
            for kongs in (0, 1, 4):
                s = settle_detail(**base, concealed=concealed, winner_kongs=kongs, rules=rules)
                expected = _reference_fans(
                    base["winner"],
                    base["dealer"],
                    base["method"],
                    base.get("discarder"),
                    base.get("discarder_ready", True),
                    base["big"],
                    base.get("bao", "none"),
                    concealed,
                    kongs,
                    kong_fan,
                )
                assert {k: len(v) for k, v in s.fans.items()} == expected
                assert s.owed == {k: 2**v for k, v in expected.items()}
                assert s.payments.sum() == 0
                assert s.payments[s.winner] == sum(s.owed.values()) > 0
                assert (np.delete(s.payments, s.winner) <= 0).all()
                n += 1
    assert n == 16 * 18 * 16 * 3


@pytest.mark.parametrize("kongs", [1, 2, 3, 4])
def test_kong_fan_doubles_per_winner_kong(kongs):
    kwargs = dict(
        winner=2, dealer=1, method="self_draw", big=True, bao="bao", concealed=(True, False, False, True)
    )
    base = settle(**kwargs)
    with_fan = settle(**kwargs, winner_kongs=kongs, rules=RuleSet(kong_fan=True))
    np.testing.assert_array_equal(with_fan, base * 2**kongs)
    # without the flag kongs are not a fan at all
    np.testing.assert_array_equal(settle(**kwargs, winner_kongs=kongs), base)
    s = settle_detail(**kwargs, winner_kongs=kongs, rules=RuleSet(kong_fan=True))
    assert all(names.count("kong") == kongs for names in s.fans.values())


def test_losers_kongs_never_count():
    """Only the winner's kongs are an input; a loser's concealed kong keeps it concealed, nothing more."""
    rules = RuleSet(kong_fan=True)
    s = settle_detail(
        0, 3, "deal_in", discarder=3, winner_kongs=0, concealed=(False, True, False, False), rules=rules
    )
    assert all("kong" not in names for names in s.fans.values())
    assert s.owed == {1: 2, 2: 1, 3: 2}


def test_fan_names_and_dealer_fan():
    s = settle_detail(
        3,
        3,
        "self_draw",
        big=True,
        bao="bao_in_bao",
        concealed=(True, True, True, True),
        winner_kongs=2,
        rules=RuleSet(kong_fan=True),
    )
    for seat in (0, 1, 2):
        assert s.fans[seat] == [
            "dealer",
            "concealed",
            "self_draw",
            "big",
            "bao",
            "bao_in_bao",
            "kong",
            "kong",
        ]
        assert s.owed[seat] == 2**8
    assert 3 not in s.fans and 3 not in s.owed
    edge = settle_detail(0, 2, "self_draw", bao="bao_edge")
    assert edge.fans == {
        1: ["self_draw", "bao", "bao_edge"],
        2: ["dealer", "self_draw", "bao", "bao_edge"],
        3: ["self_draw", "bao", "bao_edge"],
    }


def test_ready_discarder_pays_only_its_own_share():
    s = settle_detail(1, 0, "deal_in", discarder=2, discarder_ready=True)
    assert not s.pays_all
    assert s.payments.tolist() == [-2, 4, -1, -1]
    assert all("deal_in_not_ready" not in names for names in s.fans.values())


def test_not_ready_discarder_pays_all():
    s = settle_detail(
        1, 0, "deal_in", discarder=2, discarder_ready=False, concealed=(False, False, True, True)
    )
    assert s.pays_all
    assert s.owed == {0: 2, 2: 4, 3: 2}
    assert s.payments.tolist() == [0, 8, -8, 0]
    assert s.fans[2] == ["concealed", "deal_in_not_ready"]


def test_settlement_is_frozen_and_printable():
    s = settle_detail(0, 1, "deal_in", discarder=1, discarder_ready=False)
    assert isinstance(s, Settlement)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.winner = 2
    text = str(s)
    assert "seat 0 wins" in text and "包庄" in text and "deal_in_not_ready" in text
    assert f"receives {s.total}" in text
    assert "包庄" not in str(settle_detail(0, 1, "self_draw"))


def _kernel_call(kwargs, concealed_dtype):
    s = settle_detail(**kwargs)
    rules = kwargs.get("rules", RuleSet())
    pay = np.full(4, 99, dtype=np.int64)
    fans = np.full(4, 99, dtype=np.int64)
    settle_kernel(
        kwargs["winner"],
        kwargs["dealer"],
        METHODS.index(kwargs["method"]),
        kwargs.get("discarder", -1),
        kwargs.get("discarder_ready", True),
        kwargs.get("big", False),
        BAO_KINDS.index(kwargs.get("bao", "none")),
        np.array(kwargs.get("concealed", (False,) * 4), dtype=concealed_dtype),
        kwargs.get("winner_kongs", 0),
        rules.encode(),
        pay,
        fans,
    )
    return s, pay, fans


KERNEL_CASES = [
    dict(winner=0, dealer=0, method="self_draw"),
    dict(
        winner=3,
        dealer=1,
        method="self_draw",
        big=True,
        bao="bao_in_bao",
        concealed=(1, 1, 0, 0),
        winner_kongs=3,
        rules=RuleSet(kong_fan=True),
    ),
    dict(winner=2, dealer=2, method="deal_in", discarder=0, discarder_ready=False, concealed=(1, 0, 0, 1)),
    dict(winner=1, dealer=3, method="deal_in", discarder=3, big=True, winner_kongs=2),
]


@pytest.mark.parametrize("dtype", [np.uint8, np.bool_])
@pytest.mark.parametrize("kwargs", KERNEL_CASES)
def test_kernel_equals_public_api_and_reference(kwargs, dtype):
    s, pay, fans = _kernel_call(kwargs, dtype)
    np.testing.assert_array_equal(pay, s.payments)
    assert fans[s.winner] == -1
    for seat, names in s.fans.items():
        assert fans[seat] == len(names)
    # and the plain restatement of tests/reference.py (which imports nothing of scoring)
    win = (
        kwargs["winner"],
        kwargs["dealer"],
        kwargs["method"] == "self_draw",
        kwargs.get("discarder", -1),
        kwargs.get("discarder_ready", True),
        kwargs.get("big", False),
        BAO_KINDS.index(kwargs.get("bao", "none")),
        [bool(x) for x in kwargs.get("concealed", (False,) * 4)],
        kwargs.get("winner_kongs", 0),
        kwargs.get("rules", RuleSet()),
    )
    assert pay.tolist() == ref_settle(*win)
    assert {s: int(fans[s]) for s in range(4) if s != kwargs["winner"]} == ref_fans(*win)


def test_method_and_bao_codes():
    assert (SELF_DRAW, DEAL_IN) == (0, 1)
    assert METHODS == ("self_draw", "deal_in")
    assert BAO_KINDS == ("none", "bao", "bao_edge", "bao_in_bao")


def test_kernel_callable_from_jitted_code():
    """The engine calls the kernel inside its own @njit loop."""

    @njit
    def many(winners, rules, out):
        pay = np.zeros(4, dtype=np.int64)
        fans = np.zeros(4, dtype=np.int64)
        concealed = np.zeros(4, dtype=np.uint8)
        for i in range(winners.shape[0]):
            settle_kernel(winners[i], 0, 0, -1, True, False, 0, concealed, 0, rules, pay, fans)
            out[i] = pay[winners[i]]

    winners = np.array([0, 1, 2, 3], dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    many(winners, RuleSet().encode(), out)
    expected = [settle(int(w), 0, "self_draw")[int(w)] for w in winners]
    assert out.tolist() == expected == [12, 8, 8, 8]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(winner=4, dealer=0, method="self_draw"), "winner=4 is out of range"),
        (dict(winner=-1, dealer=0, method="self_draw"), "winner=-1 is out of range"),
        (dict(winner=0, dealer=7, method="self_draw"), "dealer=7 is out of range"),
        (dict(winner=True, dealer=0, method="self_draw"), "winner must be a seat number"),
        (dict(winner="0", dealer=0, method="self_draw"), "winner must be a seat number"),
        (dict(winner=0, dealer=0, method="ron"), "method='ron' is unknown.*self_draw.*deal_in"),
        (dict(winner=0, dealer=0, method="deal_in"), "needs discarder="),
        (dict(winner=0, dealer=0, method="deal_in", discarder=0), "is the winner.*self_draw"),
        (dict(winner=0, dealer=0, method="deal_in", discarder=4), "discarder=4 is out of range"),
        (dict(winner=0, dealer=0, method="self_draw", discarder=1), "given for a self-draw"),
        (dict(winner=0, dealer=0, method="self_draw", discarder_ready=False), "only applies to.*deal_in"),
        (dict(winner=0, dealer=0, method="deal_in", discarder=1, bao="bao"), "bao only wins when self-drawn"),
        (dict(winner=0, dealer=0, method="self_draw", bao="bao_edge", big=True), "bao_edge.*small win"),
        (dict(winner=0, dealer=0, method="self_draw", bao="bao_in_bao"), "bao_in_bao.*big win.*big=True"),
        (dict(winner=0, dealer=0, method="self_draw", bao="moobao"), "bao='moobao' is unknown"),
        (dict(winner=0, dealer=0, method="self_draw", big="yes"), "big must be True or False"),
        (dict(winner=0, dealer=0, method="self_draw", concealed=(True, False)), "concealed has 2 values"),
        (dict(winner=0, dealer=0, method="self_draw", concealed="TFFF"), "concealed must be four"),
        (dict(winner=0, dealer=0, method="self_draw", concealed=(0, 2, 0, 0)), r"concealed\[1\] must be"),
        (dict(winner=0, dealer=0, method="self_draw", winner_kongs=-1), "winner_kongs=-1 is impossible"),
        (dict(winner=0, dealer=0, method="self_draw", winner_kongs=5), "winner_kongs=5 is impossible"),
        (dict(winner=0, dealer=0, method="self_draw", winner_kongs=1.0), "winner_kongs must be a whole"),
        (dict(winner=0, dealer=0, method="self_draw", rules={"kong_fan": True}), "rules must be a RuleSet"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        settle(**kwargs)
    with pytest.raises(ValueError, match=match):
        settle_detail(**kwargs)


def test_numpy_inputs_accepted():
    out = settle(
        np.int8(1),
        np.int64(1),
        "deal_in",
        discarder=np.int32(0),
        concealed=np.array([True, False, False, True]),
    )
    assert out.dtype == np.int64 and out.shape == (4,)
    assert out.tolist() == [-4, 10, -2, -4]
