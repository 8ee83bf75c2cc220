"""Write the "What the full-size runs show" section of results/README.md and the headline answers
of the front page (README.md, between its ``<!-- answers -->`` markers) from the results files
(summary.csv, tournament.csv, tactics.csv), so that every number there is read, not typed.

    python tools/results_section.py          # rewrite both sections in place

``tests/test_docs.py`` checks that README.md's section is what this writes.
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


# Beijing (beijing.toml, four greedy players; money in base units, points / base_points)
BEIJING_ROWS = [
    ("outcome_self_draw", "self-draw (自摸)", True),
    ("outcome_deal_in", "deal-in (a discard or a robbed kong)", True),
    ("outcome_exhaustive_draw", "exhaustive draw (荒牌)", True),
    (
        "tenpai_kaplan_meier_dealer_k6",
        "dealer's hand waiting (听牌) by its 6th own draw (Kaplan-Meier)",
        True,
    ),
    (
        "tenpai_kaplan_meier_non_dealer_k6",
        "non-dealer's hand waiting by its 6th own draw (Kaplan-Meier)",
        True,
    ),
    ("fan_type_share_plain_win", "plain wins (no named fan type) among wins", True),
    ("fan_type_share_seven_pairs", "七对 among wins", True),
    ("value_mean", "E[value] of a win (base units)", False),
    ("burn_share", "deals with 烧庄", True),
    ("mutual_paid_share", "deals where a 互包 partner pays for the win", True),
    ("mutual_cost_mean", "what that partner pays (base units)", False),
    ("robbed_kong_share", "deals won by robbing a kong (抢杠)", True),
    ("draws_mean", "draws per deal", False),
    ("pay_mean_winner", "winner's mean gain (base units, 烧庄 included)", False),
]


def _fmt(est: float, lo: float, hi: float, pct: bool) -> str:
    if est != est:  # NaN: nothing to estimate (e.g. a cost of an event that never happened)
        return "-"
    if pct:
        return f"{100 * est:.2f}% ({100 * lo:.2f} to {100 * hi:.2f})"
    return f"{est:.3f} ({lo:.3f} to {hi:.3f})"


def _table(columns: dict[str, pd.DataFrame], rows: list = ROWS) -> list[str]:
    """A markdown table: metric rows, one column per (experiment, variant) summary."""
    head = "| figure | " + " | ".join(columns) + " |"
    lines = [head, "| --- |" + " --- |" * len(columns)]
    for metric, label, pct in rows:
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
    if (RESULTS / "beijing" / "summary.csv").exists():
        bj = _summary("beijing")
        n = int(bj.loc[bj["metric"] == "deals", "estimate"].iloc[0])
        out += [
            "",
            f"### Beijing rules (beijing, four greedy players, {n:,} deals per variant)",
            "",
            "Another rule family on 136 tiles (docs/RULES_BEIJING.md); the expert does not play it yet, so",
            "the field is four greedy players: compare it with the greedy column above, not with the expert",
            "baseline. Money in base units (points / 1,000); notebook 08 sets the two families side by side.",
            "",
        ]
        out += _table({v: _variant(bj, v) for v in bj["variant"].unique()}, BEIJING_ROWS)
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


README_START = "<!-- answers: written by python tools/results_section.py from results/; do not edit -->"
README_END = "<!-- end of answers -->"


def _row(df: pd.DataFrame, variant: str, metric: str) -> pd.Series:
    r = df[(df["variant"] == variant) & (df["metric"] == metric)]
    if len(r) != 1:
        raise KeyError(f"no single row {variant}/{metric} in the summary: rerun its experiment")
    return r.iloc[0]


def _ci(r: pd.Series, pct: bool, cols=("estimate", "lo", "hi")) -> str:
    return _fmt(*(float(r[c]) for c in cols), pct)


def _pp(r: pd.Series) -> str:
    """A paired difference of shares in percentage points."""
    return f"{100 * r['estimate']:+.2f} points ({100 * r['lo']:+.2f} to {100 * r['hi']:+.2f})"


def readme_answers() -> str:
    """The front page's headline answers: one row per question, each read from the results files."""
    base, bao, jia = _summary("baseline"), _summary("bao_replacement"), _summary("jia_edge")
    rows = [
        (
            "How fast do players get ready?",
            "dealer ready by its 6th own draw",
            _ci(_row(base, "classic", "ready_kaplan_meier_dealer_k6"), True),
            "baseline",
            "01",
        ),
        (
            "",
            "non-dealer ready by its 6th / 12th own draw",
            _ci(_row(base, "classic", "ready_kaplan_meier_non_dealer_k6"), True)
            + " / "
            + _ci(_row(base, "classic", "ready_kaplan_meier_non_dealer_k12"), True),
            "baseline",
            "01",
        ),
        (
            "Kanchan (夹) or edge?",
            "declared waits that are kanchan only / edge only",
            _ci(_row(base, "classic", "wait_ready_pure_kanchan_only"), True)
            + " / "
            + _ci(_row(base, "classic", "wait_ready_pure_edge_only"), True),
            "baseline",
            "02",
        ),
        (
            "",
            "big wins (夹) among wins; with edge waits counting as 夹",
            _ci(_row(jia, "classic", "big_share"), True) + "; " + _ci(_row(jia, "edge", "big_share"), True),
            "jia_edge",
            "02",
        ),
        (
            "What does 换宝 change?",
            "keeping the first bao: 摸宝 wins per deal, paired",
            _pp(_row(bao, "no_replacement", "diff_bao_draw")),
            "bao_replacement",
            "03",
        ),
        (
            "",
            "keeping the first bao: exhaustive draws per deal, paired",
            _pp(_row(bao, "no_replacement", "diff_exhaustive_draw")),
            "bao_replacement",
            "03",
        ),
        (
            "What is a win worth?",
            "winner's mean gain per deal (2^N units)",
            _ci(_row(base, "classic", "pay_mean_winner"), False),
            "baseline",
            "04",
        ),
        (
            "",
            "deals in which some seat pays 64 or more",
            _ci(_row(base, "classic", "pays_64_share"), True),
            "baseline",
            "04",
        ),
    ]
    t = RESULTS / "strategies" / "tournament.csv"
    if t.exists():
        tour = pd.read_csv(t).sort_values("diff", ascending=False)
        best = tour.iloc[0]
        rows.append(
            (
                "Which style wins?",
                f"{best['entrant']} minus the others, per seat-deal (2^N)",
                _ci(best, False, ("diff", "diff_lo", "diff_hi")),
                "strategies",
                "05",
            )
        )
        rows.append(
            ("", "order of the duplicate tournament", " > ".join(tour["entrant"]), "strategies", "05")
        )
    tac = RESULTS / "tactics" / "tactics.csv"
    if tac.exists():
        tt = pd.read_csv(tac)
        for r in (tt.loc[tt["diff"].idxmax()], tt.loc[tt["diff"].idxmin()]):
            rows.append(
                (
                    "" if rows[-1][-1] == "06" else "Does the tactics book pay?",
                    f"{r['tactic']} (`{r['entrant']}`) minus the default expert",
                    _ci(r, False, ("diff", "lo", "hi")),
                    "tactics",
                    "06",
                )
            )
    out = [
        README_START,
        "| question | figure | estimate (95% interval) | results | notebook |",
        "| --- | --- | --- | --- | --- |",
    ]
    for q, label, value, where, nb in rows:
        out.append(f"| {q} | {label} | {value} | `results/{where}` | {nb} |")
    out.append(README_END)
    return "\n".join(out)


def write_readme_answers(path: Path = ROOT / "README.md") -> None:
    text = path.read_text(encoding="utf-8")
    i, j = text.index(README_START), text.index(README_END) + len(README_END)
    path.write_text(text[:i] + readme_answers() + text[j:], encoding="utf-8")
    print(f"wrote the headline answers of {path}")


def main() -> int:
    write_readme_answers()
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
