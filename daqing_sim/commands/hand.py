"""``daqing-sim hand``: shanten, ready, waits and the win of one hand
(:func:`daqing_sim.hand.evaluator.analyze_hand`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from daqing_sim.commands.options import add_rules_option, rules_from_args


def _tile(name: str | None, option: str, family: str = "daqing") -> int | None:
    from daqing_sim.hand.tiles import check_family_tile, tile_from_name

    if name is None:
        return None
    try:
        t = tile_from_name(name)
    except ValueError:
        raise ValueError(f"{option} {name[:20]!r} is not a tile: write e.g. 2m, 9p, 7s or 中 (C)") from None
    try:
        check_family_tile(t, family)
    except ValueError as e:
        raise ValueError(f"{option}: {e}") from None
    return t


def _cmd_hand(args: argparse.Namespace) -> int:
    from daqing_sim.hand.evaluator import analyze_hand
    from daqing_sim.hand.notation import parse_hand
    from daqing_sim.hand.tiles import tile_name

    rules = rules_from_args(args)
    hand = parse_hand(" ".join(args.tiles), family=rules.family)
    win_tile = _tile(args.win_tile, "--win-tile", rules.family)
    bao = _tile(args.bao, "--bao", rules.family)
    for option, value in (("--win-tile", args.win_tile), ("--bao", args.bao)):
        if hand.size == 13 and value is not None:
            raise ValueError(
                f"{option} is for a 14-tile hand, and {hand} has 13: write the drawn tile last, "
                f'e.g. daqing-sim hand "{hand} {value}"'
            )
    if hand.size == 14 and win_tile is not None and hand.counts[win_tile] == 0:
        raise ValueError(
            f"--win-tile {tile_name(win_tile)} is not one of the concealed tiles of {hand}; "
            "give one of them, or write the winning tile last and leave --win-tile out"
        )
    result = analyze_hand(hand, rules, win_tile=win_tile, bao=bao)
    out = result.to_dict()
    text = str(result)
    if rules.family != "daqing" and result.is_win:
        scores = _scores(result, rules)
        out["scores"] = scores
        text += "".join(
            f"\n{how + ':':17} {s['fans']} = {s['total_fans']} fan(s), value {s['value']}"
            for how, s in scores.items()
        )
    print(json.dumps(out, ensure_ascii=False) if args.json else text)
    return 0


def _scores(result: Any, rules: Any) -> dict:
    """A 34-kind family's win scored on a discard and as a self-draw (no special context)."""
    from daqing_sim.families import family_module
    from daqing_sim.hand.notation import Hand

    score = family_module(rules.family, "score").score

    t = result.win.tile_kind
    counts = result.hand.counts.copy()
    counts[t] -= 1
    before = Hand(counts=counts, melds=result.hand.melds)
    scores = {}
    for how, self_draw in (("on a discard", False), ("self-drawn", True)):
        w = score(before, t, rules, self_draw=self_draw)
        scores[how] = {"fans": w.fans, "total_fans": w.total_fans, "value": w.value, "total": w.total}
    return scores


def register(subparsers: Any) -> None:
    """Add the ``hand`` sub-command."""
    p = subparsers.add_parser(
        "hand",
        help="analyse a hand: shanten, ready, waits, win",
        description="Analyse a 13- or 14-tile hand written in hand notation, "
        'e.g. daqing-sim hand "23m456p789s中中 [345m]".',
    )
    p.add_argument("tiles", nargs="+", help="hand notation (quote it, or pass it in parts)")
    p.add_argument("--json", action="store_true", help="print JSON for machines")
    p.add_argument("--win-tile", help="for a 14-tile hand: the winning tile (default: last written)")
    p.add_argument("--bao", help="for a 14-tile hand: the bao; a drawn bao wins as 摸宝 / 宝边 / 宝中宝")
    add_rules_option(p, "jia_includes_edge=true, or family=beijing (family=two_player) for their hands")
    p.set_defaults(func=_cmd_hand)
