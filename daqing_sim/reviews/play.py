"""The review at the end of ``daqing-sim play``: the person's decisions valued
(:func:`daqing_sim.reviews.core.review` on the deal's own log) for the terminal and the replay page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from daqing_sim.reviews.core import review
from daqing_sim.reviews.viewer import with_review


def review_played(
    game: Any, n_worlds: int = 256, field: str = "expert"
) -> tuple[list[str], Callable[[dict], dict] | None]:
    """The review of the person's seat in ``game`` (a :class:`~daqing_sim.game.play.PlayedGame`):
    its lines, and the function adding it to the replay page (every family); a review the
    evaluator refuses (e.g. a rollout field it cannot seat) gets one line saying so (and no marks
    on the page).

    Examples
    --------
    >>> import io
    >>> from daqing_sim.game.play import play_terminal
    >>> game = play_terminal(1, 0, stdin=io.StringIO("\\n" * 400), stdout=io.StringIO())
    >>> lines, extend = review_played(game, n_worlds=4)
    >>> lines[0].startswith("review of seat 0:"), extend is not None
    (True, True)
    """
    env = game.env
    try:
        r = review(env.seed, env.deal, game.seat, rules=env.rules, dealer=env.dealer, log=game.log_frame(),
                   n_worlds=n_worlds, field=field)  # fmt: skip
    except ValueError as e:
        return [f"no review of your decisions: {e}"], None
    return r.lines(), lambda payload: with_review(payload, r)


__all__ = ["review_played"]
