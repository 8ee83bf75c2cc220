"""A review in the replay viewer: ``ds.replay_html(..., review=K)`` and
``daqing-sim replay --html FILE --review K`` (and the page ``daqing-sim play --html`` writes).

Each reviewed decision of seat K is marked on the move before it (the position the seat decided
in): the move made and the best, drawn as tiles, with the loss and its interval; a strip of marks
under the controls (one per decision, coloured by its loss) and the biggest mistakes in the side
panel, each a link to its move. The page only draws what is computed here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from daqing_sim.reviews.core import Review, review
from daqing_sim.reviews.text import UNITS, summary_lines
from daqing_sim.rules import RuleSet


def decision_moves(decisions: Any, states: Sequence[Mapping[str, Any]]) -> list[int]:
    """The viewer's move (index into ``states``) of each decision: the state just before the
    state holding the log row of the move made (the position the seat decided in)."""
    steps = [int(s["step"]) for s in states]
    out = []
    for step in decisions["step"]:
        at = next((i for i, s in enumerate(steps) if s >= int(step)), len(steps) - 1)
        out.append(max(at - 1, 0))
    return out


def review_payload(r: Review, states: Sequence[Mapping[str, Any]], top: int = 3) -> dict[str, Any]:
    """What the viewer draws of a review: per decision its move, words, tiles and loss; the
    biggest mistakes (decision numbers) and the summary lines."""
    moves = decision_moves(r.decisions, states)
    marks = []
    for move, (_, d) in zip(moves, r.decisions.iterrows(), strict=True):
        marks.append({
            "decision": int(d["decision"]), "move": move, "kind": d["kind"], "chosen": d["chosen"],
            "best": d["best"], "chosen_tiles": list(d["chosen_tiles"]), "best_tiles": list(d["best_tiles"]),
            "loss": round(float(d["loss"]), 3), "lo": round(float(d["loss_lo"]), 3),
            "hi": round(float(d["loss_hi"]), 3), "bad": bool(d["loss"] > r.threshold),
        })  # fmt: skip
    mistakes = r.summary()["mistakes"].head(top)
    return {
        "seat": r.seat,
        "unit": UNITS.get(r.family, "points"),
        "marks": marks,
        "mistakes": [int(k) for k in mistakes["decision"]],
        "summary": summary_lines(r, 0)[:2],
    }


def replay_html(
    seed: int,
    deal: int,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] | None = None,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
    path: str | os.PathLike | None = None,
    review: int | None = None,
    n_worlds: int = 256,
    field: str = "expert",
) -> str:
    """Deal ``deal`` of ``seed`` as one self-contained HTML replay viewer, with seat ``review``'s
    decisions reviewed when it is given.

    The page of :func:`daqing_sim.game.replay_html.replay_html` (see there); with ``review=K``
    each decision of seat K is marked on its move (the move made and the best drawn as tiles,
    the loss and its interval: :func:`daqing_sim.reviews.core.review` with ``n_worlds`` and
    ``field``), and the side panel lists the biggest mistakes, each a link to its move.

    Parameters
    ----------
    seed, deal, rules, strategies, dealer, knobs, path
        As for :func:`daqing_sim.game.replay_html.replay_html`.
    review : int, optional
        The seat whose decisions are reviewed.
    n_worlds, field
        As for :func:`daqing_sim.reviews.core.review`.

    Returns
    -------
    str
        The HTML document.

    Examples
    --------
    >>> import daqing_sim as ds
    >>> page = ds.replay_html(0, 3, strategies=("random",) * 4, review=1, n_worlds=4)
    >>> 'id="review"' in page, "http://" in page or "https://" in page
    (True, False)
    """
    from daqing_sim.game.replay_html import replay_payload, write_page

    payload = replay_payload(seed, deal, rules, strategies, dealer, knobs)
    if review is not None:
        payload = with_review(
            payload, _review_log(payload, seed, deal, rules, dealer, review, n_worlds, field)
        )
    return write_page(payload, path)


def _review_log(payload: dict, seed: int, deal: int, rules: RuleSet, dealer: int, seat: int,
                n_worlds: int, field: str) -> Review:  # fmt: skip
    return review(
        seed, deal, seat, rules=rules, dealer=dealer, log=payload["log"], n_worlds=n_worlds, field=field
    )


def with_review(payload: dict[str, Any], r: Review) -> dict[str, Any]:
    """``payload`` (:func:`daqing_sim.game.replay_html.replay_payload`) with the review ``r`` drawn."""
    out = dict(payload)
    out["review"] = review_payload(r, payload["states"])
    out["subtitle"] = out.get("subtitle", "") + f"; seat {r.seat}'s decisions reviewed"
    return out


__all__ = ["replay_html", "review_payload", "with_review", "decision_moves"]
