"""``daqing-sim advise``: the hand advisor on the command line.

Examples
--------
>>> from daqing_sim.cli import main
>>> main(["advise", "134m456p789s中中 [345m]", "--k", "1", "--json"])  # doctest: +ELLIPSIS
[{"action": "discard", "discard": "4m", ...
0
"""

from __future__ import annotations

import json

from daqing_sim.rules import RuleSet


def _seats(text: str | None) -> tuple[int, ...]:
    if not text:
        return ()
    parts = [p for p in text.replace(",", " ").split() if p]
    if not all(p.isdigit() and len(p) == 1 for p in parts):
        raise ValueError(f"--ready {text!r}: give seat numbers 0-3 separated by commas, e.g. --ready 1,3")
    return tuple(int(p) for p in parts)


def _table(df) -> str:
    shown = df.copy()
    shown["recommended"] = shown["recommended"].map({True: "<- best", False: ""})
    prob = [c for c in shown.columns if c.startswith("p_")]
    for c in prob:
        shown[c] = shown[c].map(lambda v: f"{100 * v:5.1f}%")
    shown["ev"] = shown["ev"].map(lambda v: f"{v:.2f}")
    a = df.attrs
    exact = "exact to the wall's end" if a["exact_to_wall_end"] else f"ready within {a['k']} own draws"
    head = (
        f"hand {a['hand']}: {a['unseen']} unseen tiles, {a['wall_left']} in the wall; "
        f"exact single-player model, wins counted when {exact}; ev in 2^N points"
    )
    return head + "\n" + shown.to_string(index=False)


def _cli_advise(args) -> int:
    from daqing_sim.advisor.api import advise

    rules = RuleSet.from_flag_strings(args.rules)
    df = advise(
        " ".join(args.tiles),
        seen=args.seen,
        wall_left=args.left,
        draws_left=args.draws,
        ready=_seats(args.ready),
        dealer=args.dealer,
        seat=args.seat,
        claim=args.claim,
        claim_from=args.claim_from,
        k=args.k,
        rules=rules,
    )
    if args.json:
        print(json.dumps(df.to_dict(orient="records"), ensure_ascii=False))
    else:
        print(_table(df))
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "advise",
        help="which tile to discard (or whether to claim): ready and win odds, expected 2^N value",
        description="Rate every discard of a 14-tile hand, or pass/chi/peng/kong on a discarded tile "
        "for a 13-tile hand (--claim), by an exact single-player search over the seat's own draws "
        "(see help(daqing_sim.advise) for the model).",
    )
    p.add_argument("tiles", nargs="+", help="hand notation (quote it, or pass it in parts)")
    p.add_argument("--seen", help="tiles seen on the table: discards and others' melds, e.g. '19m中 [345p]'")
    p.add_argument("--left", type=int, help="tiles left in the live wall (default 58 - tiles seen)")
    p.add_argument("--draws", type=int, help="own draws to come (overrides --left)")
    p.add_argument("--ready", help="opponent seats that are ready, e.g. 1,3")
    p.add_argument("--claim", help="for a 13-tile hand: the tile just discarded, to chi/peng/kong or pass")
    p.add_argument("--claim-from", type=int, help="seat that discarded --claim (default: the previous seat)")
    p.add_argument("--seat", type=int, default=0, help="the advised seat (default 0)")
    p.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    p.add_argument("--k", type=int, default=3, help="own draws searched, 1-4 (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON records for machines")
    p.add_argument(
        "--rules", nargs="*", metavar="FLAG=VALUE", help="rule flag overrides, e.g. jia_includes_edge=true"
    )
    p.set_defaults(func=_cli_advise)
