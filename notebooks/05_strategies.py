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
# # 05 · Strategy tournament
#
# Which strategy wins money? `strategies.toml` is a duplicate tournament: expert, greedy,
# jia_hunter and defensive play every wall in all four cyclic seat rotations with the same deal
# seeds, so each strategy plays every seat's tiles (the dealer's included) of every wall once
# and seat and dealer advantages cancel. The wall is the independent unit: each strategy's
# payments are first averaged per wall (over its four seat-deals of that wall), and its mean
# and the paired differences between strategies get Student t intervals over walls
# (`an.duplicate_table`, the table `daqing-sim run` writes to `tournament.csv`).
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
from daqing_sim.analysis.notebook import Workspace, ci, pick, verdict
from daqing_sim.experiments.config import load_experiment

ws = Workspace(n_deals, results_root, n_jobs)

# %%
strat = ws.results("strategies")
labels = load_experiment(ws.root / "experiments" / "strategies.toml").tournament.seat_labels()
tour = an.duplicate_table(strat, labels)
n_pairs = len(tour) * (len(tour) - 1) // 2
conf = an.familywise_confidence(n_pairs)
# every pairwise difference at the Bonferroni level: the intervals hold jointly at 95 %
pairs = an.tournament_pairs(an.duplicate_table(strat, labels, confidence=conf))
tour = tour.sort_values("mean_pay", ascending=False).reset_index(drop=True)
print(an.format_tournament(tour))
tour

# %%
order = list(tour["entrant"])
pairs["order_a"] = pairs["a"].map(order.index)
pairs["order_b"] = pairs["b"].map(order.index)
ranked = pairs[pairs["order_a"] < pairs["order_b"]].sort_values(["order_a", "order_b"])
ranked = ranked.drop(columns=["order_a", "order_b"])
ranked.reset_index(drop=True)

# %%
# rates per seat-deal (Wilson over seat-deals, approximate: the seats of a wall are dependent)
sr = an.strategy_results(strat, baseline_strategy="greedy").set_index("strategy").loc[order]
display(an.plot_strategy_results(strat))
sr[["win_rate", "win_lo", "win_hi", "deal_in_rate", "deal_in_lo", "deal_in_hi", "ready_rate"]]

# %%
per = an.strategy_results(strat, pool_variants=False)
per.pivot_table(index="strategy", columns="variant", values="mean_pay", observed=True)

# %%
pooled = strat.drop(columns="variant")
display(an.plot_ready_probability(pooled, by="strategy"))
an.wait_kind_frequencies(pooled, at="win", by="strategy").pivot_table(
    index="strategy", columns="wait_kind", values="share", observed=True
)

# %%
best, second = order[0], order[1]
top = pick(pairs, a=best, b=second)
margin = verdict(top["lo"], top["hi"], "detectably", "(impossible)", "not detectably")
lines = []
for i, r in enumerate(tour.itertuples()):
    s = sr.loc[r.entrant]
    lines.append(
        f"{i + 1}. **{r.entrant}**: {ci(r.mean_pay, r.lo, r.hi)} per seat-deal; against the others "
        f"{an.format_diff(r.diff, r.diff_lo, r.diff_hi)}; "
        f"wins {ci(s.win_rate, s.win_lo, s.win_hi, percent=True)}, "
        f"deals in {ci(s.deal_in_rate, s.deal_in_lo, s.deal_in_hi, percent=True)}"
    )
apart = [f"{r.a} - {r.b} {an.format_diff(r.diff, r.lo, r.hi, confidence=conf)}" for r in ranked.itertuples()]
display(
    Markdown(
        f"### Answer: strategy ranking ({int(tour['n_walls'].iloc[0]):,} walls x 4 rotations; 2^N units)\n"
        "Mean payment per seat-deal and the paired difference to the mean of the other strategies, "
        "t intervals over per-wall means (95 %, each on its own):\n\n"
        + "\n".join(lines)
        + f"\n\nPairwise paired differences, Bonferroni-adjusted over the {n_pairs} pairs (jointly 95 %): "
        + "; ".join(apart)
        + f".\n\n**{best}** earns the most against this simulated field; it is **{margin}** ahead of "
        f"**{second}**. This holds for these simulated players, not for people."
    )
)
