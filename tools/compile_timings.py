"""Where the first call's time goes: numba's compile time per kernel, on a cold cache.

``python tools/compile_timings.py JOB [JOB ...]`` runs each job in a fresh subprocess with an
empty ``NUMBA_CACHE_DIR`` and lookup-table cache, records numba's ``numba:compile`` events and
prints, per job, the wall time, the compile time and the kernels that took longest (inclusive
time, and self time without the kernels compiled inside it), the top-level (entry) kernels and
the kernels compiled more than once (several signatures). ``COMPILE_TIMINGS_JSON=FILE`` appends
every compile event of each job to FILE as JSON lines. Jobs: see ``JOBS`` (``all``: every job in one
process, to see kernels that two features compile for different signatures). Run it from the
repository's root (the main job reads ``experiments/baseline.toml``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

JOBS = {
    "hand": "ds.analyze_hand('13m456p789s中中 [345m]')",
    "advise": "ds.advise('134m456p789s中中 [345m]')",
    "advise-outs": "from daqing_sim.advisor.api import warm_outs; warm_outs()",
    "advise-claim": "ds.advise('13m456p789s中中 [345m]', claim='2m', claim_from=3)",
    "advise-simulate": "ds.advise('134m456p789s中中 [345m]', method='simulate', n_sims=50)",
    "replay": "ds.replay(0, 0)",
    "deal_log": "ds.deal_log(0, 0)",
    "DealEnv": "e = ds.DealEnv(0, 0); o = e.reset()\nwhile not e.done:\n"
    "    o = e.step(e.legal_actions()[0] if o.decision == 'discard' else None)",
    "main-job": "from daqing_sim.experiments.runner import run_experiment; import tempfile; "
    "run_experiment('experiments/baseline.toml', n_jobs=1, n_deals=4096, out=tempfile.mkdtemp(), "
    "progress=False, summary=False)",
    "tournament": "ds.tournament(['expert', 'greedy', 'greedy', 'greedy'], 4, 0)",
    "hand-two-player": "two = ds.RuleSet(family='two_player'); "
    "ds.analyze_hand('19m19p19s1234566z', rules=two); "
    "ds.score_win('1112345678999m', '5m', rules=two, self_draw=True)",
    "players": "for p in ('greedy', 'jia_hunter', 'defensive', 'random', 'scripted', 'expert'):\n"
    "    ds.simulate(8, strategies=(p,) * 4, seed=1)",
    "beijing": "bj = ds.RuleSet(family='beijing'); ds.simulate(8, rules=bj, seed=1)",
    "two-player": "two = ds.RuleSet(family='two_player'); "
    "ds.simulate(8, rules=two, strategies=('greedy', 'expert'), seed=1)",
    "search-beijing": "ds.simulate(1, rules=ds.RuleSet(family='beijing'), seed=0, "
    "strategies=(('search', {'worlds': 2}), 'expert', 'expert', 'expert'))",
    "beijing-job": "from daqing_sim.experiments.runner import run_experiment; import tempfile; "
    "run_experiment('experiments/beijing.toml', n_jobs=1, n_deals=4096, out=tempfile.mkdtemp(), "
    "progress=False, summary=False)",
    "two-player-job": "from daqing_sim.experiments.runner import run_experiment; import tempfile; "
    "run_experiment('experiments/two_player.toml', n_jobs=1, n_deals=4096, out=tempfile.mkdtemp(), "
    "progress=False, summary=False)",
}
#: every job above in one process: a kernel compiled for two signatures by two features shows
JOBS["all"] = "\n".join(JOBS.values())

_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
c0 = time.process_time()
from numba.core import event
import daqing_sim as ds
t_import = time.perf_counter() - t0
cpu_import = time.process_time() - c0
stack, rows = [], []
class L(event.Listener):
    def on_start(self, e):
        stack.append([e.data["dispatcher"], time.perf_counter(), 0.0, time.process_time(), 0.0])
    def on_end(self, e):
        d, start, inner, cstart, cinner = stack.pop()
        took = time.perf_counter() - start
        cpu = time.process_time() - cstart
        if stack:
            stack[-1][2] += took
            stack[-1][4] += cpu
        name = getattr(d, "py_func", d)
        rows.append((f"{name.__module__}.{name.__qualname__}", str(e.data["args"]), took, took - inner,
                     len(stack), cpu, cpu - cinner))
with event.install_listener("numba:compile", L()):
    t1 = time.perf_counter()
    c1 = time.process_time()
    exec(sys.argv[1])
    wall = time.perf_counter() - t1
    cpu = time.process_time() - c1
print(json.dumps({"import": t_import, "cpu_import": cpu_import, "wall": wall, "cpu": cpu, "rows": rows}))
"""


def measure(job: str) -> dict:
    with tempfile.TemporaryDirectory() as numba_dir, tempfile.TemporaryDirectory() as tables:
        env = {**os.environ, "NUMBA_CACHE_DIR": numba_dir, "DAQING_SIM_CACHE": tables}
        t0 = time.perf_counter()
        argv = [sys.executable, "-c", _CHILD, JOBS[job]]
        out = subprocess.run(argv, env=env, capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(f"job {job} failed:\n{out.stderr[-3000:]}")
        res = json.loads(out.stdout.strip().splitlines()[-1])
        res["process"] = time.perf_counter() - t0
    return res


def report(job: str, res: dict, top: int = 8) -> str:
    rows = res["rows"]
    top_level = [r for r in rows if r[4] == 0]
    compile_s = sum(r[2] for r in top_level)
    compile_cpu = sum(r[5] for r in top_level)
    lines = [
        f"## {job}: {res['process']:.1f} s in all (import {res['import']:.1f} s, call {res['wall']:.1f} s "
        f"wall / {res['cpu']:.1f} s CPU, of which compiling {compile_s:.1f} s wall / {compile_cpu:.1f} s CPU "
        f"in {len(rows)} compiles, {len(top_level)} top-level)",
        "| kernel | self s | self CPU s | incl. s | incl. CPU s | depth |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    seen: dict[str, set] = {}
    for r in rows:
        seen.setdefault(r[0], set()).add(r[1])
    for r in sorted(rows, key=lambda r: -r[6])[:top]:
        lines.append(f"| {r[0]} | {r[3]:.1f} | {r[6]:.1f} | {r[2]:.1f} | {r[5]:.1f} | {r[4]} |")
    lines.append("top-level: " + ", ".join(f"{r[0].split('.')[-1]} {r[2]:.1f} s" for r in top_level))
    twice = {k: sorted(v) for k, v in seen.items() if len(v) > 1}
    if twice:
        lines.append("compiled for more than one signature:")
        lines += [f"  {k}: {v}" for k, v in twice.items()]
    return "\n".join(lines)


if __name__ == "__main__":
    for job in sys.argv[1:] or list(JOBS):
        res = measure(job)
        if os.environ.get("COMPILE_TIMINGS_JSON"):
            with open(os.environ["COMPILE_TIMINGS_JSON"], "a") as f:
                f.write(json.dumps({"job": job, **res}) + "\n")
        print(report(job, res, int(os.environ.get("COMPILE_TIMINGS_TOP", 8))), flush=True)
        print()
