"""results/README.md's results section and the front page's answers are what
tools/results_section.py writes from the shipped results files (summary.csv, manifest.json,
tournament.csv, tactics.csv): regenerating them changes nothing, every shipped experiment has its
part, headings are read from the manifests, and adjusted intervals are the adjusted ones. Reads
only the shipped CSV and JSON files: no simulation."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"


@pytest.fixture(scope="module")
def rs():
    spec = importlib.util.spec_from_file_location("results_section", ROOT / "tools" / "results_section.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def section(rs):
    return rs.section()


def _part(section: str, name: str) -> str:
    """The part of the section whose heading block names experiment ``name``."""
    parts = section.split("\n### ")
    hit = [p for p in parts if f"\n`{name}`:" in p]
    assert len(hit) == 1, f"{len(hit)} parts for {name}"
    return hit[0]


def test_regenerating_results_readme_changes_nothing(rs):
    """Rerun ``python tools/results_section.py`` after a results file changed."""
    text = (RESULTS / "README.md").read_text(encoding="utf-8")
    assert rs.results_readme(text) == text


def test_regenerating_the_front_page_answers_changes_nothing(rs):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    i, j = text.index(rs.README_START), text.index(rs.README_END) + len(rs.README_END)
    assert text[i:j] == rs.readme_answers()


def test_every_shipped_experiment_has_a_part(section):
    shipped = sorted(
        p.name for p in RESULTS.iterdir() if (p / "summary.csv").exists() or (p / "tactics.csv").exists()
    )
    assert {"beijing", "two_player", "two_player_declare", "tactics"} <= set(shipped)
    for name in shipped:
        if name == "tactics":
            assert "\n`tactics`:" in section
        else:
            _part(section, name)


def test_the_beijing_part_is_read_from_its_summary_and_manifest(section):
    part = _part(section, "beijing")
    manifest = json.loads((RESULTS / "beijing" / "manifest.json").read_text(encoding="utf-8"))["config"]
    players = {s for v in manifest["variants"] for s in v["strategies"]}
    assert len(players) == 1
    assert f"four {players.pop()} players; {manifest['n_deals']:,} deals per variant" in part
    bj = pd.read_csv(RESULTS / "beijing" / "summary.csv")
    for metric in ("outcome_self_draw", "outcome_deal_in", "outcome_exhaustive_draw", "mutual_paid_share"):
        r = bj[(bj.variant == "beijing") & (bj.metric == metric)].iloc[0]
        assert f"{100 * r.estimate:.2f}% ({100 * r.lo:.2f} to {100 * r.hi:.2f})" in part, metric
    draws = bj[(bj.variant == "beijing") & (bj.metric == "draws_mean")].iloc[0]
    assert f"{draws.estimate:.3f}" in part
    assert "greedy" not in part.split("|")[0]  # no stale field in the heading or the text


def test_the_two_player_parts_show_per_seat_rates_and_the_tournament(section):
    tp = pd.read_csv(RESULTS / "two_player" / "summary.csv")
    part = _part(section, "two_player")
    for metric in ("win_rate_dealer", "deal_in_rate_non_dealer", "outcome_exhaustive_draw"):
        r = tp[(tp.variant == "declare") & (tp.metric == metric)].iloc[0]
        assert f"{100 * r.estimate:.2f}%" in part, metric
    tour = pd.read_csv(RESULTS / "two_player_declare" / "tournament.csv")
    declare = _part(section, "two_player_declare")
    for _, r in tour.iterrows():
        assert f"{r['diff']:.3f} ({r.diff_lo:.3f} to {r.diff_hi:.3f})" in declare


def test_the_best_entrant_is_shown_with_its_bonferroni_interval(rs):
    """The best of four entrants, checked another way: in a zero-sum field with one copy of each
    entrant, an entrant's per-wall difference to the mean of the others is 4/3 of its per-wall
    mean, so its standard error is 4/3 of ``sd_wall / sqrt(n_walls)``."""
    tour = pd.read_csv(RESULTS / "strategies" / "tournament.csv")
    best = tour.loc[tour["diff"].idxmax()]
    k, n = len(tour), int(best.n_walls)
    half = stats.t.ppf(1 - 0.05 / (2 * k), n - 1) * best.sd_wall * (k / (k - 1)) / math.sqrt(n)
    answers = rs.readme_answers()
    row = next(line for line in answers.splitlines() if "minus the others" in line)
    assert f"({best['diff'] - half:.3f} to {best['diff'] + half:.3f})" in row
    assert f"family of {k}" in row
    unadjusted = f"({best.diff_lo:.3f} to {best.diff_hi:.3f})"
    assert unadjusted not in row


def test_the_tactics_rows_print_the_adjusted_intervals(rs):
    tt = pd.read_csv(RESULTS / "tactics" / "tactics.csv")
    answers = rs.readme_answers().splitlines()
    for r in (tt.loc[tt["diff"].idxmax()], tt.loc[tt["diff"].idxmin()]):
        row = next(line for line in answers if f"`{r.entrant}`" in line)
        assert f"({r.bonf_lo:.3f} to {r.bonf_hi:.3f})" in row
        assert f"family of {int(r.family_size)}" in row


def test_every_answer_says_what_its_interval_holds(rs):
    rows = [line for line in rs.readme_answers().splitlines() if line.startswith("| ") and "---" not in line]
    for line in rows[1:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        value, level = cells[2], cells[3]
        if "(" in value:
            assert level == "95%" or level.startswith("jointly 95% (Bonferroni, family of "), line
