"""Write the "What the full-size runs show" section of results/README.md and the headline answers
of the front page (README.md, between its ``<!-- answers -->`` markers) from the results files
(summary.csv, manifest.json, tournament.csv, tactics.csv), so that every number there, and every
heading's field and size, is read, not typed.

    python tools/results_section.py          # rewrite both sections in place

Every shipped experiment (a directory of results/ with a summary.csv or tactics.csv) has its own
part; ``tests/test_results_section.py`` checks that, and that both sections are what this writes.
Intervals say what they hold: 95 % each, or jointly 95 % over a named family (Bonferroni) where an
estimate was picked from, or compared within, a family of them.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pandas as pd
from scipy import stats

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
START = "## What the full-size runs show"
END = "## "  # the next section, if any
CONFIDENCE = 0.95
# Old summary.csv metric names still read (issue 39 renamed them; the shipped files keep the old).
ALIASES = {"deals_won_share": "win_rate"}
NUMBERS = ("no one", "one", "two", "three", "four")

ROWS = [
    ("outcome_self_draw", "self-draw (自摸), share of deals", True),
    ("outcome_deal_in", "deal-in by a ready player (点炮), share of deals", True),
    ("outcome_deal_in_not_ready", "deal-in by a player not ready (点黑炮), share of deals", True),
    ("outcome_exhaustive_draw", "exhaustive draw (荒庄), share of deals", True),
    ("deals_won_share", "deals someone wins (not 荒庄)", True),
    ("/4 deals_won_share", "和了率: share of seat-deals a seat wins (deals won / 4)", True),
    ("win_rate_dealer", "和了率 of the dealer, per seat-deal", True),
    ("win_rate_non_dealer", "和了率 of a non-dealer, per seat-deal", True),
    ("deal_in_rate_dealer", "放铳率 of the dealer (its discard won on), per seat-deal", True),
    ("deal_in_rate_non_dealer", "放铳率 of a non-dealer, per seat-deal", True),
    ("big_share", "big wins (夹) among wins", True),
    ("bao_share_bao", "摸宝 wins among wins", True),
    ("ready_kaplan_meier_dealer_k6", "dealer ready by its 6th own draw (Kaplan-Meier)", True),
    ("ready_kaplan_meier_non_dealer_k6", "non-dealer ready by its 6th own draw (Kaplan-Meier)", True),
    ("wait_ready_pure_kanchan_only", "declared waits that are kanchan only", True),
    ("draws_mean", "draws per deal", False),
    ("pay_mean_dealer", "dealer's mean result per deal (2^N)", False),
    ("pay_mean_winner", "winner's mean gain (2^N)", False),
]

# Beijing (money in base units, points / base_points)
BEIJING_ROWS = [
    ("outcome_self_draw", "self-draw (自摸), share of deals", True),
    ("outcome_deal_in", "deal-in (a discard or a robbed kong), share of deals", True),
    ("outcome_exhaustive_draw", "exhaustive draw (荒牌), share of deals", True),
    ("deals_won_share", "deals someone wins (not 荒牌)", True),
    ("/4 deals_won_share", "和了率: share of seat-deals a seat wins (deals won / 4)", True),
    ("/4 deal_ins_per_deal", "放铳率: share of seat-deals a seat deals in (deal-ins / 4)", True),
    ("deal_in_rate_dealer", "放铳率 of the dealer, per seat-deal", True),
    ("deal_in_rate_non_dealer", "放铳率 of a non-dealer, per seat-deal", True),
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
    ("fan_type_share_plain_win", "平胡 (`plain_win`: no named fan type) among wins", True),
    ("fan_type_share_seven_pairs", "七对 (`seven_pairs`) among wins", True),
    ("fan_type_share_one_suit", "清一色 (`one_suit`) among wins", True),
    ("value_mean", "E[value] of a win (base units)", False),
    ("burn_share", "deals with 烧庄", True),
    ("mutual_paid_share", "deals where a 互包 partner pays for the win", True),
    ("mutual_cost_mean", "what that partner pays (base units)", False),
    ("robbed_kong_share", "deals won by robbing a kong (抢杠)", True),
    ("draws_mean", "draws per deal", False),
    ("pay_mean_winner", "winner's mean gain (base units, 烧庄 included)", False),
]

# Two-player (money in points: F x multiplier x points per fan)
TWO_PLAYER_ROWS = [
    ("outcome_self_draw", "self-draw (自摸, a robbed kong included), share of games", True),
    ("outcome_deal_in", "win on the opponent's discard, share of games", True),
    (
        "outcome_exhaustive_draw",
        "流局: nobody wins (nobody ready, or the extra draws missed), share of games",
        True,
    ),
    ("deals_won_share", "games someone wins", True),
    ("win_rate_dealer", "和了率 of the dealer, per seat-game", True),
    ("win_rate_non_dealer", "和了率 of the non-dealer, per seat-game", True),
    ("deal_in_rate_dealer", "放铳率 of the dealer (the opponent wins on its discard), per seat-game", True),
    ("deal_in_rate_non_dealer", "放铳率 of the non-dealer, per seat-game", True),
    ("declared_dealer", "dealer declares 报听, per seat-game", True),
    ("declared_non_dealer", "non-dealer declares 报听, per seat-game", True),
    ("extra_draws_share", "games reaching 海底捞月's extra draws", True),
    ("pattern_share_pinfu", "平和 (`pinfu`) among wins", True),
    ("pattern_share_riichi", "门清报听 (`riichi`) among wins", True),
    ("pattern_share_chiitoitsu", "七对子 (`chiitoitsu`) among wins", True),
    ("pattern_share_limit_any", "a limit hand (役满) among wins", True),
    ("fan_total_mean", "F of a win (fans, capped at 13)", False),
    ("value_mean", "E[value] of a win (points)", False),
    ("pay_mean_dealer", "dealer's mean result per game (points)", False),
    ("draws_mean", "draws per game (of the 71 tiles' 44 after the deal)", False),
]


def _fmt(est: float, lo: float, hi: float, pct: bool) -> str:
    if est != est:  # NaN: nothing to estimate (e.g. a cost of an event that never happened)
        return "-"
    if pct:
        return f"{100 * est:.2f}% ({100 * lo:.2f} to {100 * hi:.2f})"
    return f"{est:.3f} ({lo:.3f} to {hi:.3f})"


def _lookup(df: pd.DataFrame, metric: str) -> tuple[float, float, float] | None:
    """(estimate, lo, hi) of ``metric`` in one variant's summary rows; ``/4 name`` is that
    metric divided by four (a share of deals spread over the four seats); None when absent."""
    scale = 1.0
    if metric.startswith("/4 "):
        scale, metric = 0.25, metric[3:]
    r = df[df["metric"] == metric]
    if not len(r) and metric in ALIASES:
        r = df[df["metric"] == ALIASES[metric]]
    if not len(r):
        return None
    return tuple(scale * float(x) for x in r[["estimate", "lo", "hi"]].iloc[0])


def _table(columns: dict[str, pd.DataFrame], rows: list = ROWS) -> list[str]:
    """A markdown table: metric rows (those some column has), one column per variant summary."""
    head = "| figure | " + " | ".join(columns) + " |"
    lines = [head, "| --- |" + " --- |" * len(columns)]
    for metric, label, pct in rows:
        found = [_lookup(df, metric) for df in columns.values()]
        if all(f is None for f in found):
            continue
        cells = [_fmt(*f, pct) if f is not None else "-" for f in found]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def _summary(name: str) -> pd.DataFrame:
    return pd.read_csv(RESULTS / name / "summary.csv")


def _manifest(name: str) -> dict:
    return json.loads((RESULTS / name / "manifest.json").read_text(encoding="utf-8"))


def _variant(df: pd.DataFrame, v: str) -> pd.DataFrame:
    return df[df["variant"] == v]


def _field(name: str) -> str:
    """Who plays an experiment, read from its manifest: "four expert players", or the entrants
    of a tournament, or each variant's field when they differ."""
    config = _manifest(name)["config"]
    if "tournament" in config:
        entrants = [
            e if isinstance(e, str) else f"{e[0]}({_knobs(e[1])})" for e in config["tournament"]["entrants"]
        ]
        return "duplicate tournament of " + " vs ".join(f"`{e}`" for e in entrants)
    fields = []
    for v in config["variants"]:
        s = v["strategies"]
        knobs = v.get("knobs") or {}
        text = f"{NUMBERS[len(s)]} {s[0]} players" if len(set(s)) == 1 else ", ".join(f"`{x}`" for x in s)
        if knobs:
            text += " (" + "; ".join(f"{k}: {_knobs(kv)}" for k, kv in knobs.items()) + ")"
        fields.append((v["name"], text))
    if len({t for _, t in fields}) == 1:
        return fields[0][1]
    return "; ".join(f"{n}: {t}" for n, t in fields)


def _knobs(knobs: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in knobs.items())


def _heading(name: str, title: str) -> list[str]:
    """The heading of one experiment's part: its title, name, field and size (from the manifest),
    then what it asks and what each variant changes (the manifest's descriptions)."""
    config = _manifest(name)["config"]
    unit = "walls" if "tournament" in config else "deals per variant"
    out = ["", f"### {title}", "", f"`{name}`: {_field(name)}; {config['n_deals']:,} {unit}.", ""]
    out.append(f"{config['description']}.")
    if "tournament" not in config and len(config["variants"]) > 1:
        out.append("")
        for v in config["variants"]:
            out.append(f"* `{v['name']}`: {v.get('description', '')}")
    out.append("")
    return out


def _family_size(method: str) -> int:
    """The Bonferroni family of a summary row's interval, from its ``method`` text (1 if none)."""
    m = re.search(r"Bonferroni-adjusted for a family of (\d+)", method)
    return int(m.group(1)) if m else 1


def bonferroni_t(diff: float, lo: float, hi: float, n: int, family: int, confidence: float = CONFIDENCE):
    """A Student t interval (``n - 1`` degrees of freedom, level ``confidence``) widened to hold
    jointly over ``family`` intervals (Bonferroni: each at 1 - (1 - confidence) / family)."""
    q = stats.t.ppf(1 - (1 - confidence) / 2, n - 1)
    q_adj = stats.t.ppf(1 - (1 - confidence) / (2 * family), n - 1)
    half = (hi - lo) / 2 * q_adj / q
    return diff - half, diff + half


def _tournament(name: str) -> list[str]:
    tour = pd.read_csv(RESULTS / name / "tournament.csv")
    k = len(tour) if len(tour) > 2 else 1  # two entrants: one contrast, seen from both sides
    out = [
        "Mean payment per seat-deal with Student t intervals over per-wall means (walls are the",
        "independent units; 95 % each), and the difference against the mean of the other entrants",
        (
            f"with its 95 % interval and the interval that holds jointly over the {k} entrants (Bonferroni:"
            " read this one for the best or the worst entrant):"
            if k > 1
            else "(one contrast: 95 %):"
        ),
        "",
        "| entrant | walls | mean per seat-deal | vs the others (95%) |"
        + (f" vs the others (jointly 95%, family of {k}) |" if k > 1 else ""),
        "| --- | --- | --- | --- |" + (" --- |" if k > 1 else ""),
    ]
    for _, r in tour.iterrows():
        line = (
            f"| `{r['entrant']}` | {int(r['n_walls']):,} | {_fmt(r['mean_pay'], r['lo'], r['hi'], False)} "
            f"| {_fmt(r['diff'], r['diff_lo'], r['diff_hi'], False)} |"
        )
        if k > 1:
            a, b = bonferroni_t(r["diff"], r["diff_lo"], r["diff_hi"], int(r["n_walls"]), k)
            line += f" {_fmt(r['diff'], a, b, False)} |"
        out.append(line)
    return out


def section() -> str:
    out = [
        START,
        "",
        "Written by `python tools/results_section.py` from the results files of the full-size runs",
        "(`daqing-sim run experiments/NAME.toml --jobs 2`; headings, fields and sizes from each",
        "`manifest.json`): estimates with 95% intervals (Wilson for shares, a bootstrap over blocks of",
        "consecutive deals for means, Kaplan-Meier for ready curves; definitions in `summary.csv`'s",
        "`method` column and in the notebooks). Paired differences between variants (in `summary.csv`,",
        "`diff_*`) hold jointly over each experiment's variants and metrics (Bonferroni); where a table",
        "here adjusts an interval it says so. **Every figure describes the simulated field** named in",
        "its heading; the same walls played by four greedy players (`greedy_field`) show how much the",
        "answer depends on who plays. *Share of deals* counts deals; *per seat-deal* counts each",
        "seat's deals (和了率, 放铳率: what a player reads as its own win and deal-in rates).",
    ]
    base, gf = _summary("baseline"), _summary("greedy_field")
    out += _heading("baseline", "Classic rules: expert field vs greedy field (same walls)")
    out += [f"The greedy column is `greedy_field`'s `classic` variant ({_field('greedy_field')}).", ""]
    out += _table({"4 expert (baseline)": _variant(base, "classic"), "4 greedy": _variant(gf, "classic")})
    out += _field_change_part()
    bao = _summary("bao_replacement")
    out += _heading("bao_replacement", "换宝 and 宝卡")
    cols = {v: _variant(bao, v) for v in bao["variant"].unique()}
    cols["no_replacement, greedy"] = _variant(gf, "no_replacement")
    out += _table(cols)
    for name, title in (
        ("kong_fan", "Kongs as a fan"),
        ("jia_edge", "What counts as 夹"),
        ("restrictions", "Daqing restrictions lifted"),
    ):
        df = _summary(name)
        out += _heading(name, title)
        out += _table({v: _variant(df, v) for v in df["variant"].unique()})
    gvars = [v["name"] for v in _manifest("greedy_field")["config"]["variants"]]
    out += _heading("greedy_field", "The greedy field")
    out += _table({v: _variant(gf, v) for v in gvars})
    bj = _summary("beijing")
    out += _heading("beijing", "Beijing rules")
    out += [
        "Another rule family on 136 tiles (docs/RULES_BEIJING.md); its walls are not Daqing's, so compare",
        "its figures with the Daqing tables above only as two games, not deal by deal. Money in base",
        "units (points / 1,000). 互包 pays only under `mutual_bao`; the variants change no move (the",
        "players do not read these flags), so they differ in money only. Notebook 08 sets the families",
        "side by side.",
        "",
    ]
    out += _table({v: _variant(bj, v) for v in bj["variant"].unique()}, BEIJING_ROWS)
    tp = _summary("two_player")
    out += _heading("two_player", "Two-player games (二人麻将)")
    out += [
        "docs/RULES_TWO_PLAYER.md: 71 of the 136 tiles, 报听, a face-up flower tile; money in points",
        "(F x multiplier x points per fan, the first game of a match). Patterns under the rule set's",
        "Chinese names, code names (the `fan_<code>` columns) in brackets. Notebook 09 reads it.",
        "",
    ]
    out += _table({v: _variant(tp, v) for v in tp["variant"].unique()}, TWO_PLAYER_ROWS)
    out += _heading("two_player_declare", "What is 报听 worth? (two-player tournament)")
    out += _tournament("two_player_declare")
    out += _heading("strategies", "Which player wins (Daqing, all four seat rotations)")
    out += ["Money in 2^N units.", ""]
    out += _tournament("strategies")
    out += _tactics_section()
    out += [
        "",
        "Differences between variants are effects of the rule change for these players on the same walls;",
        "they need not carry over to a table of people.",
        "",
    ]
    return "\n".join(out)


#: the paired differences of a Daqing summary (``diff_<metric>``), as a player reads them
DIFF_ROWS = [
    ("diff_win", "deals someone wins (not 荒庄)", True),
    ("diff_exhaustive_draw", "exhaustive draw (荒庄), share of deals", True),
    ("diff_big_win", "big wins (夹), share of deals", True),
    ("diff_bao_draw", "摸宝 wins, share of deals", True),
    ("diff_dealer_pay", "dealer's mean result per deal (2^N)", False),
    ("diff_max_pay", "the largest payment of a deal (2^N)", False),
]


def _field_change_part() -> list[str]:
    """The old field against the new on baseline's walls (issue 38), with the paired differences."""
    ef = _summary("expert_field")
    base_v, new_v = (v["name"] for v in _manifest("expert_field")["config"]["variants"])
    out = _heading("expert_field", "What changed with the default field (expert1 to expert2, same walls)")
    out += [
        "Every Daqing experiment here is played by the default field, four `expert` players; since issue",
        "38 `expert` is `expert2` in Daqing. The same walls as `baseline`, played by both fields:",
        "",
    ]
    out += _table(
        {f"4 {base_v} (old field)": _variant(ef, base_v), f"4 {new_v} (new field)": _variant(ef, new_v)}
    )
    diffs = _variant(ef, new_v)
    sizes = {_family_size(m) for m in diffs[diffs["metric"].str.startswith("diff_")]["method"]}
    out += [
        "",
        f"Paired differences, {new_v} minus {base_v}, per deal on the same walls (bootstrap over blocks of",
        f"deals; jointly 95% over the family of {', '.join(map(str, sorted(sizes)))}, Bonferroni):",
        "",
        "| difference | new minus old |",
        "| --- | --- |",
    ]
    for metric, label, pct in DIFF_ROWS:
        found = _lookup(diffs, metric)
        if found is not None:
            out.append(f"| {label} | {_fmt(*found, pct)} |")
    return out


def _tactics_section() -> list[str]:
    tt = pd.read_csv(RESULTS / "tactics" / "tactics.csv")
    prov = json.loads((RESULTS / "tactics" / "provenance.json").read_text(encoding="utf-8"))
    k = int(tt["family_size"].iloc[0])
    out = [
        "",
        "### Tactics of the book as expert knobs",
        "",
        f"`tactics`: one expert seat with one knob changed against three default experts; "
        f"{int(prov['n_walls']):,} walls x 4 seat rotations.",
        "",
        "Paired difference per seat-deal, variant minus the default expert (2^N units), Student t over",
        f"per-wall means; the family is the {k} variants, so the joint interval (Bonferroni, each at",
        f"{100 * float(tt['bonf_confidence'].iloc[0]):.2f}%) is the one to read. `results/tactics/README.md`",
        "and notebook 06 give the verdicts.",
        "",
        f"| tactic (book) | variant | difference | 95% | jointly 95% (family of {k}) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for _, r in tt.iterrows():
        out.append(
            f"| {r['chinese']}: {r['tactic']} | `{r['entrant']}` | {r['diff']:+.3f} "
            f"| {r['lo']:+.3f} to {r['hi']:+.3f} | {r['bonf_lo']:+.3f} to {r['bonf_hi']:+.3f} |"
        )
    return out


README_START = "<!-- answers: written by python tools/results_section.py from results/; do not edit -->"
README_END = "<!-- end of answers -->"


def _row(df: pd.DataFrame, variant: str, metric: str) -> pd.Series:
    r = df[(df["variant"] == variant) & (df["metric"] == metric)]
    if not len(r) and metric in ALIASES:
        r = df[(df["variant"] == variant) & (df["metric"] == ALIASES[metric])]
    if len(r) != 1:
        raise KeyError(f"no single row {variant}/{metric} in the summary: rerun its experiment")
    return r.iloc[0]


def _ci(r: pd.Series, pct: bool, cols=("estimate", "lo", "hi")) -> str:
    return _fmt(*(float(r[c]) for c in cols), pct)


def _pp(r: pd.Series) -> str:
    """A paired difference of shares in percentage points."""
    return f"{100 * r['estimate']:+.2f} points ({100 * r['lo']:+.2f} to {100 * r['hi']:+.2f})"


def _level(r: pd.Series | None = None, family: int = 1) -> str:
    """What an answer's interval holds: 95 % each, or jointly 95 % over a Bonferroni family."""
    if r is not None:
        family = _family_size(str(r["method"]))
    return "95%" if family <= 1 else f"jointly 95% (Bonferroni, family of {family})"


def readme_answers() -> str:
    """The front page's headline answers: one row per question, each read from the results files,
    with the level its interval holds at."""
    base, bao, jia = _summary("baseline"), _summary("bao_replacement"), _summary("jia_edge")
    rows = [
        (
            "How fast do players get ready?",
            "dealer ready by its 6th own draw",
            _ci(_row(base, "classic", "ready_kaplan_meier_dealer_k6"), True),
            _level(),
            "baseline",
            "01",
        ),
        (
            "",
            "non-dealer ready by its 6th / 12th own draw",
            _ci(_row(base, "classic", "ready_kaplan_meier_non_dealer_k6"), True)
            + " / "
            + _ci(_row(base, "classic", "ready_kaplan_meier_non_dealer_k12"), True),
            _level(),
            "baseline",
            "01",
        ),
        (
            "How often does a player win (和了率)?",
            "share of seat-deals a seat wins (deals won / 4)",
            _fmt(*_lookup(_variant(base, "classic"), "/4 deals_won_share"), True),
            _level(),
            "baseline",
            "01",
        ),
        (
            "Kanchan (夹) or edge?",
            "declared waits that are kanchan only / edge only",
            _ci(_row(base, "classic", "wait_ready_pure_kanchan_only"), True)
            + " / "
            + _ci(_row(base, "classic", "wait_ready_pure_edge_only"), True),
            _level(),
            "baseline",
            "02",
        ),
        (
            "",
            "big wins (夹) among wins; with edge waits counting as 夹",
            _ci(_row(jia, "classic", "big_share"), True) + "; " + _ci(_row(jia, "edge", "big_share"), True),
            _level(),
            "jia_edge",
            "02",
        ),
        (
            "What does 换宝 change?",
            "keeping the first bao: 摸宝 wins per deal, paired",
            _pp(_row(bao, "no_replacement", "diff_bao_draw")),
            _level(_row(bao, "no_replacement", "diff_bao_draw")),
            "bao_replacement",
            "03",
        ),
        (
            "",
            "keeping the first bao: exhaustive draws per deal, paired",
            _pp(_row(bao, "no_replacement", "diff_exhaustive_draw")),
            _level(_row(bao, "no_replacement", "diff_exhaustive_draw")),
            "bao_replacement",
            "03",
        ),
        (
            "What is a win worth?",
            "winner's mean gain per deal (2^N units)",
            _ci(_row(base, "classic", "pay_mean_winner"), False),
            _level(),
            "baseline",
            "04",
        ),
        (
            "",
            "deals in which some seat pays 64 or more",
            _ci(_row(base, "classic", "pays_64_share"), True),
            _level(),
            "baseline",
            "04",
        ),
    ]
    tour = pd.read_csv(RESULTS / "strategies" / "tournament.csv").sort_values("diff", ascending=False)
    best = tour.iloc[0]
    lo, hi = bonferroni_t(best["diff"], best["diff_lo"], best["diff_hi"], int(best["n_walls"]), len(tour))
    rows.append(
        (
            "Which style wins?",
            f"{best['entrant']} minus the others, per seat-deal (2^N; the best of {len(tour)} entrants)",
            _fmt(best["diff"], lo, hi, False),
            _level(family=len(tour)),
            "strategies",
            "05",
        )
    )
    rows.append(
        ("", "order of the duplicate tournament", " > ".join(tour["entrant"]), "", "strategies", "05")
    )
    tt = pd.read_csv(RESULTS / "tactics" / "tactics.csv")
    for r in (tt.loc[tt["diff"].idxmax()], tt.loc[tt["diff"].idxmin()]):
        rows.append(
            (
                "" if rows[-1][-1] == "06" else "Does the tactics book pay?",
                f"{r['tactic']} (`{r['entrant']}`) minus the default expert",
                _ci(r, False, ("diff", "bonf_lo", "bonf_hi")),
                _level(family=int(r["family_size"])),
                "tactics",
                "06",
            )
        )
    bj = _summary("beijing")
    rows += [
        (
            "How do Beijing deals end?",
            "self-draw / deal-in / exhaustive draw (荒牌), share of deals",
            " / ".join(
                _ci(_row(bj, "beijing", m), True)
                for m in ("outcome_self_draw", "outcome_deal_in", "outcome_exhaustive_draw")
            ),
            _level(),
            "beijing",
            "08",
        ),
        (
            "",
            "放铳率 (deal-ins per seat-deal) of the dealer / a non-dealer",
            _ci(_row(bj, "beijing", "deal_in_rate_dealer"), True)
            + " / "
            + _ci(_row(bj, "beijing", "deal_in_rate_non_dealer"), True),
            _level(),
            "beijing",
            "08",
        ),
        (
            "What is a Beijing win worth?",
            "E[value] of a win (base units); deals where a 互包 partner pays",
            _ci(_row(bj, "beijing", "value_mean"), False)
            + "; "
            + _ci(_row(bj, "beijing", "mutual_paid_share"), True),
            _level(),
            "beijing",
            "08",
        ),
    ]
    tp = _summary("two_player")
    rows += [
        (
            "Two players: who wins (和了率)?",
            "dealer / non-dealer wins, per seat-game; 流局 (nobody wins), per game",
            _ci(_row(tp, "declare", "win_rate_dealer"), True)
            + " / "
            + _ci(_row(tp, "declare", "win_rate_non_dealer"), True)
            + "; "
            + _ci(_row(tp, "declare", "outcome_exhaustive_draw"), True),
            _level(),
            "two_player",
            "09",
        ),
        (
            "What is 报听 worth?",
            "nobody declaring: E[value] per game, paired (points)",
            _ci(_row(tp, "never_declare", "diff_value"), False),
            _level(_row(tp, "never_declare", "diff_value")),
            "two_player",
            "09",
        ),
    ]
    tdec = pd.read_csv(RESULTS / "two_player_declare" / "tournament.csv")
    never = tdec[tdec["entrant"].str.startswith("expert")].iloc[0]
    rows.append(
        (
            "",
            "a player that never declares minus greedy (which does), per seat-game (points)",
            _ci(never, False, ("diff", "diff_lo", "diff_hi")),
            _level(),
            "two_player_declare",
            "09",
        )
    )
    out = [
        README_START,
        "| question | figure | estimate (interval) | interval | results | notebook |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for q, label, value, level, where, nb in rows:
        out.append(f"| {q} | {label} | {value} | {level} | `results/{where}` | {nb} |")
    out.append(README_END)
    return "\n".join(out)


def write_readme_answers(path: Path = ROOT / "README.md") -> None:
    text = path.read_text(encoding="utf-8")
    i, j = text.index(README_START), text.index(README_END) + len(README_END)
    path.write_text(text[:i] + readme_answers() + text[j:], encoding="utf-8")
    print(f"wrote the headline answers of {path}")


def results_readme(text: str) -> str:
    """``text`` (results/README.md) with its results section replaced by :func:`section`."""
    i = text.index(START)
    j = text.find("\n" + END, i + len(START))  # "\n## ", not a "\n### " sub-heading
    rest = text[j + 1 :] if j >= 0 else ""
    return text[:i] + section() + ("\n" + rest if rest else "")


def main() -> int:
    write_readme_answers()
    path = RESULTS / "README.md"
    path.write_text(results_readme(path.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the results section of {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
