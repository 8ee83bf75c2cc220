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
# # 08 · Rule families: Daqing and Beijing side by side
#
# Daqing (大庆, 112 tiles, a hidden bao, strict ready conditions, 2^N payments) and Beijing
# (北京, 136 tiles, free claims and wins, fans that add up, 互包 and 烧庄;
# [docs/RULES_BEIJING.md](../docs/RULES_BEIJING.md)) on the same engine. How fast is a hand
# ready, how do deals end and how long do they last, which fan types do wins hold, what is a
# win worth in base units, how often do Beijing's 烧庄, 互包 and robbed kongs happen and what
# do they cost, and what does each Daqing restriction cost next to Beijing, which has none?
#
# **Fields.** Both sides are four `expert` players, each family's default field: the Beijing
# expert reads who is likely waiting from public play, since nobody declares under Beijing
# ([docs/EXPERT.md](../docs/EXPERT.md#beijing)). Beijing is `experiments/beijing.toml`; the
# Daqing side is the `classic` and `all_off` variants of `experiments/restrictions.toml`, which
# also measures, in Daqing's own terms and on the same walls, the cost of each Daqing
# restriction. The two experts are two players tuned to two games, so a gap between the
# families is the rules and what each expert makes of them.
#
# **Readiness** means a declared ready hand (上听, with its conditions) under Daqing and a
# waiting hand (听牌, nothing declared) under Beijing. **Base units**: Daqing's 1 point (a loser
# owing 2^0) and Beijing's base (1,000 points: one fan of a concealed hand); they are no
# exchange rate, so values compare shapes, not money.
#
# Intervals are 95 % unless stated: Wilson score intervals (scipy) for probabilities,
# Kaplan-Meier log-log intervals for readiness curves, a percentile bootstrap
# (`scipy.stats.bootstrap`, 25,000 resamples, fixed seed; it resamples blocks of consecutive deals,
# 1,000 blocks above 1,000 deals) for means, and the same bootstrap over paired deals for
# differences between variants of one family. Daqing `classic` and `all_off` are played on the same
# walls, so they are compared by paired differences; Beijing's walls are its own, so a Beijing
# figure and a Daqing one are two independent estimates, compared by their difference with a normal
# interval (the two half-widths in quadrature), never by whether two intervals overlap. Where a
# table holds many paired differences they are Bonferroni-adjusted for the family stated.
# **Shares of deals** count deals (a deal someone wins, a deal-in); **per seat-deal** rates count
# each seat's deals: 和了率 (a seat wins) and 放铳率 (a seat's discard is won on), what a player
# reads as its own rates, about a quarter of the shares of deals. Conclusions hold for the simulated
# fields and rules, not for people.

# %% tags=["parameters"]
n_deals = 2000  # deals per variant of the small runs made when results/NAME is missing
results_root = None  # folder holding the experiment results (default: <repo>/results)
n_jobs = 1  # worker processes of those small runs
# The small runs (2 experiments, 11 variants) take under a minute on a 2-core machine. Full size:
# run `daqing-sim run experiments/NAME.toml` for beijing and restrictions first (minutes each);
# their complete results are then read instead.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

from daqing_sim import analysis as an
from daqing_sim.analysis.notebook import Workspace, ci, num, pick, pp, row_ci, variant_frame, verdict

ws = Workspace(n_deals, results_root, n_jobs)

# %%
restr = ws.results("restrictions")
beijing = ws.results("beijing")
DQ, DQ_OFF, BJ = "Daqing classic (expert)", "Daqing all off (expert)", "Beijing (expert)"
frames = {
    DQ: variant_frame(restr, "classic"),
    DQ_OFF: variant_frame(restr, "all_off"),
    BJ: variant_frame(beijing, "beijing"),
}
sizes = ", ".join(f"{k} {len(v):,}" for k, v in frames.items())
levels = an.family_comparison(frames)
levels.pivot_table(index="metric", columns="label", values="estimate", sort=False)

# %% [markdown]
# ## How soon is a hand ready? (expert fields)
# Kaplan-Meier: the deal's end right-censors a seat's time to ready, so the curves say how soon
# a seat would be ready had the deal gone on. Daqing `all_off` lifts every ready condition on
# the same 112 tiles (the push-down 推倒和 game); Beijing has none on 136 tiles.

# %%
display(an.plot_family_readiness(frames))
ready = levels[levels["metric"].str.startswith("ready_")]
ready.pivot_table(index="metric", columns="label", values=["estimate", "lo", "hi"], sort=False)

# %%
r = {(x.label, x.metric): x._asdict() for x in levels.itertuples()}


def lv(label, metric, percent=True):
    """A level of the comparison table with its interval."""
    x = r[(label, metric)]
    return ci(x["estimate"], x["lo"], x["hi"], percent=percent)


def gap(a, b, metric, percent=True):
    """``a`` minus ``b`` for two labels on different walls (Beijing vs Daqing): independent
    estimates, so the difference's 95% interval is normal with the half-widths in quadrature."""
    x, y = r[(a, metric)], r[(b, metric)]
    d = x["estimate"] - y["estimate"]
    half = np.hypot((x["hi"] - x["lo"]) / 2, (y["hi"] - y["lo"]) / 2)
    scale, unit = (100, " points") if percent else (1, "")
    return f"{scale * d:+.2f}{unit} ({scale * (d - half):+.2f} to {scale * (d + half):+.2f})"


display(
    Markdown(f"""
### Answer: readiness by own draws ({sizes} deals, four expert players each)
* By its **6th own draw** a non-dealer is ready (Kaplan-Meier) with {lv(DQ, "ready_k6_non_dealer")}
  under Daqing's classic rules, {lv(DQ_OFF, "ready_k6_non_dealer")} with every restriction off, and
  its hand waits (听牌) with {lv(BJ, "ready_k6_non_dealer")} under Beijing; the dealer:
  {lv(DQ, "ready_k6_dealer")}, {lv(DQ_OFF, "ready_k6_dealer")} and {lv(BJ, "ready_k6_dealer")}.
* By the **12th draw** (non-dealer): {lv(DQ, "ready_k12_non_dealer")}, {lv(DQ_OFF, "ready_k12_non_dealer")},
  {lv(BJ, "ready_k12_non_dealer")}.
* Beijing minus Daqing at the 6th draw (non-dealer; independent walls): {gap(BJ, DQ, "ready_k6_non_dealer")}
  against classic, {gap(BJ, DQ_OFF, "ready_k6_non_dealer")} against all off. Classic and all off
  share their walls: their paired difference is in the last section (`ready_share`). Daqing's
  ready is a declaration with conditions, Beijing's a waiting hand: the curves compare how soon
  the game lets an expert's hand stand ready.
""")
)

# %% [markdown]
# ## How do deals end, and how long do they last? (expert fields)
# Shares of deals with Wilson intervals; deal length = tiles drawn from the live wall. A deal-in
# is a win on another player's tile (Daqing: 点炮 and 点黑炮; Beijing: a discard or a robbed kong);
# one winner per discard, so deal-ins per deal is a share too.

# %%
DQ_LIVE = 112 - 53 - 1  # Daqing: the tiles left after the hands (53) and the bao (docs/RULES.md)
BJ_LIVE = 136 - 53 - 14  # Beijing: 14 stay undrawn, 2 more per kong after the first (RULES_BEIJING.md)
rates = ["deals_won_share", "exhaustive_draw", "self_draw", "deal_in", "draws_mean", "gain_mean"]
titles = {
    "deals_won_share": "deals someone wins (share of deals)",
    "exhaustive_draw": "exhaustive draw (share of deals)",
    "self_draw": "self-draw 自摸 (share of deals)",
    "deal_in": "deal-ins per deal",
    "draws_mean": "deal length: tiles drawn from the live wall",
    "gain_mean": "what the winner collects for a win (base units)",
}
display(an.plot_family_comparison(levels, rates, titles))
dq_di, bj_di = an.deal_in_rates(frames[DQ]), an.deal_in_rates(frames[BJ])


def seat_win_rate(g, role):
    """和了率: P(a seat of the role wins the deal), per seat-deal, with its Wilson interval."""
    w, d = g["winner"].to_numpy(), g["dealer"].to_numpy()
    k, m = (
        (int((w == d).sum()), len(g)) if role == "dealer" else (int(((w >= 0) & (w != d)).sum()), 3 * len(g))
    )
    return ci(k / m, *an.wilson_interval(k, m), percent=True)


an.deal_in_rates(frames[BJ])

# %%
display(
    Markdown(f"""
### Answer: outcomes and deal length
* Deals someone wins (a share of deals, not a player's win rate): {lv(DQ, "deals_won_share")} (Daqing
  classic), {lv(DQ_OFF, "deals_won_share")} (all off), {lv(BJ, "deals_won_share")} (Beijing);
  exhaustive draws {lv(DQ, "exhaustive_draw")}, {lv(DQ_OFF, "exhaustive_draw")}, {lv(BJ, "exhaustive_draw")}.
* **和了率** (a seat wins, per seat-deal): a non-dealer {seat_win_rate(frames[DQ], "non_dealer")}
  (Daqing classic), {seat_win_rate(frames[BJ], "non_dealer")} (Beijing); the dealer
  {seat_win_rate(frames[DQ], "dealer")} and {seat_win_rate(frames[BJ], "dealer")}.
* Self-draw (自摸), share of deals: {lv(DQ, "self_draw")}, {lv(DQ_OFF, "self_draw")}, {lv(BJ, "self_draw")};
  deal-ins per deal: {lv(DQ, "deal_in")}, {lv(DQ_OFF, "deal_in")}, {lv(BJ, "deal_in")}. **放铳率** (a
  seat's discard is won on, per seat-deal): a Beijing non-dealer
  {row_ci(pick(bj_di, who="non_dealer"), "rate")}, a Daqing one
  {row_ci(pick(dq_di, who="non_dealer"), "rate")} (点炮 and 点黑炮).
* Deal length (tiles drawn): {lv(DQ, "draws_mean", False)}, {lv(DQ_OFF, "draws_mean", False)},
  {lv(BJ, "draws_mean", False)}; Beijing minus Daqing classic {gap(BJ, DQ, "draws_mean", False)} tiles
  (independent walls). At most {DQ_LIVE} tiles can be drawn in a Daqing deal, {BJ_LIVE} in a
  Beijing deal without kongs.
""")
)

# %% [markdown]
# ## Which fan types do wins hold? (expert fields)
# Each family's own types: under Daqing the fans that apply to the win as a whole (self-draw, 夹,
# the bao kinds, 点黑炮, the dealer's wins; 门清 counts per loser and is left out), under Beijing the
# eleven types of the rules page (a win may hold several; `plain win` holds none of the nine).

# %%
fans_bj = an.win_fan_shares(frames[BJ])
fans_dq = an.win_fan_shares(frames[DQ])


def fan_points(ax, table, title):
    """Shares of wins as points with their Wilson intervals on a log axis (a bar's length on a
    log axis means nothing); fans no win held are left out."""
    t = table[table["count"] > 0].sort_values("share")
    y = np.arange(len(t))
    ax.errorbar(t["share"], y, xerr=np.vstack([t["share"] - t["lo"], t["hi"] - t["share"]]).clip(min=0),
                fmt="o", ms=3, capsize=2)  # fmt: skip
    ax.set_yticks(y, [f"{n} [{c}]" for n, c in zip(t["name"], t["fan"], strict=True)], fontsize="small")
    ax.set_xscale("log")
    ax.set_xlabel("share of wins holding it (95% Wilson interval, log scale)")
    ax.set_title(title, fontsize="small")
    ax.grid(alpha=0.3)


fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4))
fan_points(a1, fans_dq, f"Which fans do wins hold? {DQ}")
fan_points(a2, fans_bj, f"Which fan types do wins hold? {BJ} (fans in brackets of the name)")
fig.tight_layout()
plt.show()
fans_bj[["name", "fan", "count", "n", "share", "lo", "hi"]]

# %%
top_bj = fans_bj[fans_bj["fan"] != "plain_win"].sort_values("share", ascending=False).iloc[0]


def held(table, code):
    """The share of wins holding fan ``code``, with its interval."""
    return row_ci(pick(table, fan=code), "share")


display(
    Markdown(f"""
### Answer: fan types
* Beijing: {held(fans_bj, "plain_win")} of wins are a **plain win** (none of the nine named
  types); the most frequent named type is **{top_bj["name"]}** with {row_ci(top_bj, "share")};
  七对 {held(fans_bj, "seven_pairs")}, 一条龙 {held(fans_bj, "dragon")}, 清一色 {held(fans_bj, "one_suit")}.
* Daqing (classic): 夹 big wins {held(fans_dq, "big")}, 摸宝 of any kind {held(fans_dq, "bao")},
  自摸 {held(fans_dq, "self_draw")}, 点黑炮 {held(fans_dq, "deal_in_not_ready")} of wins: Daqing's fans
  come from how the win happens, Beijing's mostly from the shape of the hand, which the expert
  field rarely builds (it plays for speed: docs/EXPERT.md says what value-seeking was tried).
""")
)

# %% [markdown]
# ## What is a win worth, in base units? (expert fields)
# What the winner collects for the win: under Daqing the losers' 2^N points, under Beijing the
# win's payments (the value on a deal-in, 3 x the value on a self-draw or a robbed kong; the value
# is base x F, half for an open hand) in base units, 烧庄 left out. Then the value of a Beijing win
# itself, per variant of `beijing.toml` (`fans_double` reads the fans as base x 2^(F - plain_win),
# base x 2^(F - 1) with the default fans).

# %%
display(an.plot_family_gains(frames))
# no_mutual_bao changes who pays, never a win's value: its values are beijing's, deal for deal,
# and its line would hide under beijing's, so the plot shows beijing and fans_double
same_values = bool(
    (
        variant_frame(beijing, "no_mutual_bao")["value"].to_numpy()
        == variant_frame(beijing, "beijing")["value"].to_numpy()
    ).all()
)
shown = beijing[beijing["variant"].isin(["beijing", "fans_double"])].copy()
shown["variant"] = shown["variant"].cat.remove_unused_categories()
values_fig = an.plot_value_distribution(shown)
for ax in values_fig.axes:  # values run from 0.5 to 512 base units: on a linear axis most sit at 0
    ax.set_xscale("log", base=2)
    ax.set_xlabel(ax.get_xlabel() + ", log scale")
display(values_fig)
print(f"no_mutual_bao's values equal beijing's in every deal: {same_values}")
vs = an.value_statistics(beijing)
vs.pivot_table(index="statistic", columns="variant", values="estimate", sort=False, observed=True)

# %%
bj_names = ws.descriptions("beijing")
bj_units = an.in_base_units(beijing)  # points / base_points
vdiff = an.paired_difference(bj_units, ["value", "max_pay"], "beijing", adjust="bonferroni")
v_mean = pick(vs, variant="beijing", statistic="mean")
v_double = pick(vs, variant="fans_double", statistic="mean")
d_double = pick(vdiff, variant="fans_double", metric="value")
display(
    Markdown(f"""
### Answer: value of a win
* A winner collects {lv(DQ, "gain_mean", False)} base units (2^N points) per win under Daqing's classic
  rules, {lv(DQ_OFF, "gain_mean", False)} with every restriction off, and {lv(BJ, "gain_mean", False)}
  base units under Beijing (expert fields).
* A Beijing win is worth E[value] = {ci(v_mean.estimate, v_mean.lo, v_mean.hi)} base units (median
  {row_ci(pick(vs, variant="beijing", statistic="q50"), "estimate", False)}, 99 % quantile
  {row_ci(pick(vs, variant="beijing", statistic="q99"), "estimate", False)}: distribution-free
  intervals); with the fans doubling
  (`fans_double`: {bj_names["fans_double"]}) it is {ci(v_double.estimate, v_double.lo, v_double.hi)},
  paired on the same deals {num(d_double)} base units per deal (the interval is Bonferroni-adjusted
  over the table's {int(vdiff["family_size"].iloc[0])} differences).
""")
)

# %% [markdown]
# ## 烧庄, 互包 and robbed kongs: how often, and what do they cost? (Beijing, expert field)
# Share of deals where each happens (Wilson) and the mean payment involved where it does
# (bootstrap over deals, base units): the dealer's 烧庄 payment (3 x 1,000 x (2^rounds - 1) points;
# nothing on a drawn deal), the bound partner's payment for the win under 互包 (and the part of it
# that 互包 moved onto the partner), the 3 x value paid for a robbed kong. Daqing has none of the
# three (its bao is another rule: notebook 03). `no_mutual_bao` switches 互包 off on the same deals.

# %%
display(an.plot_beijing_events(beijing))
events = an.beijing_events(beijing)
events

# %%
ev = {(x.variant, x.event): x._asdict() for x in events.itertuples()}


def share(event, variant="beijing"):
    x = ev[(variant, event)]
    return ci(x["share"], x["lo"], x["hi"], percent=True)


def cost(event, variant="beijing", what="cost"):
    x = ev[(variant, event)]
    if not x["count"]:
        return "no case in these deals"
    return ci(x[what], x[f"{what}_lo"], x[f"{what}_hi"]) + " base units"


mdiff = pick(vdiff, variant="no_mutual_bao", metric="max_pay")
display(
    Markdown(f"""
### Answer: 烧庄, 互包, robbed kongs ({len(frames[BJ]):,} Beijing deals, four expert players)
* **烧庄** happens in {share("burn")} of deals and is paid in {share("burn_paid")}; what the dealer
  pays where it is paid: {cost("burn_paid")}.
* **互包** binds two players in {share("mutual")} of deals; the winner's bound partner pays for the
  win in {share("mutual_paid")}. What it pays there: {cost("mutual_paid")}; of it, what 互包 moved
  onto it beyond its own share: {cost("mutual_paid", what="shift")}. Switching 互包 off changes the
  largest payment of a deal by {num(mdiff)} base units per deal (paired on the same deals,
  Bonferroni-adjusted as above).
* **Robbed kongs** (抢杠) decide {share("robbed_kong")} of deals; what is paid for such a win:
  {cost("robbed_kong")}.
""")
)

# %% [markdown]
# ## What does each Daqing restriction cost, next to Beijing's none?
# `restrictions.toml` lifts each Daqing restriction in turn (and all of them) on the same walls
# as `classic`, with **four expert players**: paired differences, Bonferroni-adjusted over the
# table. Beside them, the levels: Daqing classic, Daqing with every restriction off (112 tiles)
# and Beijing (136 tiles, no restrictions): what is left between the last two is not a
# restriction but the tiles, the wall, the bao, the claims and the players' play.

# %%
costs = an.paired_difference(
    restr, ["win", "exhaustive_draw", "draws", "ready_share"], "classic", adjust="bonferroni"
)
# each difference in its own unit: shares in percentage points, tiles drawn in tiles
PANELS = {
    "win": ("P(someone wins the deal)", "percentage points", 100),
    "exhaustive_draw": ("P(the deal ends in an exhaustive draw, 荒庄)", "percentage points", 100),
    "draws": ("tiles drawn from the live wall in the deal", "tiles", 1),
    "ready_share": ("ready_share: the share of the four seats that declared ready (上听) in the deal",
                    "percentage points of the seats", 100),
}  # fmt: skip
fig, axes = plt.subplots(1, 4, figsize=(15, 4), sharey=True)
names = list(dict.fromkeys(costs["variant"].astype(str)))
for ax, (m, (title, unit, k)) in zip(axes, PANELS.items(), strict=True):
    t = costs[costs["metric"] == m].set_index("variant").loc[names]
    y = np.arange(len(names))
    ax.errorbar(
        k * t["diff"], y, xerr=k * np.vstack([t["diff"] - t["lo"], t["hi"] - t["diff"]]), fmt="o", capsize=2
    )
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, names)
    ax.set_xlabel(f"variant - classic, {unit}")
    ax.set_title(title, fontsize="small", wrap=True)
    ax.grid(alpha=0.3)
fig.suptitle(
    "What does lifting each restriction change? Paired on the same walls; jointly 95% "
    f"(Bonferroni, family of {int(costs['family_size'].iloc[0])})",
    fontsize="small",
)
fig.tight_layout()
plt.show()
costs.pivot_table(index="variant", columns="metric", values="diff", sort=False, observed=True)

# %%
display(an.plot_family_comparison(levels, ["deals_won_share", "exhaustive_draw", "draws_mean"], titles))
levels.pivot_table(index="metric", columns="label", values="estimate", sort=False)

# %%
desc = ws.descriptions("restrictions")
lines = []
for v in costs["variant"].unique():
    w, d, n = (pick(costs, variant=v, metric=m) for m in ("win", "exhaustive_draw", "draws"))
    lines.append(f"| {v} | {desc.get(v, '')} | {pp(w)} | {pp(d)} | {num(n)} |")
table = "\n".join(lines)
fam = int(costs["family_size"].iloc[0])
off = pick(costs, variant="all_off", metric="draws")
x, y = r[(BJ, "draws_mean")], r[(DQ_OFF, "draws_mean")]  # independent walls: the half-widths in quadrature
half = np.hypot((x["hi"] - x["lo"]) / 2, (y["hi"] - y["lo"]) / 2)
d_len = x["estimate"] - y["estimate"]
longer = verdict(
    d_len - half, d_len + half, "longer than", "shorter than", "not distinguishable in length from"
)
display(
    Markdown(f"""
### Answer: the cost of Daqing's restrictions (expert field, paired on the same walls)
Per restriction lifted, the change per deal against `classic` ({len(frames[DQ]):,}
deals per variant; intervals Bonferroni-adjusted over the table's {fam} differences):

| variant | lifts | deals someone wins | exhaustive draws | tiles drawn |
| --- | --- | --- | --- | --- |
{table}

Lifting every restriction changes the length of an expert deal by {num(off)} tiles drawn.
Expert against expert, a Beijing deal is **{longer}** a Daqing deal without restrictions
({lv(BJ, "draws_mean", False)} against {lv(DQ_OFF, "draws_mean", False)} tiles drawn, out of at most
{BJ_LIVE} and {DQ_LIVE}; the difference {gap(BJ, DQ_OFF, "draws_mean", False)}, independent walls),
and someone wins {lv(BJ, "deals_won_share")} of Beijing deals against {lv(DQ_OFF, "deals_won_share")}.

### Answer: what holds
Every figure here describes its simulated field: four expert players on both sides (Beijing:
`beijing.toml`; Daqing: `restrictions.toml`'s `classic` and `all_off`, the same walls as its
restriction costs). The two experts are different players tuned to different games, and neither
is a table of people: a gap between the families is the rules and the players' play together.
""")
)
