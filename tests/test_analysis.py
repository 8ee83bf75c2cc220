"""Tests of daqing_sim.analysis on small hand-built results frames whose answers are known."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from daqing_sim import analysis as an

WAITS = ["kanchan", "edge", "single", "dual_pair", "two_sided", "none"]
BAOS = ["none", "bao", "bao_edge", "bao_in_bao"]
SEAT_FIELDS = (
    "pay",
    "fans",
    "ready_turn",
    "ready_wait",
    "strategy",
    "own_draws",
    "ready_wait_mask",
    "ready_wait_tiles",
)


def deal(**kw) -> dict:
    """One deal row; defaults: an exhaustive draw, dealer 0, nobody ready."""
    row = {
        "deal": 0,
        "outcome": "exhaustive_draw",
        "winner": -1,
        "discarder": -1,
        "dealer": 0,
        "big": False,
        "bao": "none",
        "wait_kind": "none",
        "win_tile": None,
        "draws": 58,
        "winner_kongs": 0,
        "bao_replacements": 0,
    }
    for s in range(4):
        row |= {
            f"pay_{s}": 0,
            f"fans_{s}": -1,
            f"ready_turn_{s}": -1,
            f"ready_wait_{s}": "none",
            f"ready_outs_{s}": -1,
            f"concealed_{s}": True,
            f"strategy_{s}": "greedy",
        }
    for key, value in kw.items():
        if key in SEAT_FIELDS:
            for s, x in enumerate(value):
                row[f"{key}_{s}"] = x
        else:
            row[key] = value
    return row


def frame(rows: list[dict], variants: list[str] | None = None) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    df["outcome"] = pd.Categorical(df["outcome"], categories=an.OUTCOMES)
    df["bao"] = pd.Categorical(df["bao"], categories=BAOS)
    df["wait_kind"] = pd.Categorical(df["wait_kind"], categories=WAITS)
    for s in range(4):
        df[f"ready_wait_{s}"] = pd.Categorical(df[f"ready_wait_{s}"], categories=WAITS)
        df[f"strategy_{s}"] = df[f"strategy_{s}"].astype("category")
        df[f"pay_{s}"] = df[f"pay_{s}"].astype(np.int32)
        df[f"fans_{s}"] = df[f"fans_{s}"].astype(np.int8)
        df[f"ready_turn_{s}"] = df[f"ready_turn_{s}"].astype(np.int16)
    for c in ("winner", "discarder", "dealer"):
        df[c] = df[c].astype(np.int8)
    if variants is not None:
        df["variant"] = pd.Categorical(variants, categories=list(dict.fromkeys(variants)))
    return df


def self_draw(winner: int, fans: list[int], **kw) -> dict:
    """A self-drawn win with consistent pay/fans columns."""
    pay = [0, 0, 0, 0]
    for s in range(4):
        if s != winner:
            pay[s] = -(2 ** fans[s])
    pay[winner] = -sum(pay)
    f = [fans[s] if s != winner else -1 for s in range(4)]
    return deal(
        outcome="self_draw", winner=winner, pay=pay, fans=f, wait_kind=kw.pop("wait_kind", "two_sided"), **kw
    )


def black_deal_in(winner: int, discarder: int, fans: list[int], **kw) -> dict:
    """点黑炮: the discarder pays every loser's amount."""
    f = [fans[s] if s != winner else -1 for s in range(4)]
    total = sum(2 ** fans[s] for s in range(4) if s != winner)
    pay = [0, 0, 0, 0]
    pay[winner], pay[discarder] = total, -total
    return deal(
        outcome="deal_in_not_ready",
        winner=winner,
        discarder=discarder,
        pay=pay,
        fans=f,
        wait_kind=kw.pop("wait_kind", "kanchan"),
        big=kw.pop("big", True),
        **kw,
    )


def with_new_columns(df: pd.DataFrame) -> pd.DataFrame:
    """Add own_draws / ready_wait_tiles / ready_wait_mask consistent with ready_turn and ready_wait."""
    df = df.copy()
    codes = {k: i for i, k in enumerate(WAITS[:5])}
    for s in range(4):
        turn = df[f"ready_turn_{s}"].to_numpy()
        df[f"own_draws_{s}"] = np.maximum(turn, df["draws"].to_numpy() // 4).astype(np.int16)
        kind = df[f"ready_wait_{s}"].astype(str).map(codes).fillna(0).astype(int).to_numpy()
        df[f"ready_wait_mask_{s}"] = np.where(turn >= 0, 1 << kind, 0).astype(np.int8)
        df[f"ready_wait_tiles_{s}"] = np.where(turn >= 0, 1, 0).astype(np.int8)
    return df


def wilson_reference(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = k / n
    centre = (2 * n * p + z * z) / (2 * (n + z * z))
    half = z * math.sqrt(z * z + 4 * n * p * (1 - p)) / (2 * (n + z * z))
    return centre - half, centre + half


# --------------------------------------------------------------------------- intervals


def test_wilson_matches_textbook_values():
    lo, hi = an.wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = an.wilson_interval(np.array([0, 3, 20]), np.array([20, 20, 20]))
    for i, k in enumerate([0, 3, 20]):
        ref = wilson_reference(k, 20)
        assert lo[i] == pytest.approx(max(ref[0], 0)) and hi[i] == pytest.approx(min(ref[1], 1))
    lo, hi = an.wilson_interval(0, 0)
    assert np.isnan(lo) and np.isnan(hi)
    with pytest.raises(ValueError, match="between 0 and trials"):
        an.wilson_interval(4, 3)


def test_bootstrap_is_deterministic_covers_the_mean_and_blocks_agree():
    rng = np.random.default_rng(7)
    x = 2.0 ** rng.integers(0, 8, size=5000)  # heavy-ish 2^N amounts
    est, lo, hi = an.bootstrap_ratio(x)
    assert est == pytest.approx(x.mean())
    assert lo < est < hi
    assert (est, lo, hi) == an.bootstrap_ratio(x)  # fixed seed
    se = x.std(ddof=1) / math.sqrt(len(x))
    assert hi - lo == pytest.approx(2 * 1.96 * se, rel=0.15)
    # the block bootstrap used for big runs gives about the same interval
    _, blo, bhi = an.bootstrap_ratio(x, max_blocks=500)
    assert (bhi - blo) == pytest.approx(hi - lo, rel=0.25)
    # a constant has a zero-width interval
    assert an.bootstrap_ratio(np.full(50, 4.0)) == (4.0, 4.0, 4.0)


# --------------------------------------------------------------------------- ready, waits


def ready_frame() -> pd.DataFrame:
    return frame(
        [
            deal(deal=0, ready_turn=[2, 5, -1, -1], ready_wait=["kanchan", "edge", "none", "none"]),
            deal(deal=1, ready_turn=[-1, 0, 3, -1], ready_wait=["none", "kanchan", "two_sided", "none"]),
            deal(deal=2, ready_turn=[7, -1, -1, 1], ready_wait=["single", "none", "none", "kanchan"]),
            deal(deal=3, dealer=1, ready_turn=[4, 4, -1, -1], ready_wait=["edge", "edge", "none", "none"]),
        ]
    )


def test_ready_probability_dealer_vs_others_exact():
    t = an.ready_probability(ready_frame(), max_draws=8)
    dealer = t[t["role"] == "dealer"].set_index("k")
    other = t[t["role"] == "non_dealer"].set_index("k")
    # dealer seats: turns 2, -1, 7, 4 (deal 3 dealer is seat 1)
    assert list(dealer["ready"]) == [0, 0, 1, 1, 2, 2, 2, 3, 3]
    assert (dealer["n"] == 4).all()
    # others: 5,-1,-1 | 0,3,-1 | -1,-1,1 | 4,-1,-1
    assert list(other["ready"]) == [1, 2, 2, 3, 4, 5, 5, 5, 5]
    assert (other["n"] == 12).all()
    assert other.loc[4, "p"] == pytest.approx(4 / 12)
    lo, hi = wilson_reference(4, 12)
    assert other.loc[4, "lo"] == pytest.approx(lo) and other.loc[4, "hi"] == pytest.approx(hi)


def test_ready_probability_by_strategy_and_seat():
    df = ready_frame()
    df["strategy_1"] = pd.Categorical(["hunter"] * 4)
    t = an.ready_probability(df, by="strategy", max_draws=5)
    hunter = t[t["strategy"] == "hunter"].set_index("k")
    assert list(hunter["ready"]) == [1, 1, 1, 1, 2, 3] and (hunter["n"] == 4).all()
    t = an.ready_probability(df, by=["seat"], max_draws=3)
    assert set(t["seat"]) == {0, 1, 2, 3}
    assert t[(t["seat"] == 3) & (t["k"] == 3)]["ready"].item() == 1


def test_ready_probability_splits_variants():
    a = ready_frame()
    df = frame(a.to_dict("records") * 2, variants=["A"] * 4 + ["B"] * 4)
    df.loc[df["variant"] == "B", "ready_turn_0"] = -1
    t = an.ready_probability(df, max_draws=8)
    assert list(t.columns[:2]) == ["variant", "role"]
    last = t[(t["k"] == 8) & (t["role"] == "dealer")].set_index("variant")["ready"]
    assert last["A"] == 3 and last["B"] == 1  # deal 3's dealer is seat 1, still ready in B
    w = an.wait_kind_frequencies(df, at="ready", by=["role", "variant"])
    assert list(w.columns[:2]) == ["variant", "role"]
    assert w[(w["variant"] == "B") & (w["role"] == "dealer")]["n"].iloc[0] == 1


def test_wait_kinds_at_ready_and_win_exact():
    df = ready_frame()
    t = an.wait_kind_frequencies(df, at="ready").set_index("wait_kind")
    assert t["n"].iloc[0] == 8
    assert t.loc["kanchan", "count"] == 3 and t.loc["edge", "count"] == 3
    assert t.loc["dual_pair", "count"] == 0 and t.loc["dual_pair", "share"] == 0
    assert t["share"].sum() == pytest.approx(1)
    wins = frame(
        [
            self_draw(1, [1, 0, 0, 0], wait_kind="kanchan", deal=0),
            self_draw(2, [1, 0, 0, 0], wait_kind="kanchan", deal=1),
            self_draw(0, [0, 1, 1, 1], wait_kind="single", deal=2),
            deal(deal=3),
        ]
    )
    t = an.wait_kind_frequencies(wins, at="win").set_index("wait_kind")
    assert t.loc["kanchan", "count"] == 2 and t.loc["single", "count"] == 1 and t["n"].iloc[0] == 3
    t = an.wait_kind_frequencies(wins, at="win", by="role").set_index(["role", "wait_kind"])
    assert t.loc[("dealer", "single"), "share"] == 1.0
    assert t.loc[("non_dealer", "kanchan"), "share"] == 1.0


def test_wait_kind_outcomes_exact():
    df = ready_frame()
    # seat 1 wins deal 1 (declared kanchan); seat 0 wins deal 3 (declared edge)
    df.loc[1, ["outcome", "winner", "pay_1", "pay_0", "pay_2", "pay_3"]] = ["self_draw", 1, 6, -2, -2, -2]
    df.loc[3, ["outcome", "winner", "pay_0", "pay_1", "pay_2", "pay_3"]] = ["self_draw", 0, 3, -1, -1, -1]
    df["ready_outs_0"] = np.array([4, -1, 2, 6], dtype=np.int8)
    t = an.wait_kind_outcomes(df).set_index("wait_kind")
    assert t.loc["kanchan", "n"] == 3 and t.loc["kanchan", "wins"] == 1
    assert t.loc["kanchan", "win_rate"] == pytest.approx(1 / 3)
    # kanchan declarers: seat 0 deal 0 (0), seat 1 deal 1 (+6), seat 3 deal 2 (0)
    assert t.loc["kanchan", "mean_pay"] == pytest.approx(2)
    # edge declarers: seat 1 deal 0 (0), seat 0 deal 3 (+3), seat 1 deal 3 (-1)
    assert t.loc["edge", "n"] == 3 and t.loc["edge", "mean_pay"] == pytest.approx(2 / 3)
    assert t.loc["single", "mean_outs"] == 2  # seat 0 of deal 2
    assert t.loc["dual_pair", "n"] == 0 and np.isnan(t.loc["dual_pair", "win_rate"])


def test_results_keep_variant_order_not_alphabetical():
    rows = [deal(deal=0), self_draw(1, [1, 1, 1, 1], deal=0)]
    df = frame(rows, variants=["zeta", "alpha"])
    assert list(dict.fromkeys(an.summarize(df)["variant"])) == ["zeta", "alpha"]
    assert list(an.outcome_shares(df)["variant"].unique()) == ["zeta", "alpha"]
    assert list(an.ready_probability(df)["variant"].unique()) == ["zeta", "alpha"]
    assert list(an.expected_payment(df)["variant"].unique()) == ["zeta", "alpha"]
    legend = [t.get_text() for t in an.plot_payment_distribution(df).axes[0].get_legend().get_texts()]
    assert legend == ["zeta", "alpha"]


# --------------------------------------------------------------------------- outcomes, bao, payments


def payment_frame() -> pd.DataFrame:
    return frame(
        [
            self_draw(0, [0, 2, 1, 1], deal=0, bao="bao"),  # dealer self-draw: 4+2+2
            self_draw(2, [3, 1, 0, 2], deal=1, bao="bao_in_bao", big=True, wait_kind="kanchan"),  # 8+2+4
            black_deal_in(1, 3, [2, 0, 1, 1], deal=2),  # seat 3 pays 4+2+2
            deal(deal=3),
        ]
    )


def test_outcome_and_bao_shares_exact():
    df = payment_frame()
    o = an.outcome_shares(df).set_index("outcome")
    assert list(o["count"]) == [2, 0, 1, 1] and (o["n"] == 4).all()
    b = an.bao_shares(df).set_index("bao")
    assert b.loc["bao", "count"] == 1 and b.loc["bao_in_bao", "count"] == 1 and b.loc["none", "count"] == 1
    assert b.loc["bao", "share_of_wins"] == pytest.approx(1 / 3)
    assert b.loc["bao", "share_of_deals"] == pytest.approx(1 / 4)
    assert b.loc["bao_edge", "count"] == 0


def test_fans_and_payments_exact():
    df = payment_frame()
    f = an.fan_distribution(df).set_index("N")
    # loser entries: 2,1,1 | 3,1,2 | 2,1,1
    assert list(f["count"]) == [0, 5, 3, 1] and f["share"].sum() == pytest.approx(1)
    p = an.payment_distribution(df).set_index("amount")
    # payers: 4,2,2 | 8,2,4 | 8
    assert dict(p["count"]) == {2: 3, 4: 2, 8: 2}
    assert p.loc[4, "at_least"] == pytest.approx(4 / 7)
    w = an.payment_distribution(df, who="winner").set_index("amount")
    assert dict(w["count"]) == {8: 2, 14: 1}
    t = an.tail_probability(df, threshold=8)
    assert t["count"].item() == 2 and t["p"].item() == 0.5


def test_expected_payment_per_seat_and_role_exact():
    df = payment_frame()
    e = an.expected_payment(df, by="seat").set_index("seat")
    assert list(e["mean"]) == pytest.approx([(8 - 8) / 4, (-4 - 2 + 8) / 4, (-2 + 14) / 4, (-2 - 4 - 8) / 4])
    assert (e["lo"] <= e["mean"]).all() and (e["mean"] <= e["hi"]).all()
    r = an.expected_payment(df, by="role").set_index("role")
    assert r.loc["winner", "mean"] == pytest.approx((8 + 14 + 8) / 3) and r.loc["winner", "n"] == 3
    assert r.loc["dealer", "mean"] == pytest.approx((8 - 8 + 0 + 0) / 4)
    assert r.loc["discarder_not_ready", "mean"] == -8 and r.loc["discarder_not_ready", "n"] == 1
    # losers who did not discard pay on the self-draws; the 点黑炮 bystanders pay nothing
    assert r.loc["other_payer", "n"] == 3 + 3
    assert r.loc["other_payer", "mean"] == pytest.approx((-4 - 2 - 2 - 8 - 2 - 4) / 6)
    assert r.loc["bystander", "n"] == 2 and r.loc["bystander", "mean"] == 0
    # the four seats always sum to zero
    assert e["mean"].sum() == pytest.approx(0)


def test_role_contrast_prices_deal_in_not_ready():
    ready_deal_in = deal(
        outcome="deal_in", winner=0, discarder=2, pay=[5, -1, -2, -2], fans=[-1, 0, 1, 1], wait_kind="edge"
    )
    df = frame([payment_frame().iloc[2].to_dict() | {"deal": 0}, ready_deal_in | {"deal": 1}])
    r = an.expected_payment(df, by="role", contrast_to="discarder_ready").set_index("role")
    assert r.loc["discarder_ready", "mean"] == -2 and r.loc["discarder_not_ready", "mean"] == -8
    assert r.loc["discarder", "mean"] == -5 and r.loc["discarder", "n"] == 2
    assert r.loc["discarder_not_ready", "diff"] == -6 and r.loc["discarder_ready", "diff"] == 0
    s = an.expected_payment(df, by="seat", contrast_to=0).set_index("seat")
    assert s.loc[3, "diff"] == pytest.approx((-8 - 2) / 2 - (0 + 5) / 2)
    with pytest.raises(ValueError, match="cannot contrast to 'boss'"):
        an.expected_payment(df, by="role", contrast_to="boss")


def test_expected_payment_interval_covers_truth_on_synthetic_data():
    rng = np.random.default_rng(3)
    rows = [self_draw(int(rng.integers(4)), list(rng.integers(0, 5, 4)), deal=i) for i in range(400)]
    df = frame(rows)
    e = an.expected_payment(df, by="role").set_index("role")
    # the winner receives three 2^N with N uniform on 0..4: expected 3 * 31 / 5 = 18.6
    assert e.loc["winner", "lo"] < 18.6 < e.loc["winner", "hi"]


# --------------------------------------------------------------------------- paired, strategies


def two_variant_frame() -> pd.DataFrame:
    base = [
        self_draw(0, [1, 1, 1, 1], deal=0),
        deal(deal=1),
        self_draw(1, [1, 0, 0, 0], deal=2),
        deal(deal=3),
    ]
    alt = [
        deal(deal=0),
        deal(deal=1),
        self_draw(1, [2, 0, 0, 0], deal=2, bao="bao"),
        self_draw(3, [2, 0, 0, 0], deal=3),
        self_draw(3, [2, 0, 0, 0], deal=9),  # no partner in the baseline: ignored
    ]
    return frame(base + alt, variants=["classic"] * 4 + ["no_swap"] * 5)


def test_paired_difference_exact():
    df = two_variant_frame()
    t = an.paired_difference(df, "win")
    assert len(t) == 1 and t["n_pairs"].item() == 4 and t["baseline"].item() == "classic"
    # wins: classic 1,0,1,0 ; no_swap 0,0,1,1 -> mean difference 0
    assert t["diff"].item() == 0 and t["lo"].item() < 0 < t["hi"].item()
    t = an.paired_difference(df, ["dealer_pay", "bao_draw", "max_pay"]).set_index("metric")
    # dealer_pay: classic 6, 0, -2, 0 ; no_swap 0, 0, -4, -4 -> diffs -6, 0, -2, -4
    assert t.loc["dealer_pay", "diff"] == pytest.approx(-3)
    assert t.loc["dealer_pay", "baseline_mean"] == pytest.approx(1)
    assert t.loc["bao_draw", "diff"] == pytest.approx(0.25)
    assert t.loc["max_pay", "diff"] == pytest.approx((-2 + 0 + 2 + 4) / 4)
    t = an.paired_difference(df, ["winner_gain", "ready_share"]).set_index("metric")
    # winner gains: classic 6, 0, 4, 0 ; no_swap 0, 0, 6, 6
    assert t.loc["winner_gain", "diff"] == pytest.approx((-6 + 0 + 2 + 6) / 4)
    assert t.loc["ready_share", "diff"] == 0
    t = an.paired_difference(df, "draws", baseline_variant="no_swap")
    assert t["variant"].item() == "classic" and t["diff"].item() == 0
    custom = an.paired_difference(df, lambda g: g["pay_1"])
    assert custom["diff"].item() == pytest.approx(((0 - -2) + 0 + (4 - 2) + (-1 - 0)) / 4)


def test_strategy_results_maps_seats():
    rows = []
    for i in range(8):
        rot = i % 4
        strat = ["kanchan_hunter" if (s - rot) % 4 == 0 else "greedy" for s in range(4)]
        winner = rot if i < 4 else (rot + 1) % 4  # the hunter wins the first four deals
        rows.append(self_draw(winner, [1, 1, 1, 1], deal=i, strategy=strat))
    df = frame(rows)
    t = an.strategy_results(df).set_index("strategy")
    # each win: 3 losers pay 2 each (dealer seat 0 has no extra fan here: fans are given directly)
    assert t.loc["kanchan_hunter", "n"] == 8 and t.loc["greedy", "n"] == 24
    assert t.loc["kanchan_hunter", "mean_pay"] == pytest.approx((4 * 6 + 4 * -2) / 8)
    # greedy seats: win 4 deals (+6), lose 20 seat-deals (-2)
    assert t.loc["greedy", "mean_pay"] == pytest.approx((4 * 6 - 20 * 2) / 24)
    assert t.loc["kanchan_hunter", "win_rate"] == 0.5 and t.loc["greedy", "win_rate"] == pytest.approx(4 / 24)
    # money is conserved across strategies
    total = (t["mean_pay"] * t["n"]).sum()
    assert total == pytest.approx(0)


def test_strategy_results_pools_rotations_with_paired_contrast():
    # two rotations of the same two walls; "hunter" wins wherever it sits on deal 0
    rows, variants = [], []
    for rot in range(2):
        strat = (
            ["hunter", "greedy", "greedy", "greedy"] if rot == 0 else ["greedy", "hunter", "greedy", "greedy"]
        )
        hunter = strat.index("hunter")
        rows.append(self_draw(hunter, [2, 2, 2, 2], deal=0, strategy=strat))  # +12, losers -4
        rows.append(self_draw((hunter + 2) % 4, [0, 0, 0, 0], deal=1, strategy=strat))  # +3, losers -1
        variants += [f"rotation_{rot}"] * 2
    df = frame(rows, variants=variants)
    t = an.strategy_results(df).set_index("strategy")
    assert "variant" not in t.columns
    assert t.loc["hunter", "n"] == 4 and t.loc["greedy", "n"] == 12
    assert t.loc["hunter", "mean_pay"] == pytest.approx((12 - 1) * 2 / 4)
    greedy = (2 * (-4 * 3) + 2 * (3 - 1 - 1)) / 12
    assert t.loc["greedy", "mean_pay"] == pytest.approx(greedy)
    assert t.loc["hunter", "diff"] == pytest.approx(11 / 2 - greedy)
    assert t.loc["greedy", "diff"] == 0 and t.loc["greedy", "diff_lo"] == 0
    per = an.strategy_results(df, pool_variants=False, baseline_strategy="hunter")
    assert set(per["variant"]) == {"rotation_0", "rotation_1"}
    assert (per[per["strategy"] == "hunter"]["diff"] == 0).all()
    with pytest.raises(ValueError, match="baseline strategy 'nobody' never plays"):
        an.strategy_results(df, baseline_strategy="nobody")


# --------------------------------------------------------------------------- summary and files


def test_summary_is_tidy_with_intervals_and_adjusted_differences():
    df = two_variant_frame()
    s = an.summarize(df)
    assert list(s.columns) == ["variant", "metric", "estimate", "lo", "hi", "n", "method"]
    assert list(dict.fromkeys(s["variant"])) == ["classic", "no_swap"]
    assert not s.duplicated(["variant", "metric"]).any()
    t = s.set_index(["variant", "metric"])
    assert t.loc[("classic", "deals"), "estimate"] == 4 and t.loc[("no_swap", "deals"), "n"] == 5
    assert t.loc[("classic", "deals_won_share"), "estimate"] == 0.5
    for v, g in df.groupby("variant", observed=True):  # 和了率 and 放铳率 per seat-deal of a role
        w, d, disc, n = g["winner"], g["dealer"], g["discarder"], len(g)
        per_seat = {
            "win_rate_dealer": (w == d).sum() / n,
            "win_rate_non_dealer": ((w >= 0) & (w != d)).sum() / (3 * n),
            "deal_in_rate_dealer": ((w >= 0) & (disc == d)).sum() / n,
            "deal_in_rate_non_dealer": ((w >= 0) & (disc >= 0) & (disc != d)).sum() / (3 * n),
        }
        for name, rate in per_seat.items():
            assert t.loc[(v, name), "estimate"] == pytest.approx(rate), (v, name)
        assert t.loc[(v, "win_rate_non_dealer"), "n"] == 3 * n
    assert t.loc[("no_swap", "outcome_exhaustive_draw"), "estimate"] == pytest.approx(2 / 5)
    assert t.loc[("no_swap", "bao_share_bao"), "estimate"] == pytest.approx(1 / 3)
    assert t.loc[("classic", "pay_mean_seat0"), "estimate"] == pytest.approx((6 - 2) / 4)
    assert t.loc[("no_swap", "diff_dealer_pay"), "estimate"] == pytest.approx(-3)
    assert ("classic", "diff_win") not in t.index  # no difference of the baseline with itself
    diff = t.loc[("no_swap", "diff_win")]
    assert "Bonferroni" in diff["method"] and f"family of {len(an.SUMMARY_DIFF_METRICS)}" in diff["method"]
    for name in (
        "ready_by_draw_dealer_k6",
        "wait_ready_label_kanchan",
        "wait_win_two_sided",
        "net_q99_seat0",
    ):
        assert ("classic", name) in t.index
    # every estimate has an interval around it (counts and exact constants have lo == hi)
    finite = s[np.isfinite(s["estimate"])]
    assert (finite["lo"] <= finite["estimate"] + 1e-12).all() and (
        finite["estimate"] <= finite["hi"] + 1e-12
    ).all()
    # estimands needing own_draws only appear when the column is there
    assert not s["metric"].str.startswith("ready_kaplan_meier").any()
    single = an.summarize(payment_frame())
    assert set(single["variant"]) == {"all"} and not single["metric"].str.startswith("diff_").any()


def test_every_summary_metric_is_found_in_the_registry_by_its_name():
    df = with_new_columns(two_variant_frame())
    s = an.summarize(df)
    families = [p.strip() for m in an.SUMMARY_METRICS for p in m.name.split(" / ")]
    prefixes = [f.split("{")[0] for f in families]
    for metric in set(s["metric"]):
        assert any(metric.startswith(p) for p in prefixes), metric
    assert s["metric"].str.startswith("ready_kaplan_meier_dealer_k").any()
    assert s["metric"].str.startswith("wait_ready_pure_").any()


def test_headline_table_and_run_summary_name_the_plots(tmp_path):
    from daqing_sim.experiments.cli import format_summary

    df = two_variant_frame()
    table = an.write_summary(df, tmp_path / "run")
    text = format_summary(table)
    lines = text.splitlines()
    assert lines[0].split() == ["classic", "no_swap"]
    body = lines[1 : lines.index("")]
    assert 8 <= len(body) <= 16
    assert any(line.startswith("diff_win") for line in body)
    for png in ("ready_probability.png", "wait_kinds.png", "payments.png", "risk.png"):
        assert f"plot: {tmp_path / 'run' / png}" in text


def test_write_summary_files_atomic(tmp_path):
    df = two_variant_frame()
    out = tmp_path / "run"
    table = an.write_summary(df, out)
    names = sorted(p.name for p in out.iterdir())
    assert names == ["payments.png", "ready_probability.png", "risk.png", "summary.csv", "wait_kinds.png"]
    back = pd.read_csv(out / "summary.csv")
    assert list(back.columns) == an.SUMMARY_COLUMNS
    assert back["estimate"].to_numpy() == pytest.approx(table["estimate"].to_numpy(), nan_ok=True)
    for png in out.glob("*.png"):
        assert png.read_bytes()[:4] == b"\x89PNG"
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="not a directory"):
        an.write_summary(df, tmp_path / "file")


def test_ready_plot_uses_one_panel_per_role_only_for_several_variants():
    two = two_variant_frame()
    assert len(an.plot_ready_probability(two).axes) == 2
    one = two[two["variant"] == "classic"]
    fig = an.plot_ready_probability(one)
    assert len(fig.axes) == 1 and len(fig.axes[0].get_lines()) == 2  # dealer and non_dealer


def test_plots_return_figures_with_labelled_axes():
    from matplotlib.figure import Figure

    df = with_new_columns(two_variant_frame())
    figures = {
        "ready": an.plot_ready_probability(df, estimand="kaplan_meier"),
        "waits": an.plot_wait_kinds(df),
        "payments": an.plot_payment_distribution(df),
        "expected": an.plot_expected_payment(df, by="role"),
        "paired": an.plot_paired_difference(an.paired_difference(df, ["win", "dealer_pay"])),
        "strategy": an.plot_strategy_results(df),
        "risk": an.plot_net_result(df),
        "length": an.plot_deal_length(df),
    }
    for name, fig in figures.items():
        assert isinstance(fig, Figure) and fig.axes, name
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title(), name
    assert len(figures["waits"].axes) == 3  # label, pure class, at win
    paired = figures["paired"].axes
    assert (
        len(paired) == 2 and "percentage points" in paired[0].get_xlabel() and "2^N" in paired[1].get_xlabel()
    )


def _render(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def test_bars_sit_on_their_ticks_and_one_variant_needs_no_legend():
    df = with_new_columns(two_variant_frame())
    one = df[df["variant"] == "classic"]
    for fig, n in (
        (an.plot_expected_payment(one, by="seat"), 4),
        (an.plot_expected_payment(one, by="role"), 8),
    ):
        ax = fig.axes[0]
        centres = sorted(p.get_x() + p.get_width() / 2 for p in ax.patches)
        assert len(centres) == n and centres == pytest.approx(sorted(ax.get_xticks()))
        assert ax.get_legend() is None
    # strategies: one bar per strategy on its tick, whatever the variants (rotations) of the frame
    for ax in an.plot_strategy_results(df).axes:
        centres = sorted(p.get_x() + p.get_width() / 2 for p in ax.patches)
        assert centres == pytest.approx(sorted(ax.get_xticks())) and ax.get_legend() is None
    # two variants: two bars per seat, the pair centred on the seat's tick, named in a legend
    ax = an.plot_expected_payment(df, by="seat").axes[0]
    centres = np.sort([p.get_x() + p.get_width() / 2 for p in ax.patches]).reshape(-1, 2)
    assert len(centres) == 4 and centres.mean(axis=1) == pytest.approx(ax.get_xticks())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["classic", "no_swap"]


def test_plot_texts_and_legends_stay_inside_the_figure_and_off_the_axes():
    df = with_new_columns(two_variant_frame())
    figures = [
        an.plot_net_result(df),
        an.plot_wait_kinds(df),
        an.plot_expected_payment(df, by="seat"),
        an.plot_strategy_results(df),
        an.plot_payment_distribution(pd.concat([df, df.assign(variant="third")])),
    ]
    for fig in figures:
        renderer = _render(fig)
        page = fig.bbox
        for ax in fig.axes:
            box = ax.get_window_extent(renderer)
            for t in ax.texts:  # values written on the plot: inside the axes, not clipped at the top
                b = t.get_window_extent(renderer)
                assert box.x0 - 1 <= b.x0 and b.x1 <= box.x1 + 1 and box.y0 - 1 <= b.y0 and b.y1 <= box.y1 + 1
            legend = ax.get_legend()
            if legend is not None and legend.get_bbox_to_anchor().x0 > box.x0 + 1:  # an outside legend
                b = legend.get_window_extent(renderer)
                assert not b.overlaps(box) and page.x0 <= b.x0 and b.x1 <= page.x1 + 1


def test_risk_plot_shows_every_variant():
    df = with_new_columns(two_variant_frame())
    ax = an.plot_net_result(df).axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["classic", "no_swap"]
    assert len(ax.texts) == 8  # mean and P(loss) above each of 4 seats x 2 variants
    assert "(" not in ax.get_title().splitlines()[0]  # no "(first variant)" any more


def test_interval_levels_are_written_as_percentages_with_their_adjustment():
    df = with_new_columns(two_variant_frame())
    adjusted = an.paired_difference(df, ["win", "dealer_pay"], adjust="bonferroni")
    labels = [ax.get_xlabel() for ax in an.plot_paired_difference(adjusted).axes]
    assert all("97.5 % CI (Bonferroni, family of 2)" in x and "0.975" not in x for x in labels)
    plain = an.plot_paired_difference(an.paired_difference(df, ["win"])).axes[0].get_xlabel()
    assert "95 % CI" in plain and "Bonferroni" not in plain


def test_ready_plot_writes_its_values_in_the_legend_not_over_the_curves():
    df = with_new_columns(two_variant_frame())
    ax = an.plot_ready_probability(df[df["variant"] == "classic"]).axes[0]
    assert not ax.texts
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert [x.split(" (")[0] for x in labels] == ["dealer", "non-dealer"]  # one variant: not named
    assert all("k 6: " in x and ", 12: " in x for x in labels)


@pytest.mark.parametrize("estimand", ["by_draw", "at_risk", "kaplan_meier"])
def test_ready_plot_speaks_a_players_words(estimand):
    """The title says what the curve means without the estimator's jargon; the legend and the
    panels name the roles as a player says them."""
    df = with_new_columns(two_variant_frame())
    for fig in (
        an.plot_ready_probability(df, estimand=estimand),
        an.plot_ready_probability(df[df["variant"] == "classic"], estimand=estimand),
    ):
        for ax in fig.axes:
            title = ax.get_title()
            jargon = [
                w for w in ("kaplan", "meier", "censor", "S(k)", "estimand", estimand) if w in title.lower()
            ]
            assert not jargon, title
            texts = [t.get_text() for t in ax.get_legend().get_texts()] + [title]
            assert not any("non_dealer" in t for t in texts), texts
    titles = [ax.get_title() for ax in an.plot_ready_probability(df, estimand=estimand).axes]
    assert "(dealer)" in titles[0] and "(non-dealer)" in titles[1]


def test_risk_plot_says_which_seat_deals():
    df = with_new_columns(two_variant_frame())
    ax = an.plot_net_result(df).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0\ndealer", "1", "2", "3"]
    assert "seat 0 deals every deal" in ax.get_xlabel()
    moved = df.assign(dealer=np.int8(2))
    ax = an.plot_net_result(moved).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2\ndealer", "3"]
    mixed = df.assign(dealer=(df["deal"] % 4).astype(np.int8))
    ax = an.plot_net_result(mixed).axes[0]
    assert "dealer" not in " ".join(t.get_text() for t in ax.get_xticklabels())
    assert "dealer changes" in ax.get_xlabel()


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "call",
    [
        lambda d: an.ready_probability(d),
        lambda d: an.wait_kind_frequencies(d, at="win"),
        lambda d: an.outcome_shares(d),
        lambda d: an.bao_shares(d),
        lambda d: an.fan_distribution(d),
        lambda d: an.payment_distribution(d),
        lambda d: an.expected_payment(d, by="role"),
        lambda d: an.strategy_results(d),
        lambda d: an.summarize(d),
        lambda d: an.net_result(d),
        lambda d: an.write_summary(d, "unused_dir_never_created"),
    ],
)
def test_missing_columns_are_named(call):
    df = payment_frame().drop(columns=["outcome", "pay_2", "fans_1", "ready_turn_3", "winner", "strategy_0"])
    with pytest.raises(ValueError, match="missing column") as err:
        call(df)
    assert any(c in str(err.value) for c in ("outcome", "pay_2", "fans_1", "ready_turn_3", "winner"))


def test_bad_arguments_raise_value_error():
    df = two_variant_frame()
    with pytest.raises(ValueError, match="cannot group by 'colour'"):
        an.ready_probability(df, by="colour")
    with pytest.raises(ValueError, match="max_draws"):
        an.ready_probability(df, max_draws=-1)
    with pytest.raises(ValueError, match="'ready' or 'win'"):
        an.wait_kind_frequencies(df, at="end")
    with pytest.raises(ValueError, match="'seat' or 'role'"):
        an.expected_payment(df, by="wind")
    with pytest.raises(ValueError, match="unknown metric 'luck'"):
        an.paired_difference(df, "luck")
    with pytest.raises(ValueError, match="baseline variant 'nope'"):
        an.paired_difference(df, "win", baseline_variant="nope")
    with pytest.raises(ValueError, match="no rows"):
        an.outcome_shares(df.iloc[:0])
    for call in (an.outcome_shares, an.ready_probability, an.wait_kind_frequencies, an.summarize):
        with pytest.raises(ValueError, match="expected a results DataFrame"):
            call([1, 2])
    with pytest.raises(ValueError, match="missing column.*variant"):
        an.paired_difference(payment_frame(), "win")


def fake_compute_chunk(task, simulate_fn=None) -> pd.DataFrame:
    """Stand-in for the simulator: a consistent random chunk of task.n_deals deals."""
    rng = np.random.default_rng(task.seed + task.start)
    rows = []
    for i in range(task.n_deals):
        if rng.random() < 0.3:
            rows.append(deal(deal=task.start + i, strategy=list(task.strategies)))
        else:
            winner = int(rng.integers(4))
            rows.append(
                self_draw(
                    winner, list(rng.integers(0, 4, 4)), deal=task.start + i, strategy=list(task.strategies)
                )
            )
    df = frame(rows)
    return df.drop(columns=["variant"], errors="ignore")


def test_experiment_results_runs_small_then_reuses(tmp_path, monkeypatch):
    from daqing_sim.experiments import runner as _runner
    from daqing_sim.experiments.runner import experiment_results

    calls = []

    def counting(task, simulate_fn=None):
        calls.append(task.variant)
        return fake_compute_chunk(task)

    monkeypatch.setattr(_runner, "compute_chunk", counting)
    exp = tmp_path / "tiny.toml"
    exp.write_text(
        'name = "tiny"\nn_deals = 1000\nseed = 5\nchunk_size = 500\nstrategies = "greedy"\n'
        '[[variants]]\nname = "a"\n[[variants]]\nname = "b"\nrules = { kong_fan = true }\n'
    )
    df = experiment_results(exp, n_deals=40, out=tmp_path / "res")
    assert len(df) == 80 and list(df["variant"].cat.categories) == ["a", "b"]
    assert (tmp_path / "res" / ".quick" / "tiny-n40" / "summary.csv").is_file()
    assert sorted(calls) == ["a", "b"]
    again = experiment_results(exp, n_deals=40, out=tmp_path / "res")
    assert len(calls) == 2 and again.equals(df)
    # once the full-size run exists it is preferred
    experiment_results(exp, n_deals=None, out=tmp_path / "res")
    assert len(experiment_results(exp, n_deals=40, out=tmp_path / "res")) == 2000


def test_large_frame_summary_uses_blocks_and_stays_fast(tmp_path):
    import time

    from daqing_sim.experiments.runner import ChunkTask
    from daqing_sim.rules import RuleSet

    task = ChunkTask("a", 0, 0, 3000, RuleSet(), ("greedy",) * 4, None, 1, 0, False)
    one = fake_compute_chunk(task)
    big = pd.concat([one] * 10, ignore_index=True)  # 30 000 deals > MAX_BLOCKS
    big["deal"] = np.arange(len(big))
    t0 = time.perf_counter()
    e = an.expected_payment(big, by="role").set_index("role")
    assert time.perf_counter() - t0 < 60  # hang guard (about 2 s here); speed is `daqing-sim bench`'s
    assert e.loc["winner", "lo"] < e.loc["winner", "mean"] < e.loc["winner", "hi"]
    assert an.format_ci(0.5, 0.25, 0.75, percent=True) == "50.0% (95% CI 25.0 to 75.0%)"
    t = an.summarize(big)
    assert t["metric"].nunique() > 100 and (t["variant"] == "all").all()


# --------------------------------------------------------------------------- new estimands


def censored_ready_frame() -> pd.DataFrame:
    df = ready_frame()
    own = [[6, 6, 5, 5], [3, 3, 3, 2], [9, 8, 8, 8], [4, 5, 4, 4]]
    for s in range(4):
        df[f"own_draws_{s}"] = np.array([o[s] for o in own], dtype=np.int16)
    return df


def test_ready_at_risk_conditions_on_the_seats_still_drawing():
    t = an.ready_probability(censored_ready_frame(), max_draws=8, estimand="at_risk")
    dealer = t[t["role"] == "dealer"].set_index("k")
    # dealer seats (turn, own draws): (2, 6) (-1, 3) (7, 9) (4, 5)
    assert (
        dealer.loc[4, "n"] == 3 and dealer.loc[4, "ready"] == 2 and dealer.loc[4, "p"] == pytest.approx(2 / 3)
    )
    assert dealer.loc[6, "n"] == 2 and dealer.loc[6, "p"] == pytest.approx(1 / 2)
    assert (t["estimand"] == "at_risk").all()
    lo, hi = wilson_reference(2, 3)
    assert dealer.loc[4, "lo"] == pytest.approx(lo) and dealer.loc[4, "hi"] == pytest.approx(hi)


def test_kaplan_meier_matches_a_hand_computation():
    t = an.ready_probability(censored_ready_frame(), max_draws=8, estimand="kaplan_meier")
    dealer = t[t["role"] == "dealer"].set_index("k")
    # events at 2, 4, 7; censored at 3. S(2) = 3/4; S(4) = 3/4 * 1/2; S(7) = 0
    expected = {0: 0, 1: 0, 2: 1 / 4, 3: 1 / 4, 4: 1 - 3 / 8, 6: 1 - 3 / 8, 7: 1.0, 8: 1.0}
    for k, p in expected.items():
        assert dealer.loc[k, "p"] == pytest.approx(p), k
    assert list(dealer.loc[[2, 3, 4, 5], "n"]) == [4, 3, 2, 1]  # at risk
    assert dealer.loc[4, "lo"] < dealer.loc[4, "p"] < dealer.loc[4, "hi"]
    # non-dealers: the censored seat stays in the risk set up to its last draw
    other = t[t["role"] == "non_dealer"].set_index("k")
    assert other.loc[0, "p"] == pytest.approx(1 / 12)


def test_censoring_estimands_name_the_missing_column():
    with pytest.raises(ValueError, match="missing column.*own_draws_0"):
        an.ready_probability(ready_frame(), estimand="kaplan_meier")
    with pytest.raises(ValueError, match="estimand must be one of"):
        an.ready_probability(ready_frame(), estimand="ever")
    with pytest.raises(ValueError, match="missing column.*ready_wait_mask_0"):
        an.wait_classes(ready_frame())


def test_pure_wait_classes_and_label_purity():
    df = ready_frame()  # ready seats: 8; labels kanchan x3, edge x3, single, two_sided
    masks = [[3, 2, 0, 0], [0, 1, 16, 0], [4, 0, 0, 1], [2, 6, 0, 0]]
    tiles = [[2, 1, 0, 0], [0, 1, 3, 0], [1, 0, 0, 1], [1, 3, 0, 0]]
    for s in range(4):
        df[f"ready_wait_mask_{s}"] = np.array([m[s] for m in masks], dtype=np.int8)
        df[f"ready_wait_tiles_{s}"] = np.array([t[s] for t in tiles], dtype=np.int8)
    c = an.wait_classes(df).set_index("wait_class")
    assert list(c.index) == list(an.WAIT_CLASSES)
    assert c.loc["kanchan_only", "count"] == 2 and c.loc["edge_only", "count"] == 2
    assert c.loc["two_or_more_kinds", "count"] == 2 and c.loc["two_sided_only", "count"] == 1
    assert c.loc["single_only", "count"] == 1 and c["n"].iloc[0] == 8
    assert c.loc["two_or_more_kinds", "mean_tiles"] == pytest.approx((2 + 3) / 2)
    lo, hi = wilson_reference(2, 8)
    assert c.loc["kanchan_only", "lo"] == pytest.approx(lo) and c.loc["kanchan_only", "hi"] == pytest.approx(
        hi
    )
    p = an.wait_label_purity(df).set_index("wait_kind")
    # labelled kanchan: masks 3 (two kinds, 2 tiles), 1, 1 -> one of three holds more
    assert (
        p.loc["kanchan", "n"] == 3
        and p.loc["kanchan", "more_kinds"] == 1
        and p.loc["kanchan", "more_tiles"] == 1
    )
    assert p.loc["edge", "more_kinds"] == 1 and p.loc["edge", "more_tiles"] == 1  # mask 6, 3 tiles
    assert p.loc["two_sided", "more_tiles_share"] == 1.0 and p.loc["two_sided", "more_kinds"] == 0


def test_wait_outcomes_by_declaration_turn():
    df = ready_frame()
    df.loc[1, ["outcome", "winner", "pay_1", "pay_0", "pay_2", "pay_3"]] = ["self_draw", 1, 6, -2, -2, -2]
    t = an.wait_kind_outcomes(df, turn_bins=(0, 4)).set_index(["turns", "wait_kind"])
    # kanchan declared at turns 2 (deal 0), 0 (deal 1, wins +6), 1 (deal 2): all in 0-3
    assert t.loc[("0-3", "kanchan"), "n"] == 3 and t.loc[("0-3", "kanchan"), "mean_pay"] == pytest.approx(2)
    assert t.loc[("4+", "kanchan"), "n"] == 0
    # edge declared at 5 (deal 0) and 4, 4 (deal 3)
    assert t.loc[("4+", "edge"), "n"] == 3 and t.loc[("0-3", "edge"), "n"] == 0
    with pytest.raises(ValueError, match="'label' or 'pure'"):
        an.wait_kind_outcomes(df, classes="whole")


def test_declaration_turn_bands_sort_in_turn_order():
    t = an.wait_kind_outcomes(ready_frame(), turn_bins=(0, 4, 7, 10))
    order = ["0-3", "4-6", "7-9", "10+"]
    # as text "10+" sorts before "4-6"; a pivot of the table must keep the turn order
    assert list(t["turns"].cat.categories) == order and t["turns"].cat.ordered
    assert list(t.pivot_table(index="turns", columns="wait_kind", values="n", observed=False).index) == order
    assert list(dict.fromkeys(t.sort_values("turns", kind="stable")["turns"])) == order


def test_net_result_risk_statistics_exact():
    t = an.net_result(payment_frame(), by="seat").set_index(["seat", "statistic"])["estimate"]
    # seat 0 nets +8, -8, 0, 0
    assert t[(0, "mean")] == 0 and t[(0, "sd")] == pytest.approx(math.sqrt(128 / 3))
    assert t[(0, "q01")] == -8 and t[(0, "q50")] == 0 and t[(0, "q99")] == 8
    assert t[(0, "p_loss")] == 0.25
    # seat 3 nets -2, -4, -8, 0
    assert t[(3, "q05")] == -8 and t[(3, "q50")] == -4 and t[(3, "p_loss")] == 0.75
    r = an.net_result(payment_frame(), by="role").set_index(["role", "statistic"])
    assert r.loc[("bystander", "p_loss"), "estimate"] == 0 and r.loc[("bystander", "sd"), "estimate"] == 0
    assert r.loc[("winner", "q50"), "estimate"] == 8 and r.loc[("winner", "p_loss"), "n"] == 3
    full = an.net_result(payment_frame())
    assert ((full["lo"] <= full["estimate"]) & (full["estimate"] <= full["hi"])).all()


def test_deal_length_statistics():
    df = payment_frame()
    df["draws"] = np.array([10, 20, 30, 58], dtype=np.int16)
    t = an.deal_length(df).set_index("statistic")
    assert t.loc["mean", "estimate"] == pytest.approx(29.5) and t.loc["q50", "estimate"] == 20
    assert t.loc["q99", "estimate"] == 58 and "p_loss" not in t.index


def test_winner_kong_share_and_fan_intervals():
    df = payment_frame()
    df["winner_kongs"] = np.array([1, 0, 2, 0], dtype=np.int8)
    k = an.winner_kong_share(df)
    assert k["count"].item() == 2 and k["n"].item() == 3
    lo, hi = wilson_reference(2, 3)
    assert k["lo"].item() == pytest.approx(lo) and k["hi"].item() == pytest.approx(hi)
    f = an.fan_distribution(df).set_index("N")
    assert (f["n"] == 9).all() and f.loc[1, "lo"] < f.loc[1, "share"] < f.loc[1, "hi"]


def test_bonferroni_widens_paired_intervals_and_states_the_family():
    rng = np.random.default_rng(4)
    rows = [self_draw(int(rng.integers(4)), list(rng.integers(0, 3, 4)), deal=i) for i in range(120)]
    rows += [self_draw(int(rng.integers(4)), list(rng.integers(0, 3, 4)), deal=i) for i in range(120)]
    df = frame(rows, variants=["a"] * 120 + ["b"] * 120)
    plain = an.paired_difference(df, ["dealer_pay", "max_pay"]).set_index("metric")
    adj = an.paired_difference(df, ["dealer_pay", "max_pay"], adjust="bonferroni").set_index("metric")
    assert (adj["family_size"] == 2).all() and adj["confidence"].iloc[0] == pytest.approx(0.975)
    assert (adj["hi"] - adj["lo"] > plain["hi"] - plain["lo"]).all()
    assert (adj["diff"] == plain["diff"]).all()
    assert an.familywise_confidence(5) == pytest.approx(0.99)
    with pytest.raises(ValueError, match="adjust must be None or 'bonferroni'"):
        an.paired_difference(df, "win", adjust="holm")


def test_bootstrap_is_scipys_percentile_bootstrap_on_the_same_resamples():
    # the oracle: scipy.stats.bootstrap drawing the same rows (same seed, same batches)
    from scipy import stats

    rng = np.random.default_rng(3)
    x = rng.exponential(size=(240, 2)) * (rng.random((240, 2)) < 0.6)
    c = (x > 0).astype(float)
    est, lo, hi = an.bootstrap_ratio(x, c, n_resamples=3000, seed=7)

    def ratio(i, axis=-1):
        return np.stack([x[i, g].sum(axis) / c[i, g].sum(axis) for g in range(2)])

    res = stats.bootstrap(
        (np.arange(240),),
        ratio,
        n_resamples=3000,
        method="percentile",
        rng=np.random.default_rng(7),
        batch=2_000_000 // 240,
    )
    assert est == pytest.approx(x.sum(0) / c.sum(0))
    assert lo == pytest.approx(res.confidence_interval.low, rel=1e-12)
    assert hi == pytest.approx(res.confidence_interval.high, rel=1e-12)
    # a second call (resamples reused) and another statistic of the same rows agree with it
    assert an.bootstrap_ratio(x, c, n_resamples=3000, seed=7)[1] == pytest.approx(lo, rel=0, abs=0)
    _, lo0, hi0 = an.bootstrap_ratio(x[:, 0], c[:, 0], n_resamples=3000, seed=7)
    res0 = stats.bootstrap(
        (np.arange(240),),
        lambda i, axis=-1: x[i, 0].sum(axis) / c[i, 0].sum(axis),
        n_resamples=3000,
        method="percentile",
        rng=np.random.default_rng(7),
        batch=2_000_000 // 240,
    )
    assert (lo0, hi0) == pytest.approx(
        (res0.confidence_interval.low, res0.confidence_interval.high), rel=1e-12
    )


def test_quantile_intervals_are_scipys_quantile_test_intervals():
    from scipy import stats

    rng = np.random.default_rng(4)
    for n in (1, 3, 20, 150, 2000):
        x = rng.integers(-16, 48, n).astype(float)
        ps = (0.01, 0.05, 0.5, 0.95, 0.99)
        est, lo, hi = an.quantile_intervals(x, ps, 0.99)
        for p, e, a, b in zip(ps, est, lo, hi, strict=True):
            ci = stats.quantile_test(x, p=p).confidence_interval(0.99)
            want = (-np.inf if np.isnan(ci.low) else ci.low, np.inf if np.isnan(ci.high) else ci.high)
            assert (a, b) == want and e == np.quantile(x, p, method="inverted_cdf")
            assert an.quantile_interval(x, p, 0.99) == (e, a, b)


def test_bootstrap_endpoints_monte_carlo_error_under_one_percent_of_half_width():
    x = np.random.default_rng(11).normal(size=300)
    ends = np.array([an.bootstrap_ratio(x, seed=s)[1:] for s in range(12)])
    half = (ends[:, 1] - ends[:, 0]).mean() / 2
    assert ends[:, 0].std(ddof=1) / half < 0.015 and ends[:, 1].std(ddof=1) / half < 0.015
    # with the old 999 resamples the same spread is several times larger
    few = np.array([an.bootstrap_ratio(x, seed=s, n_resamples=999)[1] for s in range(12)])
    assert few.std(ddof=1) > 2 * ends[:, 0].std(ddof=1)


def test_formatting_shows_significant_digits():
    assert an.format_ci(-0.0712, -0.0731, -0.0693) == "-0.0712 (95% CI -0.0731 to -0.0693)"
    assert an.format_diff(-0.00119, -0.00168, -0.00078, percent=True) == "-0.119 pp (95% CI -0.168 to -0.078)"
    assert an.format_ci(0.67, 0.64, 0.715) == "0.670 (95% CI 0.640 to 0.715)"
    assert an.format_ci(0.5, 0.4, 0.6, confidence=0.99) == "0.50 (99% CI 0.40 to 0.60)"


def test_formatting_never_prints_a_signed_zero():
    # a bystander's payment on a 点黑炮 is exactly zero, negated: -0.0
    assert an.format_ci(-0.0, -0.0, -0.0) == "0 (95% CI 0 to 0)"
    assert an.format_ci(-0.00004, -0.0001, 0.00002) == "-0.00004 (95% CI -0.00010 to 0.00002)"
    assert an.format_ci(-0.0004, -0.012, 0.011) == "0.000 (95% CI -0.012 to 0.011)"
    assert an.format_diff(-0.0004, -0.012, 0.011) == "0.000 (95% CI -0.012 to +0.011)"
    assert an.format_diff(0.0, -0.5, 0.25, percent=True) == "0.0 pp (95% CI -50.0 to +25.0)"
    assert "-0" not in an.format_ci(-1e-9, -2e-9, 1e-9).replace("-0.000000002", "")


def test_formatting_prints_whole_numbers_without_decimals():
    # quantiles of 2^N payments and deal lengths are whole numbers
    assert an.format_ci(-16.0, -16.0, -16.0) == "-16 (95% CI -16 to -16)"
    assert an.format_ci(24.0, 24.0, 25.0) == "24 (95% CI 24 to 25)"
    assert an.format_diff(3.0, 1.0, 4.0) == "+3 (95% CI +1 to +4)"
    # percentages keep the width rule (whole percentages are common): 50.0%, not 50%
    assert an.format_ci(0.5, 0.25, 0.75, percent=True) == "50.0% (95% CI 25.0 to 75.0%)"
    assert an.format_ci(1.0, 1.0, 1.0, percent=True) == "100.0% (95% CI 100.0 to 100.0%)"
    # one value not whole: the interval's width decides the decimals again
    assert an.format_ci(24.5, 24.0, 25.0) == "24.5 (95% CI 24.0 to 25.0)"
    assert an.format_ci(48.0, 47.5, 48.0) == "48.00 (95% CI 47.50 to 48.00)"


def test_formatting_of_degenerate_and_unbounded_intervals():
    # zero width, not whole: three significant digits of the estimate
    assert an.format_ci(0.1234567, 0.1234567, 0.1234567) == "0.123 (95% CI 0.123 to 0.123)"
    assert an.format_ci(123.456, 123.456, 123.456) == "123.5 (95% CI 123.5 to 123.5)"
    # an unbounded end (too few values for an order statistic)
    assert an.format_ci(-3.0, -np.inf, -1.0) == "-3 (95% CI -inf to -1)"
    assert an.format_ci(2.5, -np.inf, 4.0) == "2.50 (95% CI -inf to 4.00)"
    assert an.headline_table(
        pd.DataFrame(
            {
                "variant": ["a", "a"],
                "metric": ["draws_q50", "win_rate"],
                "estimate": [24.0, -0.0],
                "lo": [24.0, -0.0],
                "hi": [25.0, 0.0],
                "n": [9, 9],
                "method": ["x", "x"],
            }
        )
    ).split() == ["a", "win_rate", "0", "(0", "to", "0)", "draws_q50", "24", "(24", "to", "25)"]


def test_frame_text_of_a_categorical_is_its_astype_str():
    from daqing_sim.analysis._frame import text

    column = pd.Series(
        pd.Categorical(["kanchan", None, "edge", "kanchan"], categories=["edge", "kanchan", "x"])
    )
    assert (
        text(column[[0, 2, 3]]).tolist()
        == column[[0, 2, 3]].astype(str).tolist()
        == ["kanchan", "edge", "kanchan"]
    )
    assert text(column)[[0, 2]].tolist() == ["kanchan", "edge"] and pd.isna(column.astype(str)[1]) == pd.isna(
        text(column)[1]
    )
    plain = pd.Series([1, 2])
    assert text(plain).tolist() == ["1", "2"]


def test_payment_plot_of_a_run_nobody_won_says_so_instead_of_failing():
    df = frame([deal(deal=0), deal(deal=1)])  # two exhaustive draws: no payment at all
    fig = an.plot_payment_distribution(df)
    texts = [t.get_text() for t in fig.axes[1].texts]
    assert texts == ["no payments: no deal was won"]
    assert fig.axes[1].get_xscale() == "linear"
    fig.canvas.draw()  # renders without the log-scale error


def test_a_seat_that_never_gets_ready_has_an_upper_bound_not_nan(tmp_path):
    """Kaplan-Meier before any event: Greenwood's interval is undefined, the bound is the exact one
    for no event among the seats followed that far (each event-free through k)."""
    df = with_new_columns(two_variant_frame())
    for s in range(4):  # nobody ever declares ready
        df[f"ready_turn_{s}"] = np.int16(-1)
    t = an.ready_probability(df, by="role", estimand="kaplan_meier")
    assert (t["p"] == 0).all() and (t["lo"] == 0).all()
    at_risk = t["n"].to_numpy()
    expect = np.where(at_risk > 0, 1 - 0.025 ** (1 / np.maximum(at_risk, 1)), 1.0)
    assert t["hi"].to_numpy() == pytest.approx(expect)
    table = an.write_summary(df, tmp_path / "run")
    ready = table[table["metric"].str.startswith("ready_")]
    assert ready[["estimate", "lo", "hi"]].notna().all().all()
    back = pd.read_csv(tmp_path / "run" / "summary.csv")
    assert back.loc[back["metric"].str.startswith("ready_"), ["lo", "hi"]].notna().all().all()
    from daqing_sim.experiments.cli import format_summary

    assert "nan" not in format_summary(table)


def test_no_interval_is_said_in_words_never_nan():
    nan = float("nan")
    assert an.format_ci(0.5, 0.4, nan) == "0.500 (no 95% CI: too few cases)"
    assert an.format_ci(nan, nan, nan) == "n/a (no case to estimate it from)"
    s = pd.DataFrame(
        {"variant": ["a", "a"], "metric": ["win_rate", "self_draw"], "estimate": [0.5, nan]}
        | {"lo": [0.4, nan], "hi": [nan, nan], "n": [10, 0], "method": ["Wilson"] * 2}
    )
    assert "nan" not in an.headline_table(s) and "0.500 (no interval)" in an.headline_table(s)
