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
# # 03 · The bao rule: 换宝 and 宝卡
#
# What does bao replacement (换宝, classic) do compared with the newer practice of keeping
# the first bao, and what does 宝卡 (instant win when the bao is one of your kanchan tiles)
# add? Outcome mix, 摸宝 share, exhaustive-draw rate, payments, each as a paired
# difference on the same walls. Data: `experiments/bao_replacement.toml`.
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
from IPython.display import Markdown, display

from daqing_sim import analysis as an
from daqing_sim.analysis.notebook import Workspace, ci, mci, num, pick, pp

ws = Workspace(n_deals, results_root, n_jobs)

# %%
bao = ws.results("bao_replacement")
desc = ws.descriptions("bao_replacement")
outcomes = an.outcome_shares(bao)
outcomes.pivot_table(index="variant", columns="outcome", values="share", observed=True)

# %%
bs = an.bao_shares(bao)
display(bs.pivot_table(index="variant", columns="bao", values="share_of_wins", observed=True))
summary = an.summarize(bao, baseline="classic")
heads = [
    "deals",
    "deals_won_share",
    "outcome_exhaustive_draw",
    "bao_share_bao",
    "bao_share_bao_edge",
    "bao_share_bao_in_bao",
    "big_share",
]
summary[summary["metric"].isin(heads)].pivot(index="variant", columns="metric", values="estimate")[heads]

# %%
metrics = [
    "win",
    "exhaustive_draw",
    "bao_draw",
    "any_bao",
    "bao_in_bao",
    "winner_gain",
    "max_pay",
    "pays_64",
    "bao_replacements",
]
diffs = an.paired_difference(bao, metrics, baseline_variant="classic", adjust="bonferroni")
display(
    an.plot_paired_difference(diffs[diffs["metric"].isin(["win", "exhaustive_draw", "bao_draw", "any_bao"])])
)
diffs

# %%
display(an.plot_payment_distribution(bao))
an.expected_payment(bao, by="role").pivot_table(index="role", columns="variant", values="mean", observed=True)

# %%
classic = bao[bao["variant"] == "classic"]
rep, rep_lo, rep_hi = an.bootstrap_ratio(classic["bao_replacements"].to_numpy(dtype=float))
n_rep = int((classic["bao_replacements"] > 0).sum())
rep_lo2, rep_hi2 = an.wilson_interval(n_rep, len(classic))
lines = []
for v in diffs["variant"].unique():
    d = {m: pick(diffs, variant=v, metric=m) for m in metrics}
    lines.append(
        f"* **{v}** ({desc.get(v, '')}): 摸宝 per deal {pp(d['bao_draw'])}, any bao win {pp(d['any_bao'])}, "
        f"宝中宝 {pp(d['bao_in_bao'])}, win rate {pp(d['win'])}, "
        f"exhaustive draws {pp(d['exhaustive_draw'])}, "
        f"winner's gain {num(d['winner_gain'])}, largest payment {num(d['max_pay'])}, "
        f"P(someone pays ≥ 64) {pp(d['pays_64'])}."
    )
display(
    Markdown(
        f"### Answer: the bao rule ({len(classic):,} paired deals per variant)\n"
        f"Under the classic rules the bao is replaced {ci(rep, rep_lo, rep_hi)} times per deal "
        f"(in {ci(n_rep / len(classic), float(rep_lo2), float(rep_hi2), percent=True)} "
        "of deals at least once); "
        f"摸宝 is {mci(summary, 'classic', 'bao_share_bao')} of wins and "
        f"{mci(summary, 'classic', 'outcome_exhaustive_draw')} of deals end in an exhaustive draw.\n\n"
        f"Paired differences to `classic` on the same walls: what switching the rule does, for these players "
        "(bootstrap intervals, Bonferroni-adjusted over a family of "
        f"{int(diffs['family_size'].iloc[0])}):\n\n" + "\n".join(lines)
    )
)
