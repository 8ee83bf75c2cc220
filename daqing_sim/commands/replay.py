"""``daqing-sim replay``: one simulated deal move by move (:func:`daqing_sim.game.replay.replay`),
its event log as JSON lines (``--json``) or its HTML viewer (``--html``)."""

from __future__ import annotations

import argparse
from typing import Any

from daqing_sim.commands.options import add_rules_option, rules_from_args


def _strategies(text: str | None, family: str) -> tuple[str, ...] | None:
    """The ``--strategies`` of the command line: one name per seat, or one for every seat."""
    from daqing_sim.codes import FAMILY_SEATS

    if text is None:
        return None
    names = tuple(s.strip() for s in text.split(","))
    seats = FAMILY_SEATS[family]
    if len(names) == 1:
        return names * seats
    if len(names) != seats or not all(names):
        first = names[0] or "greedy"
        example = ",".join([first] + ["random"] * (seats - 1))
        raise ValueError(
            f"--strategies {text} names {len(names)} players: give {seats} comma-separated names, one "
            f"per seat, or one for every seat, e.g. --strategies {example} or --strategies {first}"
        )
    return names


def _cmd_replay(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    strategies = _strategies(args.strategies, rules.family)
    if strategies is None:
        from daqing_sim.players.registry import default_field

        strategies = default_field(rules.family)
    if args.review is not None and not args.html:
        raise ValueError(
            "--review K marks the viewer: give --html FILE too (daqing-sim review prints a review)"
        )
    if args.html:
        from daqing_sim.reviews.viewer import replay_html

        replay_html(
            args.seed, args.deal, rules=rules, strategies=strategies, dealer=args.dealer, path=args.html,
            review=args.review, n_worlds=args.worlds,
        )  # fmt: skip
        print(f"wrote {args.html} (open it in a browser; FILE#move=N opens at move N)")
        return 0
    if args.json:
        from daqing_sim.game.deal_log import deal_log, to_json_lines

        lines = to_json_lines(
            deal_log(args.seed, args.deal, rules=rules, strategies=strategies, dealer=args.dealer)
        )
    else:
        from daqing_sim.game.replay import replay

        lines = replay(args.seed, args.deal, rules=rules, strategies=strategies, dealer=args.dealer)
    for line in lines:
        print(line)
    return 0


def register(subparsers: Any) -> None:
    """Add the ``replay`` sub-command."""
    p = subparsers.add_parser(
        "replay",
        help="print one simulated deal move by move",
        description="Replay deal --deal of seed --seed move by move (the same kernel as 'run').",
    )
    p.add_argument("--seed", type=int, required=True, help="run seed")
    p.add_argument("--deal", type=int, required=True, help="deal index within the seed")
    add_rules_option(p)
    p.add_argument(
        "--strategies",
        default=None,
        help="comma-separated strategies, one per seat (or one for all seats); default the family's "
        "field of simulate, ds.replay and ds.deal_log (experts at every seat)",
    )
    p.add_argument("--dealer", type=int, default=0, help="dealer seat (default 0)")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the structured event log instead: one JSON object per event (schema in docs/DESIGN.md)",
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        help="write the deal as one self-contained HTML replay viewer to FILE instead",
    )
    p.add_argument(
        "--review",
        type=int,
        metavar="K",
        default=None,
        help="with --html: mark seat K's decisions (the loss, the better move) and list its biggest mistakes",
    )
    p.add_argument("--worlds", type=int, default=256, help="worlds per decision of --review (default 256)")
    p.set_defaults(func=_cmd_replay)
