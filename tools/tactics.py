"""The tactics book tested: each tactic of 《麻将妙诀与战术运用》 as an ``expert`` knob variant,
measured against the default expert in a duplicate tournament (not part of the package).

One variant seat against three default experts, every wall in all four cyclic seat rotations
(``ds.tournament``); the variant's row gives the paired difference per seat-deal between it and
the default experts on the same walls (t interval over per-wall means, walls the independent
units). The family is the variants together: besides the 95 % interval of each, a Bonferroni
interval at ``1 - 0.05 / len(VARIANTS)`` holds for all of them jointly. Writes
``results/tactics/tactics.csv``, ``provenance.json`` and ``README.md`` (the table);
notebooks/06_tactics.ipynb reads the CSV.

    nice -n 10 .venv/bin/python tools/tactics.py                 # 25,000 walls, seed 20261210
    .venv/bin/python tools/tactics.py --walls 200 --out /tmp/t    # a quick small run
    .venv/bin/python tools/tactics.py --readme-only               # README.md from the CSV again
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import time
from pathlib import Path

import pandas as pd

from daqing_sim.analysis.duplicate import duplicate_table
from daqing_sim.analysis.intervals import CONFIDENCE, familywise_confidence
from daqing_sim.experiments.entrants import seat_labels
from daqing_sim.experiments.tournament import tournament_frames

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261210  # the report seed: not used for tuning any knob
N_WALLS = 25_000
BASE = "expert"

# (tactic, chapter of the book, knob, value): one variant each, the rest of the expert at its defaults.
VARIANTS = [
    ("guard against dealing in: more careful", "提防出铳", "deal_in_cost", 6.0),
    ("guard against dealing in: bolder", "提防出铳", "deal_in_cost", 1.5),
    ("declare early vs wait for a good wait", "把握时机，力争早听 / 巧用战术力争听好", "declare_min_outs", 4),
    ("prefer a wait on a seen tile", "宁叫一“熟”，不听两“生”", "seen_wait_bonus", 1.0),
    ("idle tiles first, keep the lone 中", "初期舍张“废”、“闲”先行 / 三元切舍", "keep_zhong", 1),
    # the default expert (expert2 since issue 38) is already eager (0.25): the variant is expert1's setting
    ("aim for the big 夹 win: less eager", "巧拆嵌搭 / 欲做高番牌", "jia_outs_fraction", 0.5),
    ("aim for the big 夹 win: never", "巧拆嵌搭 / 欲做高番牌", "jia_outs_fraction", 2.0),
]
COLUMNS = [
    "tactic",
    "chinese",
    "knob",
    "value",
    "entrant",
    "diff",
    "lo",
    "hi",
    "bonf_lo",
    "bonf_hi",
    "confidence",
    "bonf_confidence",
    "family_size",
    "mean_pay",
    "base_mean_pay",
    "sd_wall",
    "n_walls",
    "seed",
    "seconds",
]


def measure(knob: str, value: float, n_walls: int, seed: int, bonf: float) -> dict:
    """The variant ``expert(knob=value)`` against three default experts: its row of the table."""
    entrants = [(BASE, {knob: value}), BASE, BASE, BASE]
    t0 = time.perf_counter()
    frames = tournament_frames(entrants, n_walls, seed, n_jobs=1)
    secs = time.perf_counter() - t0
    labels = seat_labels(entrants)
    t95 = duplicate_table(frames, labels, confidence=CONFIDENCE).set_index("entrant")
    tb = duplicate_table(frames, labels, confidence=bonf).set_index("entrant")
    variant = next(e for e in t95.index if e != BASE)
    r, b = t95.loc[variant], tb.loc[variant]
    return {
        "entrant": variant,
        "diff": r["diff"],
        "lo": r["diff_lo"],
        "hi": r["diff_hi"],
        "bonf_lo": b["diff_lo"],
        "bonf_hi": b["diff_hi"],
        "confidence": CONFIDENCE,
        "bonf_confidence": bonf,
        "mean_pay": r["mean_pay"],
        "base_mean_pay": t95.loc[BASE, "mean_pay"],
        "sd_wall": r["sd_wall"],
        "n_walls": int(r["n_walls"]),
        "seconds": round(secs, 1),
    }


def run(n_walls: int = N_WALLS, seed: int = SEED, verbose: bool = False) -> pd.DataFrame:
    """The tactics table: one row per entry of :data:`VARIANTS` (columns :data:`COLUMNS`)."""
    family = len(VARIANTS)
    bonf = familywise_confidence(family)
    rows = []
    for tactic, chinese, knob, value in VARIANTS:
        row = {"tactic": tactic, "chinese": chinese, "knob": knob, "value": value}
        row |= measure(knob, value, n_walls, seed, bonf)
        row |= {"family_size": family, "seed": seed}
        rows.append(row)
        if verbose:
            print(
                f"{knob}={value}: diff {row['diff']:+.4f} (95 % {row['lo']:+.4f} to {row['hi']:+.4f}; "
                f"Bonferroni {row['bonf_lo']:+.4f} to {row['bonf_hi']:+.4f}) in {row['seconds']:.0f} s",
                flush=True,
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def _verdict(r: pd.Series) -> str:
    return "pays" if r["bonf_lo"] > 0 else "costs" if r["bonf_hi"] < 0 else "not distinguishable"


def readme(table: pd.DataFrame, provenance: dict) -> str:
    """``results/tactics/README.md``: the table with both intervals, from the CSV and provenance."""
    family, bonf = int(table["family_size"].iloc[0]), float(table["bonf_confidence"].iloc[0])
    walls, seed = int(table["n_walls"].iloc[0]), int(table["seed"].iloc[0])
    rows = [
        f"| {r['chinese']} | {r['tactic']} | `{r['knob']}={r['value']:g}` | {r['diff']:+.3f} | "
        f"{r['lo']:+.3f} to {r['hi']:+.3f} | {r['bonf_lo']:+.3f} to {r['bonf_hi']:+.3f} | {_verdict(r)} |"
        for _, r in table.iterrows()
    ]
    return "\n".join(
        [
            "## The tactics book tested (《麻将妙诀与战术运用》 as expert knobs)",
            "",
            f"Each variant: one `expert` seat with one knob changed against three default experts, "
            f"{walls:,} walls x 4 seat rotations ({4 * walls:,} deals), seed {seed} (a report seed, not used "
            "for tuning). Paired difference per seat-deal, variant - default expert (2^N units), Student t "
            f"intervals over per-wall means; the family is the {family} variants, so the Bonferroni interval "
            f"is at {100 * bonf:.2f} % each (jointly 95 %) and the verdict uses it.",
            "",
            "| tactic (book) | reading | variant | diff | 95 % CI | Bonferroni CI | verdict |",
            "| --- | --- | --- | --- | --- | --- | --- |",
            *rows,
            "",
            f"Made by `{provenance.get('command', 'python tools/tactics.py')}` "
            f"({provenance.get('date', '?')}, {provenance.get('seconds', '?')} s on one core, engine "
            f"{provenance.get('engine_fingerprint')}); read and plotted in `notebooks/06_tactics.ipynb`. "
            "These figures hold for the simulated expert field under the classic rules, not for people.",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walls", type=int, default=N_WALLS, help=f"walls per variant (default {N_WALLS:,})")
    ap.add_argument("--seed", type=int, default=SEED, help=f"seed of the walls (default {SEED})")
    ap.add_argument("--out", default=str(ROOT / "results" / "tactics"), help="output folder")
    ap.add_argument(
        "--readme-only",
        action="store_true",
        help="only rewrite README.md from the CSV and provenance in --out",
    )
    a = ap.parse_args(argv)
    out = Path(a.out)
    if a.readme_only:
        provenance = json.loads((out / "provenance.json").read_text())
        (out / "README.md").write_text(readme(pd.read_csv(out / "tactics.csv"), provenance))
        print(f"wrote {out / 'README.md'}")
        return 0
    if a.walls < 2:
        raise SystemExit(f"--walls {a.walls} is too few: give at least 2 walls (intervals need them)")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    table = run(a.walls, a.seed, verbose=True)
    secs = time.perf_counter() - t0
    table.to_csv(out / "tactics.csv", index=False)
    try:
        from daqing_sim.experiments.runner import engine_fingerprint

        fingerprint = engine_fingerprint()
    except ImportError:
        fingerprint = None
    provenance = {
        "command": " ".join(["python", "tools/tactics.py", *(argv if argv is not None else sys.argv[1:])]),
        "seed": a.seed,
        "n_walls": a.walls,
        "deals_per_variant": 4 * a.walls,
        "base": BASE,
        "variants": [{"knob": k, "value": v} for _, _, k, v in VARIANTS],
        "family_size": len(VARIANTS),
        "bonferroni_confidence": familywise_confidence(len(VARIANTS)),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seconds": round(secs, 1),
        "engine_fingerprint": fingerprint,
        "python": platform.python_version(),
    }
    (out / "provenance.json").write_text(json.dumps(provenance, indent=2, ensure_ascii=False) + "\n")
    (out / "README.md").write_text(readme(table, provenance))
    print(f"wrote {out / 'tactics.csv'} and provenance.json in {secs:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
