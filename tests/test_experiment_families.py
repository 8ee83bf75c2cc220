"""Experiments of several rule families: config, chunk identity, pairing, and the Beijing summary.

A variant plays Daqing or Beijing (``[rules] family = "beijing"``, or its own ``family``); walls
are shared and paired differences taken only within a family, chunks never serve another
family's variant, and a Beijing variant's summary rows equal direct computations on its frame.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import daqing_sim as ds
from daqing_sim import cli
from daqing_sim.analysis import families as fam
from daqing_sim.analysis.summary import summarize
from daqing_sim.experiments.config import load_experiment
from daqing_sim.experiments.runner import count_done, run_experiment
from daqing_sim.rules import RuleSet

BEIJING = RuleSet(family="beijing")

MIXED = """\
name = "mixed"
n_deals = 300
seed = 7
chunk_size = 150
strategies = "greedy"

[rules]
kong_fan = true

[[variants]]
name = "classic"

[[variants]]
name = "no_open"
rules = { require_open = false }

[[variants]]
name = "beijing"
rules = { family = "beijing" }

[[variants]]
name = "bj_no_mutual"
rules = { family = "beijing", mutual_bao = false }
"""


def write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    status = cli.main(argv)
    captured = capsys.readouterr()
    assert status == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


# ---------------------------------------------------------------- configuration


def test_beijing_rules_table_plays_every_variant_under_beijing_with_its_field(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, '[rules]\nfamily = "beijing"\n\n[[variants]]\nname = "a"\n'))
    (v,) = exp.variants
    assert v.rules == BEIJING and v.strategies == ("expert",) * 4  # default_field("beijing")
    assert exp.families() == ["beijing"] and exp.family_baseline("beijing") == "a"


def test_knobs_are_checked_against_the_players_knobs_of_the_family(tmp_path: Path, capsys) -> None:
    """The Beijing expert has knobs of its own (min_tenpai); Daqing's (keep_zhong) are not among them,
    and an experiment's knobs go to its own family's variants only."""
    text = '[rules]\nfamily = "beijing"\n[knobs]\nexpert = {{ {k} = {v} }}\n[[variants]]\nname = "a"\n'
    (v,) = load_experiment(write(tmp_path, text.format(k="min_tenpai", v=0.4))).variants
    assert v.knobs == {"expert": {"min_tenpai": 0.4}}
    with pytest.raises(ValueError, match="keep_zhong") as err:
        load_experiment(write(tmp_path, text.format(k="keep_zhong", v=1), "b.toml"))
    assert "\n" not in str(err.value) and "min_tenpai" in str(err.value)
    mixed = '[knobs]\nexpert = { keep_zhong = 1 }\n[[variants]]\nname = "d"\n'
    mixed += '[[variants]]\nname = "b"\nrules = { family = "beijing" }\n'
    exp = load_experiment(write(tmp_path, mixed, "c.toml"))
    assert {v.name: v.knobs for v in exp.variants} == {"d": {"expert": {"keep_zhong": 1}}, "b": {}}


def test_a_variant_of_another_family_starts_from_its_defaults(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, MIXED.replace('strategies = "greedy"\n', "")))
    rules = {v.name: v.rules for v in exp.variants}
    assert rules["classic"] == RuleSet(kong_fan=True)  # the experiment's [rules] are Daqing flags
    assert rules["no_open"] == RuleSet(kong_fan=True, require_open=False)
    assert rules["beijing"] == BEIJING and rules["bj_no_mutual"] == RuleSet(
        family="beijing", mutual_bao=False
    )
    fields = {v.name: v.strategies for v in exp.variants}
    assert fields["classic"] == ("expert",) * 4 and fields["beijing"] == ("expert",) * 4
    assert exp.families() == ["daqing", "beijing"]
    assert exp.family_baseline("daqing") == "classic" and exp.family_baseline("beijing") == "beijing"
    other = load_experiment(write(tmp_path, 'baseline = "bj_no_mutual"\n' + MIXED, "b.toml"))
    assert other.family_baseline("daqing") == "classic" and other.family_baseline("beijing") == "bj_no_mutual"


@pytest.mark.parametrize(
    "text, words",
    [
        (
            'strategies = "defensive"\n[rules]\nfamily = "beijing"\n',
            [
                "'defensive' does not play Beijing yet",
                "which the beijing variant 'base' plays",
                'strategies = "expert"',
            ],
        ),
        (
            '[rules]\nfamily = "beijing"\n[[variants]]\nname = "x"\n'
            'strategies = ["greedy", "greedy", "greedy", "jia_hunter"]\n',
            ["'jia_hunter' does not play Beijing yet", "strategies of", "expert or greedy or random"],
        ),
        (
            '[[variants]]\nname = "x"\nrules = { family = "beijing" }\n'
            'strategies = "daqing_sim.players.examples:RandomLegal"\n',
            ["a Python player (daqing_sim.players.examples:RandomLegal) does not play Beijing yet"],
        ),
        ('[[variants]]\nname = "x"\nrules = { family = "tianjin" }\n', ["unknown rule family 'tianjin'"]),
        (
            '[[variants]]\nname = "x"\nrules = { family = "beijing", kong_fan = true }\n',
            ["kong_fan is a Daqing flag, not a Beijing one", "Beijing flags: multiple_winners"],
        ),
        (
            '[tournament]\nentrants = ["greedy", "greedy", "random", "defensive"]\nn_walls = 8\n'
            'rules = { family = "beijing" }\n',
            ["'defensive' does not play Beijing yet", "entrants of"],
        ),
    ],
)
def test_family_configuration_errors_are_one_line(tmp_path, capsys, text: str, words: list[str]) -> None:
    path = write(tmp_path, text)
    line = cli_error(capsys, ["run", str(path), "--dry-run"])
    for w in words:
        assert w in line, line


def test_dry_run_names_the_family(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", str(write(tmp_path, MIXED)), "--dry-run", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "family=beijing, mutual_bao=false" in out and "    classic       kong_fan=true" in out


# ---------------------------------------------------------------- chunk identity


def test_chunk_identity_holds_the_family_and_chunks_never_cross_families(tmp_path: Path) -> None:
    text = 'name = "same"\nn_deals = 8\nchunk_size = 4\nstrategies = "greedy"\n[[variants]]\nname = "v"\n'
    path = write(tmp_path, text)
    a = load_experiment(path)
    b = load_experiment(write(tmp_path, text + 'rules = { family = "beijing" }\n', "b.toml"))
    ida, idb = a.chunk_identity(a.variants[0]), b.chunk_identity(b.variants[0])
    assert "family" not in ida["rules"]  # a Daqing identity is the one it was before families
    assert idb["rules"]["family"] == "beijing" and ida != idb
    out = tmp_path / "results"
    run_experiment(a, n_jobs=1, out=out, progress=False, summary=False)
    assert count_done(out / "same", a) == 2 and count_done(out / "same", b) == 0
    with pytest.raises(ValueError, match=r"changed: rules\.family \(daqing -> beijing\)"):
        run_experiment(b, n_jobs=1, out=out, progress=False, summary=False)
    redone = run_experiment(b, n_jobs=1, out=out, progress=False, summary=False, force=True)
    assert redone.n_reused == 0 and redone.n_computed == 2
    df = redone.load()
    assert set(df["family"].astype(str)) == {"beijing"} and "fan_total" in df.columns
    # and back: the Daqing plan reuses none of the Beijing chunks
    assert count_done(out / "same", a) == 0


# ---------------------------------------------------------------- a mixed experiment


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> tuple[pd.DataFrame, pd.DataFrame]:
    tmp = tmp_path_factory.mktemp("mixed")
    result = run_experiment(write(tmp, MIXED), n_jobs=1, out=tmp / "results", progress=False)
    df = result.load()
    df.attrs["outdir"] = str(result.outdir)
    return df, result.summary


def test_family_parts_split_a_mixed_frame_into_each_familys_columns(mixed) -> None:
    df, _ = mixed
    assert fam.variant_families(df) == {
        "classic": "daqing",
        "no_open": "daqing",
        "beijing": "beijing",
        "bj_no_mutual": "beijing",
    }
    (f1, dq), (f2, bj) = fam.family_parts(df)
    assert (f1, f2) == ("daqing", "beijing")
    assert "fan_total" not in dq.columns and "family" not in dq.columns and dq["big"].dtype == bool
    assert "big" not in bj.columns and "ready_turn_0" not in bj.columns
    assert list(dq["variant"].cat.categories) == ["classic", "no_open"]
    alone = ds.simulate(300, rules=RuleSet(kong_fan=True), strategies=("greedy",) * 4, seed=7)
    pd.testing.assert_frame_equal(
        dq[dq["variant"] == "classic"].drop(columns="variant").reset_index(drop=True),
        alone,
        check_dtype=False,
        check_categorical=False,
    )


def test_load_results_of_a_mixed_experiment_reads_each_familys_columns(mixed, tmp_path: Path) -> None:
    df, _ = mixed
    out = Path(df.attrs["outdir"])
    part = ds.load_results(out, columns=["fan_total", "big", "pay_0"])
    assert list(part.columns) == ["variant", "deal", "fan_total", "big", "pay_0"]
    daqing = part["variant"].isin(["classic", "no_open"])
    assert part.loc[daqing, "fan_total"].isna().all() and part.loc[~daqing, "fan_total"].notna().all()
    assert part.loc[~daqing, "big"].isna().all() and part.loc[daqing, "big"].notna().all()
    with pytest.raises(ValueError, match="column\\(s\\) nope not in"):
        ds.load_results(out, columns=["nope"])


def test_mixed_experiment_pairs_variants_only_within_a_family(mixed) -> None:
    df, summary = mixed
    diffs = summary[summary["metric"].str.startswith("diff_")]
    assert set(diffs["variant"]) == {"no_open", "bj_no_mutual"}
    for variant, baseline, family in (
        ("no_open", "classic", "Daqing"),
        ("bj_no_mutual", "beijing", "Beijing"),
    ):
        methods = set(diffs.loc[diffs["variant"] == variant, "method"])
        assert all(m.startswith(f"paired difference to {baseline} ({family} variants only") for m in methods)
        assert all("family of 6 " in m for m in methods)  # Bonferroni over its own family's pairs only
    fams = summary[summary["metric"].str.startswith("family_")].set_index("variant")["metric"].to_dict()
    assert fams == {
        "classic": "family_daqing",
        "no_open": "family_daqing",
        "beijing": "family_beijing",
        "bj_no_mutual": "family_beijing",
    }
    # the Beijing variants share walls: 互包 changes payments, not play, so every deal has the same length
    a, b = (df[df["variant"] == v].set_index("deal") for v in ("beijing", "bj_no_mutual"))
    assert (a["draws"] == b["draws"]).all() and (a["winner"] == b["winner"]).all()
    assert (b["mutual_payer"] == -1).all() and (a["mutual_payer"] >= 0).any()
    # and the Daqing rows are those of a Daqing-only summary of the same deals (no pairs across)
    dq = dict(fam.family_parts(df))["daqing"]
    alone = summarize(dq, baseline="classic")
    mine = summary[
        summary["variant"].isin(["classic", "no_open"]) & ~summary["metric"].str.startswith("family_")
    ]
    keep = ~alone["metric"].str.startswith("diff_")
    pd.testing.assert_frame_equal(
        mine[~mine["metric"].str.startswith("diff_")].reset_index(drop=True),
        alone[keep].reset_index(drop=True),
    )
    cols = ["variant", "metric", "estimate", "lo", "hi", "n"]
    pd.testing.assert_frame_equal(
        mine[mine["metric"].str.startswith("diff_")][cols].reset_index(drop=True),
        alone[~keep][cols].reset_index(drop=True),
    )


def test_a_beijing_baseline_leaves_daqing_its_first_variant(mixed) -> None:
    df, _ = mixed
    s = summarize(df, baseline="bj_no_mutual")
    diffs = s[s["metric"] == "diff_win"].set_index("variant")["method"]
    assert set(diffs.index) == {"no_open", "beijing"}
    assert diffs["no_open"].startswith("paired difference to classic")
    assert diffs["beijing"].startswith("paired difference to bj_no_mutual")


# ---------------------------------------------------------------- the Beijing summary


@pytest.fixture(scope="module")
def beijing() -> tuple[pd.DataFrame, pd.DataFrame]:
    df = ds.simulate(1500, rules=BEIJING, strategies=("greedy",) * 4, seed=3)
    return df, summarize(df).set_index("metric")


def _wilson(k: int, n: int) -> tuple[float, float]:
    from scipy import stats

    ci = stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
    return ci.low, ci.high


def test_beijing_summary_shares_equal_direct_frame_computations(beijing) -> None:
    df, s = beijing
    n = len(df)
    won = df["winner"].to_numpy() >= 0
    dealer = df["dealer"].to_numpy()
    turn = np.column_stack([df[f"tenpai_turn_{k}"] for k in range(4)])
    is_dealer = np.arange(4)[None, :] == dealer[:, None]
    rounds, mp = df["burn_rounds"].to_numpy(), df["mutual_payer"].to_numpy()
    shares = {
        "family_beijing": (n, n),
        "outcome_self_draw": ((df["outcome"] == "self_draw").sum(), n),
        "outcome_deal_in": ((df["outcome"] == "deal_in").sum(), n),
        "deals_won_share": (won.sum(), n),
        "win_rate_dealer": ((df["winner"] == df["dealer"]).sum(), n),
        "win_rate_non_dealer": ((won & (df["winner"] != df["dealer"])).sum(), 3 * n),
        "deal_ins_per_deal": (((df["discarder"] >= 0) & won).sum(), n),
        "deal_in_rate_dealer": (((df["discarder"] == df["dealer"]) & won).sum(), n),
        "tenpai_by_draw_dealer_k6": (((turn >= 0) & (turn <= 6) & is_dealer).sum(), n),
        "tenpai_by_draw_non_dealer_k12": (((turn >= 0) & (turn <= 12) & ~is_dealer).sum(), 3 * n),
        "tenpai_ever_non_dealer": (((turn >= 0) & ~is_dealer).sum(), 3 * n),
        "burn_share": ((rounds >= 1).sum(), n),
        "burn_paid_share": (((rounds >= 1) & won).sum(), n),
        "mutual_share": ((df["mutual_bindings"] >= 1).sum(), n),
        "mutual_paid_share": ((mp >= 0).sum(), n),
        "robbed_kong_share": (df["robbed_kong"].sum(), n),
        "fan_total_share_F1": (((df["fan_total"] == 1) & won).sum(), won.sum()),
        "concealed_win_share": (
            sum(df[f"concealed_{w}"].iloc[i] for i, w in enumerate(df["winner"]) if w >= 0),
            won.sum(),
        ),
    }
    for code in fam.BEIJING_FANS:
        shares[f"fan_type_share_{code}"] = ((df[f"fan_{code}"] & won).sum(), won.sum())
    for name, (k, m) in shares.items():
        row = s.loc[name]
        k, m = int(k), int(m)
        assert row["n"] == m and row["estimate"] == pytest.approx(k / m), name
        if name != "family_beijing":
            assert (row["lo"], row["hi"]) == pytest.approx(_wilson(k, m)), name
    assert s.loc["tenpai_ever_non_dealer", "estimate"] >= s.loc["tenpai_by_draw_non_dealer_k12", "estimate"]
    assert s.loc["outcome_self_draw", "estimate"] + s.loc["outcome_deal_in", "estimate"] == pytest.approx(
        s.loc["deals_won_share", "estimate"]
    )


def test_beijing_summary_money_equals_direct_frame_computations(beijing) -> None:
    df, s = beijing
    won = df["winner"].to_numpy() >= 0
    v = df["value"].to_numpy() / 1000  # base units of the default rules
    robbed = df["robbed_kong"].to_numpy()
    deal_in = (df["outcome"] == "deal_in").to_numpy()
    rounds, mp, dealer = (df[c].to_numpy() for c in ("burn_rounds", "mutual_payer", "dealer"))
    burn = 3 * (2.0**rounds - 1)  # what the dealer pays each round's 1,000 x 2^(k-1) to three seats
    paid_burn = (rounds >= 1) & won
    win_payment = np.where(deal_in & ~robbed, v, 3 * v)
    means = {
        "value_mean": v[won].mean(),
        "value_mean_deal": v.mean(),
        "fan_total_mean": df["fan_total"].to_numpy()[won].mean(),
        "draws_mean": df["draws"].mean(),
        "pay_mean_dealer": (
            df[[f"pay_{k}" for k in range(4)]].to_numpy()[np.arange(len(df)), dealer] / 1000
        ).mean(),
        "burn_cost_mean": burn[paid_burn].mean() if paid_burn.any() else np.nan,
        "mutual_cost_mean": win_payment[mp >= 0].mean() if (mp >= 0).any() else np.nan,
        "robbed_kong_cost_mean": (3 * v)[robbed & won].mean() if robbed.any() else np.nan,
    }
    for name, value in means.items():
        row = s.loc[name]
        if np.isnan(value):
            assert np.isnan(row["estimate"]) and row["n"] == 0, name
            continue
        assert row["estimate"] == pytest.approx(value), name
        assert row["lo"] <= row["estimate"] <= row["hi"], name
    assert s.loc["value_q50", "estimate"] == np.quantile(v[won], 0.5, method="inverted_cdf")
    for x in np.unique(v[won]):
        assert s.loc[f"value_share_{x:g}", "estimate"] == pytest.approx((v[won] == x).mean())
    # 烧庄 in the payments: the dealer pays 3 x 1,000 x (2^r - 1), each other seat gets 1,000 x (2^r - 1)
    b = fam.burn_payments(df)
    rows = np.arange(len(df))
    expect = np.where(paid_burn, 1000 * (2.0**rounds - 1), 0.0)
    assert np.allclose(b[rows, dealer], -3 * expect)
    assert np.allclose(b.sum(axis=1), 0) and np.allclose(np.abs(b).sum(axis=1), 6 * expect)
    assert paid_burn.any() and (df["mutual_payer"] >= 0).any(), "the run shows 烧庄 and 互包"
    # another base: every money figure scales, the shares do not
    half = summarize(df, base_points=500).set_index("metric")
    assert half.loc["value_mean", "estimate"] == pytest.approx(2 * s.loc["value_mean", "estimate"])
    assert half.loc["burn_share", "estimate"] == s.loc["burn_share", "estimate"]


def test_mutual_shift_is_what_互包_moves_onto_the_partner(beijing) -> None:
    df, _ = beijing
    units = fam.in_base_units(df)
    shift = fam.mutual_shift(units)
    mp = df["mutual_payer"].to_numpy()
    assert (shift[mp < 0] == 0).all() and (shift >= -1e-12).all()
    v = units["value"].to_numpy()
    self_draw = (df["outcome"] == "self_draw").to_numpy()
    own_deal_in = (df["discarder"].to_numpy() == mp) & (mp >= 0)
    assert np.allclose(shift[(mp >= 0) & self_draw], 2 * v[(mp >= 0) & self_draw])  # 3 x value instead of 1
    assert np.allclose(shift[own_deal_in & ~df["robbed_kong"].to_numpy()], 0)


def test_beijing_write_summary_draws_its_plots(beijing, tmp_path: Path) -> None:
    df, _ = beijing
    from daqing_sim.analysis.summary import write_summary

    table = write_summary(df.iloc[:400], tmp_path)
    names = sorted(Path(p).name for p in table.attrs["plots"])
    assert names == [
        "beijing_deal_length.png",
        "beijing_events.png",
        "beijing_fans.png",
        "beijing_tenpai.png",
        "beijing_values.png",
    ]
    assert all((tmp_path / n).stat().st_size > 1000 for n in names)
    assert (tmp_path / "summary.csv").is_file()


def test_levels_across_families_equal_direct_frame_computations(beijing) -> None:
    bj, _ = beijing
    dq = ds.simulate(400, strategies=("greedy",) * 4, seed=3)
    t = fam.family_comparison({"dq": dq, "bj": bj}).set_index(["label", "metric"])
    assert set(t.loc["dq", "family"]) == {"daqing"} and set(t.loc["bj", "family"]) == {"beijing"}
    for label, g in (("dq", dq), ("bj", bj)):
        won = g["winner"].to_numpy() >= 0
        assert t.loc[(label, "deals_won_share"), "estimate"] == pytest.approx(won.mean())
        deal_in = g["outcome"].isin(["deal_in", "deal_in_not_ready"]).mean()
        assert t.loc[(label, "deal_in"), "estimate"] == pytest.approx(deal_in)
        assert t.loc[(label, "draws_mean"), "estimate"] == pytest.approx(g["draws"].mean())
    pay = dq[[f"pay_{k}" for k in range(4)]].to_numpy()
    won = dq["winner"].to_numpy() >= 0
    gain = pay[np.arange(len(dq))[won], dq["winner"].to_numpy()[won]]
    assert t.loc[("dq", "gain_mean"), "estimate"] == pytest.approx(gain.mean())  # 2^N points
    won = bj["winner"].to_numpy() >= 0
    robbed, deal_in = bj["robbed_kong"].to_numpy(), (bj["outcome"] == "deal_in").to_numpy()
    win = np.where(deal_in & ~robbed, 1, 3) * bj["value"].to_numpy() / 1000  # 烧庄 left out
    assert t.loc[("bj", "gain_mean"), "estimate"] == pytest.approx(win[won].mean())
    dist = fam.gain_distribution({"bj": bj})
    assert (dist["count"] * dist["gain"]).sum() / dist["count"].sum() == pytest.approx(win[won].mean())
    shares = fam.win_fan_shares(dq).set_index("fan")
    assert shares.loc["big", "share"] == pytest.approx(dq.loc[dq["winner"] >= 0, "big"].mean())
    with pytest.raises(ValueError, match="one variant of one family"):
        fam.family_comparison({"both": pd.concat([dq.assign(variant="a"), dq.assign(variant="b")])})


def test_fan_labels_put_the_rule_sets_chinese_name_first() -> None:
    """Issue 39: readers see 地和 / 人和, not riichi's code names, and the swapped meanings."""
    doc = (Path(__file__).parents[1] / "docs" / "RULES_TWO_PLAYER.md").read_text(encoding="utf-8")
    for code, (name, _) in fam.TWO_PLAYER_FANS.items():
        label = fam.fan_label(code)
        assert label.startswith(f"{name} ({code}"), label
        assert f"| {name} | `{code}` |" in doc, code  # the docs' table names it so
    assert "riichi's renhou" in fam.fan_label("chiihou") and "riichi's chiihou" in fam.fan_label("renhou")
    assert fam.fan_label("seven_pairs", "beijing") == "七对 (seven_pairs)"
    with pytest.raises(ValueError, match="no two_player fan code"):
        fam.fan_label("dragon")
