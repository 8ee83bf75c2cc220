"""A rule family is one folder and one registry line (issue 35, item 4).

``tests/no_chi_family`` (Daqing without chis: its own claim step and state type; spec, frame,
metrics and settlement Daqing's by import) is registered with one line in a fresh process, and
played there through ``ds.simulate``, ``ds.deal_log``, ``ds.replay``, ``ds.replay_html``,
``ds.tournament`` and an experiment file with its summary. The page is then opened in Chromium
here (skipped without it, but in CI), against the deal log.

The kernels that take the family's state are compiled for its type in that process and not cached
on disk (``NullCache``, as tests/test_protocol.py): a package cache index naming a module outside
the package breaks every later process that loads it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
from test_protocol import _package_caches_naming
from test_replay_browser import _browser, _check_seats, _expected, _moves, _run, _Tiles

from daqing_sim.families import family_spec
from daqing_sim.game.deal_log import ACTIONS

ROOT = Path(__file__).resolve().parents[1]
SEED, DEAL, N_DEALS, N_LOGS = 3, 0, 200, 12
CHI_BITS = sum(1 << ACTIONS.index(a) for a in ("chi_low", "chi_mid", "chi_high"))

# The one line that adds the family is the second one.
SCRIPT = r"""
import daqing_sim.families as families
families.FAMILY_PACKAGES["no_chi"] = "no_chi_family"

import json, sys
from pathlib import Path
from numba.core.caching import NullCache
import daqing_sim as ds
from daqing_sim.experiments.config import load_experiment
from daqing_sim.experiments.runner import run_experiment
from daqing_sim.families.daqing import deal as daqing_deal
from daqing_sim.game import engine

tmp, seed, deal, n_deals, n_logs = Path(sys.argv[1]), *map(int, sys.argv[2:])
rules, daqing = ds.RuleSet(family="no_chi"), ds.RuleSet()
greedy = ("greedy",) * 4
out = {"offers": {}}
for f, r in (("daqing", daqing), ("no_chi", rules)):  # Daqing's kernels first, from the disk cache
    if f == "no_chi":
        for kernel in (engine.play_batch_k, engine._play_deal, engine.final_tiles, daqing_deal.record):
            kernel._cache = NullCache()  # compiled for the family's state in this process only
    ds.simulate(n_deals, seed=seed, rules=r, strategies=greedy, n_jobs=1).to_pickle(tmp / f"{f}.pkl")
    logs = [ds.deal_log(seed, d, r, greedy) for d in range(n_logs)]
    out["offers"][f] = [int(o) for log in logs for o in log.options[log.event == "claim_offer"]]
ds.deal_log(seed, deal, rules).to_pickle(tmp / "log.pkl")
out["replay"] = ds.replay(seed, deal, rules)
ds.replay_html(seed, deal, rules, path=tmp / "replay.html")
t = ds.tournament(["greedy", "random", "random", "random"], 20, seed, rules=rules)
out["tournament"] = t[["entrant", "copies", "n_seat_deals", "mean_pay"]].values.tolist()
(tmp / "no_chi.toml").write_text(
    'name = "no_chi"\nn_deals = 100\nseed = 2\nstrategies = "greedy"\n[rules]\nfamily = "no_chi"\n'
)
run_experiment(load_experiment(tmp / "no_chi.toml"), n_jobs=1, out=tmp / "results", progress=False)
json.dump(out, sys.stdout)
"""


def _played(tmp: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    args = [str(tmp), *map(str, (SEED, DEAL, N_DEALS, N_LOGS))]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_a_family_in_one_folder_plays_through_every_feature(tmp_path):
    got = _played(tmp_path)
    assert _package_caches_naming(b"no_chi_family") == []
    # ds.simulate: Daqing's frame, other deals on the same walls, and wins
    sim = {f: pd.read_pickle(tmp_path / f"{f}.pkl") for f in ("no_chi", "daqing")}
    nochi = sim["no_chi"]
    assert tuple(nochi.columns) == family_spec("daqing").frame_columns()
    assert len(nochi) == N_DEALS and (nochi.winner >= 0).sum() > N_DEALS // 4
    assert not nochi.winner.equals(sim["daqing"].winner)
    # ds.deal_log: pengs and kongs are offered, chis never (Daqing offers them on the same deals)
    offers = got["offers"]
    assert offers["no_chi"] and not any(o & CHI_BITS for o in offers["no_chi"])
    assert any(o & CHI_BITS for o in offers["daqing"])
    log = pd.read_pickle(tmp_path / "log.pkl")
    assert log.attrs["family"] == "no_chi"
    assert not log.action[log.event == "claim"].astype(str).str.startswith("chi").any()
    # ds.replay: the family's words, and its win settled as Daqing's (the frame's payments)
    row = nochi.iloc[DEAL]
    lines = got["replay"]
    assert lines[0].endswith("(no-chi rules: 不吃, pengs and kongs only)")
    win = log[log.event == "win"]
    assert len(win) == 1 and int(win.seat.iloc[0]) == row.winner
    assert any(line.startswith(f"WIN ({row.outcome}): seat {row.winner} wins") for line in lines)
    # ds.tournament: greedy rated against three random players, every seat of every wall
    table = {e: (c, n, pay) for e, c, n, pay in got["tournament"]}
    assert (table["greedy"][:2], table["random"][:2]) == ((1, 80), (3, 240))
    assert table["greedy"][2] > 0 > table["random"][2]
    # the experiment file: its chunks and the summary's counts agree
    run = tmp_path / "results" / "no_chi"
    frame = pd.concat(pd.read_parquet(p) for p in sorted((run / "chunks" / "base").glob("*.parquet")))
    summary = pd.read_csv(run / "summary.csv").set_index("metric")
    assert summary.loc["deals", "estimate"] == len(frame) == 100
    share = (frame.outcome.astype(str) == "self_draw").mean()
    assert summary.loc["outcome_self_draw", "estimate"] == share
    # ds.replay_html, drawn by Chromium: hands and ponds as the log has them, and the win
    _the_page_holds_the_deal(tmp_path, log, row)


def _the_page_holds_the_deal(tmp: Path, log: pd.DataFrame, row: pd.Series) -> None:
    browser = _browser()
    moves = _moves(log)
    assert {"claim", "win"} <= set(moves)
    for move in (moves["claim"], moves["last"]):
        dom = _Tiles()
        dom.feed(_run(browser, tmp, "--dump-dom", f"{(tmp / 'replay.html').as_uri()}#move={move}"))
        assert dom.body.get("data-family") == "no_chi"
        hands, ponds = _expected(log, int(dom.body["data-step"]))
        _check_seats(dom, hands, ponds, move)
        dom.drawn_with_glyphs()
    assert f"seat {row.winner} wins" in dom.label("#win")
    shown = [dom.label("#win", s).split() for s in range(4)]
    assert [int(w[2].replace(",", "")) for w in shown] == [int(row[f"pay_{s}"]) for s in range(4)]
