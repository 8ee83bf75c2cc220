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
# # 07 · The hand advisor: which tile to throw?
#
# For the hand in front of you, `ds.advise` rates every discard two ways. The exact method is a
# single-player search over your own next draws: the probability of reaching a ready shape
# within k draws, of winning by self-draw before the wall runs out, and the expected 2^N
# income (the others never win nor claim, the bao is one unseen tile). The simulated method
# plays the rest of the deal many times with the expert field, from deals consistent with
# what you see (others' hands and the wall drawn from the unseen tiles, ready opponents given
# ready hands), with 95 % intervals; a `danger` column gives the expert's estimate that a
# discard deals in to each ready opponent. Both models are in `help(ds.advise)`. Three classic
# choices: a kanchan (夹, big win) against a two-sided wait, keeping or throwing a 中, and
# folding against a ready opponent. The `parameters` cell is shared with the other notebooks:
# here `n_deals` is the number of simulated deals per candidate discard.
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
import pandas as pd
from IPython.display import Markdown, display

from daqing_sim.analysis.notebook import Workspace

ws = Workspace(n_deals, results_root, n_jobs)

# %% [markdown]
# ## Kanchan or two-sided?

# %%
import daqing_sim as ds

HAND = "134m456p789s中中 [345m]"  # throw 4m: kanchan on 2m; throw 1m: two-sided 2m-5m
kan = ds.advise(HAND, k=3)
kan

# %% [markdown]
# The hand as a player sees it, drawn as tiles; the advice table above draws each discard as its
# tile and stars the best row (plain text stays the frame's `repr`).

# %%
display(ds.parse_hand(HAND))
display(ds.analyze_hand("13m456p789s中中 [345m]"))  # after throwing 4m: the kanchan wait on 2m

# %%
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

# %%
k0 = kan.set_index("discard")
kc, ts = k0.loc["4m"], k0.loc["1m"]
by_wall = sweep.pivot_table(index="wall_left", columns="wait", values="ev")
kan_better = (by_wall["kanchan 2m"] > by_wall["two-sided 2m-5m"]).all()
display(
    Markdown(f"""
### Answer: kanchan or two-sided
At the start of the deal ({int(kc["draws"])} own draws) the two-sided wait has {int(ts["outs"])} live
outs against {int(kc["outs"])} and wins more often ({100 * ts["p_win"]:.1f} % against
{100 * kc["p_win"]:.1f} %), but the kanchan wins big (夹, one more fan for every loser):
its expected income is {kc["ev"]:.1f} against {ts["ev"]:.1f} points, and the advisor throws
**{kan.iloc[0]["discard"]}**. Over the wall sizes above the kanchan's expected income is
{"always" if kan_better else "not always"} the higher one.
""")
)

# %% [markdown]
# ## Keep the 中 or throw it?

# %%
ZHONG_HAND = "34m456p345s66s中 [567m]"  # no terminal, no triplet: only 中 waives them
zh = ds.advise(ZHONG_HAND, k=3)
zh

# %%
z = zh.set_index("discard")
best = zh.iloc[0]
thrown = z.loc["中"]
std = ds.standard_shanten(ds.parse_hand(ZHONG_HAND.replace("中", "")).counts)
display(
    Markdown(f"""
### Answer: keeping the 中
Throwing the 中 leaves a hand that is ready in the ordinary sense (standard shanten {std}) but
not in Daqing (shanten {int(thrown["shanten"])}: no terminal and no triplet), with
P(ready within 3 draws) {100 * thrown["p_ready_3"]:.1f} % and expected income {thrown["ev"]:.2f}.
The advisor throws **{best["discard"]}** (shanten {int(best["shanten"])},
P(ready within 3 draws) {100 * best["p_ready_3"]:.1f} %, expected income {best["ev"]:.2f}):
the 中 is worth {"throwing" if best["discard"] == "中" else "keeping"} here.
""")
)

# %% [markdown]
# ## Exact against simulated
#
# The simulated answer first in the exact model's own world, where the two must agree: nobody
# can claim (`last_tiles_no_claim=58`, so the concealed others can never open their door,
# declare or win, and our open hand wins by self-draw only), no 换宝, and the others throw
# every draw (`scripted`). Then in the real game: classic rules and four experts, where the
# others claim, win and make us pay, and we also win on their discards.

# %%
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

# %%
s, r = same.set_index("discard"), real.set_index("discard")
inside = all(
    s.loc[d, c + "_lo"] <= k0.loc[d, c] <= s.loc[d, c + "_hi"] for d in ("4m", "1m") for c in ("p_win", "ev")
)
other = "1m" if real.iloc[0]["discard"] == "4m" else "4m"
o = r.loc[other]
display(
    Markdown(f"""
### Answer: exact against simulated
In the exact model's world the 95 % intervals of the simulated P(win) and expected income of
both waits ({N_SIMS} deals each) {"all contain" if inside else "do not all contain"} the exact values
(kanchan: {100 * s.loc["4m", "p_win"]:.1f} % against exact {100 * kc["p_win"]:.1f} %).
In the real game with four experts the kanchan wins {100 * r.loc["4m", "p_win"]:.1f} %
[{100 * r.loc["4m", "p_win_lo"]:.1f}, {100 * r.loc["4m", "p_win_hi"]:.1f}] of the deals and the
two-sided wait {100 * r.loc["1m", "p_win"]:.1f} % [{100 * r.loc["1m", "p_win_lo"]:.1f},
{100 * r.loc["1m", "p_win_hi"]:.1f}] (wins on others' discards count too), for expected results
{r.loc["4m", "ev"]:.2f} and {r.loc["1m", "ev"]:.2f} points (losses to the others included): the
simulated advisor throws **{real.iloc[0]["discard"]}**; on the same deals throwing {other} instead
changes the result by {o["ev_vs_best"]:.2f} [{o["ev_vs_best_lo"]:.2f}, {o["ev_vs_best_hi"]:.2f}] points.
""")
)

# %%
zs = ds.advise(ZHONG_HAND, method="simulate", n_sims=N_SIMS, seed=2).set_index("discard")
zcmp = pd.concat(
    {
        "exact": z[["shanten", "p_ready_3", "ev"]],
        "simulated": zs[["p_ready_3", "p_win", "ev", "ev_lo", "ev_hi"]],
    },
    axis=1,
).sort_values(("simulated", "ev"), ascending=False)
zbest = zcmp.index[0]
display(zcmp)
display(
    Markdown(f"""
### Answer: the 中, simulated
With four experts playing on, the best discard is **{zbest}** (expected result
{zs.loc[zbest, "ev"]:.2f} [{zs.loc[zbest, "ev_lo"]:.2f}, {zs.loc[zbest, "ev_hi"]:.2f}]); throwing the 中
gives {zs.loc["中", "ev"]:.2f} [{zs.loc["中", "ev_lo"]:.2f}, {zs.loc["中", "ev_hi"]:.2f}], and the paired
difference to the best is {zs.loc["中", "ev_vs_best"]:.2f} [{zs.loc["中", "ev_vs_best_lo"]:.2f},
{zs.loc["中", "ev_vs_best_hi"]:.2f}]. The exact search threw **{best["discard"]}**: the two methods
{"agree" if zbest == best["discard"] else "disagree"} on the best discard.
""")
)

# %% [markdown]
# ## Folding against a ready opponent
#
# Seat 1, the dealer, has declared ready (an exposed 666s); it let 1m, 9p, 9s and 4s pass since.
# Our hand is three exchanges from ready. The exact model does not see the danger (its
# opponents never win); the `danger` column and the simulated deals do.

# %%
FOLD = "23459m46p3578s11s中"
TABLE = dict(
    ready=(1,),
    dealer=1,
    melds={1: "[666s]"},
    ponds={1: "9m1p2s8s中", 2: "1m9p", 3: "9s4s"},
    passed={1: "1m9p9s4s"},
    wall_left=26,
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

# %%
from matplotlib.transforms import Bbox
from scipy import stats

rho = stats.spearmanr(fs["danger"], fs["ev"])
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.errorbar(fs["danger"], fs["ev"], yerr=[fs["ev"] - fs["ev_lo"], fs["ev_hi"] - fs["ev"]], fmt="o")
ax.set(xlabel="danger: P(deal in to seat 1), expert's estimate", ylabel="simulated expected result (2^N)")
ax.margins(x=0.08)  # room for the labels of the points at the edges
fig.tight_layout()
# each discard's label goes to the first side of its point where it covers no point and no label
fig.canvas.draw()
renderer = fig.canvas.get_renderer()
points = ax.transData.transform(fs[["danger", "ev"]].to_numpy())
placed = [Bbox.from_extents(x - 3, y - 3, x + 3, y + 3) for x, y in points]
for d, row in fs.sort_values("danger").iterrows():
    for dx, dy in [(5, 3), (5, -12), (-20, 3), (-20, -12), (5, 14), (-20, 14), (5, -22), (-20, -22)]:
        label = ax.annotate(d, (row["danger"], row["ev"]), textcoords="offset points", xytext=(dx, dy))
        box = label.get_window_extent(renderer).expanded(1.15, 1.2)
        if not any(box.overlaps(b) for b in placed) or (dx, dy) == (-20, -22):
            break
        label.remove()
    placed.append(box)
display(fig)
plt.close(fig)
safest = fs["danger"].idxmin()
worst = fs["danger"].idxmax()
display(
    Markdown(f"""
### Answer: folding
The exact search, blind to seat 1, throws **{fx.index[0]}** (its expected income
{fx.iloc[0]["ev"]:.3f}: this hand rarely wins anyway). Played out against the ready dealer
{
        "every discard loses on average (each interval below zero)"
        if (fs["ev_hi"] < 0).all()
        else "some discards do not lose on average"
    }; the simulated advisor throws **{fs.index[0]}** ({fs.iloc[0]["ev"]:.2f}
[{fs.iloc[0]["ev_lo"]:.2f}, {fs.iloc[0]["ev_hi"]:.2f}], danger {100 * fs.iloc[0]["danger"]:.1f} %). The
safest tile, {safest} (danger {100 * fs.loc[safest, "danger"]:.1f} %), is {fs.loc[safest, "ev_vs_best"]:.2f}
[{fs.loc[safest, "ev_vs_best_lo"]:.2f}, {fs.loc[safest, "ev_vs_best_hi"]:.2f}] points from the best and
the most dangerous, {worst} ({100 * fs.loc[worst, "danger"]:.1f} %), {fs.loc[worst, "ev_vs_best"]:.2f}
[{fs.loc[worst, "ev_vs_best_lo"]:.2f}, {fs.loc[worst, "ev_vs_best_hi"]:.2f}]. Across the discards the
rank correlation of danger and simulated result is {rho.statistic:.2f} (Spearman, p = {rho.pvalue:.2g}):
{
        "the more dangerous the tile, the worse the result"
        if rho.statistic < 0 and rho.pvalue < 0.05
        else "danger alone does not clearly rank the results here"
    }.
""")
)
