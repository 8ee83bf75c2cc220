"""Two-player games with Python players and ``ds.DealEnv`` on the one jitted engine: the same
games as ``ds.simulate``, two seats everywhere, the declared hand's win-or-pass as a ``Claim``,
and only public information in the observation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from env_drive import drive

import daqing_sim as ds
from daqing_sim.codes import CHI_LOW, CLAIM_PENG, CLAIM_WIN
from daqing_sim.game.state import new_deal_state, observe
from daqing_sim.hand.tables import get_tables
from daqing_sim.layout import T_SHANTEN
from daqing_sim.players.examples import RandomLegal
from daqing_sim.players.registry import EXPERT, GREEDY
from daqing_sim.players.seats import builtin_functions

TWO = ds.RuleSet(family="two_player")


class Passer(ds.Player):
    """Declares 报听 whenever it may, then passes every win it is offered on a discard (it wins
    only by self-draw); records what it saw at those offers."""

    name = "passer"

    def __init__(self):
        self.offers = []

    def discard(self, obs):
        declaring = [d for d in obs.legal_discards if d.declare]
        return declaring[0] if declaring else obs.legal_discards[0]

    def claim(self, obs, options):
        if any(o.kind == "win" for o in options):
            t = obs.claim_tile
            self.offers.append((t, obs.ready, len(obs.ponds), [str(o) for o in options], obs.safe[0, t]))
        return None


def test_deal_env_plays_the_games_simulate_plays():
    ref = ds.simulate(120, strategies=("expert", "greedy"), seed=4, rules=TWO)
    envs = [ds.DealEnv(4, g, rules=TWO, players=("expert", "greedy")) for g in range(120)]
    for env in envs:
        assert env.reset() is None and env.done and env.agents == (0, 1)
    got = pd.concat([env.result() for env in envs], ignore_index=True)
    pd.testing.assert_frame_equal(got, ref)
    assert all(len(env.payments) == 2 and sum(env.payments) == 0 for env in envs)


def test_a_caller_seat_plays_as_the_same_python_player_in_simulate():
    ref = ds.simulate(80, strategies=(RandomLegal(), "greedy"), seed=5, rules=TWO)
    got = pd.concat(
        [drive(ds.DealEnv(5, g, rules=TWO, players=(None, "greedy")), RandomLegal()) for g in range(80)],
        ignore_index=True,
    )
    cols = [c for c in ref.columns if not c.startswith("strategy_")]
    pd.testing.assert_frame_equal(got[cols], ref[cols])
    assert (got.strategy_1.astype(str) == "greedy").all() and (got.strategy_0.astype(str) == "caller").all()


def test_a_declared_hand_is_offered_the_win_and_may_pass_it():
    passer = Passer()
    df = ds.simulate(150, strategies=(passer, "greedy"), seed=6, rules=TWO)
    assert passer.offers, "some game offers the declared player a win on a discard"
    for tile, ready, n_ponds, shown, safe in passer.offers:
        assert ready[0] and n_ponds == 2 and f"win {ds.tile_name(tile)}" in shown
        assert not safe  # a tile that wins for the declared hand is never shown as safe against it
    # passing every discard win: the passer wins only by its own draw (or an extra draw)
    won = df[df.winner == 0]
    assert (won.outcome != "deal_in").all()
    assert ds.Claim(CLAIM_WIN, 4).kind == "win" and ds.Claim(CLAIM_WIN, 4).meld == (4,)


def test_observations_have_two_seats_and_no_hidden_tiles():
    env = ds.DealEnv(7, 3, rules=TWO, players=(None, "greedy"))
    obs = env.reset()
    assert obs.family == "two_player" and obs.n_seats == 2 and obs.n_kinds == 34
    assert len(obs.ready) == 2 and len(obs.ponds) == 2 and len(obs.melds) == 2 and obs.safe.shape == (2, 34)
    assert obs.hand.sum() in (13, 14) and env.observe(1).seat == 1
    with pytest.raises(ValueError, match="seat must be 0-1"):
        env.observe(2)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ds.DealEnv(1, 0, rules=TWO, players=(None, "greedy", "greedy", "greedy")), "2 seats"),
        (lambda: ds.DealEnv(1, 0, rules=TWO, dealer=2), "seats are 0, 1"),
        (lambda: ds.DealEnv(1, 0, rules=TWO, players=(None, "jia_hunter")), "does not play two_player"),
    ],
)
def test_bad_two_player_envs_are_one_line_errors(call, message):
    with pytest.raises(ValueError, match=message) as info:
        call()
    assert "\n" not in str(info.value)


def _state(own, opp_hand, pond0, pond1, declared, safe_tile):
    st, obs = new_deal_state("two_player")
    st.conc[0] = own
    st.conc[1] = opp_hand
    for s, pond in enumerate((pond0, pond1)):
        st.pond[s, : len(pond)] = pond
        st.n_pond[s] = len(pond)
        np.add.at(st.visible, pond, 1)
    st.ready[1] = declared
    st.safe[1, safe_tile] = declared  # a tile the declared opponent let pass (seat 0 holds one)
    st.tp[T_SHANTEN + 1] = int(opp_hand.sum()) % 3  # a cached shanten: hidden, may differ
    observe(st, obs, 0, 0, 30, -1, -1, False, False)
    return obs


FIELDS = ("hand", "visible", "ready", "safe", "pond", "n_pond", "table_nm", "info")


@pytest.mark.parametrize("seed", range(12))
def test_two_player_decisions_never_depend_on_the_opponents_hidden_tiles(seed):
    """Seat 0's observation and the expert's and greedy's decisions (folding against a declared
    opponent included) are the same for two states that differ only in the opponent's concealed
    tiles and the engine's hidden bookkeeping of them."""
    rng = np.random.default_rng(seed)
    tiles = rng.permutation(np.repeat(np.arange(34), 4))
    own = np.bincount(tiles[:14], minlength=34).astype(np.uint8)
    pond0, pond1 = tiles[14:20], tiles[20:25]
    rest = tiles[25:]
    hands = [np.bincount(rng.permutation(rest)[:13], minlength=34).astype(np.uint8) for _ in range(2)]
    declared = bool(seed % 2)
    tabs = get_tables()
    enc = TWO.encode()
    fold = np.array([1.0, 0.0, 10.0, 13.0, 1.0])  # fold at once against a declared opponent
    answers, views = [], []
    own13 = own.copy()
    own13[tiles[0]] -= 1  # on a claim decision the seat holds 13
    t = int(pond1[-1])
    mask = (1 << CLAIM_PENG) * int(own13[t] >= 2)
    if t < 27 and t % 9 <= 6 and own13[t + 1] and own13[t + 2]:
        mask |= 1 << CHI_LOW
    for hand in hands:
        obs = _state(own, hand, pond0, pond1, declared, tiles[1])
        views.append([np.array(getattr(obs, f)).copy() for f in FIELDS])
        row = []
        for code, kn in ((GREEDY, np.zeros(0)), (EXPERT, fold)):
            discard, claim, _ = builtin_functions(code, "two_player")
            row.append(tuple(discard(kn, obs, enc, tabs)))
            if mask:
                obs13 = _state(own13, hand, pond0, pond1, declared, tiles[1])
                row.append(int(claim(kn, obs13, enc, tabs, t, mask)))
        answers.append(row)
    for a, b in zip(*views, strict=True):
        assert (a == b).all()
    assert answers[0] == answers[1]
    if declared:  # the expert folded: it threw the one tile known safe
        assert answers[0][-2 if mask else -1][0] == tiles[1]
