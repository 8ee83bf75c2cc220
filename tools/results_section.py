"""Write the "What the full-size runs show" section of results/README.md from the results files
(summary.csv, tournament.csv, tactics.csv), so that every number there is read, not typed.

    python tools/results_section.py          # rewrite the section in place
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
START = "## What the full-size runs show"
END = "## "  # the next section, if any

ROWS = [
    ("outcome_self_draw", "self-draw (自摸)", True),
    ("outcome_deal_in", "deal-in by a ready player (点炮)", True),
    ("outcome_deal_in_not_ready", "deal-in by a player not ready (点黑炮)", True),
    ("outcome_exhaustive_draw", "exhaustive draw (荒庄)", True),
    ("big_share", "big wins (夹) among wins", True),
    ("bao_share_bao", "摸宝 wins among wins", True),
    ("ready_kaplan_meier_dealer_k6", "dealer ready by its 6th own draw (Kaplan-Meier)", True),
    ("ready_kaplan_meier_non_dealer_k6", "non-dealer ready by its 6th own draw (Kaplan-Meier)", True),
    ("wait_ready_pure_kanchan_only", "declared waits that are kanchan only", True),
    ("draws_mean", "draws per deal", False),
    ("pay_mean_dealer", "dealer's mean result per deal (2^N)", False),
    ("pay_mean_winner", "winner's mean gain (2^N)", False),
]


def _fmt(est: float, lo: float, hi: float, pct: bool) -> str:
    if pct:
        return f"{100 * est:.2f}% ({100 * lo:.2f} to {100 * hi:.2f})"
    return f"{est:.3f} ({lo:.3f} to {hi:.3f})"


def _table(columns: dict[str, pd.DataFrame]) -> list[str]:
    """A markdown table: metric rows, one column per (experiment, variant) summary."""
    head = "| figure | " + " | ".join(columns) + " |"
    lines = [head, "| --- |" + " --- |" * len(columns)]
    for metric, label, pct in ROWS:
        cells = []
        for df in columns.values():
            r = df[df["metric"] == metric]
            cells.append(_fmt(*r[["estimate", "lo", "hi"]].iloc[0], pct) if len(r) else "-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def _summary(name: str) -> pd.DataFrame:
    return pd.read_csv(RESULTS / name / "summary.csv")


def _variant(df: pd.DataFrame, v: str) -> pd.DataFrame:
    return df[df["variant"] == v]


def section() -> str:
    out = [
        START,
        "",
        "Written by `python tools/results_section.py` from the results files of the full-size runs",
        "(`daqing-sim run experiments/NAME.toml --jobs 2`): estimates with 95% intervals (Wilson for",
        "shares, bootstrap over deals for means, Kaplan-Meier for ready curves; definitions in",
        "`summary.csv`'s `method` column and in the notebooks, which also give the paired differences",
        "between variants with family-wise intervals). **Every figure describes the simulated field:**",
        "four `expert` players unless a column says greedy; the same walls played by four greedy players",
        "(`greedy_field`) show how much the answer depends on who plays.",
        "",
    ]
    base, gf = _summary("baseline"), _summary("greedy_field")
    out += ["### Classic rules: expert field vs greedy field (same walls)", ""]
    out += _table({"4 expert (baseline)": _variant(base, "classic"), "4 greedy": _variant(gf, "classic")})
    bao = _summary("bao_replacement")
    out += ["", "### 换宝 and 宝卡 (bao_replacement, 200,000 deals per variant)", ""]
    cols = {v: _variant(bao, v) for v in bao["variant"].unique()}
    cols["no_replacement, greedy"] = _variant(gf, "no_replacement")
    out += _table(cols)
    for name, title in (
        ("kong_fan", "Kongs as a fan (kong_fan)"),
        ("jia_edge", "What counts as 夹 (jia_edge)"),
        ("restrictions", "Daqing restrictions lifted (restrictions)"),
    ):
        df = _summary(name)
        out += ["", f"### {title}", ""]
        out += _table({v: _variant(df, v) for v in df["variant"].unique()})
    t = RESULTS / "strategies" / "tournament.csv"
    if t.exists():
        tour = pd.read_csv(t)
        out += [
            "",
            "### Which player wins (strategies: duplicate tournament, all four seat rotations)",
            "",
            "Mean payment per seat-deal in 2^N units with Student t intervals over per-wall means (walls",
            "are the independent units), and the paired difference against the other entrants:",
            "",
            "| entrant | walls | mean per seat-deal | vs the others |",
            "| --- | --- | --- | --- |",
        ]
        for _, r in tour.iterrows():
            out.append(
                f"| {r['entrant']} | {int(r['n_walls']):,} | {_fmt(r['mean_pay'], r['lo'], r['hi'], False)} "
                f"| {_fmt(r['diff'], r['diff_lo'], r['diff_hi'], False)} |"
            )
    tac = RESULTS / "tactics" / "tactics.csv"
    if tac.exists():
        out += [
            "",
            "### Tactics of the book as expert knobs",
            "",
            f"See `{tac.relative_to(ROOT)}` and notebook 06.",
        ]
    out += [
        "",
        "Differences between variants are effects of the rule change for these players on the same walls;",
        "they need not carry over to a table of people.",
        "",
    ]
    return "\n".join(out)


def main() -> int:
    path = RESULTS / "README.md"
    text = path.read_text(encoding="utf-8")
    i = text.index(START)
    j = text.find("\n" + END, i + len(START))
    rest = text[j + 1 :] if j >= 0 else ""
    path.write_text(text[:i] + section() + ("\n" + rest if rest else ""), encoding="utf-8")
    print(f"wrote the results section of {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
