"""Build the analysis notebooks from this file, so that they stay reviewable as code.

    python notebooks/_build.py            # write notebooks/*.ipynb (no outputs)
    python notebooks/_build.py --execute  # write, then run each one in place
    python notebooks/_build.py --execute --only 07_advisor.ipynb  # just one

Each notebook has a cell tagged ``parameters`` (papermill convention) with small
defaults; ``tests/test_notebooks.py`` replaces it to run them headless. Every answer
is a Markdown cell *computed* from the numbers above it, so the prose never goes stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from textwrap import dedent

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

PARAMETERS = """\
n_deals = 2000  # deals per variant of the small run made when results/NAME is missing
results_root = None  # folder holding the experiment results (default: <repo>/results)
n_jobs = 1  # worker processes of that small run
"""

SETUP = '''\
%matplotlib inline
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from IPython.display import Markdown, display

from daqing_sim import analysis as an
from daqing_sim.experiments.config import load_experiment
from daqing_sim.experiments.runner import experiment_results

warnings.filterwarnings("ignore", message="IProgress not found")  # tqdm without ipywidgets
ROOT = next(p for p in (Path.cwd(), *Path.cwd().parents) if (p / "experiments").is_dir())
OUT = Path(results_root) if results_root else ROOT / "results"
ci = an.format_ci
pd.set_option("display.precision", 4)
pd.set_option("display.width", 160)


def results(name):
    """The full results of experiments/NAME.toml, else a run of n_deals deals per variant."""
    path = ROOT / "experiments" / f"{name}.toml"
    return experiment_results(path, n_deals=n_deals, out=OUT, n_jobs=n_jobs)


def descriptions(name):
    return {v.name: v.description for v in load_experiment(ROOT / "experiments" / f"{name}.toml").variants}


def verdict(lo, hi, up="higher", down="lower", none="not distinguishable from zero"):
    """Wording of an interval for a difference: above zero, below zero, or neither."""
    return up if lo > 0 else down if hi < 0 else none


def level(r):
    return float(r["confidence"]) if "confidence" in r else 0.95


def pp(r):
    """A paired difference of proportions in percentage points with its (possibly adjusted) interval."""
    return an.format_diff(r["diff"], r["lo"], r["hi"], percent=True, confidence=level(r))


def row_ci(r, estimate="p", percent=True):
    """ci() of a table row holding an estimate column and its lo/hi columns."""
    return ci(r[estimate], r["lo"], r["hi"], percent=percent)


def num(r):
    """A paired difference in 2^N points with its (possibly adjusted) interval."""
    return an.format_diff(r["diff"], r["lo"], r["hi"], confidence=level(r))


def has(df, base):
    """Whether the frame carries the per-seat columns base_0..3 (new engine columns)."""
    return all(f"{base}_{s}" in df.columns for s in range(4))


def note_missing(base):
    print(f"Note: these results have no {base}_s columns (simulated before the engine recorded them); "
          "this part is skipped. Re-run the experiment to see it.")


def metric(summary, variant, name):
    """The row (estimate, lo, hi, n, method) of a tidy summary for one variant and metric."""
    return pick(summary, variant=variant, metric=name)


def mci(summary, variant, name, percent=True):
    r = metric(summary, variant, name)
    return ci(r.estimate, r.lo, r.hi, percent=percent)


def pick(table, **where):
    """The single row of ``table`` matching column == value for every keyword."""
    sel = np.ones(len(table), dtype=bool)
    for col, value in where.items():
        sel &= (table[col].astype(str) == str(value)).to_numpy()
    return table[sel].iloc[0]
'''

INTRO_STATS = (
    "Intervals are 95 % unless stated: Wilson score intervals (scipy) for probabilities, a "
    "percentile bootstrap (`scipy.stats.bootstrap`, 25,000 resamples of whole deals, fixed seed) "
    "for means, and the same bootstrap over paired deals (variants play the same walls) for "
    "differences between variants. Where a headline compares many variants or strategies, the "
    "intervals are Bonferroni-adjusted for the family stated (they hold jointly at 95 %). "
    "Conclusions hold for the simulated players and rules, not for people."
)


def md(text: str):
    return new_markdown_cell(dedent(text).strip())


def code(src: str):
    return new_code_cell(dedent(src).strip())


def notebook(title: str, intro: str, cells: list) -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    params = new_code_cell(PARAMETERS.strip())
    params.metadata["tags"] = ["parameters"]
    nb.cells = [
        md(f"# {title}\n\n{dedent(intro).strip()}\n\n{INTRO_STATS}"),
        params,
        new_code_cell(SETUP.strip()),
        *cells,
    ]
    return nb


# --------------------------------------------------------------------------- 01

NB01 = notebook(
    "01 · How fast do players get ready (上听)?",
    """
    How likely is a seat to have declared ready by its own k-th draw, for the dealer (庄,
    14 tiles) and the others? Does it depend on the strategy? And what does each Daqing
    restriction (开门, 幺九, 刻, 两门, 顺, 不能手把一) cost in readiness?
    Data: `experiments/baseline.toml`, `strategies.toml`, `restrictions.toml`.
    """,
    [
        md("## Dealer vs the others (baseline: classic rules, four expert players)"),
        code(
            """
            base = results("baseline")
            MAXK = 16
            rp = an.ready_probability(base, max_draws=MAXK)
            display(an.plot_ready_probability(base, max_draws=MAXK))
            rp[rp["k"].isin([3, 6, 9, 12])].pivot_table(
                index="k", columns="role", values=["p", "lo", "hi"], observed=True
            )
            """
        ),
        code(
            """
            ever = an.ready_probability(base, max_draws=200)


            def half_ready(role, who):
                t = rp[(rp["role"] == role) & (rp["p"] >= 0.5)]
                if len(t):
                    return f"half of the {who} are ready by draw {int(t['k'].iloc[0])}"
                return f"fewer than half of the {who} are ready within {MAXK} draws"


            if has(base, "own_draws"):
                km = an.ready_probability(base, max_draws=MAXK, estimand="kaplan_meier")
                ar = an.ready_probability(base, max_draws=MAXK, estimand="at_risk")
                display(an.plot_ready_probability(base, max_draws=MAXK, estimand="kaplan_meier"))
                k6d, k6o = pick(km, role="dealer", k=6), pick(km, role="non_dealer", k=6)
                a6d = pick(ar, role="dealer", k=6)
                censored = (
                    f"* Deals end early: by the dealer's 6th draw {100 * (1 - a6d.n / len(base)):.0f}% of deals are "
                    f"over. Among dealers still drawing, {row_ci(a6d)} are ready by draw 6 (at-risk estimand); "
                    f"treating the deal's end as censoring (Kaplan-Meier), a dealer would be ready by draw 6 with "
                    f"{row_ci(k6d)} and a non-dealer with {row_ci(k6o)}."
                )
            else:
                censored = "* (At-risk and Kaplan-Meier estimands need the `own_draws_s` columns; not in these results.)"
            d6, o6 = pick(rp, role="dealer", k=6), pick(rp, role="non_dealer", k=6)
            d12, o12 = pick(rp, role="dealer", k=12), pick(rp, role="non_dealer", k=12)
            de, oe = pick(ever, role="dealer", k=200), pick(ever, role="non_dealer", k=200)
            ahead = verdict(d6.lo - o6.hi, d6.hi - o6.lo, "ahead of", "behind", "not distinguishable from")
            display(Markdown(f'''
            ### Answer: ready probability by own draws ({len(base):,} deals)
            Estimand `by_draw`: P(declared ready by own draw k) within a real deal; a deal that ends first
            counts as not ready, so the curve flattens where deals end.
            * By its **6th own draw** the dealer has declared ready with probability
              {ci(d6.p, d6.lo, d6.hi, percent=True)}, a non-dealer with {ci(o6.p, o6.lo, o6.hi, percent=True)}:
              the dealer is **{ahead}** the others at that point (judged by whether the two intervals overlap).
            * By the **12th draw**: dealer {ci(d12.p, d12.lo, d12.hi, percent=True)},
              non-dealer {ci(o12.p, o12.lo, o12.hi, percent=True)}.
            * Milestones: {half_ready("dealer", "dealers")}; {half_ready("non_dealer", "non-dealers")}.
            * Over a whole deal {ci(de.p, de.lo, de.hi, percent=True)} of dealers and
              {ci(oe.p, oe.lo, oe.hi, percent=True)} of non-dealers ever declare ready
              (a deal that ends first counts as not ready).
            {censored}
            '''))
            """
        ),
        md(
            """
            ## By strategy (strategies.toml)
            The four variants rotate the strategies over the seats on the same walls; pooled, every
            strategy plays every seat (and the dealer seat) of every wall once. The Wilson intervals
            here count each seat-deal as one trial, although the four rotations of a wall are
            correlated; they are approximate (the money contrasts in notebook 05 resample whole walls).
            """
        ),
        code(
            """
            strat = results("strategies")
            pooled = strat.drop(columns="variant")
            rs = an.ready_probability(pooled, by="strategy", max_draws=MAXK)
            display(an.plot_ready_probability(pooled, by="strategy", max_draws=MAXK))
            rs[rs["k"].isin([6, 9, 12])].pivot_table(index="strategy", columns="k", values="p", observed=True)
            """
        ),
        code(
            """
            r12 = rs[rs["k"] == 12].sort_values("p", ascending=False).reset_index(drop=True)
            fam = len(r12)
            conf = an.familywise_confidence(fam)
            r12["lo"], r12["hi"] = an.wilson_interval(r12["ready"].to_numpy(), r12["n"].to_numpy(), conf)
            best, second = r12.iloc[0], r12.iloc[1]
            apart = ("its interval is above the runner-up's" if best.lo > second.hi
                     else f"its interval overlaps **{second.strategy}**'s, so the two are not distinguished")
            lines = "\\n".join(f"* **{r.strategy}**: {ci(r.p, r.lo, r.hi, percent=True, confidence=conf)}"
                              for r in r12.itertuples())
            display(Markdown(f'''
            ### Answer: ready probability by strategy ({len(strat) // 4:,} walls x 4 rotations)
            P(ready by the 12th own draw), per seat, Bonferroni-adjusted over the {fam} strategies:

            {lines}

            **{best.strategy}** has the highest estimate; {apart}. This holds for these simulated players.
            '''))
            """
        ),
        md(
            """
            ## The cost of each restriction (restrictions.toml)
            Each variant lifts one restriction (or all of them: the push-down 推倒和 game) on the same
            walls as `classic`. Lifting a restriction also makes deals shorter (someone wins sooner),
            which by itself lowers everyone's chance of getting ready within the deal, so "P(ever ready)"
            mixes the restriction's cost with the length of the deal. The readiness cost is therefore
            measured by the **Kaplan-Meier** estimand (the deal's end censors a seat's time to ready)
            at draws 6 and 9 when the results carry `own_draws_s`; the paired differences of win and
            exhaustive-draw rates are causal (same walls, same players). All intervals are
            Bonferroni-adjusted over the table's family.
            """
        ),
        code(
            """
            restr = results("restrictions")
            desc = descriptions("restrictions")


            def ready_by_9(g):
                t = np.column_stack([g[f"ready_turn_{s}"].to_numpy() for s in range(4)])
                return ((t >= 0) & (t <= 9)).mean(axis=1)


            metrics = ["ready_share", ready_by_9, "win", "exhaustive_draw"]
            cost = an.paired_difference(restr, metrics, baseline_variant="classic", adjust="bonferroni")
            if has(restr, "own_draws"):
                kmr = an.ready_probability(restr, max_draws=9, estimand="kaplan_meier")
                kmr = kmr[kmr["k"].isin([6, 9])]
                kfam = len(kmr)
                kconf = an.familywise_confidence(kfam)
                adj = an.ready_probability(restr, max_draws=9, estimand="kaplan_meier", confidence=kconf)
                kmr = adj[adj["k"].isin([6, 9])]
                display(kmr.pivot_table(index="variant", columns=["role", "k"], values=["p", "lo", "hi"], observed=True))
            else:
                kmr = None
                note_missing("own_draws")
            display(an.plot_paired_difference(cost[cost["metric"].isin(["ready_share", "win"])]))
            cost.pivot_table(index="variant", columns="metric", values="diff", observed=True)
            """
        ),
        code(
            """
            rows = []
            for v in cost["variant"].unique():
                r = {m: pick(cost, variant=v, metric=m) for m in ("ready_share", "ready_by_9", "win", "exhaustive_draw")}
                rows.append(
                    f"| {v} | {desc.get(v, '')} | {pp(r['ready_share'])} | {pp(r['ready_by_9'])} "
                    f"| {pp(r['win'])} | {pp(r['exhaustive_draw'])} |"
                )
            fam = int(cost["family_size"].iloc[0])
            win = cost[cost["metric"] == "win"]
            moved = [f"**{r.variant}** {pp(r._asdict())}" for r in win.itertuples() if r.lo > 0 or r.hi < 0]
            flat = [r.variant for r in win.itertuples() if r.lo <= 0 <= r.hi]
            headline = (
                f"Win rate, paired on the same walls: lifting the restriction changes it for {', '.join(moved) or 'none'}"
                + (f"; for {', '.join(flat)} the adjusted interval includes zero" if flat else "")
                + ". Every other figure in the table is stated with its interval, small or not."
            )
            if kmr is not None:
                k9 = kmr[(kmr["k"] == 9) & (kmr["role"] == "non_dealer")].sort_values("p", ascending=False)
                km_lines = ", ".join(
                    f"{r.variant} {ci(r.p, r.lo, r.hi, percent=True, confidence=kconf)}" for r in k9.itertuples()
                )
                headline += (
                    f"\\n\\nKaplan-Meier P(a non-dealer is ready by its 9th draw), not confounded by shorter deals "
                    f"(Bonferroni over {kfam} estimates): {km_lines}."
                )
            display(Markdown(f'''
            ### Answer: what each restriction costs ({len(restr[restr["variant"] == "classic"]):,} paired deals)
            Paired differences to `classic` in percentage points, Bonferroni-adjusted over a family of
            {fam} (metrics x variants; each interval at {100 * level(cost.iloc[0]):.3g} %); positive = more often
            ready / won without the restriction. The two ready columns are per deal and so include the
            effect of shorter deals.

            | variant | lifts | P(ever ready) per seat | P(ready by draw 9) | win rate | exhaustive draws |
            |---|---|---|---|---|---|
            {chr(10).join(rows)}

            {headline}
            '''))
            """
        ),
    ],
)

# --------------------------------------------------------------------------- 02

NB02 = notebook(
    "02 · Waits: kanchan (夹) vs edge, 宝中宝 vs 宝边",
    """
    Which waits do ready hands hold, and which waits win? How often is a bao win 宝中宝
    (big win on the bao itself) rather than 宝边? What changes when edge (边张) and single
    (单钓) waits also count as 夹 (`jia_edge.toml`)? Does hunting kanchan pay
    (`strategies.toml`, `jia_hunter` vs `greedy`)?
    """,
    [
        md("## Wait kinds at ready and at win (baseline)"),
        code(
            """
            base = results("baseline")
            wr = an.wait_kind_frequencies(base, at="ready")
            ww = an.wait_kind_frequencies(base, at="win")
            display(an.plot_wait_kinds(base))
            pd.concat(
                {
                    "at ready": wr.set_index("wait_kind")[["count", "share", "lo", "hi"]],
                    "at win": ww.set_index("wait_kind")[["count", "share", "lo", "hi"]],
                },
                axis=1,
            )
            """
        ),
        md(
            """
            The label `ready_wait_s` is the **lowest kind code over the wait set** (kanchan < edge <
            single < dual pair < two-sided): a 2m/5m wait on 1m3m4m is labelled kanchan although it also
            wins on a two-sided tile. The pure classes below (when the results record the whole wait,
            `ready_wait_mask_s`) count a wait as "kanchan only" only when every winning tile is a kanchan.
            """
        ),
        code(
            """
            if has(base, "ready_wait_mask"):
                wc = an.wait_classes(base)
                purity = an.wait_label_purity(base).set_index("wait_kind")
                display(wc)
                display(purity)
            else:
                wc = purity = None
                note_missing("ready_wait_mask")
            wo = an.wait_kind_outcomes(base)
            wo
            """
        ),
        code(
            """
            R, W, O = wr.set_index("wait_kind"), ww.set_index("wait_kind"), wo.set_index("wait_kind")
            k, e = O.loc["kanchan"], O.loc["edge"]
            k_vs_e = verdict(k.lo - e.hi, k.hi - e.lo, "more often", "less often", "about as often (the intervals overlap)")
            if wc is not None:
                C = wc.set_index("wait_class")
                pk, ps = purity.loc["kanchan"], purity.loc["single"]
                pure = (
                    f"* Whole waits: {row_ci(C.loc['kanchan_only'], 'share')} of declared waits are **kanchan only**, "
                    f"{row_ci(C.loc['two_or_more_kinds'], 'share')} mix two or more kinds. Of the waits labelled kanchan, "
                    f"{ci(pk.more_tiles_share, pk.lo, pk.hi, percent=True)} have more than one winning tile; of those "
                    f"labelled single, {ci(ps.more_tiles_share, ps.lo, ps.hi, percent=True)}."
                )
            else:
                pure = "* (Whole-wait classes need `ready_wait_mask_s`; not in these results.)"
            display(Markdown(f'''
            ### Answer: which waits
            * At declaration, {row_ci(R.loc["kanchan"], "share")} of ready hands wait on **kanchan** (嵌张) and
              {row_ci(R.loc["edge"], "share")} on an **edge** (边张); two-sided waits are
              {row_ci(R.loc["two_sided"], "share")}.
            * Among wins, kanchan is {row_ci(W.loc["kanchan"], "share")} and edge {row_ci(W.loc["edge"], "share")}.
            * A declared kanchan wait goes on to win {row_ci(k, "win_rate")} of the time, an edge wait
              {row_ci(e, "win_rate")} and a two-sided wait {row_ci(O.loc["two_sided"], "win_rate")}:
              compared with edge waits, kanchan waits win **{k_vs_e}**, with {k.mean_outs:.1f} vs
              {e.mean_outs:.1f} live outs on average at declaration.
            {pure}
            '''))
            """
        ),
        md(
            """
            ## What is a declared wait worth, declared at the same point of the deal?
            Waits declared early win more and pay more whatever their kind, and the kinds are not
            declared equally early; so the mean result of the declaring seat is compared **within**
            bands of the declaration turn (own draws 0-3, 4-6, 7-9, 10+).
            """
        ),
        code(
            """
            byturn = an.wait_kind_outcomes(base, turn_bins=(0, 4, 7, 10))
            display(byturn.pivot_table(index="turns", columns="wait_kind", values="mean_pay", observed=True))
            byturn[["turns", "wait_kind", "n", "win_rate", "lo", "hi", "mean_pay", "pay_lo", "pay_hi"]]
            """
        ),
        code(
            """
            lines = []
            for band, g in byturn.groupby("turns", sort=False):
                g = g[g["n"] > 0].set_index("wait_kind")
                if {"kanchan", "two_sided"} <= set(g.index):
                    kk, tt = g.loc["kanchan"], g.loc["two_sided"]
                    lines.append(
                        f"| {band} | {int(kk.n):,} | {ci(kk.mean_pay, kk.pay_lo, kk.pay_hi)} | {int(tt.n):,} "
                        f"| {ci(tt.mean_pay, tt.pay_lo, tt.pay_hi)} |"
                    )
            display(Markdown(
                "### Answer: expected result of the declaring seat by wait, within declaration-turn bands\\n"
                "Mean payment of the deal (2^N points) for a seat that declared a kanchan (label) or a two-sided "
                "wait in that band; the bands compare waits declared at the same point of the deal.\\n\\n"
                "| declared at own draw | kanchan n | kanchan mean | two-sided n | two-sided mean |\\n|---|---|---|---|---|\\n"
                + "\\n".join(lines)
            ))
            """
        ),
        md("## 宝中宝 vs 宝边 (baseline)"),
        code(
            """
            bs = an.bao_shares(base).set_index("bao")
            gain = an.deal_metric(base, "winner_gain")
            bao = base["bao"].astype(str).to_numpy()
            kinds = ["bao", "bao_edge", "bao_in_bao"]
            g_est, g_lo, g_hi = an.bootstrap_ratio(
                np.column_stack([gain * (bao == k) for k in kinds]),
                np.column_stack([(bao == k) for k in kinds]).astype(float),
            )
            bs.assign(mean_gain=pd.Series(g_est, index=kinds), gain_lo=pd.Series(g_lo, index=kinds),
                      gain_hi=pd.Series(g_hi, index=kinds))
            """
        ),
        code(
            """
            bib, be, bd = bs.loc["bao_in_bao"], bs.loc["bao_edge"], bs.loc["bao"]
            more = verdict(bib.lo - be.hi, bib.hi - be.lo, "more", "less", "not distinguishably more or less")
            display(Markdown(f'''
            ### Answer: 宝中宝 vs 宝边 ({int(bs["wins"].iloc[0]):,} wins in {int(bs["deals"].iloc[0]):,} deals)
            * **宝中宝** is {ci(bib.share_of_wins, bib.lo, bib.hi, percent=True)} of wins
              ({ci(bib.share_of_deals, bib.deals_lo, bib.deals_hi, percent=True)} of deals);
              **宝边** is {ci(be.share_of_wins, be.lo, be.hi, percent=True)} of wins; plain **摸宝** (wild bao)
              {ci(bd.share_of_wins, bd.lo, bd.hi, percent=True)}.
            * 宝中宝 is **{more}** frequent than 宝边.
            * The winner collects on average {ci(g_est[2], g_lo[2], g_hi[2])} on a 宝中宝,
              {ci(g_est[1], g_lo[1], g_hi[1])} on a 宝边 and {ci(g_est[0], g_lo[0], g_hi[0])} on a 摸宝.
            '''))
            """
        ),
        md("## Edges and singles counting as 夹 (jia_edge.toml)"),
        code(
            """
            jia = results("jia_edge")
            jdesc = descriptions("jia_edge")
            jd = an.paired_difference(
                jia, ["big_win", "winner_gain", "max_pay", "win"], baseline_variant="classic", adjust="bonferroni"
            )
            js = an.summarize(jia, baseline="classic")
            display(an.plot_paired_difference(jd[jd["metric"].isin(["big_win", "win"])]))
            js[js["metric"].isin(["deals", "big_share", "win_rate"])].pivot(index="variant", columns="metric", values="estimate")
            """
        ),
        code(
            """
            lines = []
            for v in jd["variant"].unique():
                lines.append(
                    f"* **{v}** ({jdesc.get(v) or 'see jia_edge.toml'}): big wins are {mci(js, v, 'big_share')} "
                    f"of wins; per deal the big-win probability changes by {pp(pick(jd, variant=v, metric='big_win'))} and the "
                    f"winner's mean gain by {num(pick(jd, variant=v, metric='winner_gain'))} (2^N units)."
                )
            display(Markdown(
                f"### Answer: effect of counting edges/singles as 夹\\n"
                f"With kanchan only (classic), {mci(js, 'classic', 'big_share')} of wins are big. Paired differences are "
                f"Bonferroni-adjusted over a family of {int(jd['family_size'].iloc[0])}.\\n\\n"
                + "\\n".join(lines)
            ))
            """
        ),
        md("## Does hunting kanchan pay? (strategies.toml)"),
        code(
            """
            strat = results("strategies")
            pooled = strat.drop(columns="variant")
            sr = an.strategy_results(strat, baseline_strategy="greedy", adjust="bonferroni").set_index("strategy")
            wk = an.wait_kind_frequencies(pooled, at="win", by="strategy")
            kan = wk[wk["wait_kind"] == "kanchan"].set_index("strategy")
            sr[["n", "mean_pay", "lo", "hi", "diff", "diff_lo", "diff_hi", "win_rate"]].join(
                kan[["share", "lo", "hi"]].add_prefix("kanchan_win_")
            )
            """
        ),
        code(
            """
            h, g = sr.loc["jia_hunter"], sr.loc["greedy"]
            kh, kg = kan.loc["jia_hunter"], kan.loc["greedy"]
            pays = verdict(h["diff_lo"], h["diff_hi"], "**pays**", "**costs money**", "has **no detectable effect** on money")
            display(Markdown(f'''
            ### Answer: kanchan hunting
            * `jia_hunter` wins on a kanchan in {ci(kh.share, kh.lo, kh.hi, percent=True)} of its wins,
              `greedy` in {ci(kg.share, kg.lo, kg.hi, percent=True)}.
            * Mean payment per seat-deal: `jia_hunter` {ci(h.mean_pay, h.lo, h.hi)}, `greedy` {ci(g.mean_pay, g.lo, g.hi)};
              paired difference {an.format_diff(h["diff"], h.diff_lo, h.diff_hi, confidence=an.familywise_confidence(int(h.family_size)))}
              (2^N units; Bonferroni over the {int(h.family_size)} contrasts with greedy). In this simulated field,
              hunting kanchan {pays}.
            '''))
            """
        ),
    ],
)

# --------------------------------------------------------------------------- 03

NB03 = notebook(
    "03 · The bao rule: 换宝 and 宝卡",
    """
    What does bao replacement (换宝, classic) do compared with the newer practice of keeping
    the first bao, and what does 宝卡 (instant win when the bao is one of your kanchan tiles)
    add? Outcome mix, 摸宝 share, exhaustive-draw rate, payments, each as a paired
    difference on the same walls. Data: `experiments/bao_replacement.toml`.
    """,
    [
        code(
            """
            bao = results("bao_replacement")
            desc = descriptions("bao_replacement")
            outcomes = an.outcome_shares(bao)
            outcomes.pivot_table(index="variant", columns="outcome", values="share", observed=True)
            """
        ),
        code(
            """
            bs = an.bao_shares(bao)
            display(bs.pivot_table(index="variant", columns="bao", values="share_of_wins", observed=True))
            summary = an.summarize(bao, baseline="classic")
            heads = ["deals", "win_rate", "outcome_exhaustive_draw", "bao_share_bao", "bao_share_bao_edge",
                     "bao_share_bao_in_bao", "big_share"]
            summary[summary["metric"].isin(heads)].pivot(index="variant", columns="metric", values="estimate")[heads]
            """
        ),
        code(
            """
            metrics = ["win", "exhaustive_draw", "bao_draw", "any_bao", "bao_in_bao", "winner_gain", "max_pay",
                       "pays_64", "bao_replacements"]
            diffs = an.paired_difference(bao, metrics, baseline_variant="classic", adjust="bonferroni")
            display(an.plot_paired_difference(diffs[diffs["metric"].isin(["win", "exhaustive_draw", "bao_draw", "any_bao"])]))
            diffs
            """
        ),
        code(
            """
            display(an.plot_payment_distribution(bao))
            an.expected_payment(bao, by="role").pivot_table(index="role", columns="variant", values="mean", observed=True)
            """
        ),
        code(
            """
            classic = bao[bao["variant"] == "classic"]
            rep, rep_lo, rep_hi = an.bootstrap_ratio(classic["bao_replacements"].to_numpy(dtype=float))
            n_rep = int((classic["bao_replacements"] > 0).sum())
            rep_lo2, rep_hi2 = an.wilson_interval(n_rep, len(classic))
            lines = []
            for v in diffs["variant"].unique():
                d = {m: pick(diffs, variant=v, metric=m) for m in metrics}
                lines.append(
                    f"* **{v}** ({desc.get(v, '')}): 摸宝 per deal {pp(d['bao_draw'])}, any bao win {pp(d['any_bao'])}, "
                    f"宝中宝 {pp(d['bao_in_bao'])}, win rate {pp(d['win'])}, exhaustive draws {pp(d['exhaustive_draw'])}, "
                    f"winner's gain {num(d['winner_gain'])}, largest payment {num(d['max_pay'])}, "
                    f"P(someone pays ≥ 64) {pp(d['pays_64'])}."
                )
            display(Markdown(
                f"### Answer: the bao rule ({len(classic):,} paired deals per variant)\\n"
                f"Under the classic rules the bao is replaced {ci(rep, rep_lo, rep_hi)} times per deal "
                f"(in {ci(n_rep / len(classic), float(rep_lo2), float(rep_hi2), percent=True)} of deals at least once); "
                f"摸宝 is {mci(summary, 'classic', 'bao_share_bao')} of wins and "
                f"{mci(summary, 'classic', 'outcome_exhaustive_draw')} of deals end in an exhaustive draw.\\n\\n"
                f"Paired differences to `classic` on the same walls: what switching the rule does, for these players "
                f"(bootstrap intervals, Bonferroni-adjusted over a family of {int(diffs['family_size'].iloc[0])}):\\n\\n"
                + "\\n".join(lines)
            ))
            """
        ),
    ],
)

# --------------------------------------------------------------------------- 04

NB04 = notebook(
    "04 · Expected scores: 2^N per seat and role",
    """
    What does a seat expect to pay or receive per deal, by seat and by role (dealer,
    winner, discarder...)? How are the fan counts N distributed, how heavy is the tail
    (P(someone pays ≥ 64))? What does dealing in while not ready (点黑炮, paying for all
    three) cost, and what does counting kongs as fans (`kong_fan.toml`) change?
    """,
    [
        code(
            """
            base = results("baseline")
            es = an.expected_payment(base, by="seat")
            er = an.expected_payment(base, by="role", contrast_to="discarder_ready")
            display(an.plot_expected_payment(base, by="seat"))
            display(an.plot_expected_payment(base, by="role"))
            er
            """
        ),
        code(
            """
            fd = an.fan_distribution(base)
            payers = an.payment_distribution(base)
            tail = an.tail_probability(base, threshold=64).iloc[0]
            display(an.plot_payment_distribution(base))
            fd
            """
        ),
        code(
            """
            S, R = es.set_index("seat"), er.set_index("role")
            dealer_seat = int(base["dealer"].mode().iloc[0])
            mean_n = (fd["N"] * fd["count"]).sum() / fd["count"].sum()
            big_pay = payers[payers["amount"] >= 64]["share"].sum()
            black, ready_in = R.loc["discarder_not_ready"], R.loc["discarder_ready"]
            rate_black = an.outcome_shares(base).set_index("outcome").loc["deal_in_not_ready"]
            dealer_vs = verdict(S.loc[dealer_seat, "lo"], S.loc[dealer_seat, "hi"], "gains", "loses", "neither gains nor loses detectably")
            display(Markdown(f'''
            ### Answer: expected 2^N payments ({len(base):,} deals, payments in 2^N units, winner positive)
            * Per deal, the dealer (seat {dealer_seat}) expects {ci(S.loc[dealer_seat, "mean"], S.loc[dealer_seat, "lo"], S.loc[dealer_seat, "hi"])}:
              it **{dealer_vs}** on average; the other seats expect
              {", ".join(ci(S.loc[s, "mean"], S.loc[s, "lo"], S.loc[s, "hi"]) for s in S.index if s != dealer_seat)}.
            * A winner collects {ci(R.loc["winner", "mean"], R.loc["winner", "lo"], R.loc["winner", "hi"])};
              a loser who did not discard pays {ci(-R.loc["other_payer", "mean"], -R.loc["other_payer", "hi"], -R.loc["other_payer", "lo"])}
              on a self-draw or a ready player's deal-in, while on a 点黑炮 the other two seats pay
              {ci(-R.loc["bystander", "mean"], -R.loc["bystander", "hi"], -R.loc["bystander", "lo"])} (the discarder pays for them).
            * N per loser averages {mean_n:.2f}; {100 * big_pay:.2f} % of single payments are 64 or more, and in
              {ci(tail.p, tail.lo, tail.hi, percent=True)} of deals **someone pays ≥ 64**.
            * **点黑炮**: {ci(rate_black.share, rate_black.lo, rate_black.hi, percent=True)} of deals end with a
              not-ready player dealing in. That discarder pays {ci(-black["mean"], -black["hi"], -black["lo"])} against
              {ci(-ready_in["mean"], -ready_in["hi"], -ready_in["lo"])} for a ready discarder (点炮):
              the extra cost is {ci(-black["diff"], -black["diff_hi"], -black["diff_lo"])} per occurrence.
            '''))
            """
        ),
        md(
            """
            ## Risk: how much can a seat win or lose in one deal, and how long is a deal?
            Per seat and role: mean, SD, the 1/5/50/95/99 % quantiles of the net result of a deal
            (order-statistic intervals) and P(loss); and the number of tiles drawn in a deal.
            """
        ),
        code(
            """
            risk = an.net_result(base, by="seat")
            risk_role = an.net_result(base, by="role")
            length = an.deal_length(base).set_index("statistic")
            display(an.plot_net_result(base))
            risk.pivot_table(index="seat", columns="statistic", values="estimate", observed=True)[list(an.RISK_STATISTICS)]
            """
        ),
        code(
            """
            Rk = risk.set_index(["seat", "statistic"])
            Rr = risk_role.set_index(["role", "statistic"])


            def rci(t, key, stat, percent=False):
                r = t.loc[(key, stat)]
                return ci(r.estimate, r.lo, r.hi, percent=percent)


            dl = length.loc["q50"]
            display(Markdown(f'''
            ### Answer: risk per deal (2^N points)
            * The dealer (seat {dealer_seat}) loses in {rci(Rk, dealer_seat, "p_loss", True)} of deals; its net
              result has SD {rci(Rk, dealer_seat, "sd")}, a 5 % quantile of {rci(Rk, dealer_seat, "q05")} and a
              99 % quantile of {rci(Rk, dealer_seat, "q99")}.
            * A discarder who was not ready (点黑炮) has a median result of {rci(Rr, "discarder_not_ready", "q50")}
              and a 1 % quantile of {rci(Rr, "discarder_not_ready", "q01")}.
            * A deal lasts a median of {dl.estimate:.0f} draws from the live wall (95 % CI {dl.lo:.0f} to {dl.hi:.0f};
              90 % of deals between {length.loc["q05", "estimate"]:.0f} and {length.loc["q95", "estimate"]:.0f}).
            '''))
            """
        ),
        md("## Kongs as fans (kong_fan.toml)"),
        code(
            """
            kong = results("kong_fan")
            kd = an.paired_difference(
                kong, ["winner_gain", "max_pay", "pays_64", "dealer_pay"], baseline_variant="classic", adjust="bonferroni"
            )
            kt = an.tail_probability(kong, threshold=64).set_index("variant")
            kf = an.fan_distribution(kong).pivot_table(index="N", columns="variant", values="share", observed=True)
            display(an.plot_payment_distribution(kong))
            display(kf)
            kd
            """
        ),
        code(
            """
            wk = pick(an.winner_kong_share(kong), variant="classic")
            wg, mp, p64 = (pick(kd, variant="kong_fan", metric=m) for m in ("winner_gain", "max_pay", "pays_64"))
            t0, t1 = kt.loc["classic"], kt.loc["kong_fan"]
            display(Markdown(f'''
            ### Answer: kong fan
            {ci(wk.share, wk.lo, wk.hi, percent=True)} of winners hold at least one kong. The deals are the same in both
            variants (only the scoring changes), but the differences are still estimates from a sample of deals, with
            sampling error (Bonferroni-adjusted over {int(kd["family_size"].iloc[0])}): counting each kong as a fan changes
            the winner's mean gain per deal by {num(wg)}, the largest single payment by {num(mp)}, and P(someone pays ≥ 64)
            by {pp(p64)} (from {ci(t0.p, t0.lo, t0.hi, percent=True)} to {ci(t1.p, t1.lo, t1.hi, percent=True)}).
            '''))
            """
        ),
    ],
)

# --------------------------------------------------------------------------- 05

NB05 = notebook(
    "05 · Strategy tournament",
    """
    Which strategy wins money? `strategies.toml` is a duplicate tournament: expert, greedy,
    jia_hunter and defensive play every wall in all four cyclic seat rotations with the same deal
    seeds, so each strategy plays every seat's tiles (the dealer's included) of every wall once
    and seat and dealer advantages cancel. The wall is the independent unit: each strategy's
    payments are first averaged per wall (over its four seat-deals of that wall), and its mean
    and the paired differences between strategies get Student t intervals over walls
    (`an.duplicate_table`, the table `daqing-sim run` writes to `tournament.csv`).
    """,
    [
        code(
            """
            strat = results("strategies")
            labels = load_experiment(ROOT / "experiments" / "strategies.toml").tournament.seat_labels()
            tour = an.duplicate_table(strat, labels)
            n_pairs = len(tour) * (len(tour) - 1) // 2
            conf = an.familywise_confidence(n_pairs)
            # every pairwise difference at the Bonferroni level: the intervals hold jointly at 95 %
            pairs = an.tournament_pairs(an.duplicate_table(strat, labels, confidence=conf))
            tour = tour.sort_values("mean_pay", ascending=False).reset_index(drop=True)
            print(an.format_tournament(tour))
            tour
            """
        ),
        code(
            """
            order = list(tour["entrant"])
            pairs["order_a"] = pairs["a"].map(order.index)
            pairs["order_b"] = pairs["b"].map(order.index)
            ranked = pairs[pairs["order_a"] < pairs["order_b"]].sort_values(["order_a", "order_b"])
            ranked = ranked.drop(columns=["order_a", "order_b"])
            ranked.reset_index(drop=True)
            """
        ),
        code(
            """
            # rates per seat-deal (Wilson over seat-deals, approximate: the seats of a wall are dependent)
            sr = an.strategy_results(strat, baseline_strategy="greedy").set_index("strategy").loc[order]
            display(an.plot_strategy_results(strat))
            sr[["win_rate", "win_lo", "win_hi", "deal_in_rate", "deal_in_lo", "deal_in_hi", "ready_rate"]]
            """
        ),
        code(
            """
            per = an.strategy_results(strat, pool_variants=False)
            per.pivot_table(index="strategy", columns="variant", values="mean_pay", observed=True)
            """
        ),
        code(
            """
            pooled = strat.drop(columns="variant")
            display(an.plot_ready_probability(pooled, by="strategy"))
            an.wait_kind_frequencies(pooled, at="win", by="strategy").pivot_table(
                index="strategy", columns="wait_kind", values="share", observed=True
            )
            """
        ),
        code(
            """
            best, second = order[0], order[1]
            top = pick(pairs, a=best, b=second)
            margin = verdict(top["lo"], top["hi"], "detectably", "(impossible)", "not detectably")
            lines = []
            for i, r in enumerate(tour.itertuples()):
                s = sr.loc[r.entrant]
                lines.append(
                    f"{i + 1}. **{r.entrant}**: {ci(r.mean_pay, r.lo, r.hi)} per seat-deal; against the others "
                    f"{an.format_diff(r.diff, r.diff_lo, r.diff_hi)}; wins {ci(s.win_rate, s.win_lo, s.win_hi, percent=True)}, "
                    f"deals in {ci(s.deal_in_rate, s.deal_in_lo, s.deal_in_hi, percent=True)}"
                )
            apart = [f"{r.a} - {r.b} {an.format_diff(r.diff, r.lo, r.hi, confidence=conf)}" for r in ranked.itertuples()]
            display(Markdown(
                f"### Answer: strategy ranking ({int(tour['n_walls'].iloc[0]):,} walls x 4 rotations; 2^N units)\\n"
                "Mean payment per seat-deal and the paired difference to the mean of the other strategies, "
                "t intervals over per-wall means (95 %, each on its own):\\n\\n"
                + "\\n".join(lines)
                + f"\\n\\nPairwise paired differences, Bonferroni-adjusted over the {n_pairs} pairs (jointly 95 %): "
                + "; ".join(apart)
                + f".\\n\\n**{best}** earns the most against this simulated field; it is **{margin}** ahead of "
                f"**{second}**. This holds for these simulated players, not for people."
            ))
            """
        ),
    ],
)

# --------------------------------------------------------------------------- 06

NB06 = notebook(
    "06 · The tactics book tested",
    """
    Does the advice of the tactics book 《麻将妙诀与战术运用》 pay in Daqing mahjong? Each tactic
    that applies to Daqing is a knob of the `expert` player (`help(ds.players.expert)`,
    docs/EXPERT.md); each knob setting (a *variant*) plays one seat against three default experts
    in a duplicate tournament (`ds.tournament`): every wall in all four cyclic seat rotations with
    the same deal seeds, so the variant plays every seat's tiles of every wall. The figure is the
    **paired difference** per seat-deal between the variant and the default experts on the same
    walls (2^N units), a Student t interval over per-wall means (walls are the independent units).
    `tools/tactics.py` plays the tournaments on a report seed not used to tune any knob and writes
    `results/tactics/tactics.csv`; this notebook only reads that table (when it is missing it says
    how to make it and plays a small stand-in of `n_deals` walls per variant). The `parameters`
    cell is shared with the other notebooks.
    """,
    [
        code(
            """
            import importlib.util
            import json

            import matplotlib.pyplot as plt

            from daqing_sim.players.expert import KNOBS

            TACTICS = OUT / "tactics" / "tactics.csv"
            if TACTICS.exists():
                tab = pd.read_csv(TACTICS)
                prov_path = TACTICS.with_name("provenance.json")
                prov = json.loads(prov_path.read_text()) if prov_path.exists() else {}
                shown = TACTICS.relative_to(ROOT) if ROOT in TACTICS.parents else TACTICS
                made = f", made {prov['date']}, engine {prov.get('engine_fingerprint')}" if "date" in prov else ""
                source = f"`{shown}`{made}"
            else:
                print(f"{TACTICS} is missing: make it with `nice -n 10 python tools/tactics.py` "
                      f"(seven tournaments of 25,000 walls, about 5 minutes on one core). "
                      f"Playing a small stand-in of {n_deals} walls per variant instead.")
                spec = importlib.util.spec_from_file_location("tactics", ROOT / "tools" / "tactics.py")
                tactics = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(tactics)
                tab = tactics.run(n_walls=max(int(n_deals), 2))
                prov = {}
                source = f"a small stand-in run ({n_deals} walls per variant, not the report)"
            family = int(tab["family_size"].iloc[0])
            bonf = float(tab["bonf_confidence"].iloc[0])
            knobs = pd.DataFrame(
                [{"knob": k, "default": KNOBS[k].default, "meaning": KNOBS[k].doc} for k in tab["knob"].unique()]
            )
            display(knobs.style.hide(axis="index"))
            tab[["tactic", "chinese", "knob", "value", "diff", "lo", "hi", "bonf_lo", "bonf_hi", "mean_pay", "n_walls", "seed"]]
            """
        ),
        code(
            """
            # right panel: the variants within 0.3 of zero, so that one large loss does not hide the rest
            near = tab[(tab["bonf_lo"] > -0.3) & (tab["bonf_hi"] < 0.3)]
            fig, axes = plt.subplots(1, 2, figsize=(12, 0.5 * len(tab) + 1.5), sharey=True)
            y = pd.Series(np.arange(len(tab))[::-1], index=tab.index)
            for ax, part in zip(axes, (tab, near)):
                yy = y[part.index]
                ax.errorbar(part["diff"], yy, xerr=[part["diff"] - part["bonf_lo"], part["bonf_hi"] - part["diff"]],
                            fmt="none", ecolor="tab:gray", elinewidth=1, capsize=4,
                            label=f"Bonferroni {100 * bonf:.2f} % (family of {family})")
                ax.errorbar(part["diff"], yy, xerr=[part["diff"] - part["lo"], part["hi"] - part["diff"]],
                            fmt="o", color="tab:blue", elinewidth=3, label="95 %, each on its own")
                ax.axvline(0, color="black", lw=0.8)
                ax.set_xlabel("variant - default expert, per seat-deal (2^N)")
            axes[0].set_yticks(y, [f"{k} = {v:g}" for k, v in zip(tab["knob"], tab["value"])])
            axes[0].set_title("all variants")
            axes[1].set_title("zoom: variants within 0.3 of zero")
            axes[0].legend(loc="lower left", fontsize=8)
            fig.suptitle("Tactics as expert knobs: paired differences against the default expert (duplicate play)")
            fig.tight_layout()
            display(fig)
            plt.close(fig)
            """
        ),
        code(
            """
            def word(r):
                return verdict(r.bonf_lo, r.bonf_hi, "**pays**", "**costs**", "not distinguishable from the default")


            n_tactics = tab["chinese"].nunique()
            walls = int(tab["n_walls"].iloc[0])
            lines = [
                f"* {r.chinese} ({r.tactic}), `{r.knob}={r.value:g}`: {an.format_diff(r.diff, r.lo, r.hi)}; "
                f"{an.format_diff(r.diff, r.bonf_lo, r.bonf_hi, confidence=bonf)} — {word(r)}"
                for r in tab.itertuples()
            ]
            gain = tab[tab["bonf_lo"] > 0]
            loss = tab[tab["bonf_hi"] < 0]
            null = tab[(tab["bonf_lo"] <= 0) & (tab["bonf_hi"] >= 0)]


            def names(t):
                return ", ".join(f"`{k}={v:g}`" for k, v in zip(t["knob"], t["value"])) or "none"


            worst = tab.loc[tab["diff"].idxmin()]
            display(Markdown(
                f"### Answer: which tactics of the book pay against the expert field\\n"
                f"{n_tactics} tactics of the book, {len(tab)} variants, each against three default experts over "
                f"{walls:,} walls x 4 rotations ({4 * walls:,} deals per variant), seed {int(tab['seed'].iloc[0])}, "
                f"from {source}. Paired difference per seat-deal (variant - default expert, 2^N units); the first "
                f"interval is 95 % on its own, the second Bonferroni-adjusted for the family of {family} variants "
                f"({100 * bonf:.2f} % each, so all {family} hold jointly at 95 %); the verdict uses the adjusted one:\\n\\n"
                + "\\n".join(lines)
                + f"\\n\\nBetter than the default: {names(gain)}. Worse: {names(loss)}. Not distinguishable: {names(null)}. "
                f"The largest loss is `{worst.knob}={worst.value:g}` ({worst['diff']:+.3f} per seat-deal). "
                "Each variant moves one knob away from the default expert (whose defaults came from the tuning in "
                "docs/EXPERT.md, on other seeds); a variant that costs says that reading of the book's advice does "
                "not pay here, one that is not distinguishable says the knob's setting matters less than the "
                "interval's width. This holds for the simulated expert field under the classic rules (three default "
                "experts as opponents, who do not adapt to the variant's style), not for play against people."
            ))
            """
        ),
    ],
)

# --------------------------------------------------------------------------- 07

NB07 = notebook(
    "07 · The hand advisor: which tile to throw?",
    """
    For the hand in front of you, `ds.advise` rates every discard two ways. The exact method is a
    single-player search over your own next draws: the probability of reaching a ready shape
    within k draws, of winning by self-draw before the wall runs out, and the expected 2^N
    income (the others never win nor claim, the bao is one unseen tile). The simulated method
    plays the rest of the deal many times with the expert field, from deals consistent with
    what you see (others' hands and the wall drawn from the unseen tiles, ready opponents given
    ready hands), with 95 % intervals; a `danger` column gives the expert's estimate that a
    discard deals in to each ready opponent. Both models are in `help(ds.advise)`. Three classic
    choices: a kanchan (夹, big win) against a two-sided wait, keeping or throwing a 中, and
    folding against a ready opponent. The `parameters` cell is shared with the other notebooks:
    here `n_deals` is the number of simulated deals per candidate discard.
    """,
    [
        md("## Kanchan or two-sided?"),
        code(
            """
            import daqing_sim as ds

            HAND = "134m456p789s中中 [345m]"  # throw 4m: kanchan on 2m; throw 1m: two-sided 2m-5m
            kan = ds.advise(HAND, k=3)
            kan
            """
        ),
        code(
            """
            import matplotlib.pyplot as plt

            walls = [58, 50, 42, 34, 26, 18, 12, 8, 4]
            rows = []
            for w in walls:
                df = ds.advise(HAND, wall_left=w, k=3).set_index("discard")
                for d, label in (("4m", "kanchan 2m"), ("1m", "two-sided 2m-5m")):
                    rows.append({"wall_left": w, "wait": label, "p_win": df.loc[d, "p_win"], "ev": df.loc[d, "ev"]})
            sweep = pd.DataFrame(rows)
            fig, axes = plt.subplots(1, 2, figsize=(10, 3.5))
            for wait, g in sweep.groupby("wait"):
                axes[0].plot(g["wall_left"], g["p_win"], marker="o", label=wait)
                axes[1].plot(g["wall_left"], g["ev"], marker="o", label=wait)
            axes[0].set(xlabel="tiles left in the wall", ylabel="P(win by self-draw)")
            axes[1].set(xlabel="tiles left in the wall", ylabel="expected income (2^N)")
            for ax in axes:
                ax.invert_xaxis()
                ax.legend()
            fig.tight_layout()
            display(fig)
            plt.close(fig)
            sweep.pivot_table(index="wall_left", columns="wait", values=["p_win", "ev"]).sort_index(ascending=False)
            """
        ),
        code(
            """
            k0 = kan.set_index("discard")
            kc, ts = k0.loc["4m"], k0.loc["1m"]
            by_wall = sweep.pivot_table(index="wall_left", columns="wait", values="ev")
            kan_better = (by_wall["kanchan 2m"] > by_wall["two-sided 2m-5m"]).all()
            display(Markdown(f'''
            ### Answer: kanchan or two-sided
            At the start of the deal ({int(kc["draws"])} own draws) the two-sided wait has {int(ts["outs"])} live
            outs against {int(kc["outs"])} and wins more often ({100 * ts["p_win"]:.1f} % against
            {100 * kc["p_win"]:.1f} %), but the kanchan wins big (夹, one more fan for every loser):
            its expected income is {kc["ev"]:.1f} against {ts["ev"]:.1f} points, and the advisor throws
            **{kan.iloc[0]["discard"]}**. Over the wall sizes above the kanchan's expected income is
            {"always" if kan_better else "not always"} the higher one.
            '''))
            """
        ),
        md("## Keep the 中 or throw it?"),
        code(
            """
            ZHONG_HAND = "34m456p345s66s中 [567m]"  # no terminal, no triplet: only 中 waives them
            zh = ds.advise(ZHONG_HAND, k=3)
            zh
            """
        ),
        code(
            """
            z = zh.set_index("discard")
            best = zh.iloc[0]
            thrown = z.loc["中"]
            std = ds.standard_shanten(ds.parse_hand(ZHONG_HAND.replace("中", "")).counts)
            display(Markdown(f'''
            ### Answer: keeping the 中
            Throwing the 中 leaves a hand that is ready in the ordinary sense (standard shanten {std}) but
            not in Daqing (shanten {int(thrown["shanten"])}: no terminal and no triplet), with
            P(ready within 3 draws) {100 * thrown["p_ready_3"]:.1f} % and expected income {thrown["ev"]:.2f}.
            The advisor throws **{best["discard"]}** (shanten {int(best["shanten"])},
            P(ready within 3 draws) {100 * best["p_ready_3"]:.1f} %, expected income {best["ev"]:.2f}):
            the 中 is worth {"throwing" if best["discard"] == "中" else "keeping"} here.
            '''))
            """
        ),
        md(
            """
            ## Exact against simulated

            The simulated answer first in the exact model's own world, where the two must agree: nobody
            can claim (`last_tiles_no_claim=58`, so the concealed others can never open their door,
            declare or win, and our open hand wins by self-draw only), no 换宝, and the others throw
            every draw (`scripted`). Then in the real game: classic rules and four experts, where the
            others claim, win and make us pay, and we also win on their discards.
            """
        ),
        code(
            """
            N_SIMS = max(int(n_deals), 100)  # simulated deals per candidate discard
            EXACT_WORLD = ds.RuleSet(last_tiles_no_claim=58, bao_replacement=False)
            IDLE = ("expert", "scripted", "scripted", "scripted")
            cols = ["p_win", "p_win_lo", "p_win_hi", "ev", "ev_lo", "ev_hi"]
            same = ds.advise(HAND, rules=EXACT_WORLD, method="simulate", field=IDLE, n_sims=N_SIMS, seed=1)
            real = ds.advise(HAND, method="simulate", n_sims=N_SIMS, seed=1)
            both = pd.concat(
                {
                    "exact": kan.set_index("discard")[["p_win", "ev"]],
                    "simulated, exact world": same.set_index("discard")[cols],
                    "simulated, expert field": real.set_index("discard")[cols],
                },
                axis=1,
            ).loc[["4m", "1m"]]
            both
            """
        ),
        code(
            """
            s, r = same.set_index("discard"), real.set_index("discard")
            inside = all(
                s.loc[d, c + "_lo"] <= k0.loc[d, c] <= s.loc[d, c + "_hi"] for d in ("4m", "1m") for c in ("p_win", "ev")
            )
            other = "1m" if real.iloc[0]["discard"] == "4m" else "4m"
            o = r.loc[other]
            display(Markdown(f'''
            ### Answer: exact against simulated
            In the exact model's world the 95 % intervals of the simulated P(win) and expected income of
            both waits ({N_SIMS} deals each) {"all contain" if inside else "do not all contain"} the exact values (kanchan: {100 * s.loc["4m", "p_win"]:.1f} % against exact {100 * kc["p_win"]:.1f} %).
            In the real game with four experts the kanchan wins {100 * r.loc["4m", "p_win"]:.1f} %
            [{100 * r.loc["4m", "p_win_lo"]:.1f}, {100 * r.loc["4m", "p_win_hi"]:.1f}] of the deals and the
            two-sided wait {100 * r.loc["1m", "p_win"]:.1f} % [{100 * r.loc["1m", "p_win_lo"]:.1f},
            {100 * r.loc["1m", "p_win_hi"]:.1f}] (wins on others' discards count too), for expected results
            {r.loc["4m", "ev"]:.2f} and {r.loc["1m", "ev"]:.2f} points (losses to the others included): the
            simulated advisor throws **{real.iloc[0]["discard"]}**; on the same deals throwing {other} instead
            changes the result by {o["ev_vs_best"]:.2f} [{o["ev_vs_best_lo"]:.2f}, {o["ev_vs_best_hi"]:.2f}] points.
            '''))
            """
        ),
        code(
            """
            zs = ds.advise(ZHONG_HAND, method="simulate", n_sims=N_SIMS, seed=2).set_index("discard")
            zcmp = pd.concat(
                {"exact": z[["shanten", "p_ready_3", "ev"]], "simulated": zs[["p_ready_3", "p_win", "ev", "ev_lo", "ev_hi"]]},
                axis=1,
            ).sort_values(("simulated", "ev"), ascending=False)
            zbest = zcmp.index[0]
            display(zcmp)
            display(Markdown(f'''
            ### Answer: the 中, simulated
            With four experts playing on, the best discard is **{zbest}** (expected result
            {zs.loc[zbest, "ev"]:.2f} [{zs.loc[zbest, "ev_lo"]:.2f}, {zs.loc[zbest, "ev_hi"]:.2f}]); throwing the 中
            gives {zs.loc["中", "ev"]:.2f} [{zs.loc["中", "ev_lo"]:.2f}, {zs.loc["中", "ev_hi"]:.2f}], and the paired
            difference to the best is {zs.loc["中", "ev_vs_best"]:.2f} [{zs.loc["中", "ev_vs_best_lo"]:.2f},
            {zs.loc["中", "ev_vs_best_hi"]:.2f}]. The exact search threw **{best["discard"]}**: the two methods
            {"agree" if zbest == best["discard"] else "disagree"} on the best discard.
            '''))
            """
        ),
        md(
            """
            ## Folding against a ready opponent

            Seat 1, the dealer, has declared ready (an exposed 666s); it let 1m, 9p, 9s and 4s pass since.
            Our hand is three exchanges from ready. The exact model does not see the danger (its
            opponents never win); the `danger` column and the simulated deals do.
            """
        ),
        code(
            """
            FOLD = "23459m46p3578s11s中"
            TABLE = dict(
                ready=(1,), dealer=1, melds={1: "[666s]"}, ponds={1: "9m1p2s8s中", 2: "1m9p", 3: "9s4s"},
                passed={1: "1m9p9s4s"}, wall_left=26,
            )
            fx = ds.advise(FOLD, **TABLE).set_index("discard")
            fs = ds.advise(FOLD, method="simulate", n_sims=N_SIMS, seed=3, **TABLE).set_index("discard")
            fold = pd.concat(
                {
                    "exact": fx[["shanten", "p_ready_3", "ev"]],
                    "danger": fs[["danger"]],
                    "simulated": fs[["p_win", "ev", "ev_lo", "ev_hi", "ev_vs_best", "ev_vs_best_lo", "ev_vs_best_hi"]],
                },
                axis=1,
            ).sort_values(("simulated", "ev"), ascending=False)
            fold
            """
        ),
        code(
            """
            from scipy import stats

            rho = stats.spearmanr(fs["danger"], fs["ev"])
            fig, ax = plt.subplots(figsize=(6, 3.5))
            ax.errorbar(fs["danger"], fs["ev"], yerr=[fs["ev"] - fs["ev_lo"], fs["ev_hi"] - fs["ev"]], fmt="o")
            for d, row in fs.iterrows():
                ax.annotate(d, (row["danger"], row["ev"]), textcoords="offset points", xytext=(4, 4))
            ax.set(xlabel="danger: P(deal in to seat 1), expert's estimate", ylabel="simulated expected result (2^N)")
            fig.tight_layout()
            display(fig)
            plt.close(fig)
            safest = fs["danger"].idxmin()
            worst = fs["danger"].idxmax()
            display(Markdown(f'''
            ### Answer: folding
            The exact search, blind to seat 1, throws **{fx.index[0]}** (its expected income
            {fx.iloc[0]["ev"]:.3f}: this hand rarely wins anyway). Played out against the ready dealer
            {"every discard loses on average (each interval below zero)" if (fs["ev_hi"] < 0).all()
             else "some discards do not lose on average"}; the simulated advisor throws **{fs.index[0]}** ({fs.iloc[0]["ev"]:.2f}
            [{fs.iloc[0]["ev_lo"]:.2f}, {fs.iloc[0]["ev_hi"]:.2f}], danger {100 * fs.iloc[0]["danger"]:.1f} %). The
            safest tile, {safest} (danger {100 * fs.loc[safest, "danger"]:.1f} %), is {fs.loc[safest, "ev_vs_best"]:.2f}
            [{fs.loc[safest, "ev_vs_best_lo"]:.2f}, {fs.loc[safest, "ev_vs_best_hi"]:.2f}] points from the best and
            the most dangerous, {worst} ({100 * fs.loc[worst, "danger"]:.1f} %), {fs.loc[worst, "ev_vs_best"]:.2f}
            [{fs.loc[worst, "ev_vs_best_lo"]:.2f}, {fs.loc[worst, "ev_vs_best_hi"]:.2f}]. Across the discards the
            rank correlation of danger and simulated result is {rho.statistic:.2f} (Spearman, p = {rho.pvalue:.2g}):
            {"the more dangerous the tile, the worse the result" if rho.statistic < 0 and rho.pvalue < 0.05
             else "danger alone does not clearly rank the results here"}.
            '''))
            """
        ),
    ],
)

NOTEBOOKS = {
    "01_ready_probability.ipynb": NB01,
    "02_waits_kanchan_vs_edge.ipynb": NB02,
    "03_bao_rule.ipynb": NB03,
    "04_expected_scores.ipynb": NB04,
    "05_strategies.ipynb": NB05,
    "06_tactics.ipynb": NB06,
    "07_advisor.ipynb": NB07,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--execute", action="store_true", help="run each notebook in place after writing it")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per cell when executing")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these notebooks, e.g. 07_advisor.ipynb")
    args = parser.parse_args(argv)
    unknown = set(args.only or ()) - set(NOTEBOOKS)
    if unknown:
        parser.error(f"unknown notebooks {sorted(unknown)}; choose from {sorted(NOTEBOOKS)}")
    for name, nb in NOTEBOOKS.items():
        if args.only and name not in args.only:
            continue
        path = HERE / name
        nbformat.validate(nb)
        if args.execute:
            from nbclient import NotebookClient

            NotebookClient(nb, timeout=args.timeout, resources={"metadata": {"path": str(HERE)}}).execute()
        nbformat.write(nb, path)
        print(f"wrote {path.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
