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

from daqing_sim.cli import add_rules_option, rules_from_args


def _seats(text: str | None) -> tuple[int, ...]:
    if not text:
        return ()
    parts = [p for p in text.replace(",", " ").split() if p]
    if not all(p.isdigit() and len(p) == 1 for p in parts):
        raise ValueError(f"--ready {text!r}: give seat numbers 0-3 separated by commas, e.g. --ready 1,3")
    return tuple(int(p) for p in parts)


def _table(df) -> str:
    a = df.attrs
    shown = df.copy()
    shown["recommended"] = shown["recommended"].map({True: "<- best", False: ""})
    values = [c for c in shown.columns if c.startswith("p_") or c.startswith("ev")]
    values = [c for c in values if not c.endswith(("_lo", "_hi"))]
    for c in values:
        fmt = "{:.2f}" if c.startswith("ev") else "{:.1%}"
        if f"{c}_lo" in shown.columns:  # simulated: the value and its interval in one cell
            lo, hi = shown.pop(f"{c}_lo"), shown.pop(f"{c}_hi")
            shown[c] = [
                f"{fmt.format(v)} [{fmt.format(x)}, {fmt.format(y)}]"
                for v, x, y in zip(shown[c], lo, hi, strict=True)
            ]
        else:
            shown[c] = shown[c].map(fmt.format)
    for c in [c for c in shown.columns if c.startswith("danger")]:
        shown[c] = shown[c].map("{:.1%}".format)
    shown = shown.drop(columns=["out_tiles"])
    ready = f"ready seats {', '.join(map(str, a['ready']))}" if a["ready"] else "nobody ready"
    if a["method"] == "simulate":
        model = (
            f"simulated: {a['n_sims']} deals played out by {', '.join(a['field'])} (seed {a['seed']}), "
            f"{a['confidence']:.0%} intervals"
        )
    else:
        exact = "exact to the wall's end" if a["exact_to_wall_end"] else f"ready within {a['k']} own draws"
        model = f"exact single-player model, wins counted when {exact}"
    head = (
        f"hand {a['hand']}: {a['unseen']} unseen tiles, {a['wall_left']} in the wall, {ready}; "
        f"{model}; ev in 2^N points, danger = P(deal in) by the expert's estimate"
    )
    return head + "\n" + shown.to_string(index=False)


def _ponds(values: list[str] | None, name: str) -> dict[int, str] | None:
    """``--ponds 1:19m中 2:5s`` -> ``{1: "19m中", 2: "5s"}``."""
    if not values:
        return None
    out = {}
    for v in values:
        seat, sep, tiles = v.partition(":")
        if not sep or not (seat.isdigit() and len(seat) == 1):
            raise ValueError(f"--{name} {v!r}: write SEAT:TILES, e.g. --{name} 1:19m中")
        out[int(seat)] = tiles
    return out


def _cli_advise(args) -> int:
    from daqing_sim.advisor.api import advise

    rules = rules_from_args(args)
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
        ponds=_ponds(args.ponds, "ponds"),
        melds=_ponds(args.melds, "melds"),
        passed=_ponds(args.passed, "passed"),
        method=args.method,
        n_sims=args.sims,
        seed=args.seed,
        n_jobs=args.jobs,
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
        "for a 13-tile hand (--claim), by an exact single-player search over the seat's own draws, or "
        "(--method simulate) by playing the deal out many times with the expert field "
        "(see help(daqing_sim.advise) for both models).",
    )
    p.add_argument("tiles", nargs="+", help="hand notation (quote it, or pass it in parts)")
    p.add_argument(
        "--seen",
        help="tiles seen on the table (discards, others' melds) besides those in --ponds and --melds, "
        "e.g. '19m中 [345p]'; a tile is listed once, in one of them",
    )
    p.add_argument("--left", type=int, help="tiles left in the live wall (default 58 - tiles seen)")
    p.add_argument("--draws", type=int, help="own draws to come (overrides --left)")
    p.add_argument("--ready", help="opponent seats that are ready, e.g. 1,3")
    p.add_argument("--claim", help="for a 13-tile hand: the tile just discarded, to chi/peng/kong or pass")
    p.add_argument("--claim-from", type=int, help="seat that discarded --claim (default: the previous seat)")
    p.add_argument("--seat", type=int, default=0, help="the advised seat (default 0)")
    p.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    p.add_argument("--k", type=int, default=3, help="own draws searched, 1-4 (default 3)")
    p.add_argument("--ponds", nargs="*", metavar="SEAT:TILES", help="seats' discards in order, e.g. 1:19m中")
    p.add_argument("--melds", nargs="*", metavar="SEAT:MELDS", help="others' exposed melds, e.g. 1:[345p]")
    p.add_argument(
        "--passed", nargs="*", metavar="SEAT:TILES", help="kinds a ready seat let pass (safe), e.g. 1:9m5s"
    )
    p.add_argument(
        "--method", choices=("exact", "simulate"), default="exact", help="the model (default exact)"
    )
    p.add_argument("--sims", type=int, default=2000, help="simulated deals (--method simulate, default 2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the simulated deals (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes of the simulation (default 1)")
    p.add_argument("--json", action="store_true", help="print JSON records for machines")
    add_rules_option(p, "jia_includes_edge=true")
    p.set_defaults(func=_cli_advise)
