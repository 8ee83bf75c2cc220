"""``daqing-sim advise``: the hand advisor (:func:`daqing_sim.advisor.api.advise`) on the command line.

Examples
--------
>>> from daqing_sim.cli import main
>>> main(["advise", "134m456p789s中中 [345m]", "--k", "1", "--json"])  # doctest: +ELLIPSIS
[{"action": "discard", "discard": "4m", ...
0
"""

from __future__ import annotations

import json
import re
import textwrap
import unicodedata

from daqing_sim.commands.options import add_rules_option, rules_from_args


def _seats(text: str | None) -> tuple[int, ...]:
    if not text:
        return ()
    parts = [p for p in text.replace(",", " ").split() if p]
    if not all(p.isdigit() and len(p) == 1 for p in parts):
        raise ValueError(f"--ready {text!r}: give seat numbers 0-3 separated by commas, e.g. --ready 1,3")
    return tuple(int(p) for p in parts)


WIDTH = 100  # the text table's width unless --wide


def _columns(text: str) -> int:
    """Terminal columns of ``text`` (East Asian wide characters such as 中 take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _cut(text: str, room: int) -> str:
    """``text`` cut to ``room`` terminal columns, with an ellipsis when cut."""
    if _columns(text) <= room:
        return text
    while _columns(text) > room - 1:
        text = text[:-1]
    return text.rstrip() + "…"


def _table(df, wide: bool = False, width: int = WIDTH) -> str:
    """The advice as text: a head (the model), the table, a footnote.

    By default it fits ``width`` columns (with ``k`` up to 3): a simulated value shows its
    interval as ``±`` half its width (``p_ready_i`` and ``ev`` none), the per-seat danger columns go, a
    constant ``draws`` and an all-``discard`` ``action`` move to the head (and ``best`` too when
    room is short: rows are best first), and ``out_tiles`` is cut to the room left. ``wide`` shows every
    column in full.
    """
    a = df.attrs
    shown = df.copy()
    shown = shown.drop(
        columns=[c for c in shown.columns if c.startswith("p_ready") and shown[c].isna().all()]
    )
    best = shown.pop("recommended").map({True: "<- best", False: ""})
    values = [c for c in shown.columns if c.startswith(("p_", "ev")) and not c.endswith(("_lo", "_hi"))]
    for c in values:
        fmt = "{:.2f}" if c.startswith("ev") else "{:.1%}"
        if f"{c}_lo" in shown.columns:  # simulated: the value and its interval in one cell
            lo, hi = shown.pop(f"{c}_lo"), shown.pop(f"{c}_hi")
            if wide:
                cells = [
                    f"{fmt.format(v)} [{fmt.format(x)}, {fmt.format(y)}]"
                    for v, x, y in zip(shown[c], lo, hi, strict=True)
                ]
            elif c.startswith("p_ready") or c == "ev":  # their intervals: --wide (ev_vs_best's is
                # the narrow one that ranks the rows)
                cells = [fmt.format(v) for v in shown[c]]
            else:
                scale = 1 if c.startswith("ev") else 100
                cells = [
                    f"{fmt.format(v)}±{scale * max(v - x, y - v):.1f}"
                    for v, x, y in zip(shown[c], lo, hi, strict=True)
                ]
            shown[c] = cells
        else:
            shown[c] = shown[c].map(fmt.format)
    for c in [c for c in shown.columns if c.startswith("danger")]:
        shown[c] = shown[c].map("{:.1%}".format)
    notes = []
    if not wide:
        shown = shown.drop(columns=[c for c in shown.columns if c.startswith("danger_s")])
        if shown["draws"].nunique() == 1:
            notes.append(f"{shown.pop('draws').iloc[0]} own draws to come")
        if (shown["action"] == "discard").all():
            shown = shown.drop(columns="action")
    tiles = shown.pop("out_tiles")
    shown["best"] = best
    shown["out_tiles"] = tiles
    if not wide:  # out_tiles gets the room the other columns leave (中 is two columns wide)

        def room() -> int:
            others = shown.drop(columns="out_tiles").to_string(index=False).splitlines()
            return width - max(_columns(line) for line in others) - 1

        if room() < 12:  # too little for out_tiles: the rows are best first anyway
            shown = shown.drop(columns="best")
            notes.append("best first")
        tiles = [_cut(t, max(room(), len("out_tiles"))) for t in tiles]
    longest = max([len("out_tiles"), *(len(t) for t in tiles)])
    shown["out_tiles"] = [t.ljust(longest) for t in tiles]
    shown = shown.rename(columns={"out_tiles": "out_tiles".ljust(longest)})  # left-aligned
    text = "\n".join(line.rstrip() for line in shown.to_string(index=False).splitlines())
    ready = f"ready seats {', '.join(map(str, a['ready']))}" if a["ready"] else "nobody ready"
    if a["method"] == "simulate":
        model = (
            f"simulated: {a['n_sims']} deals played out by {', '.join(a['field'])} (seed {a['seed']}), "
            f"{a['confidence']:.0%} intervals"
            + ("" if wide else " (± half their width; of p_ready and ev: --wide)")
        )
        ready_note = (
            "p_ready_i: declared ready (open door needed) within i own draws as the field plays; the "
            "exact model counts a ready shape (no open door needed) under the best play for each "
            "column, so its p_ready_1 is higher"
        )
    else:
        exact = "exact to the wall's end" if a["exact_to_wall_end"] else f"ready within {a['k']} own draws"
        model = f"exact single-player model, wins counted when {exact}"
        ready_note = (
            "p_ready_i: a ready shape (open door not needed) within i own draws, the best play for "
            "each column; --method simulate counts declarations (open door needed) as the expert "
            "field plays, so its p_ready_1 is lower"
        )
    family = a.get("family", "daqing")
    if family != "daqing":
        ready = {"beijing": "nobody declares", "two_player": "the opponent declared 报听" if a["ready"] else
                 "nobody declared"}[family]  # fmt: skip
    if family != "daqing" and a["method"] == "simulate":
        ready_note = (
            "p_ready_i: not measured by the simulation (the search evaluator returns payments only); "
            "p_win: the seat won the deal"
        )
    elif family != "daqing":
        ready_note = (
            "p_ready_i: a ready hand (non-empty wait set) within i own draws, the best play for each column"
            + (
                "; declare: the discard with 报听 (门清报听, one fan; the hand is locked)"
                if family == "two_player"
                else ""
            )
        )
    units = {"daqing": "2^N points", "beijing": "points (base x F, half when open; a self-draw x 3)",
             "two_player": "F x multiplier x points per fan"}[family]  # fmt: skip
    head = (
        f"hand {a['hand']}: {a['unseen']} unseen tiles, {a['wall_left']} in the wall, {ready}"
        + "".join(f", {n}" for n in notes)
        + f"; {model}; ev in {units}, danger = P(deal in) by the expert's estimate"
        + ("" if wide or not a["ready"] else " (per seat: --wide)")
    )
    foot = "out_tiles: the live copies of each kind that lowers the shanten. " + ready_note
    if wide:
        return "\n".join([head, text, foot])
    return "\n".join([*textwrap.wrap(head, width), text, *textwrap.wrap(foot, width)])


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


# ds.advise's parameters -> the options that set them
_OPTIONS = {
    "wall_left": "--left",
    "draws_left": "--draws",
    "n_sims": "--sims",
    "n_jobs": "--jobs",
    "claim_from": "--claim-from",
    "claim": "--claim",
    "seen": "--seen",
    "ponds": "--ponds",
    "melds": "--melds",
    "passed": "--passed",
    "ready": "--ready",
    "method": "--method",
    "seed": "--seed",
    "seat": "--seat",
    "dealer": "--dealer",
    "k": "--k",
    "flowers": "--flowers",
}
_NAMES = "|".join(_OPTIONS)


def cli_words(message: str) -> str:
    """An error of :func:`daqing_sim.advise` in the words of the command line.

    >>> cli_words("wall_left=99 is impossible; melds[1] holds loose tiles; use melds=")
    '--left 99 is impossible; --melds for seat 1 holds loose tiles; use --melds'
    >>> cli_words("passed lists seat 2, which is not ready")
    '--passed lists seat 2, which is not ready'
    """
    message = re.sub(
        r"\b(ponds|melds|passed)\[(\d)\]", lambda m: f"{_OPTIONS[m[1]]} for seat {m[2]}", message
    )
    message = re.sub(rf"\b({_NAMES})=(?=[^\s=])", lambda m: f"{_OPTIONS[m[1]]} ", message)
    message = re.sub(rf"\b({_NAMES})=", lambda m: _OPTIONS[m[1]], message)
    # parameters named as the subject of the message
    message = re.sub(
        r"(?:^|(?<=: ))(seen|ponds|melds|passed|ready)\b(?= and | both | lists | has | must | is )",
        lambda m: _OPTIONS[m[1]],
        message,
    )
    return re.sub(r"(?<=--seen and )ponds and melds|(?<=--seen and )(?:ponds|melds)", _both, message)


def _both(m: re.Match) -> str:
    return " and ".join(_OPTIONS[w] for w in m[0].split(" and "))


def _cli_advise(args) -> int:
    try:
        return _advise(args)
    except ValueError as e:
        raise ValueError(cli_words(str(e))) from None


def _advise(args) -> int:
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
        **({"flowers": args.flowers} if args.flowers else {}),
    )
    if args.json:
        print(json.dumps(df.to_dict(orient="records"), ensure_ascii=False))
    else:
        print(_table(df, wide=args.wide))
    return 0


def register(subparsers) -> None:
    """Add the ``advise`` sub-command."""
    p = subparsers.add_parser(
        "advise",
        help="which tile to discard (or whether to claim): ready and win odds, expected value",
        description="Rate every discard of a 14-tile hand, or pass/chi/peng/kong on a discarded tile "
        "for a 13-tile hand (--claim), by an exact single-player search over the seat's own draws, or "
        "(--method simulate) by playing the deal out many times with the expert field "
        "(see help(daqing_sim.advise) for both models). Beijing and two-player hands: --rules family=beijing "
        "or family=two_player.",
    )
    p.add_argument("tiles", nargs="+", help="hand notation (quote it, or pass it in parts)")
    p.add_argument(
        "--seen",
        help="tiles seen on the table (discards, others' melds), e.g. '19m中 [345p]'; the tiles of "
        "--ponds and --melds count whether listed here too or not (a kind counts as often as here, "
        "or there, whichever is more)",
    )
    p.add_argument("--left", type=int, help="tiles left in the live wall (default 58 - tiles seen)")
    p.add_argument("--draws", type=int, help="own draws to come (overrides --left)")
    p.add_argument("--ready", help="opponent seats that are ready, e.g. 1,3")
    p.add_argument("--claim", help="for a 13-tile hand: the tile just discarded, to chi/peng/kong or pass")
    p.add_argument("--claim-from", type=int, help="seat that discarded --claim (default: the previous seat)")
    p.add_argument(
        "--flowers", help="two-player: the face-up flower tile(s), e.g. 5p (each tile of that kind is a fan)"
    )
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
    p.add_argument(
        "--wide",
        action="store_true",
        help=f"every column in full (the table fits {WIDTH} columns by default)",
    )
    add_rules_option(p, "jia_includes_edge=true")
    p.set_defaults(func=_cli_advise)
