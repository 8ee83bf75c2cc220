"""A move-by-move check of one logged Beijing deal, written from docs/RULES_BEIJING.md with the
plain-Python reference (tests/reference_beijing.py) and no engine code: it replays the deal from
its wall and the event log (the log's row format is docs/DESIGN.md's, its codes below) and
asserts at every step what the rules allow or require:

* every draw is the next tile of the wall's front (a kong's replacement: of its back), and play
  stops exactly when 14 tiles are left undrawn, plus 2 for each kong after the first (荒牌);
* a complete hand after a draw wins at once; a discard that completes another seat's hand is won
  by the first such seat in turn order (截和), also the last discard;
* discards and melds use tiles the seat holds; the last tile drawn and not won is thrown; a seat
  holding the wind the dealer threw first throws it as its own first discard (烧庄 obligation);
* claim offers: the seat holding a pair of the discard first (peng, kong if it holds three and a
  replacement is left), then the next seat's chi options, nothing on the last discard; a kong
  needs a replacement tile;
* an added kong is robbed by the first seat it completes, a concealed one only by a hand whose
  win holds 一条龙;
* 烧庄 rounds, 互包 bindings, the win's fans, F and value, and every seat's payment equal the
  reference's; the payments sum to zero; the engine's final tiles equal the replayed ones.

:func:`check_deal` returns the mechanics the deal showed, so a test can require that each was seen.
"""

from __future__ import annotations

from collections import Counter

import reference_beijing as R

# event codes and fields of the log (docs/DESIGN.md, event log)
EV_DRAW, EV_DISCARD, EV_READY, EV_CLAIM, EV_CONCEALED_KONG, EV_ADDED_KONG = 0, 1, 2, 3, 4, 5
EV_WIN, EV_EXHAUSTIVE, EV_CLAIM_OFFER, EV_WIN_DETAIL = 7, 8, 9, 10
EV_ROBBED_KONG, EV_MUTUAL_BAO, EV_BURN = 11, 12, 13
PASS, PENG, KONG, CHI_LOW, CHI_MID, CHI_HIGH = 0, 1, 2, 3, 4, 5
SELF_DRAW, DEAL_IN = 0, 1
DEALT, N_TILES, DEAD_WALL = 53, 136, 14
FAN_NAMES = (
    "all_triplets",
    "big_single_wait",
    "catch_five",
    "last_tile",
    "dragon",
    "seven_pairs",
    "kong_bloom",
    "one_suit",
    "luxury_seven_pairs",
    "plain_win",
    "last_discard",
)


class _Replay:
    def __init__(self, wall, log, dealer):
        self.wall = [int(t) for t in wall]
        self.log = [tuple(int(x) for x in row) for row in log]
        self.i = 0
        self.dealer = dealer
        self.hands = [[0] * 34 for _ in range(4)]
        self.melds: list[list[tuple[str, int]]] = [[] for _ in range(4)]
        pos = 0
        for k in range(4):
            s = (dealer + k) % 4
            for _ in range(14 if k == 0 else 13):
                self.hands[s][self.wall[pos]] += 1
                pos += 1
        self.front, self.back = DEALT, N_TILES - 1
        self.kongs = 0
        self.claims: list[tuple[int, int]] = []
        self.claimed = False
        self.order: list[int] = []  # discards in order until the first claim (烧庄)
        self.first: list[int | None] = [None] * 4
        self.pool = [0] * 34
        self.seen: Counter = Counter()
        self.win_tile_held: tuple[int, int] | None = None  # a self-drawn win tile, still in hand

    # ---- reading the log
    def next(self, code, what):
        assert self.i < len(self.log), f"the log ends where {what} was due"
        ev = self.log[self.i]
        assert ev[0] == code, f"event {self.i}: {ev} where {what} (code {code}) was due"
        self.i += 1
        return ev

    def peek(self):
        return self.log[self.i][0] if self.i < len(self.log) else None

    # ---- the wall
    def undrawn(self):
        return self.back - self.front + 1

    def limit(self):
        return R.wall_end_tiles(self.kongs, DEAD_WALL)

    def burn_rounds(self):
        n = len(self.order) // 4
        return R.burn_rounds([self.order[4 * k : 4 * k + 4] for k in range(n)])

    def complete_with(self, s, t):
        c = list(self.hands[s])
        c[t] += 1
        return R.is_complete(c, self.melds[s])


def _meld_bits(opts):
    return {a for a in range(6) if opts >> a & 1}


def check_deal(wall, log, row, final=None, dealer=0):
    """Replay one Beijing deal (default rules) and assert it followed the rules; returns a
    Counter of the mechanics seen. ``row`` is the deal's row of the Beijing results frame,
    ``final`` (6, 34) the engine's final tiles."""
    g = _Replay(wall, log, dealer)
    cur, mode, drawn, at_end = dealer, "none", -1, False
    result = None
    while result is None:
        if mode != "none":
            if g.undrawn() <= g.limit():
                g.next(EV_EXHAUSTIVE, "the end of the wall (荒牌)")
                g.seen["exhaustive"] += 1
                result = ("draw",)
                break
            ev = g.next(EV_DRAW, f"seat {cur}'s draw")
            from_back = mode == "back"
            tile = g.wall[g.back] if from_back else g.wall[g.front]
            assert ev[1:4] == (cur, tile, int(from_back)), f"draw {ev}: expected seat {cur} tile {tile}"
            if from_back:
                g.back -= 1
            else:
                g.front += 1
            assert ev[4] == g.undrawn()
            g.hands[cur][tile] += 1
            drawn, at_end = tile, g.undrawn() <= g.limit()
            if R.is_complete(g.hands[cur], g.melds[cur]):  # RULES: 推倒和 — the win is taken
                ev = g.next(EV_WIN, f"seat {cur}'s self-drawn win")
                assert ev[1:5] == (cur, tile, SELF_DRAW, -1), ev
                g.hands[cur][tile] -= 1
                g.win_tile_held = (cur, tile)
                result = ("self_draw", cur, tile, from_back, at_end)
                g.seen["self_draw"] += 1
                g.seen["kong_bloom"] += from_back
                g.seen["last_tile_win"] += at_end
                break
        else:
            drawn, at_end = -1, False
        may_kong = mode != "none" or (g.i == 0 and cur == dealer)  # own draw, or the dealer's start
        code = g.peek()
        if code in (EV_CONCEALED_KONG, EV_ADDED_KONG):
            ev = g.next(code, "a kong")
            assert ev[1] == cur
            t = ev[2]
            assert may_kong, f"event {g.i - 1}: a kong where none may be declared (after a chi or peng)"
            assert g.undrawn() > DEAD_WALL + 2 * g.kongs, "a kong without a replacement tile left"
            concealed = code == EV_CONCEALED_KONG
            if concealed:
                assert g.hands[cur][t] == 4, "a concealed kong needs four tiles in hand"
                g.hands[cur][t] -= 4
                g.melds[cur].append(("concealed_kong", t))
            else:
                assert ("peng", t) in g.melds[cur] and g.hands[cur][t] >= 1, "an added kong needs a peng"
                g.hands[cur][t] -= 1
                g.melds[cur][g.melds[cur].index(("peng", t))] = ("kong", t)
            robber = None
            for k in (1, 2, 3):  # RULES: 抢杠 — the first seat the kong tile completes
                s = (cur + k) % 4
                if g.complete_with(s, t) and (
                    not concealed or R.may_rob_concealed_kong(g.hands[s], g.melds[s], t)
                ):
                    robber = s
                    break
            if robber is not None:
                ev = g.next(EV_ROBBED_KONG, f"seat {robber} robbing the kong")
                assert ev[1:5] == (robber, t, cur, int(concealed)), ev
                ev = g.next(EV_WIN, "the robbed kong's win")
                assert ev[1:5] == (robber, t, DEAL_IN, cur), ev
                if concealed:
                    g.melds[cur].remove(("concealed_kong", t))
                    g.hands[cur][t] += 3
                else:
                    g.melds[cur][g.melds[cur].index(("kong", t))] = ("peng", t)
                g.pool[t] += 1
                result = ("robbed", robber, t, cur)
                g.seen["robbed_concealed_kong" if concealed else "robbed_added_kong"] += 1
                break
            g.kongs += 1
            g.seen["kong"] += 1
            mode = "back"
            continue
        ev = g.next(EV_DISCARD, f"seat {cur}'s discard")
        assert ev[1] == cur
        d = ev[2]
        assert g.hands[cur][d] > 0, f"seat {cur} discards {R.tile_name(d)} it does not hold"
        if at_end and drawn >= 0:  # RULES: the last tile, not won, is thrown at once
            assert d == drawn, "the last tile drawn must be thrown"
            g.seen["last_tile_thrown"] += 1
        w = g.first[dealer]
        if cur != dealer and g.first[cur] is None and w is not None:
            if R.must_follow_wind(w, g.hands[cur], True):  # RULES: 烧庄 obligation
                assert d == w, f"seat {cur} must throw the dealer's wind {R.tile_name(w)} first"
                g.seen["wind_obligation"] += 1
        g.hands[cur][d] -= 1
        g.pool[d] += 1
        if g.first[cur] is None:
            g.first[cur] = d
        if not g.claimed:
            before = g.burn_rounds()
            g.order.append(d)
            if g.burn_rounds() > before:
                ev = g.next(EV_BURN, "a 烧庄 round")
                assert ev[1:4] == (dealer, d, g.burn_rounds()), ev
                g.seen["burn_round"] += 1
        last = g.undrawn() <= g.limit()
        winner = None
        for k in (1, 2, 3):  # RULES: 截和
            s = (cur + k) % 4
            if g.complete_with(s, d):
                winner = s
                break
        if winner is not None:
            ev = g.next(EV_WIN, f"seat {winner}'s win on the discard")
            assert ev[1:5] == (winner, d, DEAL_IN, cur), ev
            result = ("deal_in", winner, d, cur, last)
            g.seen["deal_in"] += 1
            g.seen["last_discard_win"] += last
            break
        if last:  # RULES: only a win may claim the last discard
            assert g.peek() != EV_CLAIM_OFFER, "a claim offered on the last discard"
            cur, mode = (cur + 1) % 4, "front"
            continue
        offers = []
        for k in (1, 2, 3):
            s = (cur + k) % 4
            if g.hands[s][d] >= 2:
                opts = 1 << PENG
                if g.hands[s][d] == 3 and g.undrawn() > DEAD_WALL + 2 * g.kongs:
                    opts |= 1 << KONG
                offers.append((s, opts))
                break
        nxt = (cur + 1) % 4
        chi = R.claim_options(g.hands[nxt], g.melds[nxt], d, from_left=True)["chi"]
        chi_bits = sum(1 << (CHI_LOW + d - low) for low in chi)
        if chi_bits:
            offers.append((nxt, chi_bits))
        claimer = None
        for s, opts in offers:  # RULES: peng/kong before chi
            ev = g.next(EV_CLAIM_OFFER, f"the claim offer to seat {s}")
            assert ev[1:4] == (s, d, opts), f"offer {ev}: expected seat {s} options {opts:b}"
            answer = ev[4]
            assert answer == PASS or answer in _meld_bits(opts), f"answer {answer} not offered"
            if answer != PASS:
                claimer = (s, answer)
                break
        if claimer is None:
            cur, mode = (cur + 1) % 4, "front"
            continue
        s, action = claimer
        ev = g.next(EV_CLAIM, f"seat {s}'s claim")
        assert ev[1:5] == (s, d, action, cur), ev
        g.pool[d] -= 1
        if action == PENG:
            g.hands[s][d] -= 2
            g.melds[s].append(("peng", d))
        elif action == KONG:
            g.hands[s][d] -= 3
            g.melds[s].append(("kong", d))
        else:
            low = d - (action - CHI_LOW)
            for x in (low, low + 1, low + 2):
                if x != d:
                    g.hands[s][x] -= 1
            g.melds[s].append(("chi", low))
        assert min(g.hands[s]) >= 0
        bound_before = R.bindings(g.claims)
        g.claims.append((s, cur))
        g.claimed = True
        g.seen["claim"] += 1
        if len(R.bindings(g.claims)) > len(bound_before):
            ev = g.next(EV_MUTUAL_BAO, "a 互包 binding")
            assert ev[1:4] == (s, -1, cur), ev
            g.seen["mutual_binding"] += 1
        if action == KONG:
            g.kongs += 1
            g.seen["kong"] += 1
            cur, mode = s, "back"
        else:
            cur, mode = s, "none"
    if result[0] != "draw":
        g.next(EV_WIN_DETAIL, "the win's detail")
    assert g.i == len(g.log), f"{len(g.log) - g.i} events after the end of the deal"
    _check_row(g, result, row, dealer)
    if final is not None:
        _check_final(g, final)
    return g.seen


def _check_row(g, result, row, dealer):
    pays = [int(row[f"pay_{s}"]) for s in range(4)]
    assert sum(pays) == 0, f"payments {pays} do not sum to zero"
    rounds = g.burn_rounds()
    assert int(row["burn_rounds"]) == rounds
    if result[0] == "draw":
        assert int(row["winner"]) == -1 and pays == [0, 0, 0, 0], "a drawn deal pays nothing"
        return
    kind, winner, tile = result[0], result[1], result[2]
    melds = g.melds[winner]
    counts13 = list(g.hands[winner])
    kw = {"self_draw": kind == "self_draw"}
    if kind == "self_draw":
        kw.update(kong_replacement=result[3], last_tile=result[4])
    elif kind == "deal_in":
        kw.update(last_discard=result[4])
    else:
        kw.update(robbed_kong=True)
    sc = R.score(counts13, melds, tile, **kw)
    assert int(row["winner"]) == winner and int(row["fan_total"]) == sc.total_fans, (row, sc)
    assert int(row["value"]) == sc.value
    fans = {name for name in FAN_NAMES if row[f"fan_{name}"]}
    assert any(fans == set(t) for t in sc.tied), (fans, sc.tied)
    partner = R.bound_partner(winner, R.bindings(g.claims))
    if kind == "self_draw":
        expected = R.payments(sc.value, winner, self_draw=True, bound_partner=partner)
    elif kind == "deal_in":
        expected = R.payments(sc.value, winner, self_draw=False, discarder=result[3], bound_partner=partner)
    else:
        expected = R.payments(sc.value, winner, self_draw=False, robbed_from=result[3], bound_partner=partner)
    burn = R.burn_payments(rounds, dealer)
    assert pays == [a + b for a, b in zip(expected, burn, strict=True)], (pays, expected, burn)
    g.seen["mutual_payment"] += partner is not None
    g.seen["burn_paid"] += rounds > 0
    for name in fans:
        g.seen[f"fan_{name}"] += 1


def _check_final(g, final):
    for s in range(4):
        total = R.total_counts(g.hands[s], g.melds[s])
        if g.win_tile_held is not None and g.win_tile_held[0] == s:
            total[g.win_tile_held[1]] += 1
        assert [int(x) for x in final[s]] == total, f"seat {s}'s final tiles differ from the replay"
    assert [int(x) for x in final[4]] == g.pool, "the unclaimed discards differ from the replay"
