"""Python players (``ds.Player``) and ``ds.DealEnv`` on the one jitted engine.

The players here are written outside the package, as a user would. They must play complete,
legal deals through ``ds.simulate`` and ``ds.DealEnv``, give the same frames for any
``n_jobs``, see nothing hidden, and a wrong answer must stop the run with one line.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from env_drive import drive

import daqing_sim as ds
from daqing_sim.codes import DECISION_DISCARD
from daqing_sim.game.engine import EV_BAO_REPLACED, EV_READY
from daqing_sim.game.simulate import CHUNK, run_walls
from daqing_sim.game.wall import generate_walls
from daqing_sim.players.examples import DeclareFirst, RandomLegal
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet

PAY = [f"pay_{s}" for s in range(4)]


class OnlyDiscard(ds.Player):
    """The smallest legal player: a discard method and nothing else."""

    def discard(self, obs):
        return obs.legal_discards[-1]


class Recorder(ds.Player):
    """Random legal choices; remembers every observation's public view."""

    def __init__(self):
        self.seen = []

    def discard(self, obs):
        self.seen.append(obs._v.copy())
        options = obs.legal_discards
        return options[int(obs.rng.random() * len(options))]

    def claim(self, obs, options):
        self.seen.append(obs._v.copy())
        return options[0] if obs.rng.random() < 0.7 else None


class Bad(ds.Player):
    def __init__(self, how):
        self.how = how

    def discard(self, obs):
        if self.how == "raise":
            raise RuntimeError("oops")
        if self.how == "illegal":
            missing = next(t for t in range(28) if obs.hand[t] == 0)
            return ds.Discard(missing, False)
        if self.how == "type":
            return "1m"
        if self.how == "declare" and not any(o.declare for o in obs.legal_discards):
            return ds.Discard(obs.legal_discards[0].tile, True)
        return obs.legal_discards[0]

    def claim(self, obs, options):
        return ds.Claim(99, obs.claim_tile) if self.how == "claim" else None


def test_python_players_play_complete_legal_deals():
    seats = (RandomLegal(), "greedy", DeclareFirst(), OnlyDiscard())
    _, codes, knobs = encode_strategies(seats)
    walls, _, seeds = generate_walls(60, 5)
    raw = run_walls(walls, seeds, RuleSet(), codes, knobs, record_final=True, players=seats)
    out, final = raw["out"], raw["final"].astype(int)
    assert (final.sum(axis=1) == 4).all()  # all 112 tiles accounted for at the end
    df = ds.simulate(60, strategies=seats, seed=5)
    assert (df[PAY].sum(axis=1) == 0).all()
    assert (df[PAY].to_numpy() == out[:, 8:12]).all()
    assert list(df.loc[0, [f"strategy_{s}" for s in range(4)]].astype(str)) == [
        "RandomLegal",
        "greedy",
        "DeclareFirst",
        "OnlyDiscard",
    ]
    assert (df["outcome"] != "exhaustive_draw").any()
    assert df["ready_turn_2"].ge(0).any()  # DeclareFirst declares


def test_same_frames_for_any_number_of_workers():
    seats = (RandomLegal(), "greedy", "jia_hunter", RandomLegal())
    start = CHUNK - 30  # two chunks, so two workers each play some
    one = ds.simulate(60, strategies=seats, seed=3, start=start, n_jobs=1)
    two = ds.simulate(60, strategies=seats, seed=3, start=start, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    other = ds.simulate(60, strategies=seats, seed=4, start=start, n_jobs=1)
    assert not one[PAY].equals(other[PAY])


def test_deal_env_reproduces_simulate_rows():
    n = 400
    ref = ds.simulate(n, strategies=("greedy",) * 4, seed=8)
    rows = [ds.DealEnv(8, d, players=("greedy",) * 4) for d in range(n)]
    for env in rows:
        assert env.reset() is None and env.done
    got = pd.concat([env.result() for env in rows], ignore_index=True)
    pd.testing.assert_frame_equal(got, ref)
    # a caller-driven seat that plays like RandomLegal gives RandomLegal's rows
    seats = (RandomLegal(), "greedy", "defensive", "greedy")
    ref = ds.simulate(200, strategies=seats, seed=9)
    got = pd.concat(
        [drive(ds.DealEnv(9, d, players=(None, *seats[1:])), RandomLegal()) for d in range(200)],
        ignore_index=True,
    )
    cols = [c for c in ref.columns if not c.startswith("strategy_")]
    pd.testing.assert_frame_equal(got[cols], ref[cols])
    for s in (1, 2, 3):
        assert (got[f"strategy_{s}"].astype(str) == ref[f"strategy_{s}"].astype(str)).all()
    assert set(got["strategy_0"].astype(str)) == {"caller"}


def test_deal_env_interface():
    env = ds.DealEnv(2, 7, players=(None, "greedy", None, "random"))
    obs = env.reset()
    assert env.agent_selection in (0, 2) and obs.seat == env.agent_selection
    assert obs.decision == "discard" and obs.hand.sum() == 14
    assert env.observe(env.agent_selection) is obs
    off = env.observe(1)
    assert off.decision == "" and off.seat == 1 and off.hand.sum() == 13 and off.legal_discards == ()
    last_obs, reward, term, trunc, info = env.last()
    assert last_obs is obs and reward == 0 and not term and not trunc and info["seat"] == obs.seat
    with pytest.raises(ValueError, match="legal options"):
        env.step(ds.Discard(next(t for t in range(28) if obs.hand[t] == 0), False))
    steps = 0
    while not env.done:
        obs = env.step(env.legal_actions()[0] if obs.decision == "discard" else None)
        steps += 1
    assert steps > 5 and sum(env.payments) == 0 and env.agent_selection is None
    with pytest.raises(ValueError, match="no decision is pending"):
        env.step(None)
    assert "over" in repr(env)


def test_observation_is_a_read_only_copy():
    env = ds.DealEnv(1, 0, players=(None, "greedy", "greedy", "greedy"))
    obs = env.reset()
    with pytest.raises(AttributeError):
        obs.seat = 2
    with pytest.raises(ValueError):
        obs.hand[0] = 3
    assert obs.hand_text.count("m") + obs.hand_text.count("p") + obs.hand_text.count("s") >= 1
    assert ds.Observation.tile_name(27) == "中"
    assert obs.bao is None  # RULES: only a ready player sees the bao
    assert obs.ponds == ((), (), (), ()) and obs.melds == ((), (), (), ())


def _hidden_views(strategies_rest, wall, seed, rules=RuleSet()):
    rec = Recorder()
    seats = (rec, *strategies_rest)
    _, codes, knobs = encode_strategies(seats)
    raw = run_walls(
        wall[None], np.array([seed], np.uint64), rules, codes, knobs, record_log=True, players=seats
    )
    return rec.seen, [tuple(int(x) for x in e) for e in raw["log"]]


def test_python_observations_ignore_hidden_tiles():
    # seats 1-3 throw what they draw and never claim, so their hands stay private: shuffling
    # those hands and the bao must leave every observation of seat 0 (every field of the packed
    # view) the same until seat 0 is ready or the bao is replaced
    rest = (("scripted", {}),) * 3
    walls, _, seeds = generate_walls(30, seed=12)
    rng = np.random.default_rng(2)
    compared = 0
    for wall, seed in zip(walls, seeds, strict=True):
        other = wall.copy()
        other[14:54] = rng.permutation(wall[14:54])
        va, ea = _hidden_views(rest, wall, seed)
        vb, eb = _hidden_views(rest, other, seed)
        stop_e = min(_first(ea), _first(eb))
        # observations before the first ready/bao event
        n_a = sum(1 for e in ea[:stop_e] if e[1] == 0 and e[0] in (1, 3))
        n = min(n_a, len(va), len(vb))
        for x, y in zip(va[:n], vb[:n], strict=True):
            assert (x == y).all()
        compared += n
    assert compared > 100
    # and the test can fail: a change seat 0 can see shows in its view
    va, _ = _hidden_views(rest, walls[0], seeds[0])
    swapped = walls[0].copy()
    j = next(j for j in range(14) if swapped[j] != swapped[60])  # a tile of seat 0's own hand
    swapped[[j, 60]] = swapped[[60, j]]
    vb, _ = _hidden_views(rest, swapped, seeds[0])
    assert not (va[0] == vb[0]).all()


def _first(events):
    return next((i for i, e in enumerate(events) if e[0] in (EV_READY, EV_BAO_REPLACED)), len(events))


def test_packed_view_holds_every_observation_field():
    from daqing_sim.players import observation as O

    for deal in range(50):
        env = ds.DealEnv(6, deal, players=(None, "greedy", "greedy", "greedy"))
        obs = env.reset()
        while obs is not None and int(obs._v[O.P_N_POND : O.P_N_POND + 4].sum()) < 12:
            obs = env.step(env.legal_actions()[0] if obs.decision == "discard" else None)
        if obs is not None:
            break
    raw = env._engine.obs  # the array observation the engine just built for this decision
    assert (obs.hand == raw.hand).all() and (obs.visible == raw.visible).all()
    assert (obs.safe == raw.safe).all() and obs.ready == tuple(bool(x) for x in raw.ready)
    assert obs.ready_draw == tuple(int(x) for x in raw.ready_draw)
    assert obs.wall_left == raw.info[O.I_WALL_LEFT] and obs.own_draws == raw.info[O.I_OWN_DRAWS]
    assert obs.seat == raw.info[O.I_SEAT] and obs.dealer == raw.info[O.I_DEALER]
    for s in range(4):
        n = int(raw.n_pond[s])
        assert [p.tile for p in obs.ponds[s]] == raw.pond[s, :n].tolist()
        assert [p.claimed_by for p in obs.ponds[s]] == [
            int(c) if f & O.CLAIMED else -1
            for c, f in zip(raw.pond_claimer[s, :n], raw.pond_flag[s, :n], strict=True)
        ]
        assert [m.tile for m in obs.melds[s]] == raw.table_mt[s, : raw.table_nm[s]].tolist()
        assert [m.claimed_from for m in obs.melds[s]] == raw.meld_from[s, : raw.table_nm[s]].tolist()
    assert sum(len(p) for p in obs.ponds) > 10


@pytest.mark.parametrize(
    ("how", "words"),
    [
        ("raise", "raised RuntimeError: oops"),
        ("illegal", "not one of obs.legal_discards"),
        ("type", "returned '1m'"),
        ("claim", "not one of the Claim options"),
    ],
)
def test_a_wrong_answer_stops_the_run_with_one_line(how, words):
    with pytest.raises(ds.PlayerError) as err:
        ds.simulate(40, strategies=(Bad(how), "greedy", "greedy", "greedy"), seed=1)
    msg = str(err.value)
    assert "\n" not in msg and words in msg
    assert msg.startswith("Bad at seat 0, deal ") and "decision" in msg
    assert "legal options" in msg or how == "raise"


def test_declaring_when_it_cannot_is_refused():
    with pytest.raises(ds.PlayerError, match=r"\(declare ready\)|legal options"):
        ds.simulate(5, strategies=(Bad("declare"), "greedy", "greedy", "greedy"), seed=1)


def test_python_player_takes_no_knobs_and_replays():
    with pytest.raises(ValueError, match="takes no knobs"):
        ds.simulate(
            1, strategies=(RandomLegal(), "greedy", "greedy", "greedy"), knobs=({"x": 1}, None, None, None)
        )
    lines = ds.replay(3, 2, strategies=(RandomLegal(), "greedy", "greedy", "greedy"))
    assert lines[0].endswith("strategies RandomLegal, greedy, greedy, greedy")
    row = ds.simulate(1, strategies=(RandomLegal(), "greedy", "greedy", "greedy"), seed=3, start=2)
    outcome = str(row["outcome"].iloc[0])
    ending = f"({outcome})" if outcome != "exhaustive_draw" else "exhaustive draw (荒庄)"
    assert any(ending in line for line in lines[-3:]), (outcome, lines[-3:])


def test_discard_options_match_the_engines_declaration():
    # every declaring option the engine offers really declares; a non-declaring one never does
    taken = {"declare": 0, "not": 0}
    # no open door needed, so that seat 0 (which claims nothing) gets declaring options
    for d in range(60):
        env = ds.DealEnv(
            0, d, rules=ds.RuleSet(require_open=False), players=(None, "greedy", "greedy", "greedy")
        )
        obs = env.reset()
        while not env.done:
            if obs.decision != "discard":
                obs = env.step(None)
                continue
            declaring = [o for o in obs.legal_discards if o.declare]
            choice = declaring[0] if declaring else obs.legal_discards[0]
            was_ready = env._engine.st.ready[obs.seat]
            seat = obs.seat
            obs = env.step(choice)
            if choice.declare:
                assert env._engine.st.ready[seat] or env.done
                taken["declare"] += 1
            elif not env.done and not was_ready:
                assert not env._engine.st.ready[seat]
                taken["not"] += 1
    assert taken["declare"] >= 3 and taken["not"] >= 100, taken  # seeded: the same every run
    assert int(env._engine.ctl[1]) in (0, DECISION_DISCARD, 2, 3)


def test_tournament_takes_python_and_jitted_players():
    from daqing_sim.players.examples_jitted import CAUTIOUS

    class Named(RandomLegal):
        name = "named_random"

    one = ds.tournament([Named(), "greedy", "greedy", "greedy"], 30, seed=2)
    two = ds.tournament([Named(), "greedy", "greedy", "greedy"], 30, seed=2, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    assert set(one["entrant"]) == {"named_random", "greedy"}
    assert one.set_index("entrant").loc["named_random", "mean_pay"] < 0  # random loses to greedy
    jit = ds.tournament([CAUTIOUS, "greedy", "greedy", "greedy"], 30, seed=2)
    assert set(jit["entrant"]) == {"cautious", "greedy"}


def test_deal_env_bad_action_says_what_was_wrong_in_user_terms():
    env = ds.DealEnv(2, 7, players=(None, "greedy", "greedy", "greedy"))
    obs = env.reset()
    with pytest.raises(ValueError) as err:
        env.step("5m")
    msg = str(err.value)
    assert msg.startswith("step('5m') is not a legal answer to seat 0's discard decision")
    assert "Discard(tile, declare)" in msg and "env.legal_actions()[0]" in msg and "legal options" in msg
    assert "str at seat" not in msg and "PlayerError" not in msg
    assert obs.legal_discards  # the env still waits for the same decision
    assert env.step(env.legal_actions()[0]) is not None or env.done


class ShantenDiscarder(ds.Player):
    """Only ``discard``: declares when it can, else throws the tile that keeps the lowest shanten."""

    def discard(self, obs):
        import dataclasses

        options = obs.legal_discards
        if options[-1].declare:
            return options[-1]
        hand = ds.parse_hand(obs.hand_text)

        def after(o):
            counts = hand.counts.copy()
            counts[o.tile] -= 1
            return ds.daqing_shanten(dataclasses.replace(hand, counts=counts, order=()))

        return min(options, key=after)


def test_a_discard_only_player_claims_as_greedy_and_wins():
    # Player.claim and Player.kong default to the greedy decisions: the door opens (开门), so the
    # player can win under the classic rules; passing every claim, it never could
    df = ds.simulate(120, strategies=(ShantenDiscarder(), "greedy", "greedy", "greedy"), seed=2)
    assert (~df["concealed_0"]).sum() > 10
    assert (df["winner"] == 0).sum() > 0
    assert OnlyDiscard.claim is ds.Player.claim  # the default, not an override
