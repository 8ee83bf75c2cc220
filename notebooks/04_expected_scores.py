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
# # 04 · Expected scores: 2^N per seat and role
#
# What does a seat expect to pay or receive per deal, by seat and by role (dealer,
# winner, discarder...)? How are the fan counts N distributed, how heavy is the tail
# (P(someone pays ≥ 64))? What does dealing in while not ready (点黑炮, paying for all
# three) cost, and what does counting kongs as fans (`kong_fan.toml`) change?
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
from daqing_sim.analysis.notebook import Workspace, ci, num, pick, pp, verdict

ws = Workspace(n_deals, results_root, n_jobs)

# %%
base = ws.results("baseline")
es = an.expected_payment(base, by="seat")
er = an.expected_payment(base, by="role", contrast_to="discarder_ready")
display(an.plot_expected_payment(base, by="seat"))
display(an.plot_expected_payment(base, by="role"))
er

# %%
fd = an.fan_distribution(base)
payers = an.payment_distribution(base)
tail = an.tail_probability(base, threshold=64).iloc[0]
display(an.plot_payment_distribution(base))
fd

# %%
S, R = es.set_index("seat"), er.set_index("role")
dealer_seat = int(base["dealer"].mode().iloc[0])
mean_n = (fd["N"] * fd["count"]).sum() / fd["count"].sum()
big_pay = payers[payers["amount"] >= 64]["share"].sum()
black, ready_in = R.loc["discarder_not_ready"], R.loc["discarder_ready"]
rate_black = an.outcome_shares(base).set_index("outcome").loc["deal_in_not_ready"]
dealer_vs = verdict(
    S.loc[dealer_seat, "lo"], S.loc[dealer_seat, "hi"], "gains", "loses", "neither gains nor loses detectably"
)


def paid(r):
    """What a row of payments (negative: paid) costs, as a positive amount with its interval."""
    return ci(-r["mean"], -r["hi"], -r["lo"])


bystander = R.loc["bystander"]
if bystander["mean"] == bystander["lo"] == bystander["hi"] == 0:
    bystanders = "nothing (the discarder pays for them)"
else:
    bystanders = f"{paid(bystander)} (the discarder pays for them)"
display(
    Markdown(f"""
### Answer: expected 2^N payments ({len(base):,} deals, payments in 2^N units, winner positive)
* Per deal, the dealer (seat {dealer_seat}) expects
  {ci(S.loc[dealer_seat, "mean"], S.loc[dealer_seat, "lo"], S.loc[dealer_seat, "hi"])}:
  it **{dealer_vs}** on average; the other seats expect
  {", ".join(ci(S.loc[s, "mean"], S.loc[s, "lo"], S.loc[s, "hi"]) for s in S.index if s != dealer_seat)}.
* A winner collects {ci(R.loc["winner", "mean"], R.loc["winner", "lo"], R.loc["winner", "hi"])};
  a loser who did not discard pays {paid(R.loc["other_payer"])}
  on a self-draw or a ready player's deal-in, while on a 点黑炮 the other two seats pay {bystanders}.
* N per loser averages {mean_n:.2f}; {100 * big_pay:.2f} % of single payments are 64 or more, and in
  {ci(tail.p, tail.lo, tail.hi, percent=True)} of deals **someone pays ≥ 64**.
* **点黑炮**: {ci(rate_black.share, rate_black.lo, rate_black.hi, percent=True)} of deals end with a
  not-ready player dealing in. That discarder pays {paid(black)} against
  {paid(ready_in)} for a ready discarder (点炮):
  the extra cost is {ci(-black["diff"], -black["diff_hi"], -black["diff_lo"])} per occurrence.
""")
)

# %% [markdown]
# ## Risk: how much can a seat win or lose in one deal, and how long is a deal?
# Per seat and role: mean, SD, the 1/5/50/95/99 % quantiles of the net result of a deal
# (order-statistic intervals) and P(loss); and the number of tiles drawn in a deal.

# %%
risk = an.net_result(base, by="seat")
risk_role = an.net_result(base, by="role")
length = an.deal_length(base).set_index("statistic")
display(an.plot_net_result(base))
risk.pivot_table(index="seat", columns="statistic", values="estimate", observed=True)[
    list(an.RISK_STATISTICS)
]

# %%
Rk = risk.set_index(["seat", "statistic"])
Rr = risk_role.set_index(["role", "statistic"])


def rci(t, key, stat, percent=False):
    r = t.loc[(key, stat)]
    return ci(r.estimate, r.lo, r.hi, percent=percent)


dl = length.loc["q50"]
display(
    Markdown(f"""
### Answer: risk per deal (2^N points)
* The dealer (seat {dealer_seat}) loses in {rci(Rk, dealer_seat, "p_loss", True)} of deals; its net
  result has SD {rci(Rk, dealer_seat, "sd")}, a 5 % quantile of {rci(Rk, dealer_seat, "q05")} and a
  99 % quantile of {rci(Rk, dealer_seat, "q99")}.
* A discarder who was not ready (点黑炮) has a median result of {rci(Rr, "discarder_not_ready", "q50")}
  and a 1 % quantile of {rci(Rr, "discarder_not_ready", "q01")}.
* A deal lasts a median of {dl.estimate:.0f} draws from the live wall (95 % CI {dl.lo:.0f} to {dl.hi:.0f};
  90 % of deals between {length.loc["q05", "estimate"]:.0f} and {length.loc["q95", "estimate"]:.0f}).
""")
)

# %% [markdown]
# ## Kongs as fans (kong_fan.toml)

# %%
kong = ws.results("kong_fan")
kd = an.paired_difference(
    kong, ["winner_gain", "max_pay", "pays_64", "dealer_pay"], baseline_variant="classic", adjust="bonferroni"
)
kt = an.tail_probability(kong, threshold=64).set_index("variant")
kf = an.fan_distribution(kong).pivot_table(index="N", columns="variant", values="share", observed=True)
display(an.plot_payment_distribution(kong))
display(kf)
kd

# %%
wk = pick(an.winner_kong_share(kong), variant="classic")
wg, mp, p64 = (pick(kd, variant="kong_fan", metric=m) for m in ("winner_gain", "max_pay", "pays_64"))
t0, t1 = kt.loc["classic"], kt.loc["kong_fan"]
display(
    Markdown(f"""
### Answer: kong fan
{ci(wk.share, wk.lo, wk.hi, percent=True)} of winners hold at least one kong. The deals are the same in both
variants (only the scoring changes), but the differences are still estimates from a sample of deals, with
sampling error (Bonferroni-adjusted over {int(kd["family_size"].iloc[0])}): counting each kong as a fan
changes the winner's mean gain per deal by {num(wg)}, the largest single payment by {num(mp)}, and
P(someone pays ≥ 64) by {pp(p64)}
(from {ci(t0.p, t0.lo, t0.hi, percent=True)} to {ci(t1.p, t1.lo, t1.hi, percent=True)}).
""")
)
