"""One constructed wall per mechanic: the deal is built so the rule must fire.

Seats play the ``scripted`` strategy (discard the scripted tiles, else the tile just drawn;
claim only when told) so every move is forced; a rule flag flipped on the same wall shows
the mechanic changes the outcome.
"""

from __future__ import annotations

import numpy as np
import pytest

from daqing_sim.codes import CHI_MID, CLAIM_KONG, CLAIM_PENG
from daqing_sim.families.daqing.scoring import settle
from daqing_sim.game.engine import (
    EV_CLAIM,
    EV_CONCEALED_KONG,
    EV_DISCARD,
    EV_DRAW,
    EV_READY,
    O_FINAL_BAO,
)
from daqing_sim.game.simulate import results_frame, run_walls
from daqing_sim.game.wall import LIVE_START, compose_wall
from daqing_sim.hand.notation import parse_hand
from daqing_sim.hand.tiles import tile_from_name
from daqing_sim.players.registry import encode_strategies
from daqing_sim.rules import RuleSet

JUNK = "1479m1258p3569s中"  # 13 tiles, far from ready


def T(text: str) -> list[int]:
    """Tile kinds of a notation string, in written order."""
    return list(parse_hand(text, require_full=False).order)


def tile(name: str) -> int:
    return tile_from_name(name)


def scripted(script: str = "", claim: int = 0, kong: int = 0):
    return ("scripted", {"script": script, "claim": claim, "kong": kong})


def build(hands, bao, front="", back="", place=None, dealer=0):
    """Wall from hand strings by seat; ``place`` maps live-wall draw index -> tile name."""
    wall = compose_wall(
        [T(h) for h in hands], tile(bao), T(front) if front else [], T(back) if back else [], dealer=dealer
    )
    for i, name in (place or {}).items():
        pos = LIVE_START + i
        want = tile(name)
        if wall[pos] != want:
            # swap a spare copy from the unassigned part of the live wall into place
            spare = [
                p
                for p in range(
                    LIVE_START + len(T(front)) if front else LIVE_START,
                    len(wall) - len(T(back)) if back else len(wall),
                )
                if wall[p] == want and p != pos
            ]
            assert spare, f"no spare {name} left in the wall"
            wall[spare[0]], wall[pos] = wall[pos], wall[spare[0]]
    return wall


def play(wall, strategies, rules=RuleSet(), dealer=0):  # noqa: B008
    """Play one wall; returns (row dict, events list of tuples, raw out row)."""
    names, codes, knobs = encode_strategies(strategies)
    raw = run_walls(
        wall[None, :],
        np.array([7], dtype=np.uint64),
        rules,
        codes,
        knobs,
        dealer,
        record_log=True,
        record_final=True,
    )
    row = results_frame(raw["out"], 0, dealer, names).iloc[0].to_dict()
    events = [tuple(int(x) for x in e) for e in raw["log"]]
    assert (raw["final"][0].sum(axis=0) == 4).all(), "tiles lost or duplicated"
    return row, events, raw["out"][0]


def claims(events, seat=None):
    return [e for e in events if e[0] == EV_CLAIM and (seat is None or e[1] == seat)]


PASSIVE = (scripted(),) * 4
OPEN_FREE = RuleSet(require_open=False)


def test_exhaustive_draw_pays_nothing():
    wall = build([JUNK + "9p", "2468m2468p2468s中", "1357m1357p1357s中", JUNK], "5s")
    row, events, _ = play(wall, PASSIVE)
    assert row["outcome"] == "exhaustive_draw"
    assert row["draws"] == 58
    assert [row[f"pay_{s}"] for s in range(4)] == [0, 0, 0, 0]
    assert [row[f"fans_{s}"] for s in range(4)] == [-1, -1, -1, -1]
    assert row["winner"] == -1 and row["win_tile"] != row["win_tile"]  # NaN


READY_1 = "123m456p789s111s9p"  # ready: single wait on 9p


def test_open_door_required():
    wall = build([JUNK + "9m", READY_1, "2468m2468p2468s中", "1357m1357p1357s中"], "5s", front="5m")
    closed, _, _ = play(wall, PASSIVE)
    assert closed["ready_turn_1"] == -1  # RULES: 开门 — a concealed hand may not declare
    opened, events, _ = play(wall, PASSIVE, OPEN_FREE)
    assert opened["ready_turn_1"] == 1
    assert (EV_DISCARD, 1, tile("5m"), 1, 1) in events


def test_first_seat_in_turn_order_wins_and_not_ready_discarder_pays_all():
    # seats 2 (single 9p) and 3 (78p: 6p/9p) both declare ready; the dealer then discards 9p
    hands = ["1479m1258p3568s中8s", "2468m2467p2468s中", READY_1, "234m78p999s345s55m"]
    front = "中1s5m9p"
    row, events, _ = play(build(hands, "5s", front=front), PASSIVE, OPEN_FREE)
    assert row["ready_turn_2"] == 1 and row["ready_turn_3"] == 1
    assert row["winner"] == 2  # RULES: 截和, the first ready seat after the discarder
    assert row["outcome"] == "deal_in_not_ready" and row["discarder"] == 0
    pays = [row[f"pay_{s}"] for s in range(4)]
    assert pays[1] == 0 and pays[3] == 0 and pays[0] == -pays[2] < 0  # RULES: 点黑炮 -> 包庄
    expected = settle(
        2,
        0,
        "deal_in",
        discarder=0,
        discarder_ready=False,
        big=bool(row["big"]),
        concealed=[bool(row[f"concealed_{s}"]) for s in range(4)],
    )
    assert pays == expected.tolist()
    # without seat 2 waiting, seat 3 takes the same discard
    hands[2] = "1357m1357p1357s中"
    row3, _, _ = play(build(hands, "5s", front=front), PASSIVE, OPEN_FREE)
    assert row3["winner"] == 3 and row3["discarder"] == 0


def test_fourth_meld_refused():
    # seat 1 pengs 1m, 2p, 3s from the dealer; the dealer's 9m would be a fourth meld
    hands = [
        "1m2p3s9m467m58p5689s中",
        "11m22p33s99m5p7s中4m8p",
        "1m2p5m6m8m1p3p7p9p2s4s中7m",
        "3s9m4567p6789p12s5s",
    ]
    strategies = (scripted("1m2p3s9m"), scripted("5p7s中", claim=1), scripted(), scripted())
    wall = build(hands, "5s")
    row, events, _ = play(wall, strategies)
    got = [(e[2], e[3]) for e in claims(events, 1)]
    assert got == [(tile("1m"), CLAIM_PENG), (tile("2p"), CLAIM_PENG), (tile("3s"), CLAIM_PENG)]
    row, events, _ = play(wall, strategies, RuleSet(min_concealed_at_ready=1))
    got = [(e[2], e[3]) for e in claims(events, 1)]
    assert got[3] == (tile("9m"), CLAIM_PENG)  # allowed once 手把一 is permitted


def _ready_draw_discards(events):
    """(draw, discard) pairs of seats after they declared ready."""
    ready_seats = set()
    pairs = []
    last_draw = {}
    for e in events:
        if e[0] == EV_READY:
            ready_seats.add(e[1])
        elif e[0] == EV_DRAW:
            last_draw[e[1]] = e[2]
        elif e[0] == EV_DISCARD and e[1] in ready_seats:
            pairs.append((last_draw.get(e[1]), e[2]))
    return pairs


def test_locked_hand_discards_its_draw():
    from daqing_sim.game.wall import generate_walls

    walls, _, seeds = generate_walls(40, seed=3)
    names, codes, knobs = encode_strategies(("greedy",) * 4)
    locked_pairs, free_pairs = [], []
    for w, s in zip(walls, seeds, strict=True):
        for rules, acc in ((RuleSet(), locked_pairs), (RuleSet(lock_after_ready=False), free_pairs)):
            raw = run_walls(w[None], np.array([s]), rules, codes, knobs, record_log=True)
            acc += _ready_draw_discards([tuple(int(x) for x in e) for e in raw["log"]])
    assert len(locked_pairs) > 50
    assert all(d == x for d, x in locked_pairs)  # RULES: lock_after_ready
    assert any(d != x for d, x in free_pairs)  # unlocked ready hands do change


# seat 1 is ready on a 5p kanchan; the other 5p and every 中 (the bao) are hidden in hands
DEALER = "1479m1248p3568s中8s"
KANCHAN_1 = "123m46p789s111s99m"
HIDE_2 = "5p5p2468m27p2468s中"
HIDE_3 = "5p中1357m1369p345s"


@pytest.mark.parametrize("index, wins", [(53, True), (54, False)])
def test_no_claim_in_the_last_four(index, wins):
    # draw `index` (seat 2 for 53, seat 3 for 54) is the last 5p; its holder discards it at once
    wall = build([DEALER, KANCHAN_1, HIDE_2, HIDE_3], "中", front="2s", place={index: "5p"})
    row, events, _ = play(wall, PASSIVE, OPEN_FREE)
    assert row["ready_turn_1"] == 1
    if wins:
        assert row["winner"] == 1 and row["outcome"] == "deal_in_not_ready"
        assert row["discarder"] == 2
    else:  # RULES: 荒庄前最后四张 — 4 live tiles before that draw: not even a win
        assert row["winner"] == -1 and row["outcome"] == "exhaustive_draw"
    # the flag moves the boundary
    row5, _, _ = play(wall, PASSIVE, RuleSet(require_open=False, last_tiles_no_claim=5))
    assert row5["winner"] == -1


def test_bao_wild_after_ready_and_plain_before():
    # seat 1 draws the bao (7s) before declaring: a plain tile, discarded (declaring ready);
    # its next draw is the bao again: wild, wins as the 5p kanchan (摸宝)
    wall = build([DEALER, KANCHAN_1, HIDE_2, HIDE_3], "7s", front="7s1m2m3m7s")
    row, events, _ = play(wall, PASSIVE, OPEN_FREE)
    assert row["ready_turn_1"] == 1
    assert (EV_DISCARD, 1, tile("7s"), 1, 1) in events
    assert row["winner"] == 1 and row["outcome"] == "self_draw"
    assert row["bao"] == "bao" and row["win_tile"] == "5p" and row["big"]
    assert row["draws"] == 5


def test_bao_drawn_at_face_value_is_bao_in_bao():
    wall = build([DEALER, KANCHAN_1, "5p9p2468m27p2468s中", HIDE_3], "5p", front="2s1m2m3m5p")
    row, _, _ = play(wall, PASSIVE, OPEN_FREE)
    assert row["winner"] == 1 and row["bao"] == "bao_in_bao" and row["big"]
    assert row["win_tile"] == "5p" and row["draws"] == 5


def test_bao_replacement_on_third_visible_copy():
    # three 9s are discarded early; the third visible 5p (the bao) moves the bao to the last
    # live tile, a 9s, itself three visible, so it moves again, to 7s
    hands = ["1479m128p356s9s5p中中", "2468m23468p246s中", "1357m137p1357s中9p", "2468m2468p2468s7p"]
    wall = build(hands, "5p", front="9s9s5p1m5p", back="9s7s")
    strategies = (scripted("9s5p"), scripted(), scripted(), scripted())
    row, events, out = play(wall, strategies)
    assert row["bao_replacements"] == 2
    assert out[O_FINAL_BAO] == tile("7s")
    row_off, _, out_off = play(wall, strategies, RuleSet(bao_replacement=False))
    assert row_off["bao_replacements"] == 0 and out_off[O_FINAL_BAO] == tile("5p")


def test_bao_kan_wins_at_once():
    # seat 1 pengs the dealer's 9s and discards 中: ready on a 2m kanchan, and the bao is 2m
    hands = ["1479m1258p356s9s中8s", "99s13m456p789p22p中", "2468m2468p2468s中", "1357m1357p357s中1s"]
    wall = build(hands, "2m")
    strategies = (scripted("9s"), scripted("中", claim=1), scripted(), scripted())
    row, events, _ = play(wall, strategies, RuleSet(bao_kan_instant=True))
    assert row["winner"] == 1 and row["outcome"] == "self_draw"  # RULES: 宝卡
    assert row["bao"] == "bao_in_bao" and row["big"] and row["win_tile"] == "2m"
    assert row["draws"] == 0
    row_off, _, _ = play(wall, strategies)
    assert row_off["ready_turn_1"] == 0 and row_off["draws"] > 0


def test_kong_replacement_from_the_back():
    # seat 1 kongs the dealer's 7s (exposed kong); seat 2 draws its fourth 8p (concealed kong)
    hands = ["7s1479m1256p356s中9p", "777s2468m246p2s中1p", "888p1357m137p3s中9s", "1479m1257p3569s中"]
    wall = build(hands, "9s", front="8p", back="3m6m")
    strategies = (scripted("7s"), scripted(claim=1), scripted(kong=1), scripted())
    row, events, _ = play(wall, strategies)
    first = claims(events, 1)[0]
    assert first[2:4] == (tile("7s"), CLAIM_KONG)
    i = events.index(first)
    assert events[i + 1][:4] == (EV_DRAW, 1, tile("3m"), 1)  # from the back
    assert events[i + 3][:4] == (EV_DRAW, 2, tile("8p"), 0)  # the front is untouched
    assert events[i + 4][:3] == (EV_CONCEALED_KONG, 2, tile("8p"))
    assert events[i + 5][:4] == (EV_DRAW, 2, tile("6m"), 1)


def test_chi_only_from_previous_seat():
    # seat 2 holds 46p: the dealer's 5p may not be chi'd by seat 2 (not its 上家), seat 1's may
    hands = ["5p1479m128p3569s中9p", "2468m2468p2468s中", "46p1357m13579s1p9p", "5p5p1479m3568s中2p8p"]
    wall = build(hands, "9s", front="5p")
    strategies = (scripted("5p"), scripted(), scripted(claim=1), scripted())
    row, events, _ = play(wall, strategies)
    c = claims(events)
    assert c and c[0][1:5] == (2, tile("5p"), CHI_MID, 1)  # from seat 1, never seat 0


CHI_READY_2 = "46p123m111s99p57m9s"  # chi 5p, discard 9s: ready on a 6m kanchan


@pytest.mark.parametrize("flag", [False, True])
def test_chi_any_seat_for_ready(flag):
    hands = ["5p4789m128p3568s中9s", "2468m2468p2468s中", CHI_READY_2, "3m3m7p7p2s3s5s7s中中1p8m8m"]
    wall = build(hands, "9s", front="6s")
    strategies = (scripted("5p"), scripted(), scripted(claim=1), scripted())
    row, events, _ = play(wall, strategies, RuleSet(chi_any_seat_for_ready=flag))
    from_dealer = [e for e in claims(events, 2) if e[4] == 0]
    if flag:  # RULES: 上听吃三家
        assert from_dealer and from_dealer[0][2:4] == (tile("5p"), CHI_MID)
        assert row["ready_turn_2"] == 0  # declared on the discard right after the chi
        assert (EV_DISCARD, 2, tile("9s"), 1, 1) in events
    else:
        assert not from_dealer


def test_chi_any_seat_only_when_it_makes_ready():
    hands = ["5p4789m128p3568s中9s", "2468m2468p2468s中", "46p123m11s99p579m9s", "3m3m7p7p2s3s5s7s中中1p8m8m"]
    wall = build(hands, "9s", front="6s")
    strategies = (scripted("5p"), scripted(), scripted(claim=1), scripted())
    _, events, _ = play(wall, strategies, RuleSet(chi_any_seat_for_ready=True))
    assert not [e for e in claims(events, 2) if e[4] == 0]


@pytest.mark.parametrize("lock", [True, False])
def test_bao_wild_on_a_kong_replacement_draw(lock):
    # seat 1 is ready (5p kanchan, 111s); it draws the fourth 1s. Unlocked it may kong
    # (the hand stays ready) and its replacement from the back is the bao (7s): 摸宝.
    # Locked, it must discard the 1s.
    wall = build([DEALER, KANCHAN_1, HIDE_2, HIDE_3], "7s", front="2s1m2m3m1s", back="7s")
    strategies = (scripted(), scripted(kong=1), scripted(), scripted())
    row, events, _ = play(wall, strategies, RuleSet(require_open=False, lock_after_ready=lock))
    assert row["ready_turn_1"] == 1
    if lock:  # RULES: a locked hand declares no kong
        assert (EV_DISCARD, 1, tile("1s"), 0) in [e[:4] for e in events]
        assert not any(e[0] == EV_CONCEALED_KONG for e in events)
    else:
        assert any(e[:3] == (EV_CONCEALED_KONG, 1, tile("1s")) for e in events)
        assert row["winner"] == 1 and row["bao"] == "bao" and row["win_tile"] == "5p"
        assert row["draws"] == 6 and row["winner_kongs"] == 1
