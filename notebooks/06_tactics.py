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
# # 06 · The tactics book tested
#
# Does the advice of the tactics book 《麻将妙诀与战术运用》 pay in Daqing mahjong? Each tactic
# that applies to Daqing is a knob of the `expert` player (`help(daqing_sim.families.daqing.expert)`,
# docs/EXPERT.md); each knob setting (a *variant*) plays one seat against three default experts
# in a duplicate tournament (`ds.tournament`): every wall in all four cyclic seat rotations with
# the same deal seeds, so the variant plays every seat's tiles of every wall. The figure is the
# **paired difference** per seat-deal between the variant and the default experts on the same
# walls (2^N units), a Student t interval over per-wall means (walls are the independent units).
# `tools/tactics.py` plays the tournaments on a report seed not used to tune any knob and writes
# `results/tactics/tactics.csv`; this notebook only reads that table (when it is missing it says
# how to make it and plays a small stand-in of `n_deals` walls per variant). The `parameters`
# cell is shared with the other notebooks.
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
from daqing_sim.analysis.notebook import Workspace, verdict

ws = Workspace(n_deals, results_root, n_jobs)

# %%
import importlib.util
import json

import matplotlib.pyplot as plt

from daqing_sim.families.daqing.expert import KNOBS

TACTICS = ws.out / "tactics" / "tactics.csv"
if TACTICS.exists():
    tab = pd.read_csv(TACTICS)
    prov_path = TACTICS.with_name("provenance.json")
    prov = json.loads(prov_path.read_text()) if prov_path.exists() else {}
    shown = TACTICS.relative_to(ws.root) if ws.root in TACTICS.parents else TACTICS
    made = f", made {prov['date']}, engine {prov.get('engine_fingerprint')}" if "date" in prov else ""
    source = f"`{shown}`{made}"
else:
    print(
        f"{TACTICS} is missing: make it with `nice -n 10 python tools/tactics.py` "
        f"(seven tournaments of 25,000 walls, about 5 minutes on one core). "
        f"Playing a small stand-in of {n_deals} walls per variant instead."
    )
    spec = importlib.util.spec_from_file_location("tactics", ws.root / "tools" / "tactics.py")
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
tab[
    [
        "tactic",
        "chinese",
        "knob",
        "value",
        "diff",
        "lo",
        "hi",
        "bonf_lo",
        "bonf_hi",
        "mean_pay",
        "n_walls",
        "seed",
    ]
]

# %%
# right panel: the variants within 0.3 of zero, so that one large loss does not hide the rest
near = tab[(tab["bonf_lo"] > -0.3) & (tab["bonf_hi"] < 0.3)]
fig, axes = plt.subplots(1, 2, figsize=(12, 0.5 * len(tab) + 1.5), sharey=True)
y = pd.Series(np.arange(len(tab))[::-1], index=tab.index)
for ax, part in zip(axes, (tab, near), strict=True):
    yy = y[part.index]
    ax.errorbar(
        part["diff"],
        yy,
        xerr=[part["diff"] - part["bonf_lo"], part["bonf_hi"] - part["diff"]],
        fmt="none",
        ecolor="tab:gray",
        elinewidth=1,
        capsize=4,
        label=f"Bonferroni {100 * bonf:.2f} % (family of {family})",
    )
    ax.errorbar(
        part["diff"],
        yy,
        xerr=[part["diff"] - part["lo"], part["hi"] - part["diff"]],
        fmt="o",
        color="tab:blue",
        elinewidth=3,
        label="95 %, each on its own",
    )
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("variant - default expert, per seat-deal (2^N)")
axes[0].set_yticks(y, [f"{k} = {v:g}" for k, v in zip(tab["knob"], tab["value"], strict=True)])
axes[0].set_title("all variants")
axes[1].set_title("zoom: variants within 0.3 of zero")
axes[0].legend(loc="lower left", fontsize=8)
fig.suptitle("Tactics as expert knobs: paired differences against the default expert (duplicate play)")
fig.tight_layout()
display(fig)
plt.close(fig)


# %%
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
    return ", ".join(f"`{k}={v:g}`" for k, v in zip(t["knob"], t["value"], strict=True)) or "none"


worst = tab.loc[tab["diff"].idxmin()]
display(
    Markdown(
        f"### Answer: which tactics of the book pay against the expert field\n"
        f"{n_tactics} tactics of the book, {len(tab)} variants, each against three default experts over "
        f"{walls:,} walls x 4 rotations ({4 * walls:,} deals per variant), seed {int(tab['seed'].iloc[0])}, "
        f"from {source}. Paired difference per seat-deal (variant - default expert, 2^N units); the first "
        f"interval is 95 % on its own, the second Bonferroni-adjusted for the family of {family} variants "
        f"({100 * bonf:.2f} % each, so all {family} hold jointly at 95 %); "
        "the verdict uses the adjusted one:\n\n"
        + "\n".join(lines)
        + f"\n\nBetter than the default: {names(gain)}. Worse: {names(loss)}. "
        f"Not distinguishable: {names(null)}. "
        f"The largest loss is `{worst.knob}={worst.value:g}` ({worst['diff']:+.3f} per seat-deal). "
        "Each variant moves one knob away from the default expert (whose defaults came from the tuning in "
        "docs/EXPERT.md, on other seeds); a variant that costs says that reading of the book's advice does "
        "not pay here, one that is not distinguishable says the knob's setting matters less than the "
        "interval's width. This holds for the simulated expert field under the classic rules (three default "
        "experts as opponents, who do not adapt to the variant's style), not for play against people."
    )
)
