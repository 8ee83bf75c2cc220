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
# # 09 · Two-player games: patterns, values, 报听, the flower tile, a match
#
# The two-player game (二人麻将, [docs/RULES_TWO_PLAYER.md](../docs/RULES_TWO_PLAYER.md)): 71 of the
# 136 tiles, free chi, peng and kong on the opponent, **报听** (declaring ready locks the hand and
# scores 门清报听, or 天听 at the first turn), a face-up **flower tile** (花牌: one fan per tile of
# its kind in the winning hand), fans that add up to **F** (a limit hand, 役满, is worth the cap of
# 13), and a game's **value** = F x multiplier x points per fan, paid by the loser (1 x 1 by
# default, so a value reads as F points). Which patterns do wins hold, and how many games does a
# rare one take? What are F and E[value]? What is 报听 worth, and what does the flower tile add? How
# do dealer and non-dealer fare, how long is a game, and what does an 8-game match with the
# doubling (进阶倍数: game k worth 2^k) come to?
#
# **Field.** Two `expert` players, the family's default field. At its default knobs the expert
# discards as `greedy` does, stays concealed (it claims no peng or chi; docs/EXPERT.md gives what
# that gains over greedy, with its interval) and declares 报听 whenever its concealed hand is ready;
# its knob `declare_min_outs = 40` switches 报听 off (no ready hand has 40 unseen winning tiles).
# `experiments/two_player.toml` plays `declare` (the defaults), `never_declare`
# and `no_flower` (`flower_tiles = 0`) on the same walls, seat 0 dealing;
# `experiments/two_player_declare.toml` is a duplicate tournament of an expert that plays greedy's
# moves but never declares (`claim_shanten = 13, declare_min_outs = 40`) against greedy, both seat
# rotations of every wall.
#
# Intervals are 95 % unless stated: Wilson score intervals (scipy) for shares, the exact
# (Clopper-Pearson) binomial interval (`scipy.stats.binomtest`) for a count below 50, a percentile
# bootstrap (`scipy.stats.bootstrap`, 25,000 resamples, fixed seed; it resamples blocks of
# consecutive games, 1,000 blocks above 1,000 games) for means, ratios and paired differences,
# Student t over per-wall means for the tournament, a distribution-free interval
# (`scipy.stats.quantile_test`) for quantiles, and a bootstrap over matches for the match. Figures
# of one game's two seats (dealer and non-dealer) and of two variants on the same walls are
# compared as paired differences, never by whether two marginal intervals overlap; where a table
# holds several of them they are Bonferroni-adjusted for the family stated. Patterns are named by
# the rule set's Chinese name first, the code name (the frame's `fan_<code>` column) after it;
# `chiihou` and `renhou` mean the other hand than in riichi (docs/RULES_TWO_PLAYER.md); the plots
# name them the same way (the shipped plot font holds every pattern's glyphs). Conclusions hold
# for the simulated field and rules, not for people.

# %% tags=["parameters"]
n_deals = 2000  # games per variant of the small runs made when results/NAME is missing
results_root = None  # folder holding the experiment results (default: <repo>/results)
n_jobs = 1  # worker processes of those small runs
# The small runs (2 experiments, 5 variants) take under a minute on a 2-core machine. Full size:
# run `daqing-sim run experiments/two_player.toml` and `experiments/two_player_declare.toml` first
# (about 10 minutes together with --jobs 2); their complete results are then read instead. The match
# section plays 10 x n_deals matches of 8 games here (seconds).

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import FuncFormatter
from scipy import stats

import daqing_sim as ds
from daqing_sim import analysis as an
from daqing_sim.analysis.notebook import Workspace, ci, num, pick, pp, row_ci, variant_frame, verdict
from daqing_sim.analysis.plots import use_tile_font

use_tile_font()  # the pattern names' glyphs in this notebook's own figures too
ws = Workspace(n_deals, results_root, n_jobs)
TWO = ds.RuleSet(family="two_player")

# %%
runs = ws.results("two_player")
frames = {v: variant_frame(runs, v) for v in ("declare", "never_declare", "no_flower")}
base = frames["declare"]
n_games = len(base)
n_wins = int((base["winner"] >= 0).sum())
runs.groupby("variant", observed=True).size().rename("games").to_frame()

# %% [markdown]
# ## Which patterns and limit hands do wins hold?
# The share of wins holding each pattern (a win may hold several, so the shares add up to more
# than 1; 推倒胡 `plain_win` is a win with none), `declare` variant. A pattern held by fewer than 50
# wins gets the exact binomial interval; `games_per_win` is games played per win holding it,
# `first_game` the first game (0-based) where one did. A pattern no win held still has an upper
# bound: the exact interval of 0 out of the wins.

# %%
shares = an.two_player_pattern_shares(base)
shares["pattern"] = [an.fan_label(c) for c in shares["fan"]]


def share_points(ax, table, label="fan", title=""):
    """Shares of wins as points with their intervals on a log axis (a bar's length on a log axis
    means nothing); rows no win held are left out."""
    t = table[table["count"] > 0].sort_values("share")
    y = np.arange(len(t))
    err = np.vstack([t["share"] - t["lo"], t["hi"] - t["share"]]).clip(min=0)
    ax.errorbar(t["share"], y, xerr=err, fmt="o", ms=3, capsize=2)
    ax.set_yticks(y, list(t[label]), fontsize="small")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{100 * x:g}%"))
    ax.set_xlabel("share of wins holding it (95% interval: Wilson; exact below 50 wins; log scale)")
    ax.set_title(title, fontsize="small")
    ax.grid(alpha=0.3)


fig, ax = plt.subplots(figsize=(8, 0.22 * int((shares["count"] > 0).sum()) + 1.5))
share_points(ax, shares, label="pattern", title="Which patterns and limit hands do wins hold? (`declare`)")
plt.show()
shares[["pattern", "fans", "count", "n", "share", "lo", "hi", "method", "games_per_win", "first_game"]]

# %%
seen = shares[shares["count"] > 0]
common = seen[~seen["limit"]].sort_values("share", ascending=False)
limits = seen[seen["limit"] & (seen["fan"] != "limit_any")].sort_values("count", ascending=False)
unseen_limits = shares[shares["limit"] & (shares["count"] == 0) & (shares["fan"] != "limit_any")]
any_limit = pick(shares, fan="limit_any")


def share_ci(r):
    """A pattern's share of wins with its interval (Wilson or exact, as the table says)."""
    return ci(r["share"], r["lo"], r["hi"], percent=True)


def games_per(count, games):
    """One in how many games, with the exact binomial interval of the rate per game (binomtest)."""
    lo, hi = stats.binomtest(int(count), int(games)).proportion_ci(method="exact")
    slow = f"{1 / lo:,.0f}" if lo > 0 else "∞"
    return f"one per {games / count:,.0f} games (95% exact: one per {1 / hi:,.0f} to {slow})"


how_often = f", {games_per(any_limit['count'], n_games)}" if any_limit["count"] else ""
top = "; ".join(f"{r['pattern']} {share_ci(r)}" for _, r in common.head(5).iterrows())
if len(limits):
    limit_lines = "\n".join(
        f"| {r['pattern']} | {r['count']:,} | {share_ci(r)} | {games_per(r['count'], n_games)} "
        f"| game {r['first_game']:,} |"
        for _, r in limits.iterrows()
    )
else:
    limit_lines = "| (none seen) | 0 | | | |"
bound = (
    f"each of the {len(unseen_limits)} limit hands no win held is below "
    f"{100 * unseen_limits['hi'].max():.2g}% of wins (exact upper bound)"
    if len(unseen_limits)
    else "every limit hand was seen"
)
display(
    Markdown(f"""
### Answer: patterns and limit hands ({n_games:,} games, {n_wins:,} wins, two expert players)
* The most common patterns: {top}.
* A **limit hand** (役满, F = 13) is held by {share_ci(any_limit)} of wins{how_often}. The limit
  hands seen (exact intervals below 50 wins):

| limit hand | wins | share of wins | games per win | first seen |
| --- | --- | --- | --- | --- |
{limit_lines}

* Of the rest, {bound}: {", ".join(unseen_limits["pattern"])}. Unseen is not "too rare to happen":
  neither player ever plays for a limit hand (the expert discards as greedy does, for speed and
  shape), so these shares are of limit hands reached by accident; players who aim for one would
  reach it more often, by how much is not measured here. A share of wins here is this field's, not
  a table's.
""")
)

# %% [markdown]
# ## How many fans, and what is a game worth?
# F is the sum of the win's fans (a plain win 1; a limit hand the cap, 13); the value of a win is
# F x multiplier x points per fan (1 x 1 here, so points = F). E[value] per game counts a drawn
# game (流局) as 0.

# %%
fdist = an.fan_total_distribution(runs)
values = an.two_player_value_statistics(runs)
display(
    fdist.pivot_table(index="F", columns="variant", values="share", observed=True, sort=False).map(
        lambda x: f"{100 * x:.3g}%"
    )
)
values.pivot_table(index="statistic", columns="variant", values="estimate", observed=True, sort=False)

# %%
vs = {(str(x.variant), x.statistic): x._asdict() for x in values.itertuples()}


def vci(variant, stat):
    """A value statistic of a variant with its interval (points)."""
    x = vs[(variant, stat)]
    return ci(x["estimate"], x["lo"], x["hi"])


fd = fdist[fdist["variant"] == "declare"]
f1, f2 = pick(fd, F=1), pick(fd, F=2)
won_f = base["fan_total"].to_numpy()[base["winner"].to_numpy() >= 0]
k5 = int((won_f >= 5).sum())
at5 = ci(k5 / len(won_f), *an.wilson_interval(k5, len(won_f)), percent=True)
f_q99 = an.quantile_interval(won_f, 0.99)
display(
    Markdown(f"""
### Answer: F and E[value] (`declare`, {n_games:,} games)
* A win has **F = 1** with {row_ci(f1, "share")} and F = 2 with {row_ci(f2, "share")}; F of 5 or
  more in {at5} of wins (Wilson). Mean F of a win: {vci("declare", "F_mean")}, median
  {vci("declare", "q50")}; the 99th percentile of F is {f_q99[0]:.0f} (95%
  distribution-free interval {f_q99[1]:.0f} to {f_q99[2]:.0f}: 99 % of wins have at most this F).
* **E[value] per game** (the loser pays it; 0 on 流局): {vci("declare", "mean_deal")} points;
  per win {vci("declare", "mean")} (SD {vci("declare", "sd")}). Multiplier and points per fan scale
  every value alike (e.g. x 50 in the text's room of multiplier 5 and 10 points per fan).
* Without 报听 (`never_declare`) a win's F is {vci("never_declare", "F_mean")} and a game is worth
  {vci("never_declare", "mean_deal")}; without the flower tile (`no_flower`) {vci("no_flower", "F_mean")}
  and {vci("no_flower", "mean_deal")} (paired differences below).
""")
)

# %% [markdown]
# ## What are 报听 and the flower tile worth? (paired, same walls)
# `never_declare` (nobody declares) and `no_flower` (no face-up flower tile) against `declare`, game
# by game on the same walls, seat 0 dealing. Differences per game: P(a win), P(self-draw), P(流局),
# the value (points), F of the game (0 on 流局), game length (tiles drawn) and the dealer's payment.
# The 14 intervals (7 metrics x 2 variants) are Bonferroni-adjusted to hold jointly at 95 %.

# %%
DIFF = ["win", "self_draw", "exhaustive_draw", "value", "fan_total", "draws", an.two_player_dealer_pay]
diffs = an.paired_difference(runs, DIFF, "declare", adjust="bonferroni")
family = int(diffs["family_size"].iloc[0])
diffs[["metric", "variant", "baseline_mean", "variant_mean", "diff", "lo", "hi", "confidence"]]

# %% [markdown]
# What 报听 is worth to **one player** (its opponent declaring as usual) is the duplicate
# tournament: an expert that never declares against greedy, which declares whenever it can, each
# wall played in both seat rotations (so each plays the dealer's and the other seat's tiles of every
# wall). Mean points per seat-game, t intervals over walls.

# %%
duo = ds.tournament_results(ws.experiment("two_player_declare"), n_walls=n_deals, out=ws.out, n_jobs=n_jobs)
duo_pairs = an.tournament_pairs(duo)
duo

# %%
d = {(r.metric, str(r.variant)): r._asdict() for r in diffs.itertuples()}
nd = duo.set_index("entrant").iloc[0]
nv = d[("value", "never_declare")]
more_wins = verdict(
    d[("win", "never_declare")]["lo"], d[("win", "never_declare")]["hi"], "higher", "lower", "unchanged"
)  # an interval holding zero: not distinguishable at the family-wise level
fewer_fans = verdict(
    d[("fan_total", "never_declare")]["lo"],
    d[("fan_total", "never_declare")]["hi"],
    "more",
    "fewer",
    "as many",
)
fl = base["fan_flower"].to_numpy(dtype=float)[base["winner"].to_numpy() >= 0]
fl_mean = ci(*an.bootstrap_ratio(fl))
flower_share = pick(shares, fan="flower")
# the value of a game without 报听 relative to with it: sum(never - declare) / sum(declare) over the
# same walls, a ratio of paired sums with its bootstrap interval
v_dec = base.set_index("deal")["value"].astype(float)
v_never = frames["never_declare"].set_index("deal")["value"].astype(float).reindex(v_dec.index)
rel = an.bootstrap_ratio((v_never - v_dec).to_numpy(), v_dec.to_numpy())
rel_value = ci(*rel, percent=True)
display(
    Markdown(f"""
### Answer: 报听 and the flower tile (paired on the same {n_games:,} walls; {family} differences, Bonferroni)
* **报听 switched off for both** (`never_declare` - `declare`): the value of a game changes by
  {num(d[("value", "never_declare")])} points (from {d[("value", "never_declare")]["baseline_mean"]:.3f}),
  F of a game by {num(d[("fan_total", "never_declare")])}; wins by {pp(d[("win", "never_declare")])},
  self-draws by {pp(d[("self_draw", "never_declare")])}, the game's length by
  {num(d[("draws", "never_declare")])} tiles, the dealer's result by
  {num(d[("dealer_pay", "never_declare")])} points per game. Without 报听 (a declared hand is locked:
  no claims) the share of games won is **{more_wins}**, with **{fewer_fans}** fans per game (no
  门清报听, 天听):
  the game's value changes by {rel_value} of its value with 报听 (a ratio of the paired sums over
  the same walls, bootstrap interval; not adjusted).
* **报听 for one player**: the expert that never declares scores {ci(nd["mean_pay"], nd["lo"], nd["hi"])}
  points per seat-game against greedy, which declares; the gap between them,
  {ci(duo_pairs.iloc[0]["diff"], duo_pairs.iloc[0]["lo"], duo_pairs.iloc[0]["hi"])} points per seat-game
  ({int(nd["n_walls"]):,} walls, both rotations), is what declaring is worth to a player against a
  declaring opponent in this field.
* **The flower tile** (`no_flower` - `declare`): {share_ci(flower_share)} of wins hold at least one
  tile of the flower kind ({fl_mean} flower fans per win, bootstrap); taking the tile away changes a
  game's value by {num(d[("value", "no_flower")])} points and F by {num(d[("fan_total", "no_flower")])},
  while wins change by {pp(d[("win", "no_flower")])} (the face-up tile is a seen tile in the
  players' counts, so a few decisions change).
""")
)

# %% [markdown]
# ## Dealer and non-dealer
# Per game (one seat of each role): P(the seat wins), P(it wins by self-draw), P(it deals in),
# P(it declares 报听), P(its hand ever waits, 听牌), and its mean payment. In `two_player.toml`
# seat 0 deals every game; in a match the winner deals the next game.

# %%
roles = an.two_player_roles(runs)
roles.pivot_table(
    index=["statistic", "role"], columns="variant", values="estimate", observed=True, sort=False
)

# %%
rb = roles[roles["variant"] == "declare"]


def role(stat, who, percent=True):
    """A role figure of the `declare` variant with its interval."""
    return row_ci(pick(rb, statistic=stat, role=who), "estimate", percent)


pd_ = pick(rb, statistic="pay", role="dealer")
seat_worth = verdict(pd_["lo"], pd_["hi"], "ahead", "behind", "not distinguishable from even")
# the two seats of one game are paired: P(dealer wins) - P(non-dealer wins) is the mean of a per-game
# difference (1, -1 or 0), with its bootstrap interval, not two marginal intervals compared
w, dl = base["winner"].to_numpy(), base["dealer"].to_numpy()
gap_win = an.bootstrap_ratio((w == dl).astype(float) - ((w >= 0) & (w != dl)))
edge = verdict(gap_win[1], gap_win[2], "higher", "lower", "not distinguishable")
display(
    Markdown(f"""
### Answer: dealer and non-dealer (`declare`, {n_games:,} games)
* The **dealer** (14 tiles, the first discard) wins {role("win", "dealer")} of games, the
  **non-dealer** {role("win", "non_dealer")} (和了率, per seat-game): the dealer's rate is **{edge}**,
  by {an.format_diff(*gap_win, percent=True)} (paired within each game). Self-draws:
  {role("self_draw", "dealer")} and {role("self_draw", "non_dealer")}; deal-ins:
  {role("deal_in", "dealer")} and {role("deal_in", "non_dealer")}.
* They declare 报听 in {role("declared", "dealer")} and {role("declared", "non_dealer")} of games
  and are ever waiting in {role("tenpai", "dealer")} and {role("tenpai", "non_dealer")}.
* The dealer's mean result: {role("pay", "dealer", False)} points per game (the non-dealer's is its
  negative): the dealer is **{seat_worth}** in this field; in a match the winner deals the next game.
""")
)

# %% [markdown]
# ## How long is a game?
# Tiles drawn of the 44 to draw after the hands (kong replacements included), and how often a game
# reaches the extra draws of 海底捞月 (the 71 tiles are used up with a ready player) and is won in them.

# %%
shown = runs[runs["variant"].isin(["declare", "never_declare"])].copy()
shown["variant"] = shown["variant"].cat.remove_unused_categories()
display(an.plot_deal_length(shown))  # no_flower lies on declare: its figures are in the table
length = an.deal_length(runs)
length.pivot_table(index="statistic", columns="variant", values="estimate", observed=True, sort=False)

# %%
lb = length[length["variant"] == "declare"]
extra = (base["extra_draws"] > 0).to_numpy()
extra_win = base["extra_draw_win"].to_numpy(dtype=bool)
(elo, ehi), (wlo, whi) = (an.wilson_interval(int(x.sum()), len(x)) for x in (extra, extra_win))
out = an.outcome_shares(base).set_index("outcome")


def oc(name):
    """The share of games ending in the outcome, with its Wilson interval."""
    return ci(out.loc[name, "share"], out.loc[name, "lo"], out.loc[name, "hi"], percent=True)


draws = base["draws"].to_numpy()
q = {p: an.quantile_interval(draws, p) for p in (0.05, 0.5)}  # (quantile, lo, hi), distribution-free
TO_DRAW = 71 - 14 - 13  # the tiles left to draw after the hands (docs/RULES_TWO_PLAYER.md)
n_all = int((draws >= TO_DRAW).sum())
all_drawn = ci(n_all / len(draws), *an.wilson_interval(n_all, len(draws)), percent=True)
no_win = (base["winner"] < 0).to_numpy()
no_ready = no_win & (base["extra_draws"] == 0).to_numpy()
missed = no_win & (base["extra_draws"] > 0).to_numpy()


def share_of_games(x):
    """The share of games where ``x`` holds, with its Wilson interval."""
    return ci(x.mean(), *an.wilson_interval(int(x.sum()), len(x)), percent=True)


display(
    Markdown(f"""
### Answer: game length (`declare`, {n_games:,} games)
* A game draws {row_ci(pick(lb, statistic="mean"), "estimate", False)} tiles on average (median
  {q[0.5][0]:.0f}, 95% interval {q[0.5][1]:.0f} to {q[0.5][2]:.0f}; 5 % of games end by draw
  {q[0.05][0]:.0f}, {q[0.05][1]:.0f} to {q[0.05][2]:.0f}); {all_drawn} of games draw all {TO_DRAW}
  tiles there are to draw, the most a game can, so the upper quantiles of the length sit at
  {TO_DRAW}. Without the flower tile a game's length changes by {num(d[("draws", "no_flower")])}
  tiles (paired, Bonferroni as above): its line would hide under `declare`'s, so the plot leaves
  it out.
* {oc("exhaustive_draw")} of games end in **流局**, nobody winning: {share_of_games(no_ready)} with
  nobody ready when the tiles run out, {share_of_games(missed)} with a ready player whose extra
  draws (海底捞月) all missed. {ci(extra.mean(), elo, ehi, percent=True)} reach the extra draws
  and {ci(extra_win.mean(), wlo, whi, percent=True)} are won in them.
* Self-draws end {oc("self_draw")} of games, deal-ins {oc("deal_in")}.
""")
)

# %% [markdown]
# ## A match of 8 games with the doubling
# `ds.simulate_match`: the first dealer is drawn at random, the winner deals the next game, after
# 流局 the dealer deals again, and under `match_doubling` (the default) game k (from 0) is worth
# 2^k times its value, so the last game weighs as much as the seven before it together, plus one.
# Seat 0 is an expert that plays greedy's moves but never declares 报听, seat 1 greedy (which
# declares): what does a match come to for seat 0, with and without the doubling? Intervals:
# bootstrap over matches (Wilson for P(seat 0 ahead)).

# %%
n_matches = 10 * n_deals
match = ds.simulate_match(
    n_matches,
    games=8,
    rules=TWO,
    strategies=(("expert", {"declare_min_outs": 40, "claim_shanten": 13}), "greedy"),
    seed=20240123,
)
per = match.groupby("match").agg(doubled=("match_pay_0", "sum"), plain=("pay_0", "sum"))
rows = []
for col, label in (("doubled", "with the doubling (x 2^game)"), ("plain", "without it (each game x 1)")):
    x = per[col].to_numpy(dtype=float)
    e, lo, hi = an.bootstrap_ratio(x)
    k = int((x > 0).sum())
    plo, phi = an.wilson_interval(k, len(x))
    q = {p: an.quantile_interval(x, p) for p in (0.05, 0.5, 0.95)}
    rows.append(
        {"match result of seat 0": label, "mean": e, "lo": lo, "hi": hi, "sd": x.std(ddof=1)}
        | {"P(ahead)": k / len(x), "p_lo": float(plo), "p_hi": float(phi)}
        | {f"q{int(100 * p):02d}": v[0] for p, v in q.items()}
        | {f"q{int(100 * p):02d}_{end}": v[i] for p, v in q.items() for i, end in ((1, "lo"), (2, "hi"))}
    )
match_table = pd.DataFrame(rows)
match_table

# %%
dbl, pln = match_table.iloc[0], match_table.iloc[1]
# the spread ratio and the last game's share of the points moved, each with a bootstrap over matches
sd_ratio = stats.bootstrap(
    (per["doubled"].to_numpy(dtype=float), per["plain"].to_numpy(dtype=float)),
    lambda a, b, axis=-1: a.std(ddof=1, axis=axis) / b.std(ddof=1, axis=axis),
    paired=True,
    n_resamples=2000,
    random_state=0,
)
moved = match.assign(a=np.abs(match["match_pay_0"]), last=np.abs(match["match_pay_0"]) * (match["game"] == 7))
moved = moved.groupby("match")[["last", "a"]].sum()
share_last = an.bootstrap_ratio(moved["last"].to_numpy(dtype=float), moved["a"].to_numpy(dtype=float))
display(
    Markdown(f"""
### Answer: an 8-game match ({n_matches:,} matches; seat 0 never declares, seat 1 greedy)
* **With the doubling**, seat 0's match result is {ci(dbl["mean"], dbl["lo"], dbl["hi"])} points
  (SD {dbl["sd"]:.1f}; 5 % of matches {dbl["q05"]:.0f} or worse, 95% interval of that quantile
  {dbl["q05_lo"]:.0f} to {dbl["q05_hi"]:.0f}; 5 % {dbl["q95"]:.0f} or better, {dbl["q95_lo"]:.0f} to
  {dbl["q95_hi"]:.0f}), and it is
  ahead after the match in {ci(dbl["P(ahead)"], dbl["p_lo"], dbl["p_hi"], percent=True)} of them.
* **Without the doubling** the same games come to {ci(pln["mean"], pln["lo"], pln["hi"])} points
  (SD {pln["sd"]:.1f}): the doubling makes the spread (SD) of a match
  {ci(dbl["sd"] / pln["sd"], *sd_ratio.confidence_interval)} times wider, and the last game alone
  moves {ci(*share_last, percent=True)} of the points of a match (with the doubling; bootstrap over
  matches): the last game weighs about as much as the seven before it.
""")
)

# %% [markdown]
# ### Answer: what holds
# Every figure describes its simulated field: two greedy-playing experts (one of them never
# declaring where stated) under the default two-player flags (one flower tile, three extra draws,
# the cap of 13, multiplier and points per fan 1). Paired differences share walls only between the
# variants of `two_player.toml`; the tournament and the match are runs of their own seeds. Rare
# patterns carry exact intervals, and a pattern not seen is bounded, not ruled out.
