"""``daqing-sim review``: one seat's decisions in one deal, valued by simulation
(:func:`daqing_sim.reviews.core.review`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from daqing_sim.commands.options import add_rules_option, rules_from_args


def _cmd_review(args: argparse.Namespace) -> int:
    from daqing_sim.commands.replay import _strategies
    from daqing_sim.reviews.core import review

    rules = rules_from_args(args)
    strategies = _strategies(args.strategies, rules.family)
    if args.log and strategies is not None:
        raise ValueError("give --strategies (the deal is played here) or --log (as it was played), not both")
    tty = sys.stderr.isatty()

    def progress(k: int, kind: str) -> None:
        if tty:
            print(f"\rvaluing decision {k} ({kind})...   ", end="", file=sys.stderr, flush=True)

    r = review(
        args.seed, args.deal, args.seat, rules=rules, strategies=strategies, dealer=args.dealer,
        log=args.log, n_worlds=args.worlds, field=args.field, threshold=args.threshold,
        world_seed=args.world_seed, candidates=args.candidates, min_t=args.min_t, progress=progress,
    )  # fmt: skip
    if tty:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    if args.csv:
        r.decisions.to_csv(args.csv, index=False)
    for line in r.table_lines() if args.all else []:
        print(line)
    for line in r.lines():
        print(line)
    if args.csv:
        print(f"wrote {args.csv} (one row per decision)")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``review`` sub-command."""
    p = subparsers.add_parser(
        "review",
        help="value one seat's decisions in a deal: the loss at each, the biggest mistakes",
        description="Replay deal --deal of seed --seed (as the strategies play it, or as --log "
        "records it) and value every decision of seat --seat by simulation: each option played to "
        "the deal's end in --worlds worlds drawn from what the seat sees; the best is picked on half "
        "the worlds and the loss (best minus chosen) measured on the other half.",
    )
    p.add_argument("--seed", type=int, required=True, help="run seed")
    p.add_argument("--deal", type=int, required=True, help="deal index within the seed")
    p.add_argument("--seat", type=int, required=True, help="the seat reviewed")
    add_rules_option(p, "family=beijing")
    p.add_argument(
        "--strategies",
        default=None,
        help="comma-separated players, one per seat (or one for all); default the family's field",
    )
    p.add_argument("--dealer", type=int, default=0, help="dealer seat (default 0)")
    p.add_argument("--log", metavar="FILE", default=None,
                   help="the deal as played: JSON lines of replay --json or play --log")  # fmt: skip
    p.add_argument("--worlds", type=int, default=256, help="worlds per decision (default 256)")
    p.add_argument(
        "--field", default="expert", help="the player of every seat in the rollouts (default expert)"
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="a bad move loses more than this (default: Daqing 0.5 units, Beijing 200 points, two-player "
        "half a fan: 0.5 x multiplier x points_per_fan points)",
    )
    p.add_argument("--world-seed", type=int, default=0, help="seed of the worlds (default 0)")
    p.add_argument(
        "--candidates",
        type=int,
        default=None,
        help="weigh only this many options, ranked as the search player ranks them (default all)",
    )
    p.add_argument(
        "--min-t",
        type=float,
        default=2.0,
        help="a move is better than the one made only with a paired gain this many standard errors "
        "above 0 on the picking half of the worlds (default 2)",
    )
    p.add_argument("--all", action="store_true", help="print every decision, not only the summary")
    p.add_argument("--csv", metavar="FILE", default=None, help="write one row per decision to FILE")
    p.set_defaults(func=_cmd_review)
