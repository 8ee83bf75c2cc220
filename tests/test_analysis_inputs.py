"""Every analysis function takes a frame of one rule family of any family, or says plainly in one
line what is wrong with it: a function of another family's frames names the frame's family (and
what reads it), never a missing ``pay_2`` of a two-player frame, never "several families" for one,
and never a KeyError or AttributeError traceback."""

from __future__ import annotations

import inspect
import re

import pandas as pd
import pytest

import daqing_sim as ds
from daqing_sim import analysis as an

FAMILIES = {"daqing": 4, "beijing": 4, "two_player": 2}
TITLES = {"daqing": "Daqing", "beijing": "Beijing", "two_player": "two-player"}
# what the functions that need more than a frame are given
EXTRA = {"deal_metric": {"metric": "win"}, "paired_difference": {"metric": "win"}}
# files; helpers; the duplicate-tournament tables (they read a tournament's rotation variants)
SKIP = {"write_summary", "variant_families", "family_parts", "mutual_shift", "wall_means"}
SKIP |= {"duplicate_table", "duplicate_pairs"}


@pytest.fixture(scope="module")
def frames() -> dict[str, pd.DataFrame]:
    out = {}
    for family, seats in FAMILIES.items():
        df = ds.simulate(80, rules=ds.RuleSet(family=family), strategies=("greedy",) * seats, seed=5)
        out[family] = df
    return out


def _frame_functions() -> list[str]:
    names = []
    for name in an.__all__:
        f = getattr(an, name)
        if name in SKIP or not inspect.isfunction(f) and not callable(f) or isinstance(f, type):
            continue
        params = list(inspect.signature(f).parameters)
        if params and params[0] in ("df", "frames", "g"):
            names.append(name)
    return names


FUNCTIONS = _frame_functions()


def _call(name: str, df: pd.DataFrame, family: str):
    f = getattr(an, name)
    return f(df, **EXTRA.get(name, {}))


#: function -> the families whose frames it must read (not refuse)
MUST_READ = {
    "family_comparison": set(FAMILIES),
    "gain_distribution": set(FAMILIES),
    "win_fan_shares": set(FAMILIES),
    "readiness_probability": {"daqing", "beijing"},
    "value_statistics": {"beijing", "two_player"},
    "value_distribution": {"beijing", "two_player"},
}
# the seat-based functions: every family (tests/test_analysis_any_family.py checks their numbers)
MUST_READ |= {
    n: set(FAMILIES)
    for n in (
        "expected_payment",
        "net_result",
        "payment_distribution",
        "tail_probability",
        "deal_in_rates",
        "strategy_results",
        "outcome_shares",
        "winner_kong_share",
        "deal_length",
        "deal_metric",
        "plot_expected_payment",
        "plot_net_result",
        "plot_payment_distribution",
        "plot_wait_kinds",
    )
}
MUST_READ["ready_probability"] = {"daqing", "two_player"}  # Beijing declares nothing: readiness_probability
MUST_READ |= {n: {"two_player"} for n in FUNCTIONS if n.startswith("two_player_")}


@pytest.mark.parametrize("family", list(FAMILIES))
@pytest.mark.parametrize("name", FUNCTIONS)
def test_a_one_family_frame_is_read_or_refused_in_one_plain_line(name, family, frames):
    df = frames[family]
    with_variant = df.assign(variant=pd.Categorical(["v"] * len(df)))  # as load_results gives it
    for frame in (df, with_variant):
        try:
            _call(name, frame, family)
        except ValueError as e:
            text = str(e)
            assert "\n" not in text and re.match(r"\w+: ", text), text  # the function that refused
            assert family not in MUST_READ.get(name, ()), f"{name} refuses a {family} frame: {text}"
            assert "several" not in text, text  # one family is not several
            if "column variant" not in text and "column(s) variant" not in text:
                assert TITLES[family] in text, text  # it says what the frame is


def test_the_cross_family_functions_read_every_family(frames):
    two = frames["two_player"]
    shares = an.win_fan_shares(two)
    assert (
        set(shares["fan"]) >= {"plain_win", "limit_any"} and (shares["n"] == (two["winner"] >= 0).sum()).all()
    )
    pd.testing.assert_frame_equal(an.value_statistics(two), an.two_player_value_statistics(two))
    for family, df in frames.items():
        table = an.family_comparison(df)  # one frame: its variant (here: its family) is the label
        assert set(table["family"]) == {family} and table["estimate"].notna().all(), family
        assert table[["lo", "hi"]].notna().all().all(), family
        labelled = an.family_comparison({"x": df})
        assert table["estimate"].tolist() == pytest.approx(labelled["estimate"].tolist())
        assert len(an.gain_distribution(df))
    mixed = pd.concat(
        [frames["daqing"].assign(variant="d"), frames["beijing"].assign(variant="b")], ignore_index=True
    )
    assert set(an.family_comparison(mixed)["label"]) == {"d", "b"}


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda f: an.family_comparison([f["daqing"]]), "pass a results DataFrame or a dict"),
        (lambda f: an.win_fan_shares({"a": f["daqing"]}), "got a dict of frames"),
        (lambda f: an.value_statistics(f["daqing"]), "this is a Daqing frame, which has no column value"),
        (lambda f: an.bao_shares(f["two_player"]), "this is a two-player frame"),
        (lambda f: an.fan_type_shares(f["daqing"]), "win_fan_shares reads a frame of any family"),
    ],
)
def test_a_wrong_input_is_named(call, says, frames):
    with pytest.raises(ValueError) as e:
        call(frames)
    assert says in str(e.value) and "\n" not in str(e.value)
