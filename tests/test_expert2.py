"""``expert1`` and ``expert2`` (issue 38): expert1 plays the expert's moves in every family;
expert2 is the expert's kernels with the shipped fitted knobs and one new term, passing claims
while folding (``claim_fold_shanten``), checked on the deals' event logs; the weights file
records how it was fitted."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.families.beijing import expert as beijing_expert
from daqing_sim.families.daqing import expert
from daqing_sim.players.registry import encode_strategies, knob_specs

WEIGHTS = Path(__file__).resolve().parents[1] / "daqing_sim" / "players" / "expert2_weights.json"
FAMILIES = {"daqing": 4, "beijing": 4, "two_player": 2}


def _pays(df, n):
    return df[[f"pay_{s}" for s in range(n)]].to_numpy()


#: what ``expert`` names in each family: the stronger of v1 and v2 (issue 38; docs/EXPERT.md)
EXPERT_IS = {"daqing": "expert2", "beijing": "expert2", "two_player": "expert2"}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_expert_is_the_familys_stronger_version(family):
    n = FAMILIES[family]
    rules = ds.RuleSet(family=family)
    a = ds.simulate(150, rules=rules, strategies=("expert",) * n, seed=11)
    b = ds.simulate(150, rules=rules, strategies=(EXPERT_IS[family],) * n, seed=11)
    assert np.array_equal(_pays(a, n), _pays(b, n))
    assert a["outcome"].astype(str).tolist() == b["outcome"].astype(str).tolist()


@pytest.mark.parametrize(("family", "module"), [("daqing", expert), ("beijing", beijing_expert)])
def test_expert2_with_the_experts_knobs_and_no_fold_is_expert1(family, module):
    """The fitted player differs from expert1 only by its knobs: with expert1's values it plays
    expert1's moves (so a changed kernel would show)."""
    v1 = {k: knob.default for k, knob in module.KNOBS.items()}
    beijing_off = {"concealed_pass_shanten": -1, "pairs_min": 8, "suit_min": 15, "wait_value": 0}
    off = {"claim_fold_shanten": 14, **(beijing_off if family == "beijing" else {})}
    rules = ds.RuleSet(family=family)
    a = ds.simulate(150, rules=rules, strategies=("expert1",) * 4, seed=12)
    b = ds.simulate(150, rules=rules, strategies=(("expert2", {**v1, **off}),) * 4, seed=12)
    assert np.array_equal(_pays(a, 4), _pays(b, 4))


def _claims_after_ready(seed, deals, seat_player):
    """Claims by seat 0, and of them those made while another seat had declared ready (Daqing)."""
    total = after = 0
    for d in range(deals):
        log = ds.deal_log(seed, d, strategies=(seat_player, "expert1", "expert1", "expert1"))
        ready_seen = False
        for ev, seat in zip(log["event"], log["seat"], strict=True):
            if ev == "ready" and seat != 0:
                ready_seen = True
            if ev == "claim" and seat == 0:
                total += 1
                after += ready_seen
    return total, after


def test_daqing_claim_fold_passes_every_claim_once_an_opponent_is_ready():
    total, after = _claims_after_ready(5, 60, ("expert2", {"claim_fold_shanten": 14}))
    assert total > 0 and after > 0  # the situation occurs, so the next check can fail
    total0, after0 = _claims_after_ready(5, 60, ("expert2", {"claim_fold_shanten": 0}))
    assert total0 > 0 and after0 == 0


def test_beijing_claim_fold_passes_claims_while_a_seat_is_likely_ready():
    """With min_tenpai 0 every other seat counts as likely ready: fold 0 never claims."""
    rules = ds.RuleSet(family="beijing")

    def claims(player):
        n = 0
        for d in range(40):
            log = ds.deal_log(6, d, rules=rules, strategies=(player, "expert1", "expert1", "expert1"))
            n += int(((log["event"] == "claim") & (log["seat"] == 0)).sum())
        return n

    assert claims(("expert2", {"min_tenpai": 0.0, "claim_fold_shanten": 14})) > 0
    assert claims(("expert2", {"min_tenpai": 0.0, "claim_fold_shanten": 0})) == 0


def _beijing_claims(n_walls, seed):
    """Seat 0's claim decisions in Beijing deals of four expert1 (its observation, the tile, the
    options), each a copy the kernels can be asked again."""
    from test_search import paused_decisions

    from daqing_sim.game.engine import C_OPTS, C_TILE

    out = []
    for deal in paused_decisions(seed, n_walls, "expert1", "beijing"):
        if deal.decision == "claim":
            obs = type(deal.obs)(*[np.array(a, copy=True) for a in deal.obs])
            out.append((obs, int(deal.ctl[C_TILE]), int(deal.ctl[C_OPTS])))
    return ds.RuleSet(family="beijing").encode(), out


def test_beijing_concealed_hands_pass_claims_near_ready():
    """``concealed_pass_shanten`` k: a hand with no meld passes every claim while its shanten
    (the reference's, by definition) is k or less; any other hand answers as expert1."""
    import reference_beijing as R

    from daqing_sim.codes import PASS
    from daqing_sim.hand.tables import get_tables
    from daqing_sim.players.observation import I_N_MELDS
    from daqing_sim.players.registry import PLAYER_NAMES
    from daqing_sim.players.seats import builtin_functions

    rules, positions = _beijing_claims(60, 23)
    v1_claim = builtin_functions(PLAYER_NAMES.index("expert1"), "beijing")[1]
    v2_claim = builtin_functions(PLAYER_NAMES.index("expert2"), "beijing")[1]
    v1_kn = encode_strategies(("expert1",) * 4, None, "beijing")[2][0]
    tabs = get_tables()
    seen = {"passed": 0, "claimed concealed": 0, "open": 0}
    for k in (1, 2):
        over = {**{n: x.default for n, x in beijing_expert.KNOBS.items()}, "claim_fold_shanten": 14}
        v2 = ("expert2", {**over, "concealed_pass_shanten": k})
        kn = encode_strategies((v2,) * 4, None, "beijing")[2][0]
        for obs, tile, opts in positions:
            want = int(v1_claim(v1_kn, obs, rules, tabs, tile, opts))
            concealed = int(obs.info[I_N_MELDS]) == 0
            if concealed and R.shanten([int(x) for x in obs.hand[:34]]) <= k:
                want = PASS
                seen["passed"] += want != int(v1_claim(v1_kn, obs, rules, tabs, tile, opts))
            elif concealed:
                seen["claimed concealed"] += want != PASS
            else:
                seen["open"] += want != PASS
            assert int(v2_claim(kn, obs, rules, tabs, tile, opts)) == want
    assert min(seen.values()) > 0, seen  # each branch met a claim expert1 makes


@pytest.mark.parametrize("family", ["daqing", "beijing"])
def test_shipped_weights_are_the_defaults_and_say_how_they_were_made(family):
    w = json.loads(WEIGHTS.read_text(encoding="utf-8"))[family]
    assert {"knobs", "fitted_by", "seed", "commit", "positions"} <= set(w)
    assert w["positions"] > 0 and "tools/fit_expert2.py" in w["fitted_by"]
    specs = knob_specs("expert2", family)
    assert set(w["knobs"]) <= set(specs)
    for name, value in w["knobs"].items():
        assert specs[name].default == pytest.approx(value)
    _, _, kn = encode_strategies(("expert2",) * 4, None, family)
    assert kn[0, list(specs).index("claim_fold_shanten")] == w["knobs"].get("claim_fold_shanten", 14)


def test_expert2_knob_errors_name_the_knobs():
    with pytest.raises(ValueError, match="claim_fold_shanten"):
        encode_strategies((("expert2", {"nope": 1}),) + ("expert1",) * 3, None, "beijing")
    with pytest.raises(ValueError, match="claim_fold_shanten=2.5 is not allowed"):
        encode_strategies((("expert2", {"claim_fold_shanten": 2.5}),) + ("expert1",) * 3)
    # two-player expert2's own knobs (its routes): tests/test_expert2_two_player.py
