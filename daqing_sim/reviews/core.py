"""``ds.review``: every decision one seat made in one deal, valued by simulation.

The deal is replayed move by move from its event log (:func:`daqing_sim.deal_log`, or the JSON
lines ``daqing-sim replay --json`` and ``daqing-sim play --log`` write) on the stepped engine,
every seat answered from the log. At each decision of the reviewed seat with two or more legal
options, the search's decision evaluator (:class:`~daqing_sim.search.evaluator.Evaluator`) plays
every option to the deal's end in ``n_worlds`` worlds drawn from what that seat sees (the hidden
tiles dealt again; never the real ones), the rollout ``field`` playing every seat after the
decision, all options on the same worlds.

The winner's curse: picking the best option and measuring its margin on the same worlds would
bias every loss upwards (the largest of several noisy means is too large). So the best option
is picked on the first half of the worlds and every value and loss is measured on the other
half: the loss (best minus chosen, per world, a paired t interval) is then unbiased for the gap
to the option picked, and, that option being no better than the true best, never biased
upwards. An option replaces the move made as the best only when its paired gain on the picking
half is clear (:data:`MIN_T` standard errors above 0): else the best is the move made and the
loss exactly 0 (picking on noise would make most losses of good moves negative). A point
estimate can still fall below 0 (the option picked did worse on the other half): within
noise, no loss.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.codes import DECISION_CLAIM, DECISION_DISCARD, DECISIONS, FAMILY_SEATS, MELD_KINDS, PASS
from daqing_sim.game.engine import C_DECISION, C_N_LOG
from daqing_sim.game.env import DealEnv
from daqing_sim.game.play import option_text
from daqing_sim.hand.notation import format_hand, hand_from_arrays
from daqing_sim.players.interface import Claim, Discard, Kong
from daqing_sim.render.states import ACTION_BITS
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int

#: the default bad-move threshold: a decision losing more than this (the family's payment
#: units: Daqing 2^N units, Beijing and two-player points) counts as a bad move; about a tenth
#: of what a small win takes from each loser (Daqing 1 unit and more, Beijing 500 points a fan,
#: two-player a few fans: half a fan, times the room's multiplier and points per fan)
THRESHOLDS = {"daqing": 0.5, "beijing": 200.0, "two_player": 0.5}
#: the columns of a deal log a review reads
LOG_COLUMNS = ("event", "seat", "tile", "action")
#: the picking half's paired t statistic an option needs to count as better than the move made
MIN_T = 2.0
_EVALUATORS: dict[Any, Any] = {}


@dataclass(frozen=True)
class Review:
    """One seat's decisions in one deal, valued (see :func:`review`).

    Attributes
    ----------
    decisions : pandas.DataFrame
        One row per decision with two or more options: ``decision`` (its number), ``kind``
        (discard, claim, kong), ``step`` (the deal log's row of the move made), ``wall_left``,
        ``hand`` (the seat's hand in notation, with the tile drawn or offered), ``n_options``,
        ``chosen``, ``best`` (as ``daqing-sim play`` words them), their ``*_value`` (the seat's
        mean payment to the deal's end) with ``*_lo``, ``*_hi`` (t interval), ``loss`` (best
        minus chosen, per world) with ``loss_lo``, ``loss_hi`` (paired t interval) and
        ``loss_se``; ``chosen_tiles`` and ``best_tiles`` (the move as tiles: the discard, the
        meld claimed, the kong; empty for pass).
    options : pandas.DataFrame
        One row per option weighed: ``decision``, ``option``, ``value``, ``lo``, ``hi``,
        ``chosen``, ``best``.
    seat, family, n_worlds, field, threshold, confidence
        What was reviewed and how.
    payment : int or None
        The seat's payment at the deal's end (None for a log that stops before it).
    """

    decisions: pd.DataFrame
    options: pd.DataFrame
    seat: int
    family: str
    n_worlds: int
    field: str
    threshold: float
    confidence: float
    payment: int | None

    def summary(self) -> dict[str, Any]:
        """The total loss with its interval (the decisions' worlds are independent: their
        variances add), the mean loss per decision, the three biggest mistakes (rows of
        :attr:`decisions`, loss above 0) and the share of decisions losing more than the
        threshold."""
        from scipy import stats

        d = self.decisions
        n = len(d)
        total = float(d["loss"].sum()) if n else 0.0
        half = (
            stats.norm.ppf(0.5 + self.confidence / 2) * float(np.sqrt((d["loss_se"] ** 2).sum()))
            if n
            else 0.0
        )
        bad = int((d["loss"] > self.threshold).sum()) if n else 0
        return {
            "decisions": n,
            "total_loss": total,
            "total_lo": total - half,
            "total_hi": total + half,
            "mean_loss": total / n if n else 0.0,
            "mistakes": d[d["loss"] > 0].nlargest(3, "loss"),
            "bad": bad,
            "bad_share": bad / n if n else 0.0,
            "threshold": self.threshold,
        }

    def lines(self, top: int = 3) -> list[str]:
        """The summary as text: the totals, the biggest mistakes with the move to play instead."""
        from daqing_sim.reviews.text import summary_lines

        return summary_lines(self, top)

    def table_lines(self) -> list[str]:
        """Every decision, one line each (``daqing-sim review --all``)."""
        from daqing_sim.reviews.text import decision_lines

        return decision_lines(self)


def review(
    seed: int,
    deal: int = 0,
    seat: int = 0,
    *,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] | None = None,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
    log: Any = None,
    n_worlds: int = 64,
    field: str = "expert",
    candidates: int | None = None,
    threshold: float | None = None,
    world_seed: int = 0,
    confidence: float = 0.95,
    min_t: float = MIN_T,
    progress: Callable[[int, str], None] | None = None,
) -> Review:
    """Review seat ``seat``'s decisions in deal ``deal`` of ``seed``.

    Parameters
    ----------
    seed, deal, rules, dealer
        Identify the deal, as in :func:`daqing_sim.simulate`.
    seat : int
        The seat reviewed.
    strategies, knobs
        The seats' players when the deal is played here (as :func:`daqing_sim.deal_log`;
        default the family's field). Not with ``log``.
    log : DataFrame, path or sequence of str, optional
        The deal as it was played: a :func:`daqing_sim.deal_log` frame, or the JSON lines
        ``daqing-sim replay --json`` / ``daqing-sim play --log`` write (a file's path, or the
        lines). A log that stops early (an interrupted game) is reviewed up to its end.
    n_worlds : int
        Worlds per decision (at least 4): half pick the best option, half measure.
    field : str
        The built-in player that plays every seat after the decision in the rollouts.
    candidates : int, optional
        Weigh only this many options, ranked as the ``search`` player ranks them (the expert's
        move first, then by shanten and outs), plus the move chosen; default every legal option.
    threshold : float, optional
        A decision losing more than this is a bad move (default :data:`THRESHOLDS`).
    world_seed : int
        Seed of the worlds (the same seed gives the same numbers).
    confidence : float
        Of every interval.
    min_t : float
        An option is better than the move made only when its paired gain on the picking half of
        the worlds is this many standard errors above 0 (:func:`split_loss`).
    progress : callable, optional
        ``progress(decision_number, kind)`` before each decision is valued.

    Returns
    -------
    Review

    Examples
    --------
    >>> import daqing_sim as ds
    >>> r = ds.review(1, 0, seat=0, n_worlds=4, candidates=2)
    >>> bool((r.decisions["loss_hi"] >= r.decisions["loss_lo"]).all()), r.family
    (True, 'daqing')
    """
    deal, seat = check_int(deal, "deal"), check_int(seat, "seat")
    n_worlds = check_int(n_worlds, "n_worlds")
    if n_worlds < 4:
        raise ValueError(f"n_worlds={n_worlds}: use at least 4 (half pick the best option, half measure)")
    if candidates is not None and check_int(candidates, "candidates") < 2:
        raise ValueError(f"candidates={candidates}: weigh at least 2 options, or None for all")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence={confidence}: give a level between 0 and 1, e.g. 0.95")
    n_seats = FAMILY_SEATS[rules.family] if isinstance(rules, RuleSet) else 4
    if not 0 <= seat < n_seats:
        raise ValueError(f"seat={seat} is not a seat of this deal: use 0-{n_seats - 1}")
    if log is not None and (strategies is not None or knobs is not None):
        raise ValueError("give strategies (the deal is played here) or log (as it was played), not both")
    evaluator = _evaluator(rules, field)
    if log is None:
        from daqing_sim.game.deal_log import deal_log

        frame = deal_log(seed, deal, rules=rules, strategies=strategies, dealer=dealer, knobs=knobs)
    else:
        frame = read_log(log)
    env = DealEnv(seed, deal, rules=rules, players=(None,) * n_seats, dealer=dealer)
    moves = _LogMoves(frame, seed, deal)
    rows, opts = [], []
    obs = env.reset()
    moves.check_opening(env)
    while obs is not None:
        kind = int(env._engine.ctl[C_DECISION])
        options = [*env.legal_actions(), *([None] if kind != DECISION_DISCARD else [])]
        found, chosen, step = moves.answer(env.agent_selection, kind, options)
        if not found:
            break
        if env.agent_selection == seat and len(options) > 1:
            if progress is not None:
                progress(len(rows), DECISIONS[kind])
            ss = np.random.SeedSequence([int(world_seed), int(seed), deal, seat, len(rows)])
            row, orows = _value_decision(env, obs, kind, options, chosen, step, evaluator, candidates,
                                         n_worlds, ss, (confidence, min_t), len(rows))  # fmt: skip
            rows.append(row)
            opts.extend(orows)
        obs = env.step(chosen)
    moves.check_replayed(env)
    family = rules.family
    return Review(
        decisions=pd.DataFrame(rows, columns=DECISION_COLUMNS),
        options=pd.DataFrame(opts, columns=["decision", "option", "value", "lo", "hi", "chosen", "best"]),
        seat=seat,
        family=family,
        n_worlds=n_worlds,
        field=field,
        threshold=default_threshold(rules) if threshold is None else float(threshold),
        confidence=confidence,
        payment=env.payments[seat] if env.done else None,
    )


DECISION_COLUMNS = [
    "decision", "kind", "step", "wall_left", "hand", "n_options", "chosen", "best",
    "chosen_value", "chosen_lo", "chosen_hi", "best_value", "best_lo", "best_hi",
    "loss", "loss_lo", "loss_hi", "loss_se", "chosen_tiles", "best_tiles",
]  # fmt: skip


def default_threshold(rules: RuleSet) -> float:
    """The family's bad-move threshold (:data:`THRESHOLDS`), a two-player one in the room's
    points (times ``multiplier`` and ``points_per_fan``).

    Examples
    --------
    >>> default_threshold(RuleSet(family="two_player", multiplier=5, points_per_fan=10))
    25.0
    """
    t = THRESHOLDS[rules.family]
    if rules.family == "two_player":
        t *= rules.multiplier * rules.points_per_fan
    return float(t)


def _evaluator(rules: RuleSet, field: str) -> Any:
    """The decision evaluator of these rules and rollout field (kept: its kernel is compiled once)."""
    from daqing_sim.search.evaluator import Evaluator

    if not isinstance(rules, RuleSet):
        raise ValueError(
            f"rules must be a RuleSet, not {type(rules).__name__}; e.g. RuleSet(family='beijing')"
        )
    if not isinstance(field, str):
        raise ValueError(f"field must be one built-in player's name, not {field!r}; e.g. 'expert'")
    enc = rules.encode()
    key = (enc.tobytes(), field, rules.family)
    if key not in _EVALUATORS:
        try:
            _EVALUATORS[key] = Evaluator(enc, field, rules.family)
        except ValueError as e:
            raise ValueError(f"review: {e}") from None
    return _EVALUATORS[key]


def _encode(option: Any, kind: int) -> tuple[int, bool]:
    """An option as the evaluator's ``(answer, declare)``."""
    if option is None:
        return (PASS, False) if kind == DECISION_CLAIM else (-1, False)
    if isinstance(option, Discard):
        return int(option.tile), bool(option.declare)
    if isinstance(option, Claim):
        return int(option.action), False
    return int(option.tile), False


def move_tiles(option: Any) -> list[int]:
    """The tiles a move puts on the table: the discard, the claimed meld, the kong (none for a pass)."""
    if option is None:
        return []
    if isinstance(option, Discard):
        return [int(option.tile)]
    if isinstance(option, Claim):
        return [int(t) for t in option.meld]
    return [int(option.tile)] * 4


def _weighed(env: DealEnv, kind: int, options: list[Any], chosen: Any, k: int | None) -> list[Any]:
    """The options weighed: all, or the ``search`` player's first ``k`` and the chosen one."""
    if k is None or k >= len(options):
        return options
    from daqing_sim.game.play import suggested_move
    from daqing_sim.search.player import rank_discards

    expert = suggested_move(env, "expert")
    if kind == DECISION_DISCARD:
        ranked = rank_discards(env._engine, tuple(o for o in options if o is not None), expert)
    else:
        ranked = [expert, *([None] if expert is not None else []), *(o for o in options if o is not None)]
    out: list[Any] = []
    for o in ranked:
        if o not in out:
            out.append(o)
    out = out[:k]
    return out if chosen in out else [*out, chosen]


def _position(obs: Any, kind: int) -> str:
    """The seat's hand in notation, with the tile drawn (a discard) or offered (a claim)."""
    melds = obs.melds[obs.seat]
    hand = obs.hand.copy()
    drawn = obs.drawn if kind == DECISION_DISCARD else None
    if drawn is not None:
        hand[drawn] -= 1
    text = format_hand(hand_from_arrays(hand, [MELD_KINDS.index(m.kind) for m in melds],
                                        [m.tile for m in melds], len(melds)))  # fmt: skip
    if drawn is not None:
        text += f" drew {option_text(Discard(drawn), 'discard', obs.family)}"
    if kind == DECISION_CLAIM:
        text += f" offered {option_text(Discard(obs.claim_tile), 'discard', obs.family)}"
    return text


def _value_decision(
    env: DealEnv, obs: Any, kind: int, options: list[Any], chosen: Any, step: int, evaluator: Any,
    candidates: int | None, n_worlds: int, ss: np.random.SeedSequence, how: tuple[float, float], number: int,
) -> tuple[list[Any], list[list[Any]]]:  # fmt: skip
    """One decision's row of :attr:`Review.decisions` and its rows of :attr:`Review.options`."""
    weighed = _weighed(env, kind, options, chosen, candidates)
    ev = evaluator.evaluate(env._engine, [_encode(o, kind) for o in weighed], n_worlds, ss)
    c = weighed.index(chosen)
    b, value, lo, hi, (loss, loss_lo, loss_hi, se) = split_loss(ev.pays, c, *how)
    decision = DECISIONS[kind]
    texts = [option_text(o, decision, env.rules.family) for o in weighed]
    row = [
        number, decision, step, int(obs.wall_left), _position(obs, kind), len(weighed), texts[c], texts[b],
        float(value[c]), float(lo[c]), float(hi[c]), float(value[b]), float(lo[b]), float(hi[b]),
        loss, loss_lo, loss_hi, se, move_tiles(chosen), move_tiles(weighed[b]),
    ]  # fmt: skip
    orows = [
        [number, texts[i], float(value[i]), float(lo[i]), float(hi[i]), i == c, i == b]
        for i in range(len(weighed))
    ]
    return row, orows


def split_loss(
    pays: np.ndarray, chosen: int, confidence: float = 0.95, min_t: float = MIN_T
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, tuple[float, float, float, float]]:
    """The best option picked on the first half of the worlds (rows of ``pays``, options in
    columns): of those whose paired gain over ``chosen`` there is at least ``min_t`` standard
    errors above 0, the highest mean, else ``chosen``; every option's value (mean, t interval)
    on the second half, and the loss there: best minus ``chosen`` per world, its mean, paired t
    interval and standard error. Picking and measuring on the same worlds would bias the loss
    upwards; picking on noise alone (``min_t=0``) would make most losses of good moves negative.

    Examples
    --------
    >>> pays = np.array([[0.0, 2.0], [0.0, 2.0], [0.0, 1.0], [0.0, 3.0]])
    >>> best, value, lo, hi, (loss, loss_lo, loss_hi, se) = split_loss(pays, 0)
    >>> best, float(loss)
    (1, 2.0)
    """
    from daqing_sim.search.evaluator import t_interval

    half = pays.shape[0] // 2
    pick, measure = pays[:half], pays[half:]
    gain = pick - pick[:, chosen : chosen + 1]
    se = gain.std(axis=0, ddof=1) / np.sqrt(half)
    clear = (gain.mean(axis=0) > 0) & (gain.mean(axis=0) >= min_t * se)
    clear[chosen] = True
    best = int(np.argmax(np.where(clear, pick.mean(axis=0), -np.inf)))
    if pick[:, best].mean() <= pick[:, chosen].mean():  # a tie keeps the move made
        best = chosen
    value, lo, hi = t_interval(measure, confidence)
    gap = measure[:, best] - measure[:, chosen]
    m, glo, ghi = t_interval(gap[:, None], confidence)
    se = float(gap.std(ddof=1) / np.sqrt(gap.size)) if gap.size > 1 else 0.0
    return best, value, lo, hi, (float(m[0]), float(glo[0]), float(ghi[0]), se)


def read_log(log: Any) -> pd.DataFrame:
    """A deal log from a :func:`daqing_sim.deal_log` frame, a JSON-lines file's path or its lines."""
    import io

    if isinstance(log, pd.DataFrame):
        df = log
    else:
        try:
            if isinstance(log, str | os.PathLike) and not str(log).lstrip().startswith("{"):
                if not os.path.isfile(log):
                    raise ValueError(
                        f"log file {str(log)!r} does not exist: give the file replay --json wrote"
                    )
                df = pd.read_json(log, lines=True)
            else:
                text = log if isinstance(log, str) else "\n".join(log)
                df = pd.read_json(io.StringIO(text), lines=True)
        except ValueError as e:
            if "does not exist" in str(e):
                raise
            raise ValueError(
                f"the log is not JSON lines ({str(e).splitlines()[0]}): "
                "write it with daqing-sim replay --json"
            ) from None
    missing = [c for c in LOG_COLUMNS if c not in df.columns]
    if missing or df.empty:
        what = f"has no column {', '.join(missing)}" if missing else "is empty"
        raise ValueError(f"the log {what}: give a deal log (ds.deal_log, or replay --json's lines)")
    return df


def _log_rows(df: pd.DataFrame) -> list[tuple[str, int, int, str]]:
    """(event, seat, tile, action) per row; action '' where there is none."""
    return [
        (str(e), int(s), int(t), a if isinstance(a, str) else "")
        for e, s, t, a in zip(df["event"], df["seat"], df["tile"], df["action"], strict=True)
    ]


class _LogMoves:
    """The moves of a deal log, handed out in order as the replayed deal asks for them."""

    def __init__(self, df: pd.DataFrame, seed: int, deal: int) -> None:
        self.rows = _log_rows(df)
        self.i = 0
        self.where = f"deal {deal} of seed {seed}"

    def mismatch(self, what: str) -> ValueError:
        return ValueError(
            f"the log is not {self.where} as replayed here ({what}): give the seed, deal, rules and "
            "dealer it was played with"
        )

    def _next(self, events: tuple[str, ...], seat: int) -> int:
        """The seat's next logged move among ``events`` (the engine makes some moves without
        asking: a ready Daqing hand throws the tile it draws; the end check compares every row)."""
        rows = self.rows
        return next((j for j in range(self.i, len(rows)) if rows[j][0] in events and rows[j][1] == seat), -1)

    def answer(self, seat: int, kind: int, options: list[Any]) -> tuple[bool, Any, int]:
        """``(found, option, row)``: the logged answer to ``seat``'s pending decision (found is
        False when the log stops before it)."""
        if kind == DECISION_DISCARD:
            j = self._next(("discard",), seat)
        elif kind == DECISION_CLAIM:
            j = self._next(("claim_offer",), seat)
        else:
            j = self._next(("discard", "concealed_kong", "added_kong"), seat)
        if j < 0:
            return False, None, -1
        event, s, tile, action = self.rows[j]
        if kind != DECISION_DISCARD and kind != DECISION_CLAIM and event == "discard":
            return True, None, j  # no kong declared: the seat's next move is its discard
        if kind == DECISION_DISCARD:
            nxt = self.rows[j + 1] if j + 1 < len(self.rows) else ("", -1, -1, "")
            option: Any = Discard(tile, nxt[0] == "ready" and nxt[1] == seat)
        elif kind == DECISION_CLAIM:
            option = None if action == "pass" else Claim(ACTION_BITS.index(action), tile)
        else:
            option = next(
                (o for o in options if o is not None and o.tile == tile),
                Kong(tile, event == "concealed_kong"),
            )
        if option not in options:
            raise self.mismatch(f"row {j}: seat {seat} {event} {tile}, not a legal option here")
        self.i = j + 1
        return True, option, j

    def check_opening(self, env: DealEnv) -> None:
        """The log deals the tiles this deal deals."""
        got = [r for r in _log_rows(_env_frame(env)) if r[0] == "deal"]
        logged = [r for r in self.rows if r[0] == "deal"]
        if got != logged:
            raise self.mismatch("its dealt tiles differ")

    def check_replayed(self, env: DealEnv) -> None:
        """Every row replayed is the log's row (the log may stop early)."""
        got = _log_rows(_env_frame(env))
        n = min(len(got), len(self.rows))
        j = next((k for k in range(n) if got[k] != self.rows[k]), -1)
        if j >= 0:
            raise self.mismatch(f"row {j}: the log has {self.rows[j]}, the replay {got[j]}")


def _env_frame(env: DealEnv) -> pd.DataFrame:
    from daqing_sim.game.deal_log import events_frame

    eng = env._engine
    n = int(eng.ctl[C_N_LOG])
    return events_frame(eng.wall, env.dealer, env.rules.family, eng.log[:n], eng.orow,
                        eng.frow if env.done else None)  # fmt: skip


__all__ = ["review", "Review", "read_log", "move_tiles", "split_loss", "THRESHOLDS", "default_threshold"]
