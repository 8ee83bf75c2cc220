"""The structured event log: hands, wall and tiles rebuilt from ``deal_log`` alone."""

from __future__ import annotations

import json

import numpy as np
import pytest

import daqing_sim as ds
from daqing_sim.codes import CHI_LOW, N_KINDS
from daqing_sim.game.deal_log import ACTIONS, COLUMNS, to_json_lines
from daqing_sim.game.wall import N_LIVE
from daqing_sim.players.examples import RandomLegal

CASES = [  # (rules, strategies, seed, deals): mixed players and rules
    (ds.RuleSet(), ("greedy", "jia_hunter", "defensive", "random"), 3, 150),
    (ds.RuleSet(bao_replacement=False, kong_fan=True), ("random",) * 4, 4, 150),
    (ds.RuleSet(chi_any_seat_for_ready=True, bao_kan_instant=True), ("random", "greedy") * 2, 5, 150),
    (ds.RuleSet(lock_after_ready=True), ("defensive", "random", "greedy", "jia_hunter"), 6, 100),
]


def _rebuild(df):
    """Hands (concealed + melds) and the live wall count, from the event rows alone."""
    hands = np.zeros((4, N_KINDS), dtype=np.int64)
    pool = np.zeros(N_KINDS, dtype=np.int64)
    left = N_LIVE
    last = None
    for r in df[df.event != "final"].itertuples():
        ev, s, t = r.event, r.seat, r.tile
        if ev == "deal":
            hands[s, t] += 1
        elif ev in ("draw", "kong_draw"):
            hands[s, t] += 1
            left -= 1
        elif ev == "bao_replaced":
            left -= 1
        elif ev == "discard":
            hands[s, t] -= 1
            pool[t] += 1
            last = (s, t)
        elif ev == "claim":
            assert (r.from_seat, t) == last
            pool[t] -= 1
            hands[s, t] += 1  # the claimed tile joins the meld, the meld stays the seat's
        assert r.wall_left == left, (r.step, ev)
        assert (hands >= 0).all() and (hands.sum(axis=1) <= 18).all()
    return hands, pool, left


def _final(df, place, seat=-1):
    rows = df[(df.event == "final") & (df.place == place) & (df.seat == seat)]
    out = np.zeros(N_KINDS, dtype=np.int64)
    out[rows.tile.to_numpy()] = rows["count"].to_numpy()
    return out


def _check_offers(df):
    """Every claim follows an offer to that seat with that answer among its options; an answer
    other than pass is the claim made."""
    rows = df.to_dict("records")
    for i, r in enumerate(rows):
        if r["event"] != "claim_offer":
            continue
        assert r["options"] & (1 << ACTIONS.index(r["action"])) or r["action"] == "pass"
        assert r["options"] != 0 and r["from_seat"] >= 0 and r["from_seat"] != r["seat"]
        if r["action"] != "pass":
            nxt = rows[i + 1]
            assert nxt["event"] == "claim" and nxt["seat"] == r["seat"] and nxt["action"] == r["action"]
    for i, r in enumerate(rows):
        if r["event"] == "claim":
            assert rows[i - 1]["event"] == "claim_offer" and rows[i - 1]["seat"] == r["seat"]


@pytest.mark.parametrize("rules, strategies, seed, n", CASES)
def test_hands_wall_and_all_112_tiles_rebuild_from_the_log(rules, strategies, seed, n):
    sim = ds.simulate(n, rules=rules, strategies=strategies, seed=seed)
    for deal in range(n):
        df = ds.deal_log(seed, deal, rules=rules, strategies=strategies)
        assert tuple(df.columns) == COLUMNS and (df.step.to_numpy() == np.arange(len(df))).all()
        hands, pool, left = _rebuild(df)
        for s in range(4):
            assert (hands[s] == _final(df, "hand", s)).all(), (deal, s)
        assert (pool == _final(df, "pool")).all()
        rest = _final(df, "rest")
        n_repl = int((df.event == "bao_replaced").sum())
        assert rest.sum() == left + 1 + n_repl  # live rest, the bao in force, the replaced baos
        assert (hands.sum(axis=0) + pool + rest == 4).all()  # every tile somewhere, once
        _check_offers(df)
        row = sim.iloc[deal]
        end = df[df.event.isin(["win", "bao_kan", "exhaustive_draw"])]
        assert len(end) == 1
        e = end.iloc[0]
        if row.outcome == "exhaustive_draw":
            assert e.event == "exhaustive_draw"
        else:
            assert e.seat == row.winner and e.tile_name == row.win_tile, deal
            assert e.bao_kind == row.bao
            assert (e.action == "self_draw") == (row.outcome == "self_draw")


def test_a_bao_kan_deal_is_marked():
    rules = ds.RuleSet(bao_kan_instant=True)
    found = 0
    sim = ds.simulate(3000, rules=rules, strategies=("random",) * 4, seed=44)
    cand = sim[(sim.outcome == "self_draw") & (sim.bao == "bao_in_bao")]
    for deal in cand.deal[:40]:
        df = ds.deal_log(44, int(deal), rules=rules, strategies=("random",) * 4)
        end = df[df.event.isin(["win", "bao_kan"])].iloc[0]
        before = df.iloc[end.step - 1]
        if end.event == "bao_kan":
            found += 1
            assert end.other_tile == -1 and end.tile == end.bao  # won on the new bao, no draw
            assert before.event in ("bao_replaced", "discard", "ready")
        else:  # 宝中宝 on a drawn bao: the drawn tile is the bao's face
            assert before.event in ("draw", "kong_draw") and end.other_tile == before.tile == end.bao
    assert found > 0


def test_mo_bao_shows_the_bao_face():
    sim = ds.simulate(2000, strategies=("random",) * 4, seed=7)
    deal = int(sim[sim.bao == "bao"].deal.iloc[0])
    df = ds.deal_log(7, deal, strategies=("random",) * 4)
    win = df[df.event == "win"].iloc[0]
    assert win.bao_kind == "bao" and win.other_tile == win.bao and win.other_tile != win.tile


def test_python_players_and_json_lines():
    seats = (RandomLegal(), "greedy", RandomLegal(), "random")
    df = ds.deal_log(2, 5, strategies=seats)
    hands, pool, left = _rebuild(df)
    assert (hands.sum(axis=0) + pool + _final(df, "rest") == 4).all()
    lines = to_json_lines(df)
    assert len(lines) == len(df)
    first = json.loads(lines[0])
    assert set(first) == set(COLUMNS) and first["event"] == "deal"
    offers = [json.loads(x) for x in lines if '"claim_offer"' in x]
    assert offers
    assert all(isinstance(o["options"], int) and o["action"] in ACTIONS for o in offers)


def test_cli_replay_json(capsys):
    from daqing_sim.cli import main

    assert main(["replay", "--seed", "0", "--deal", "3", "--strategies", "random", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert sum(r["count"] for r in rows if r["event"] == "final") == 112
    assert CHI_LOW == ACTIONS.index("chi_low")
