"""``daqing-sim tournament``: a duplicate tournament of four entrants (two-player: two) on the
same walls (:func:`daqing_sim.experiments.tournament.tournament`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from daqing_sim.commands.options import add_rules_option, rules_from_args


def _cmd_tournament(args: argparse.Namespace) -> int:
    from daqing_sim.codes import FAMILY_SEATS

    rules = rules_from_args(args)
    n_seats = FAMILY_SEATS[rules.family]
    if len(args.entrants) != n_seats:
        example = "expert greedy" if n_seats == 2 else "greedy random random random"
        if n_seats == 4 and len(args.entrants) == 2:
            example += " (two entrants: --rules family=two_player)"
        raise ValueError(
            f"{len(args.entrants)} entrant(s) given ({' '.join(args.entrants)}): a tournament seats "
            f"exactly {'two under the two-player family' if n_seats == 2 else 'four'}; repeat one to "
            f"play it against copies of itself, e.g. {example}"
        )
    from daqing_sim.analysis.duplicate import format_tournament, tournament_pairs
    from daqing_sim.experiments.entrants import entrant_label, parse_entrant
    from daqing_sim.experiments.tournament import tournament
    from daqing_sim.players.plugins import is_player_spec, load_player

    def entrant(spec: str) -> Any:
        # a module:Class entrant is made here, so that it is labelled by its name, as in Python
        return load_player(spec) if is_player_spec(spec) else parse_entrant(spec)

    entrants = [entrant(s) for s in args.entrants]
    baseline = None if args.baseline is None else entrant(args.baseline)
    if args.walls is None or args.walls < 1:
        raise ValueError(f"--walls {args.walls} is impossible: give a positive number of walls")
    if args.jobs < 1:
        raise ValueError(f"--jobs {args.jobs} is impossible: give a positive number of workers")
    try:
        table = tournament(entrants, args.walls, args.seed, rules=rules, n_jobs=args.jobs, baseline=baseline)
    except ValueError as e:
        raise ValueError(str(e).replace("baseline ", "--baseline ", 1)) from None
    pairs = tournament_pairs(table)
    if args.json:
        records = {"table": table, "pairs": pairs}
        print(json.dumps({k: json.loads(v.to_json(orient="records")) for k, v in records.items()}))
        return 0
    what = "games" if n_seats == 2 else "deals"
    fields = 1 if baseline is None else 2
    swap = "" if baseline is None else f"{entrant_label(baseline)} in place of {args.entrants[0]}"
    again = f" x 2 fields ({swap})" if swap else ""
    print(
        f"duplicate tournament: {args.walls:,} walls of seed {args.seed} x {n_seats} rotations{again} = "
        f"{fields * n_seats * args.walls:,} {what}"
        + ("" if rules.family == "daqing" else f", {rules.family} rules")
    )
    print(format_tournament(table, pairs, rules.family))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``tournament`` sub-command."""
    p = subparsers.add_parser(
        "tournament",
        help="duplicate tournament of four entrants (two-player: two) over the same walls",
        description=(
            "Play every wall in all the cyclic seat rotations (four; two under the two-player family) "
            "with the same deal seeds and print each entrant's mean payment per seat-deal and paired "
            "differences (t intervals over walls)."
        ),
    )
    p.add_argument(
        "entrants",
        nargs="+",
        metavar="ENTRANT",
        help="four entrants, one per seat (two-player: two): a strategy name, 'name(knob=value,...)' "
        "or module:Class, e.g. greedy 'defensive(fold_shanten=3)' random random",
    )
    p.add_argument("--walls", type=int, required=True, metavar="N", help="walls (deals per rotation)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the walls (default 0)")
    add_rules_option(p)
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument(
        "--baseline",
        metavar="ENTRANT",
        help="also play the tournament with ENTRANT in the first entrant's place, on the same walls "
        "against the same others, and print the paired difference of the two, e.g. "
        "--baseline expert for 'expert(win_value=20)' greedy greedy greedy",
    )
    p.add_argument("--json", action="store_true", help="print the table and the pairs as JSON records")
    p.set_defaults(func=_cmd_tournament)
