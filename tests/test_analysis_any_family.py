"""The seat-based analysis functions on frames of every family, each number checked against a plain
pandas/numpy computation of its definition on a small simulated frame: two seats (pay_0, pay_1)
and the two-player roles, waits and 报听 for two-player frames; four seats in the frame's points
for Beijing; the Daqing numbers as they were. Where a quantity does not exist in a family, one
line says so and names what to use instead."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import daqing_sim as ds
from daqing_sim import analysis as an

SEATS = {"daqing": 4, "beijing": 4, "two_player": 2}


@pytest.fixture(scope="module")
def frames() -> dict[str, pd.DataFrame]:
    return {
        "daqing": ds.simulate(1500, seed=5),
        "beijing": ds.simulate(1500, rules=ds.RuleSet(family="beijing"), strategies=("greedy",) * 4, seed=5),
        "two_player": ds.simulate(
            3000, rules=ds.RuleSet(family="two_player"), strategies=("greedy", "random"), seed=5
        ),
    }


def _family(df: pd.DataFrame) -> str:
    return str(df["family"].iloc[0]) if "family" in df.columns else "daqing"


def _long(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat-deal, each role spelled out from its definition."""
    parts = []
    outcome = df["outcome"].astype(str)
    won = df["winner"] >= 0
    black = outcome == "deal_in_not_ready"
    for s in range(SEATS[_family(df)]):
        winner = df["winner"] == s
        discarder = (df["discarder"] == s) & (df["discarder"] >= 0)
        parts.append(
            pd.DataFrame(
                {
                    "deal": np.arange(len(df)),
                    "seat": s,
                    "pay": df[f"pay_{s}"].astype(float),
                    "strategy": df[f"strategy_{s}"].astype(str),
                    "dealer": df["dealer"] == s,
                    "non_dealer": df["dealer"] != s,
                    "winner": winner,
                    "discarder": discarder,
                    "discarder_ready": discarder & (outcome == "deal_in"),
                    "discarder_not_ready": discarder & black,
                    "other_payer": won & ~winner & ~discarder & ~black,
                    "bystander": won & ~winner & ~discarder & black,
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def _quantile(x: np.ndarray, p: float) -> float:
    """The inverted-CDF quantile: the smallest value whose share at or below it reaches p."""
    x = np.sort(x)
    return float(x[max(int(np.ceil(len(x) * p - 1e-9)), 1) - 1])


@pytest.mark.parametrize("family", list(SEATS))
def test_expected_payment_per_seat_and_role(family, frames):
    df = frames[family]
    long = _long(df)
    seats = an.expected_payment(df)
    assert seats["seat"].tolist() == list(range(SEATS[family]))
    assert seats["mean"].to_numpy() == pytest.approx(long.groupby("seat")["pay"].mean().to_numpy())
    assert (seats["n"] == len(df)).all()
    assert (seats["lo"] <= seats["mean"]).all() and (seats["mean"] <= seats["hi"]).all()
    roles = an.expected_payment(df, by="role", contrast_to="dealer")
    expect = an.TWO_PLAYER_ROLES if family == "two_player" else an.ROLES
    assert roles["role"].tolist() == list(expect)
    for _, row in roles.iterrows():
        sel = long[long[row["role"]]]
        assert row["n"] == len(sel), row["role"]
        if len(sel):
            assert row["mean"] == pytest.approx(sel["pay"].mean()), row["role"]
    dealer_mean = long[long["dealer"]]["pay"].mean()
    non = roles.set_index("role").loc["non_dealer"]
    assert non["diff"] == pytest.approx(long[long["non_dealer"]]["pay"].mean() - dealer_mean)


def test_two_player_roles_are_the_two_seats(frames):
    df = frames["two_player"]
    assert (df["pay_0"] + df["pay_1"] == 0).all()  # the loser pays the winner: nothing else moves
    roles = an.expected_payment(df, by="role").set_index("role")
    won = int((df["winner"] >= 0).sum())
    # every win has one winner and one payer: the discarder on a deal-in, else the other_payer
    assert roles.loc["winner", "n"] == won == roles.loc["discarder", "n"] + roles.loc["other_payer", "n"]
    assert roles.loc["dealer", "n"] == roles.loc["non_dealer", "n"] == len(df)


@pytest.mark.parametrize("family", list(SEATS))
def test_net_result_statistics(family, frames):
    df = frames[family]
    long = _long(df)
    table = an.net_result(df, by="role")
    for role in ("dealer", "non_dealer", "winner"):
        x = long[long[role]]["pay"].to_numpy()
        got = table[table["role"] == role].set_index("statistic")["estimate"]
        assert got["mean"] == pytest.approx(x.mean())
        assert got["sd"] == pytest.approx(x.std(ddof=1))
        assert got["p_loss"] == pytest.approx((x < 0).mean())
        for q in (0.01, 0.05, 0.5, 0.95, 0.99):
            assert got[f"q{round(100 * q):02d}"] == _quantile(x, q), (role, q)
    seats = an.net_result(df)
    assert sorted(set(seats["seat"])) == list(range(SEATS[family]))


@pytest.mark.parametrize("family", list(SEATS))
def test_payment_distribution_and_tail(family, frames):
    df = frames[family]
    pay = np.column_stack([df[f"pay_{s}"] for s in range(SEATS[family])])
    for who, amounts in (("payer", -pay[pay < 0]), ("winner", pay[pay > 0])):
        table = an.payment_distribution(df, who=who)
        counts = pd.Series(amounts).value_counts().sort_index()
        assert table["amount"].tolist() == counts.index.tolist()
        assert table["count"].tolist() == counts.tolist()
        assert table["at_least"].iloc[-1] == pytest.approx(counts.iloc[-1] / counts.sum())
    threshold = int(np.median(-pay[pay < 0]))
    tail = an.tail_probability(df, threshold).iloc[0]
    assert tail["p"] == pytest.approx(((-pay).max(axis=1) >= threshold).mean())


@pytest.mark.parametrize("family", list(SEATS))
def test_wait_kinds_of_wins(family, frames):
    df = frames[family]
    won = df[df["winner"] >= 0]
    table = an.wait_kind_frequencies(df, at="win", by="role")
    for role, g in table.groupby("role", observed=True):
        sel = won[(won["winner"] == won["dealer"]) == (role == "dealer")]
        counts = sel["wait_kind"].astype(str).value_counts()
        assert g["count"].tolist() == [int(counts.get(k, 0)) for k in g["wait_kind"]], role
        assert (g["n"] == len(sel)).all()
    assert table["count"].sum() == len(won)


def test_two_player_ready_is_the_declaration(frames):
    df = frames["two_player"]
    table = an.ready_probability(df, max_draws=10)
    declared = df[["declared_turn_0", "declared_turn_1"]].to_numpy()
    dealer = df["dealer"].to_numpy()
    for role, g in table.groupby("role", observed=True):
        seat = dealer if role == "dealer" else 1 - dealer
        turn = declared[np.arange(len(df)), seat]
        expect = [((turn >= 0) & (turn <= k)).mean() for k in g["k"]]
        assert g["p"].to_numpy() == pytest.approx(expect), role
    assert table["ready"].max() > 0  # the frame's players do declare
    km = an.ready_probability(df, estimand="kaplan_meier", by="seat")
    assert set(km["seat"]) == {0, 1}


def test_two_player_deal_metrics_and_strategies(frames):
    df = frames["two_player"]
    pay = df[["pay_0", "pay_1"]].to_numpy()
    declared = df[["declared_turn_0", "declared_turn_1"]].to_numpy() >= 0
    dealer = df["dealer"].to_numpy()
    assert an.deal_metric(df, "dealer_pay") == pytest.approx(pay[np.arange(len(df)), dealer])
    assert an.deal_metric(df, "winner_gain") == pytest.approx(np.maximum(pay.max(axis=1), 0))
    assert an.deal_metric(df, "max_pay") == pytest.approx(np.maximum((-pay).max(axis=1), 0))
    assert an.deal_metric(df, "ready_share") == pytest.approx(declared.mean(axis=1))
    table = an.strategy_results(df).set_index("strategy")
    long = _long(df)
    for name in ("greedy", "random"):
        mine = long[long["strategy"] == name]
        assert table.loc[name, "mean_pay"] == pytest.approx(mine["pay"].mean())
        assert table.loc[name, "win_rate"] == pytest.approx(mine["winner"].mean())
        seat = int(mine["seat"].iloc[0])
        assert table.loc[name, "ready_rate"] == pytest.approx(declared[:, seat].mean())


@pytest.mark.parametrize("family", list(SEATS))
def test_deal_in_rates_count_the_non_dealer_seats(family, frames):
    df = frames[family]
    table = an.deal_in_rates(df).set_index("who")
    hit = (df["discarder"] >= 0) & (df["winner"] >= 0)
    assert table.loc["non_dealer", "n"] == (SEATS[family] - 1) * len(df)
    assert table.loc["non_dealer", "count"] == (hit & (df["discarder"] != df["dealer"])).sum()


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda f: an.wait_kind_frequencies(f["two_player"]), "wait_kind_frequencies(df, at='win')"),
        (lambda f: an.wait_kind_frequencies(f["beijing"]), "a Beijing frame records no wait"),
        (lambda f: an.wait_classes(f["two_player"]), "at='win'"),
        (lambda f: an.wait_kind_outcomes(f["beijing"]), "at='win'"),
        (lambda f: an.bao_shares(f["beijing"]), "bao, 宝, is Daqing's alone"),
        (lambda f: an.fan_distribution(f["two_player"]), "fan_total_distribution"),
        (lambda f: an.ready_probability(f["beijing"]), "readiness_probability"),
        (lambda f: an.beijing_events(f["two_player"]), "this is a two-player frame, which has no column"),
        (lambda f: an.in_base_units(f["two_player"]), "a two-player win its value in points"),
        (lambda f: an.expected_payment(f["two_player"], by="role", contrast_to="bystander"), "other_payer"),
        (
            lambda f: an.expected_payment(
                pd.concat([f["daqing"].assign(variant="d"), f["two_player"].assign(variant="t")])
            ),
            "split it with an.family_parts(df)",
        ),
    ],
)
def test_what_a_family_lacks_is_said_in_one_line(call, says, frames):
    with pytest.raises(ValueError) as e:
        call(frames)
    assert says in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_two_player_payment_plots_say_points(frames):
    df = frames["two_player"].iloc[:300]
    fig = an.plot_net_result(df)
    assert fig.axes[0].get_ylabel() == "net result of one deal (points)"
    assert "(points, 95% CI)" in an.plot_expected_payment(df, by="role").axes[0].get_ylabel()
    assert "2^N points" in an.plot_net_result(frames["daqing"].iloc[:300]).axes[0].get_ylabel()
    for family, fans in (("daqing", "N: the loser owes 2^N points"), ("two_player", "F: the win's fans")):
        ax = an.plot_payment_distribution(frames[family].iloc[:300]).axes[0]
        assert ax.get_xlabel() == fans, family
    assert len(an.plot_wait_kinds(frames["beijing"].iloc[:300]).axes) == 1  # the waits of wins alone
    assert len(an.plot_wait_kinds(frames["daqing"].iloc[:300]).axes) == 3


def test_two_player_value_distribution_is_in_points(frames):
    df = frames["two_player"]
    table = an.value_distribution(df)
    counts = df.loc[df["winner"] >= 0, "value"].value_counts().sort_index()
    assert table["value"].tolist() == counts.index.tolist() and table["count"].tolist() == counts.tolist()
    assert (table["n"] == counts.sum()).all()
