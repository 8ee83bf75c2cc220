"""``daqing-sim play``: a person plays one seat of a deal against the bots, in the terminal
(:func:`daqing_sim.game.play.play_terminal`)."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from daqing_sim.commands.options import add_rules_option, rules_from_args


def _others(text: str | None, n_seats: int) -> list[str] | None:
    """The ``--strategies`` of the other seats: one name for all, or one per other seat."""
    if text is None:
        return None
    names = [s.strip() for s in text.split(",")]
    if len(names) == 1 and names[0]:
        return names * (n_seats - 1)
    if len(names) != n_seats - 1 or not all(names):
        example = ",".join(["greedy"] * (n_seats - 1))
        raise ValueError(
            f"--strategies {text} names {len(names)} players: give {n_seats - 1} comma-separated names "
            f"for the other seats in seat order, or one for all of them, e.g. --strategies {example}"
        )
    return names


def _cmd_play(args: argparse.Namespace) -> int:
    from daqing_sim.advisor.position import advice_lines
    from daqing_sim.codes import FAMILY_SEATS
    from daqing_sim.game.play import EndOfInput, play_terminal
    from daqing_sim.reviews.play import review_played

    rules = rules_from_args(args)
    others = _others(args.strategies, FAMILY_SEATS[rules.family])
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    if args.seed is None:
        print(f"seed {seed} (chosen at random; give --seed {seed} to play this deal again)")
    try:
        play_terminal(
            seed, args.deal, seat=args.seat, rules=rules, others=others, dealer=args.dealer,
            log_path=args.log, html_path=args.html, advice=advice_lines,
            review=lambda game: review_played(game, args.review_worlds),
        )  # fmt: skip
    except EndOfInput as e:
        kept = f"; the log so far is in {args.log}" if args.log else ""
        print(f"end of input after {len(e.game.answers)} of your decisions: the deal stops here{kept}")
        return 0
    except KeyboardInterrupt:
        kept = f"; the log so far is in {args.log}" if args.log else ""
        print(f"\ninterrupted: the deal stops here{kept}", file=sys.stderr)
        return 130
    return 0


def register(subparsers: Any) -> None:
    """Add the ``play`` sub-command."""
    p = subparsers.add_parser(
        "play",
        help="play one seat of a deal against the bots, in the terminal",
        description="Play seat --seat of deal --deal of seed --seed against the family's default "
        "field: each turn shows the table and numbered legal options; answer with a number or a tile "
        "name, ? for the advisor's table, an empty line for the suggested move (the expert's).",
    )
    p.add_argument("--seed", type=int, default=None, help="run seed (default: a random one, printed)")
    p.add_argument("--deal", type=int, default=0, help="deal index within the seed (default 0)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    add_rules_option(p, "family=beijing")
    p.add_argument(
        "--strategies",
        default=None,
        help="the other seats' players, comma-separated in seat order (or one for all of them); "
        "default the family's field (experts)",
    )
    p.add_argument("--dealer", type=int, default=0, help="dealer seat (default 0)")
    p.add_argument(
        "--log", metavar="FILE", help="write the deal's event log as JSON lines to FILE, after every move"
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        help="write the replay viewer of the deal played, with the review of "
        "your decisions, to FILE at its end",
    )
    p.add_argument("--review-worlds", type=int, default=256,
                   help="worlds per decision of the review at the end (default 256)")  # fmt: skip
    p.set_defaults(func=_cmd_play)
