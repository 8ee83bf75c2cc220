"""``search``: the expert's hand, with each decision chosen by looking ahead by simulation.

At each of its discards the player ranks the legal options by the family's expert
(:mod:`daqing_sim.search.ranking`: the expert's choice first, then the Beijing expert's EV where
it reads danger, else greedy's measure, the shanten after the discard and the unseen tiles that
would lower it, which is how every expert picks when it reads no danger; two-player: declaring
报听 or not with the expert's tile second), keeps the best ``candidates``, and plays each to the end of
the deal in ``worlds`` worlds consistent with what it sees
(:class:`~daqing_sim.search.evaluator.Evaluator`; the same worlds for every candidate), the
``field`` playing every seat after the decision. It throws the candidate of the highest mean
payment among those clearly better than the expert's (``min_t``), else the expert's. A
two-player win it may pass (a declared hand) is searched, win against pass. Claims and
kongs are the expert's unless ``claims=1`` (then the expert's answer, passing, and each other
option are candidates the same way); the discards it does not search (``when="close"``: where
the expert's best two are not within ``close``; ``when="ready"``: only while an opponent is
ready) are the expert's.

It decides outside the jitted batch engine (a Python seat: its deals are stepped, and the
rollouts are one jitted call per decision over the paused deal's arrays; docs/DESIGN.md,
"Search"). Its numbers come from the decision's own seed (the run's ``seed`` knob, the deal's
in-game seed, the seat and the draws so far), so a deal replays exactly.

Knobs (``("search", {...})`` in a seat list or ``SearchPlayer(...)``): ``candidates`` (1-8,
default 2), ``worlds`` (1-10000, default 64), ``field`` (a built-in player's name, default
``"expert"``), ``when`` (``"always"``, ``"close"`` or ``"ready"``), ``opponents``
(``"uniform"``, the default, or ``"progress"``: the worlds' opponents as far along as real
ones; :mod:`daqing_sim.search.progress`), ``close`` (0-1, default
0.25), ``seed`` (0-2^32, default 0), ``min_t``
(default 2: another candidate replaces the expert's only when its mean gain per world, paired on
the same worlds, is at least this many standard errors above 0; 0 takes the best mean),
``confirm`` (default 0: none; n: a candidate that passes ``min_t`` is evaluated again against the
expert's on n fresh worlds and taken only if it passes there too, since a pick among noisy means
overstates its own gain).

Examples
--------
>>> import daqing_sim as ds
>>> df = ds.simulate(1, strategies=(("search", {"worlds": 2}), "expert", "expert", "expert"), seed=1)
>>> int(df[[f"pay_{s}" for s in range(4)]].to_numpy().sum())
0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from daqing_sim.codes import CLAIM_WIN, DECISION_CLAIM, DECISION_DISCARD, PASS
from daqing_sim.game.engine import C_N_DRAWS, C_OPTS, C_SEAT, C_TILE
from daqing_sim.players.interface import Discard, Observation, Player
from daqing_sim.players.knobs import Knob
from daqing_sim.players.observation import I_N_MELDS, UNKNOWN
from daqing_sim.search.ranking import expert_knobs as _expert_knobs

NAME = "search"
KNOBS: dict[str, Knob] = {
    "candidates": Knob(
        2, 1, 8, integer=True, doc="discards evaluated: the expert's and the next best by shanten"
    ),
    "worlds": Knob(
        64, 1, 10000, integer=True, doc="worlds each candidate is played out in (the same for all)"
    ),
    "seed": Knob(0, 0, 2**32, integer=True, doc="the search's own seed (worlds differ between seeds)"),
    "claims": Knob(0, 0, 1, integer=True, doc="1: search claims and kongs too (pass or not, which meld)"),
    "close": Knob(
        0.25,
        0,
        1,
        doc="when='close': search where the expert's runner-up is within this fraction of its best",
    ),
    "min_t": Knob(
        2.0,
        0,
        10,
        doc="leave the expert's discard only for a paired gain this many standard errors above 0",
    ),
    "confirm": Knob(
        0,
        0,
        10000,
        integer=True,
        doc="worlds of a second, fresh evaluation a switch must pass too (0: none)",
    ),
}
#: knobs that take a word, with their values
WORD_KNOBS: dict[str, tuple[str, ...]] = {
    "field": ("expert", "expert1", "expert2", "greedy", "jia_hunter", "defensive", "random"),
    "when": ("always", "close", "ready"),
    "opponents": ("uniform", "progress"),
}
WORD_DEFAULTS = {"field": "expert", "when": "always", "opponents": "uniform"}
_N_ACTIONS = CLAIM_WIN + 1  # claim actions are bits 0 .. CLAIM_WIN of a claim's option mask


def check_knobs(over: Mapping[str, Any]) -> dict[str, Any]:
    """The search player's knobs, defaults filled in, or a one-line ``ValueError``."""
    bad = sorted(set(over) - set(KNOBS) - set(WORD_KNOBS))
    if bad:
        valid = ", ".join([*KNOBS, *WORD_KNOBS])
        raise ValueError(f"unknown knob(s) {', '.join(bad)} for strategy 'search'; valid knobs: {valid}")
    out: dict[str, Any] = {}
    for k, knob in KNOBS.items():
        v = knob.check(k, over.get(k, knob.default))
        out[k] = int(v) if knob.integer else v
    for k, values in WORD_KNOBS.items():
        v = over.get(k, WORD_DEFAULTS[k])
        if v not in values:
            raise ValueError(
                f"{k}={v!r} is not allowed for strategy 'search': use one of {', '.join(values)}"
            )
        out[k] = v
    return out


class SearchPlayer(Player):
    """The ``search`` player (see the module docstring); keyword arguments are its knobs."""

    def __init__(self, **knobs: Any) -> None:
        self.knobs = check_knobs(knobs)
        defaults = {**{k: x.default for k, x in KNOBS.items()}, **WORD_DEFAULTS}
        given = {k: v for k, v in self.knobs.items() if v != defaults[k]}
        self.name = NAME + (f"({','.join(f'{k}={v}' for k, v in given.items())})" if given else "")
        self._evaluators: dict[Any, Any] = {}
        self.decisions = 0  # searched decisions, for measuring (not part of any result)
        self.switches = 0  # of which answered other than the expert
        self.confirmations = 0  # switches evaluated again (``confirm``)

    def __getstate__(self) -> dict[str, Any]:  # the compiled evaluators stay in their process
        return {"knobs": self.knobs, "name": self.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.knobs, self.name = state["knobs"], state["name"]
        self._evaluators = {}
        self.decisions = 0
        self.switches = 0
        self.confirmations = 0

    def discard(self, obs: Observation) -> Discard:
        """Only stepped deals ask this player (through :meth:`decide_paused`)."""
        raise NotImplementedError("the search player decides on the paused deal: seat it in ds.simulate")

    def evaluator(self, deal: Any) -> Any:
        """The :class:`~daqing_sim.search.evaluator.Evaluator` of ``deal``'s rules and this field."""
        from daqing_sim.search.evaluator import Evaluator

        key = (deal.rules.tobytes(), deal.family)
        if key not in self._evaluators:
            self._evaluators[key] = Evaluator(
                deal.rules, self.knobs["field"], deal.family, self.knobs["opponents"]
            )
        return self._evaluators[key]

    def decide_paused(self, deal: Any, kind: int, rng: Any) -> tuple[int, bool]:
        """The answer to the decision ``deal`` (a paused ``SteppedDeal``) waits for."""
        expert = _expert_functions(deal.family)
        kn = _expert_knobs(deal.family)
        seat = int(deal.ctl[C_SEAT])
        if kind != DECISION_DISCARD:
            if kind == DECISION_CLAIM:
                t, opts = int(deal.ctl[C_TILE]), int(deal.ctl[C_OPTS])
                first = int(expert[1](kn, deal.obs, deal.rules, _tabs(), t, opts))
                if opts >> CLAIM_WIN & 1:  # two-player 报听: win or pass, always searched
                    deal.obs.memo[seat, 0] = UNKNOWN
                    other = PASS if first == CLAIM_WIN else CLAIM_WIN
                    cands = [(first, False), (other, False)][: self.knobs["candidates"]]
                    return self._search(deal, kind, rng, seat, cands)
                others = [PASS, *(a for a in range(1, _N_ACTIONS) if opts >> a & 1)]
            else:
                first = int(expert[2](kn, deal.obs, deal.rules, _tabs(), deal.st.kong_opts))
                others = [-1, *(int(x) for x in np.flatnonzero(deal.st.kong_opts))]
            deal.obs.memo[seat, 0] = UNKNOWN
            if not self.knobs["claims"] or not self._searching(deal, seat):
                return first, False
            cands = [(first, False), *((a, False) for a in others if a != first)]
            return self._search(deal, kind, rng, seat, cands[: self.knobs["candidates"]])
        legal = deal.observation().legal_discards
        t, declare = expert[0](kn, deal.obs, deal.rules, _tabs())
        # the expert cached the shanten of the hand its discard leaves: the answer may differ
        deal.obs.memo[seat, 0] = UNKNOWN
        best = Discard(int(t), bool(declare))
        if best not in legal:  # the engine would correct it; search only among legal answers
            best = legal[0]
        if self.knobs["when"] == "ready" and not self._searching(deal, seat):
            return best
        ranking = expert_ranking(deal, legal, best)
        if self.knobs["when"] == "close" and not ranking.close(self.knobs["close"]):
            return best
        return self._search(deal, kind, rng, seat, ranking.discards[: self.knobs["candidates"]])

    def _searching(self, deal: Any, seat: int) -> bool:
        """Claims and kongs (``claims=1``), and every discard but under ``when="ready"``."""
        return self.knobs["when"] != "ready" or any(deal.st.ready[s] for s in range(4) if s != seat)

    def _search(self, deal: Any, kind: int, rng: Any, seat: int, cands: list[Any]) -> Any:
        """The candidate (its first the expert's) that :func:`choose` picks on the evaluator's worlds."""
        if len(cands) < 2:
            return cands[0]
        key = [self.knobs["seed"], int(getattr(rng, "seed", 0)), seat, int(deal.ctl[C_N_DRAWS]), kind]
        ss = np.random.SeedSequence(key)
        ev = self.evaluator(deal).evaluate(deal, cands, self.knobs["worlds"], ss)
        self.decisions += 1
        pick = choose(ev.pays, self.knobs["min_t"])
        if pick != 0 and self.knobs["confirm"] > 0:
            # the pick is the best of noisy means: its gain is overstated (the winner's curse), so
            # it must show again on worlds it was not chosen on
            fresh = np.random.SeedSequence([*key, 1])
            again = self.evaluator(deal).evaluate(deal, [cands[0], cands[pick]], self.knobs["confirm"], fresh)
            self.confirmations += 1
            if choose(again.pays, self.knobs["min_t"]) == 0:
                pick = 0
        self.switches += pick != 0
        return cands[pick]


def choose(pays: np.ndarray, min_t: float) -> int:
    """The candidate (column of ``pays``, worlds by candidates; column 0 the expert's) of the
    highest mean payment whose paired gain over column 0 is at least ``min_t`` standard errors
    above 0 (its t statistic), else 0."""
    n = pays.shape[0]
    gain = pays - pays[:, :1]
    mean = gain.mean(axis=0)
    se = gain.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(pays.shape[1])
    ok = (mean > 0) & (mean >= min_t * se)
    ok[0] = True
    return int(np.argmax(np.where(ok, pays.mean(axis=0), -np.inf)))


def expert_ranking(deal: Any, legal: tuple[Discard, ...], best: Discard) -> Any:
    """``legal`` ranked for the search by the family's expert (``best``, its discard, first):
    a :class:`~daqing_sim.search.ranking.Ranking`."""
    from daqing_sim.search.ranking import rank

    sh, uke = _shanten_and_outs(deal, sorted({d.tile for d in legal}))
    return rank(deal, legal, best, sh, uke)


def rank_discards(deal: Any, legal: tuple[Discard, ...], best: Discard) -> list[Discard]:
    """``legal`` ordered for the search (:func:`expert_ranking`'s discards)."""
    return expert_ranking(deal, legal, best).discards


def _shanten_and_outs(deal: Any, tiles: list[int]) -> tuple[dict[int, int], dict[int, int]]:
    obs = deal.obs
    hand = obs.hand.copy()
    nk = hand.shape[0]
    nm = int(obs.info[I_N_MELDS])
    tabs = _tabs()
    if deal.family == "daqing":
        from daqing_sim.players.common import discard_shanten, ukeire_after, unseen_counts

        sh = np.zeros(nk, dtype=np.int64)
        unseen = np.zeros(nk, dtype=np.int32)
        discard_shanten(hand, tabs, sh)
        unseen_counts(hand, obs.mk, obs.mt, nm, obs.visible, unseen)
        return {t: int(sh[t]) for t in tiles}, {
            t: int(ukeire_after(hand, t, sh[t], unseen, tabs)) for t in tiles
        }
    from daqing_sim.codes import CONCEALED_KONG
    from daqing_sim.hand.kinds34 import bj_shanten_k

    unseen = 4 - hand.astype(np.int64) - obs.visible.astype(np.int64)
    for j in range(nm):
        if obs.mk[j] == CONCEALED_KONG:
            unseen[obs.mt[j]] -= 4
    unseen = np.maximum(unseen, 0)
    n = np.int64(nm)
    shanten = _tp_shanten if deal.family == "two_player" else bj_shanten_k
    shs, outs = {}, {}
    for t in tiles:
        hand[t] -= 1
        level = int(shanten(hand, n, tabs))
        k = 0
        for x in np.flatnonzero(unseen):
            hand[x] += 1
            if int(shanten(hand, n, tabs)) < level:
                k += int(unseen[x])
            hand[x] -= 1
        hand[t] += 1
        shs[t], outs[t] = level, k
    return shs, outs


def _tp_shanten(hand: np.ndarray, n_melds: np.int64, tabs: Any) -> int:
    """The two-player table shanten (Beijing's shapes and thirteen orphans)."""
    from daqing_sim.families.two_player.hand import tp_kokushi_shanten_k
    from daqing_sim.hand.kinds34 import bj_shanten_k

    v = int(bj_shanten_k(hand, n_melds, tabs))
    return min(v, int(tp_kokushi_shanten_k(hand))) if n_melds == 0 else v


def _tabs() -> Any:
    from daqing_sim.hand.tables import get_tables

    return get_tables()


def _expert_functions(family: str) -> Any:
    from daqing_sim.players.registry import EXPERT
    from daqing_sim.players.seats import builtin_functions

    return builtin_functions(EXPERT, family)


__all__ = ["SearchPlayer", "check_knobs", "choose", "expert_ranking", "rank_discards", "KNOBS", "WORD_KNOBS"]
