"""The toy test family's spec: two seats, Daqing's 112 tiles without a bao, two flags."""

from __future__ import annotations

from typing import Any

from daqing_sim.families.spec import FamilySpec, Fan, Flag, Labels

FLAGS = (
    Flag("toy_cap", 8, "1-16", "the most fans of a win"),
    Flag("toy_chi", False, "true or false", "a sequence may be claimed from the other seat"),
)


def check(rules: Any) -> None:
    """The one-line error for a cap out of its range."""
    if not 1 <= rules.toy_cap <= 16:
        raise ValueError(f"toy_cap={rules.toy_cap} must be 1 to 16 fans (toy: 8)")


SPEC = FamilySpec(
    name="toy",
    title="toy",
    rules_page="tests/toy_family/spec.py",
    seats=2,
    kinds=28,
    wall=112,
    flags=FLAGS,
    fans=(Fan("plain", "平和", "plain win", 1), Fan("one_suit", "清一色", "one suit", 4)),
    columns=("deal", "outcome", "winner", "fan_total", "value", "pay_<seat>", "strategy_<seat>"),
    players=("greedy", "random"),
    default_field=("random", "random"),
    headline=(("outcome_self_draw",),),
    check=check,
    hand_kernels=(("daqing_sim.hand.kernels", "std_shanten_k", 1),),
    state_type="ToyDealState",
    labels=Labels(
        rules_note=" (toy rules)",
        wall_line="wall: {wall_left} tiles to draw, cap {toy_cap} fans",
        exhaustive_draw="{wall_left} left: the toy wall is spent, nobody pays",
        viewer_wall='<h3>toy wall</h3><div><span id="wall-left"></span> left</div>',
        viewer_boxes=(("toy box 清一色", '<div id="toy">no bao</div>'),),
        seat_badge='<span class="badge toy" hidden></span>',
    ),
)
