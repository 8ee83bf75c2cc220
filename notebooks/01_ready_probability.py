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
# # 01 · How fast do players get ready (上听)?
#
# How likely is a seat to have declared ready by its own k-th draw, for the dealer (庄,
# 14 tiles) and the others? Does it depend on the strategy? And what does each Daqing
# restriction (开门, 幺九, 刻, 两门, 顺, 不能手把一) cost in readiness?
# Data: `experiments/baseline.toml`, `strategies.toml`, `restrictions.toml`.
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
from IPython.display import Markdown, display

from daqing_sim import analysis as an
from daqing_sim.analysis.notebook import Workspace, ci, has, level, note_missing, pick, pp, row_ci, verdict

ws = Workspace(n_deals, results_root, n_jobs)

# %% [markdown]
# ## Dealer vs the others (baseline: classic rules, four expert players)

# %%
base = ws.results("baseline")
MAXK = 16
rp = an.ready_probability(base, max_draws=MAXK)
display(an.plot_ready_probability(base, max_draws=MAXK))
rp[rp["k"].isin([3, 6, 9, 12])].pivot_table(
    index="k", columns="role", values=["p", "lo", "hi"], observed=True
)

# %%
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
display(
    Markdown(f"""
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
""")
)

# %% [markdown]
# ## By strategy (strategies.toml)
# The four variants rotate the strategies over the seats on the same walls; pooled, every
# strategy plays every seat (and the dealer seat) of every wall once. The Wilson intervals
# here count each seat-deal as one trial, although the four rotations of a wall are
# correlated; they are approximate (the money contrasts in notebook 05 resample whole walls).

# %%
strat = ws.results("strategies")
pooled = strat.drop(columns="variant")
rs = an.ready_probability(pooled, by="strategy", max_draws=MAXK)
display(an.plot_ready_probability(pooled, by="strategy", max_draws=MAXK))
rs[rs["k"].isin([6, 9, 12])].pivot_table(index="strategy", columns="k", values="p", observed=True)

# %%
r12 = rs[rs["k"] == 12].sort_values("p", ascending=False).reset_index(drop=True)
fam = len(r12)
conf = an.familywise_confidence(fam)
r12["lo"], r12["hi"] = an.wilson_interval(r12["ready"].to_numpy(), r12["n"].to_numpy(), conf)
best, second = r12.iloc[0], r12.iloc[1]
apart = (
    "its interval is above the runner-up's"
    if best.lo > second.hi
    else f"its interval overlaps **{second.strategy}**'s, so the two are not distinguished"
)
lines = "\n".join(
    f"* **{r.strategy}**: {ci(r.p, r.lo, r.hi, percent=True, confidence=conf)}" for r in r12.itertuples()
)
display(
    Markdown(f"""
### Answer: ready probability by strategy ({len(strat) // 4:,} walls x 4 rotations)
P(ready by the 12th own draw), per seat, Bonferroni-adjusted over the {fam} strategies:

{lines}

**{best.strategy}** has the highest estimate; {apart}. This holds for these simulated players.
""")
)

# %% [markdown]
# ## The cost of each restriction (restrictions.toml)
# Each variant lifts one restriction (or all of them: the push-down 推倒和 game) on the same
# walls as `classic`. Lifting a restriction also makes deals shorter (someone wins sooner),
# which by itself lowers everyone's chance of getting ready within the deal, so "P(ever ready)"
# mixes the restriction's cost with the length of the deal. The readiness cost is therefore
# measured by the **Kaplan-Meier** estimand (the deal's end censors a seat's time to ready)
# at draws 6 and 9 when the results carry `own_draws_s`; the paired differences of win and
# exhaustive-draw rates are causal (same walls, same players). All intervals are
# Bonferroni-adjusted over the table's family.

# %%
restr = ws.results("restrictions")
desc = ws.descriptions("restrictions")


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

# %%
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
        f"\n\nKaplan-Meier P(a non-dealer is ready by its 9th draw), not confounded by shorter deals "
        f"(Bonferroni over {kfam} estimates): {km_lines}."
    )
display(
    Markdown(f"""
### Answer: what each restriction costs ({len(restr[restr["variant"] == "classic"]):,} paired deals)
Paired differences to `classic` in percentage points, Bonferroni-adjusted over a family of
{fam} (metrics x variants; each interval at {100 * level(cost.iloc[0]):.3g} %); positive = more often
ready / won without the restriction. The two ready columns are per deal and so include the
effect of shorter deals.

| variant | lifts | P(ever ready) per seat | P(ready by draw 9) | win rate | exhaustive draws |
|---|---|---|---|---|---|
{chr(10).join(rows)}

{headline}
""")
)
