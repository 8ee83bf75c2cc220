"""The realism table of docs/EXPERT.md (issue 38 item 4): how a field plays each rule family,
beside the outside references of strong human riichi play (not part of the package).

For each family, ``--n`` deals of the field (default: the family's default field) on ``--seed``:
per seat-deal win, deal-in and self-draw rates, the share of seat-deals with a call (a seat that
ends the deal open), exhaustive draws per deal, calls (chi, peng, kong on a discard) per deal
from the event logs of the first ``--logs`` deals, and the share of wins holding each pattern.
Rates per seat-deal are the per-deal count over the seats (each deal has at most one winner, one
discarder), with the Wilson interval of the per-deal share divided likewise; calls per deal carry
a t interval over deals. Prints markdown tables and writes ``--csv``.

    python tools/realism.py --n 20000 --logs 2000 --seed 20261221 --csv docs/expert_runs/realism.csv
    python tools/realism.py --field expert2 --families daqing beijing --n 20000 --seed 20261221
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from scipy import stats

import daqing_sim as ds
from daqing_sim.analysis.families import win_fan_shares
from daqing_sim.analysis.intervals import wilson_interval
from daqing_sim.players.registry import FAMILY_SEATS, default_field

#: strong human riichi play, Tenhou's top room (docs/PLAYERS.md, copied from ../shared/PLAYERS.md):
#: per seat-hand win and deal-in, per hand exhaustive draw (2016, 1.71 M hands), and the share
#: of top-room players' hands with a call (~34.6 %)
RIICHI = {"win": 0.211, "deal_in": 0.125, "exhaustive_draw": 0.162, "opened": 0.346}
#: share of riichi wins (Tenhou top room) holding a pattern, keyed by this project's fan codes
RIICHI_PATTERNS = {
    "two_player": {
        "riichi": 0.389,
        "tsumo": 0.242,
        "pinfu": 0.197,
        "tanyao": 0.227,
        "chiitoitsu": 0.027,
        "honitsu": 0.0434,
        "toitoi": 0.0161,
        "chinitsu": 0.0052,
        "kokushi": 0.0002,
    },
    "beijing": {"seven_pairs": 0.027, "all_triplets": 0.0161, "one_suit": 0.0052},
}
CALL_ACTIONS = ("chi_low", "chi_mid", "chi_high", "peng", "kong")


def _share(k: int, n: int, div: int = 1) -> tuple[float, float, float]:
    lo, hi = wilson_interval(k, n)
    return k / n / div, float(lo) / div, float(hi) / div


def _mean(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    half = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return m, m - half, m + half


def family_rates(df: pd.DataFrame, n_seats: int) -> dict[str, tuple[float, float, float]]:
    """Per seat-deal rates and per-deal shares (estimate, lo, hi) of one family's frame."""
    out = df["outcome"].astype(str).to_numpy()
    n = len(df)
    won = int((df["winner"].to_numpy() >= 0).sum())
    self_draw = int((out == "self_draw").sum())
    deal_in = int(np.isin(out, ["deal_in", "deal_in_not_ready"]).sum())
    opened = sum(int((~df[f"concealed_{s}"].to_numpy(dtype=bool)).sum()) for s in range(n_seats))
    return {
        "win": _share(won, n, n_seats),
        "deal_in": _share(deal_in, n, n_seats),
        "self_draw": _share(self_draw, n, n_seats),
        "opened": _share(opened, n * n_seats),
        "exhaustive_draw": _share(int((out == "exhaustive_draw").sum()), n),
    }


def calls_per_deal(
    seed: int, n: int, rules: ds.RuleSet, field: tuple[str, ...]
) -> tuple[float, float, float]:
    """Claims of a discard (chi, peng, kong) per deal over the first ``n`` deals' event logs."""
    calls = np.zeros(n)
    for d in range(n):
        log = ds.deal_log(seed, d, rules=rules, strategies=field)
        calls[d] = int(((log["event"] == "claim") & log["action"].isin(CALL_ACTIONS)).sum())
    return _mean(calls)


def _fmt(v: tuple[float, float, float], pct: bool = True) -> str:
    if pct:
        return f"{100 * v[0]:.1f} % [{100 * v[1]:.1f}, {100 * v[2]:.1f}]"
    return f"{v[0]:.2f} [{v[1]:.2f}, {v[2]:.2f}]"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--logs", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=20261221)
    ap.add_argument(
        "--field", default=None, help="one built-in player at every seat (default: the family's field)"
    )
    ap.add_argument("--families", nargs="+", default=["daqing", "beijing", "two_player"])
    ap.add_argument("--csv", default=None)
    a = ap.parse_args(argv)
    rows = []
    for fam in a.families:
        t0 = time.time()
        rules = ds.RuleSet(family=fam)
        n_seats = FAMILY_SEATS.get(fam, 4)
        field = (a.field,) * n_seats if a.field else default_field(fam)
        df = ds.simulate(a.n, rules=rules, strategies=field, seed=a.seed, n_jobs=1)
        rates = family_rates(df, n_seats)
        rates["calls"] = calls_per_deal(a.seed, min(a.logs, a.n), rules, field)
        label = f"{n_seats} {field[0]}"
        print(f"\n### {fam}: {label}, {a.n} deals (calls: first {min(a.logs, a.n)}), seed {a.seed}")
        print(f"({time.time() - t0:.0f} s)\n")
        print("| per seat-deal unless said | this field | riichi, Tenhou top room |")
        print("| --- | --- | --- |")
        names = {
            "win": "win",
            "deal_in": "deal-in",
            "self_draw": "self-draw",
            "opened": "called at least once (ends open)",
            "exhaustive_draw": "exhaustive draw (per deal)",
            "calls": "calls per deal (chi, peng, kong on a discard)",
        }
        for key, name in names.items():
            ref = f"{100 * RIICHI[key]:.1f} %" if key in RIICHI else "-"
            print(f"| {name} | {_fmt(rates[key], key != 'calls')} | {ref} |")
            rows.append(
                {
                    "family": fam,
                    "field": label,
                    "metric": key,
                    **dict(zip(("estimate", "lo", "hi"), rates[key], strict=True)),
                }
            )
        shares = win_fan_shares(df)
        refs = RIICHI_PATTERNS.get(fam, {})
        print("\n| share of wins holding | this field | riichi |")
        print("| --- | --- | --- |")
        for r in shares.itertuples():
            if r.count == 0 and r.fan not in refs:
                continue
            ref = f"{100 * refs[r.fan]:.2f} %" if r.fan in refs else "-"
            print(
                f"| {r.name} | {100 * r.share:.2f} % [{100 * r.lo:.2f}, {100 * r.hi:.2f}] "
                f"({r.count}) | {ref} |"
            )
            rows.append(
                {
                    "family": fam,
                    "field": label,
                    "metric": f"pattern_{r.fan}",
                    "estimate": r.share,
                    "lo": r.lo,
                    "hi": r.hi,
                }
            )
    if a.csv:
        pd.DataFrame(rows).to_csv(a.csv, index=False)


if __name__ == "__main__":
    main()
