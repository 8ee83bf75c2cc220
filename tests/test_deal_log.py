"""The structured event log: hands, wall and tiles rebuilt from ``deal_log`` alone."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

import daqing_sim as ds
from daqing_sim.codes import CHI_LOW, N_KINDS, N_KINDS_ALL
from daqing_sim.game.deal_log import ACTIONS, COLUMNS, to_json_lines
from daqing_sim.game.simulate import simulate_walls
from daqing_sim.game.wall import N_LIVE, TP_DEALT, TP_EXTRA_START, TP_IN_PLAY, generate_walls
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
        if r["action"] == "win":  # two-player: a declared hand takes the win offered
            nxt = rows[i + 1]
            assert nxt["event"] == "win" and nxt["seat"] == r["seat"] and nxt["action"] == "deal_in"
        elif r["action"] != "pass":
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


# --- two-player games: two seats, flowers, 报听 and the win-or-pass choice, 海底捞月 -------------

TWO = ds.RuleSet(family="two_player")
# experts that pass a deal-in win of fewer than 6 fans whatever is left: declared hands then pass
PASSING = ({"pass_below": 6, "pass_min_left": 0},) * 2
TWO_CASES = [  # (rules, strategies, knobs, seed, deals, what the deals must show)
    # expert1: it takes kongs on discards, so its logs hold claims (expert2 claims nothing concealed)
    (TWO, ("expert1", "expert1"), None, 1, 60, {"win offer win", "extra_draw"}),
    (TWO, ("expert1", "expert1"), PASSING, 3, 60, {"win offer pass", "extra_draw"}),
    (
        ds.RuleSet(family="two_player", flower_tiles=3, extra_draws=1),
        ("greedy", "random"),
        None,
        2,
        60,
        set(),
    ),
]


def _rebuild_two(df, wall):
    """The two hands, the unclaimed discards and the tiles put aside, from the event rows alone,
    checked against the wall: the deal, the flowers, every draw from the front or the back (kong
    replacements) and every extra draw in its place."""
    hands = np.zeros((2, N_KINDS_ALL), dtype=np.int64)
    pool = np.zeros(N_KINDS_ALL, dtype=np.int64)
    aside = np.zeros(N_KINDS_ALL, dtype=np.int64)
    front, back, n_deal, flowers, extra = TP_DEALT, TP_IN_PLAY - 1, 0, 0, 0
    dealer = df.attrs["dealer"]
    for r in df[df.event != "final"].itertuples():
        ev, s, t = r.event, r.seat, r.tile
        if ev == "deal":
            assert s == (dealer if n_deal < 14 else 1 - dealer) and t == wall[n_deal]
            n_deal += 1
            hands[s, t] += 1
        elif ev == "flower":
            assert t == wall[TP_EXTRA_START + 3 + flowers] and r.count == flowers + 1
            flowers += 1
        elif ev == "draw":
            assert t == wall[front]
            front += 1
            hands[s, t] += 1
        elif ev == "kong_draw":
            assert t == wall[back]
            back -= 1
            hands[s, t] += 1
        elif ev == "extra_draw":
            assert front > back and t == wall[TP_EXTRA_START + extra] and r.count == extra + 1
            extra += 1
            (hands[s] if r.options else aside)[t] += 1
        elif ev == "discard":
            hands[s, t] -= 1
            pool[t] += 1
        elif ev == "claim":
            pool[t] -= 1
            hands[s, t] += 1
        elif ev == "robbed_kong":
            pool[t] += 1  # the kong's fourth tile, robbed: it lies with the discards
            hands[r.from_seat, t] -= 1
        assert r.wall_left == back - front + 1, (r.step, ev)
        assert (hands >= 0).all() and (pool >= 0).all()
    assert n_deal == TP_DEALT
    return hands, pool, aside, back - front + 1


def _final_all(df, place, seat=-1):
    rows = df[(df.event == "final") & (df.place == place) & (df.seat == seat)]
    out = np.zeros(N_KINDS_ALL, dtype=np.int64)
    out[rows.tile.to_numpy()] = rows["count"].to_numpy()
    return out


@pytest.mark.parametrize("rules, strategies, knobs, seed, n, shows", TWO_CASES)
def test_a_two_player_log_rebuilds_the_game_and_agrees_with_its_frame_row(
    rules, strategies, knobs, seed, n, shows
):
    sim = ds.simulate(n, rules=rules, strategies=strategies, knobs=knobs, seed=seed)
    walls, _, _ = generate_walls(n, seed, family="two_player")
    seen = set()
    for deal in range(n):
        df = ds.deal_log(seed, deal, rules=rules, strategies=strategies, knobs=knobs)
        assert tuple(df.columns) == COLUMNS and df.attrs["family"] == "two_player"
        assert set(df.seat[df.event == "deal"]) == {0, 1}
        hands, pool, aside, left = _rebuild_two(df, walls[deal])
        assert (df.event == "flower").sum() == rules.flower_tiles
        for s in range(2):
            assert (hands[s] == _final_all(df, "hand", s)).all(), (deal, s)
        assert (pool == _final_all(df, "pool")).all()
        assert _final_all(df, "rest").sum() == left + aside.sum()
        extra = df[df.event == "extra_draw"]
        # every tile somewhere once: the 71 in play, and the extra draws
        assert int(df.loc[df.event == "final", "count"].sum()) == TP_IN_PLAY + len(extra)
        _check_offers(df)
        row = sim.iloc[deal]
        assert len(extra) == row.extra_draws and extra.options.sum() == int(row.extra_draw_win)
        for s in range(2):
            declared = df[(df.event == "ready") & (df.seat == s)]
            assert len(declared) == (row[f"declared_turn_{s}"] >= 0)
            if len(declared):  # 报听 follows its discard; the seat stays declared to the end
                i = declared.step.iloc[0]
                after = (df.step >= i) & (df.seat == s) & (df.event != "final")
                assert df.event.iloc[i - 1] == "discard" and df.ready[after].all()
        offers = df[(df.event == "claim_offer") & (df.options & (1 << ACTIONS.index("win")) != 0)]
        for o in offers.itertuples():  # a win is offered to a declared hand only
            assert df.ready.iloc[o.step] and o.action in ("win", "pass")
            seen.add(f"win offer {o.action}")
        end = df[df.event.isin(["win", "exhaustive_draw"])]
        assert len(end) == 1 and len(df[df.event == "bao"]) == 0
        e = end.iloc[0]
        if row.outcome == "exhaustive_draw":
            assert e.event == "exhaustive_draw"
        else:
            assert e.seat == row.winner and e.tile_name == row.win_tile, deal
            assert (e.action == "self_draw") == (row.outcome == "self_draw")
        seen.update(str(x) for x in df.event.unique())
    assert {"flower", "ready", "win", "claim"} | shows <= seen


def test_the_log_ends_as_the_frame_row_of_each_family():
    """deal_log's result row read by the family's frame builder is simulate's row (payments, winner,
    fans); the JSON lines give the log back."""
    from daqing_sim.game.deal_log import logged_deal, result_row

    for rules, seed, deal, knobs in (
        (TWO, 3, 0, PASSING),
        (ds.RuleSet(family="beijing"), 5, 1597, None),
    ):
        walls, _, seeds = generate_walls(1, seed, deal, family=rules.family)
        sim = simulate_walls(walls, seeds, rules, knobs=knobs, first_deal=deal).iloc[0]
        df, row = logged_deal(seed, deal, rules, None, 0, knobs)
        win = result_row(row, rules, 0, df.attrs["strategies"])
        frame = win["frame"].iloc[0].drop(["deal"])
        pd.testing.assert_series_equal(frame, sim.drop(["deal"]), check_names=False)
        assert win["winner"] == sim.winner and sum(win["payments"]) == 0
        assert win["payments"] == [sim[f"pay_{s}"] for s in range(len(win["payments"]))]
        fans = {c[4:] for c in sim.index if c.startswith("fan_") and c != "fan_total" and sim[c]}
        assert len(win["fans"]) == len(fans) > 0
        assert all(any(label.endswith(code) for label, _ in win["fans"]) for code in fans)
        back = pd.read_json(io.StringIO("\n".join(to_json_lines(df))), lines=True)
        assert back.event.tolist() == df.event.astype(str).tolist()
        assert back.tile.tolist() == df.tile.tolist() and back["count"].tolist() == df["count"].tolist()


def test_two_player_json_lines_and_the_cli(capsys):
    from daqing_sim.cli import main

    assert main(["replay", "--seed", "3", "--deal", "0", "--rules", "family=two_player", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert {r["seat"] for r in rows if r["event"] == "deal"} == {0, 1}
    assert [r["event"] for r in rows].count("flower") == 1
    log = ds.deal_log(3, 0, rules=TWO)
    assert [r["event"] for r in rows] == log.event.astype(str).tolist()
    assert (
        sum(r["count"] for r in rows if r["event"] == "final")
        == TP_IN_PLAY + (log.event == "extra_draw").sum()
    )
