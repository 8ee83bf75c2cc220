"""``daqing-sim bench``: single-core throughput of the kernels (:mod:`daqing_sim.bench`)."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any


def _cmd_bench(args: argparse.Namespace) -> int:
    os.environ["NUMBA_NUM_THREADS"] = "1"  # before numba is imported
    from daqing_sim import bench

    if args.n <= 0:
        raise ValueError(f"--n must be positive, got {args.n}")
    if args.advise_hands <= 0:
        raise ValueError(f"--advise-hands must be positive, got {args.advise_hands}")
    results = bench.bench_evaluator(args.n)
    results.update(bench.bench_xiangting())
    if not args.skip_deals:
        results.update(bench.bench_deals(args.deals))
        results.update(bench.bench_beijing(args.deals))
        results.update(bench.bench_two_player(args.deals))
        results.update(bench.bench_jitted_player(args.deals))
        results.update(bench.bench_python_players())
        results.update(bench.bench_riichienv())
    if not args.skip_advise:
        results.update(bench.bench_advisor(args.advise_hands))
        results.update(bench.bench_advisor_simulate())
    if args.json:
        print(
            json.dumps(
                {
                    k: round(v, 1 if k.endswith("deals") or not k.startswith("advise") else 4)
                    for k, v in results.items()
                }
            )
        )
        return 0
    units = {
        "deals_greedy": "deals/s",
        "deals_expert": "deals/s",
        "deals_random": "deals/s",
        "deals_beijing_greedy": "deals/s",
        "deals_beijing_expert": "deals/s",
        "deals_beijing_random": "deals/s",
        "games_two_player_greedy": "games/s",
        "games_two_player_expert": "games/s",
        "deals_python_random": "deals/s",
        "deals_user_jitted": "deals/s",
        "riichienv_random": "hands/s",
        "advise_exact_k3": "s/hand (median)",
        "advise_simulate_500": "s/hand (median, 500 worlds per discard)",
        "advise_simulate_deals": "deals/s",
    }
    print("daqing-sim bench: one core, after compilation, best of 3 runs; random hands from the 112-tile set")
    for name, rate in results.items():
        unit = units.get(name, "hands/s")
        target = bench.TARGETS.get(name)
        if name.startswith("advise") and unit != "deals/s":  # a time: lower is better
            mark = "" if target is None else ("  ok" if rate <= target else f"  (target {target:g} s)")
            print(f"  {name:<18} {rate:>14.3f} {unit}{mark}")
            continue
        mark = "" if target is None else ("  ok" if rate >= target else f"  (target {target:,.0f})")
        print(f"  {name:<20} {rate:>12,.0f} {unit}{mark}")
    for ours, peer, goal in bench.RATIOS:
        if ours in results and peer in results:
            ratio = results[ours] / results[peer]
            mark = "  ok" if ratio >= goal else f"  (target {goal:g}x)"
            print(f"  {ours} / {peer}: {ratio:.2f}x{mark}")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``bench`` sub-command."""
    p = subparsers.add_parser(
        "bench",
        help="single-core throughput of the evaluator and the deal simulator",
        description="Throughput of batch standard shanten, wait sets, Daqing shanten and deals, "
        "one core, after compilation.",
    )
    p.add_argument("--json", action="store_true", help="print JSON for machines")
    p.add_argument("--n", type=int, default=1_000_000, help="hands for the evaluator (default 1e6)")
    p.add_argument("--deals", type=int, default=20_000, help="greedy deals to time (default 20000)")
    p.add_argument("--skip-deals", action="store_true", help="no deals")
    p.add_argument("--skip-advise", action="store_true", help="no advisor timing")
    p.add_argument(
        "--advise-hands", type=int, default=100, help="14-tile hands for the advisor's median (default 100)"
    )
    p.set_defaults(func=_cmd_bench)
