# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 02 · Waits: kanchan (夹) vs edge, 宝中宝 vs 宝边
#
# Which waits do ready hands hold, and which waits win? How often is a bao win 宝中宝
# (big win on the bao itself) rather than 宝边? What changes when edge (边张) and single
# (单钓) waits also count as 夹 (`jia_edge.toml`)? Does hunting kanchan pay
# (`strategies.toml`, `jia_hunter` vs `greedy`)?
#
# Intervals are 95 % unless stated: Wilson score intervals (scipy) for probabilities, a
# percentile bootstrap (`scipy.stats.bootstrap`, 25,000 resamples, fixed seed; it resamples
# blocks of consecutive deals, 1,000 blocks above 1,000 deals)
# for means, and the same bootstrap over paired deals (variants play the same walls) for
# differences between variants. Where a headline compares many variants or strategies, the
# intervals are Bonferroni-adjusted for the family stated (they hold jointly at 95 %).
# Conclusions hold for the simulated players and rules, not for people.

# %% tags=["parameters"]
n_deals = 2000  # deals per variant of the small run made when results/NAME is missing
results_root = None  # folder holding the experiment results (default: <repo>/results)
n_jobs = 1  # worker processes of that small run

# %%
# %matplotlib inline
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

from daqing_sim import analysis as an
from daqing_sim.analysis.notebook import (
    Workspace,
    apart,
    ci,
    has,
    mci,
    note_missing,
    num,
    pick,
    pp,
    row_ci,
    verdict,
)

ws = Workspace(n_deals, results_root, n_jobs)

# %% [markdown]
# ## Wait kinds at ready and at win (baseline)

# %%
base = ws.results("baseline")
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

# %% [markdown]
# The label `ready_wait_s` is the **lowest kind code over the wait set** (kanchan < edge <
# single < dual pair < two-sided): a 2m/5m wait on 1m3m4m is labelled kanchan although it also
# wins on a two-sided tile. The pure classes below (when the results record the whole wait,
# `ready_wait_mask_s`) count a wait as "kanchan only" only when every winning tile is a kanchan.

# %%
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

# %%
R, W, O = wr.set_index("wait_kind"), ww.set_index("wait_kind"), wo.set_index("wait_kind")
k, e = O.loc["kanchan"], O.loc["edge"]
k_vs_e = verdict(
    k.lo - e.hi,
    k.hi - e.lo,
    "more often (the intervals do not overlap)",
    "less often (the intervals do not overlap)",
    "about as often (the intervals overlap)",
)
k_outs, e_outs = apart(k.mean_outs, e.mean_outs)
if wc is not None:
    C = wc.set_index("wait_class")
    pk, ps = purity.loc["kanchan"], purity.loc["single"]
    pure = (
        f"* Whole waits: {row_ci(C.loc['kanchan_only'], 'share')} of declared waits are **kanchan only**, "
        f"{row_ci(C.loc['two_or_more_kinds'], 'share')} mix two or more kinds. "
        "Of the waits labelled kanchan, "
        f"{ci(pk.more_tiles_share, pk.lo, pk.hi, percent=True)} have more than one winning tile; of those "
        f"labelled single, {ci(ps.more_tiles_share, ps.lo, ps.hi, percent=True)}."
    )
else:
    pure = "* (Whole-wait classes need `ready_wait_mask_s`; not in these results.)"
display(
    Markdown(f"""
### Answer: which waits
* At declaration, {row_ci(R.loc["kanchan"], "share")} of ready hands wait on **kanchan** (嵌张) and
  {row_ci(R.loc["edge"], "share")} on an **edge** (边张); two-sided waits are
  {row_ci(R.loc["two_sided"], "share")}.
* Among wins, kanchan is {row_ci(W.loc["kanchan"], "share")} and edge {row_ci(W.loc["edge"], "share")}.
* A declared kanchan wait goes on to win {row_ci(k, "win_rate")} of the time, an edge wait
  {row_ci(e, "win_rate")} and a two-sided wait {row_ci(O.loc["two_sided"], "win_rate")}:
  compared with edge waits, kanchan waits win **{k_vs_e}**. At declaration a kanchan wait has
  {k_outs} live outs on average, an edge wait {e_outs}.
{pure}
""")
)

# %% [markdown]
# ## What is a declared wait worth, declared at the same point of the deal?
# Waits declared early win more and pay more whatever their kind, and the kinds are not
# declared equally early; so the mean result of the declaring seat is compared **within**
# bands of the declaration turn (own draws 0-3, 4-6, 7-9, 10+).

# %%
byturn = an.wait_kind_outcomes(base, turn_bins=(0, 4, 7, 10))
display(byturn.pivot_table(index="turns", columns="wait_kind", values="mean_pay", observed=True))
byturn[["turns", "wait_kind", "n", "win_rate", "lo", "hi", "mean_pay", "pay_lo", "pay_hi"]]

# %%
lines = []
for band, g in byturn.groupby("turns", sort=False, observed=True):
    g = g[g["n"] > 0].set_index("wait_kind")
    if {"kanchan", "two_sided"} <= set(g.index):
        kk, tt = g.loc["kanchan"], g.loc["two_sided"]
        lines.append(
            f"| {band} | {int(kk.n):,} | {ci(kk.mean_pay, kk.pay_lo, kk.pay_hi)} | {int(tt.n):,} "
            f"| {ci(tt.mean_pay, tt.pay_lo, tt.pay_hi)} |"
        )
display(
    Markdown(
        "### Answer: expected result of the declaring seat by wait, within declaration-turn bands\n"
        "Mean payment of the deal (2^N points) for a seat that declared a kanchan (label) or a two-sided "
        "wait in that band; the bands compare waits declared at the same point of the deal.\n\n"
        "| declared at own draw | kanchan n | kanchan mean | two-sided n | two-sided mean |\n"
        "|---|---|---|---|---|\n" + "\n".join(lines)
    )
)

# %% [markdown]
# ## 宝中宝 vs 宝边 (baseline)

# %%
bs = an.bao_shares(base).set_index("bao")
gain = an.deal_metric(base, "winner_gain")
bao = base["bao"].astype(str).to_numpy()
kinds = ["bao", "bao_edge", "bao_in_bao"]
g_est, g_lo, g_hi = an.bootstrap_ratio(
    np.column_stack([gain * (bao == k) for k in kinds]),
    np.column_stack([(bao == k) for k in kinds]).astype(float),
)
bs.assign(
    mean_gain=pd.Series(g_est, index=kinds),
    gain_lo=pd.Series(g_lo, index=kinds),
    gain_hi=pd.Series(g_hi, index=kinds),
)

# %%
bib, be, bd = bs.loc["bao_in_bao"], bs.loc["bao_edge"], bs.loc["bao"]
more = verdict(bib.lo - be.hi, bib.hi - be.lo, "more", "less", "not distinguishably more or less")
display(
    Markdown(f"""
### Answer: 宝中宝 vs 宝边 ({int(bs["wins"].iloc[0]):,} wins in {int(bs["deals"].iloc[0]):,} deals)
* **宝中宝** is {ci(bib.share_of_wins, bib.lo, bib.hi, percent=True)} of wins
  ({ci(bib.share_of_deals, bib.deals_lo, bib.deals_hi, percent=True)} of deals);
  **宝边** is {ci(be.share_of_wins, be.lo, be.hi, percent=True)} of wins; plain **摸宝** (wild bao)
  {ci(bd.share_of_wins, bd.lo, bd.hi, percent=True)}.
* 宝中宝 is **{more}** frequent than 宝边.
* The winner collects on average {ci(g_est[2], g_lo[2], g_hi[2])} on a 宝中宝,
  {ci(g_est[1], g_lo[1], g_hi[1])} on a 宝边 and {ci(g_est[0], g_lo[0], g_hi[0])} on a 摸宝.
""")
)

# %% [markdown]
# ## Edges and singles counting as 夹 (jia_edge.toml)

# %%
jia = ws.results("jia_edge")
jdesc = ws.descriptions("jia_edge")
jd = an.paired_difference(
    jia, ["big_win", "winner_gain", "max_pay", "win"], baseline_variant="classic", adjust="bonferroni"
)
js = an.summarize(jia, baseline="classic")
display(an.plot_paired_difference(jd[jd["metric"].isin(["big_win", "win"])]))
js[js["metric"].isin(["deals", "big_share", "deals_won_share"])].pivot(
    index="variant", columns="metric", values="estimate"
)

# %%
lines = []
for v in jd["variant"].unique():
    lines.append(
        f"* **{v}** ({jdesc.get(v) or 'see jia_edge.toml'}): big wins are {mci(js, v, 'big_share')} "
        f"of wins; per deal the big-win probability changes by {pp(pick(jd, variant=v, metric='big_win'))} "
        "and the "
        f"winner's mean gain by {num(pick(jd, variant=v, metric='winner_gain'))} (2^N units)."
    )
display(
    Markdown(
        f"### Answer: effect of counting edges/singles as 夹\n"
        f"With kanchan only (classic), {mci(js, 'classic', 'big_share')} of wins are big. "
        "Paired differences are "
        f"Bonferroni-adjusted over a family of {int(jd['family_size'].iloc[0])}.\n\n" + "\n".join(lines)
    )
)

# %% [markdown]
# ## Does hunting kanchan pay? (strategies.toml)

# %%
strat = ws.results("strategies")
pooled = strat.drop(columns="variant")
sr = an.strategy_results(strat, baseline_strategy="greedy", adjust="bonferroni").set_index("strategy")
wk = an.wait_kind_frequencies(pooled, at="win", by="strategy")
kan = wk[wk["wait_kind"] == "kanchan"].set_index("strategy")
sr[["n", "mean_pay", "lo", "hi", "diff", "diff_lo", "diff_hi", "win_rate"]].join(
    kan[["share", "lo", "hi"]].add_prefix("kanchan_win_")
)

# %%
h, g = sr.loc["jia_hunter"], sr.loc["greedy"]
kh, kg = kan.loc["jia_hunter"], kan.loc["greedy"]
pays = verdict(
    h["diff_lo"], h["diff_hi"], "**pays**", "**costs money**", "has **no detectable effect** on money"
)
display(
    Markdown(f"""
### Answer: kanchan hunting
* `jia_hunter` wins on a kanchan in {ci(kh.share, kh.lo, kh.hi, percent=True)} of its wins,
  `greedy` in {ci(kg.share, kg.lo, kg.hi, percent=True)}.
* Mean payment per seat-deal: `jia_hunter` {ci(h.mean_pay, h.lo, h.hi)},
  `greedy` {ci(g.mean_pay, g.lo, g.hi)}; paired difference
  {an.format_diff(h["diff"], h.diff_lo, h.diff_hi, confidence=an.familywise_confidence(int(h.family_size)))}
  (2^N units; Bonferroni over the {int(h.family_size)} contrasts with greedy). In this simulated field,
  hunting kanchan {pays}.
""")
)
