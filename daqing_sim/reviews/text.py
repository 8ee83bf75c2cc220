"""A review as text: the totals and the biggest mistakes, each with the move to play instead
(``daqing-sim review``, the end of ``daqing-sim play``)."""

from __future__ import annotations

from typing import Any

UNITS = {"daqing": "units", "beijing": "points", "two_player": "points"}


def _pm(x: float, lo: float, hi: float) -> str:
    return f"{x:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def summary_lines(review: Any, top: int = 3) -> list[str]:
    """The review's summary (:meth:`~daqing_sim.reviews.core.Review.summary`) in a player's words."""
    s = review.summary()
    unit = UNITS.get(review.family, "points")
    pct = round(100 * review.confidence)
    if s["decisions"] == 0:
        return [f"review of seat {review.seat}: no decision with a choice to review"]
    lines = [
        f"review of seat {review.seat}: {s['decisions']} decisions with a choice, each option played to "
        f"the deal's end in {review.n_worlds} worlds by {review.field} players (a better move must "
        f"gain clearly on half the worlds; values on the other half; {pct}% intervals)",
        f"value lost in all: {_pm(s['total_loss'], s['total_lo'], s['total_hi'])} {unit} "
        f"({s['mean_loss']:.2f} per decision); bad moves (losing more than {s['threshold']:g} {unit}): "
        f"{s['bad']} of {s['decisions']} ({100 * s['bad_share']:.0f}%)",
    ]
    mistakes = s["mistakes"].head(top)
    if mistakes.empty:
        lines.append("no mistakes: at every decision the move made was the best found")
        return lines
    lines.append(f"the {len(mistakes)} biggest mistakes:")
    for _, m in mistakes.iterrows():
        lines.append(
            f"  decision {m['decision']} ({m['kind']}, {m['wall_left']} tiles left; hand {m['hand']}): "
            f"played {m['chosen']}, better {m['best']}: "
            f"loses {_pm(m['loss'], m['loss_lo'], m['loss_hi'])} {unit}"
        )
    return lines


def decision_lines(review: Any) -> list[str]:
    """Every decision reviewed, one line each: the position, the move made and the best with
    their values, and the loss."""
    unit = UNITS.get(review.family, "points")
    lines = [f"seat {review.seat}'s decisions (values: the seat's mean payment to the deal's end, {unit}):"]
    for _, d in review.decisions.iterrows():
        best = "the same" if d["chosen"] == d["best"] else f"{d['best']} ({d['best_value']:+.2f})"
        lines.append(
            f"  {d['decision']:>2} {d['kind']:<7} {d['wall_left']:>2} left  {d['hand']}: "
            f"played {d['chosen']} ({d['chosen_value']:+.2f}), best {best}, "
            f"loss {_pm(d['loss'], d['loss_lo'], d['loss_hi'])}"
        )
    return lines


__all__ = ["summary_lines", "decision_lines", "UNITS"]
