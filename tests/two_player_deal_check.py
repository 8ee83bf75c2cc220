"""A move-by-move check of one logged two-player game, written from docs/RULES_TWO_PLAYER.md with
the plain-Python reference (tests/reference_two_player.py) and no engine code: it replays the
game from its wall and event log and asserts at every step what the rules allow or require:

* the dealer holds the wall's first 14 tiles, the other seat the next 13; the flower tiles are the
  wall's 75th on; every draw is the next tile of the front (a kong's replacement: of the back,
  index 70 down), and no tile past the 71st is drawn but in 海底捞月;
* a complete hand after a draw wins at once (天和 on the deal); a discard that completes the
  undeclared opponent's hand is won at once; a declared opponent is offered the win;
* discards and melds use tiles the seat holds; a declared (报听) hand throws every drawn tile that
  does not win and never claims or makes a kong; a declaration leaves a waiting hand;
* claim offers are exactly the rules' options (peng, kong with a replacement tile left, chi; none
  but a win on the last discard); an added kong is robbed when it completes the opponent's hand;
* the extra draws come after the 71 tiles, for the seat waiting longest, from the wall's 72nd
  tile on, at most ``extra_draws``, and stop at a win;
* the win's F and value equal the reference's; the payments sum to zero; the engine's final
  tiles are the wall's 71 and the extra draws.

:func:`check_game` returns the mechanics the game showed, so a test can require each was seen.
"""

from __future__ import annotations

from collections import Counter

import reference_beijing as RB
import reference_two_player as R

EV_DRAW, EV_DISCARD, EV_READY, EV_CLAIM, EV_CONCEALED_KONG, EV_ADDED_KONG = 0, 1, 2, 3, 4, 5
EV_WIN, EV_EXHAUSTIVE, EV_CLAIM_OFFER, EV_WIN_DETAIL = 7, 8, 9, 10
EV_ROBBED_KONG, EV_FLOWER, EV_EXTRA_DRAW = 11, 14, 15
PASS, PENG, KONG, CHI_LOW, CHI_MID, CHI_HIGH, WIN = 0, 1, 2, 3, 4, 5, 6
SELF_DRAW = 0
IN_PLAY, EXTRA_START, FLOWER_START = 71, 71, 74


def _waits(hand, melds) -> bool:
    """Does the 13-tile hand wait? (a completing tile is within two ranks of a held one, or an orphan)"""
    near = set()
    for t, c in enumerate(hand):
        if c:
            near.update([t] if t >= 27 else [x for x in range(t - 2, t + 3) if x // 9 == t // 9 and 0 <= x])
    if not melds:
        near.update(R.ORPHANS)
    total = RB.total_counts(hand, melds)
    for t in sorted(near):
        if total[t] >= 4:
            continue
        hand[t] += 1
        ok = R.is_complete(hand, melds)
        hand[t] -= 1
        if ok:
            return True
    return False


def _complete_with(hand, melds, t) -> bool:
    hand[t] += 1
    ok = R.is_complete(hand, melds)
    hand[t] -= 1
    return ok


def _chi_options(hand, d) -> int:
    if d >= 27:
        return 0
    r = d % 9
    opts = 0
    if r <= 6 and hand[d + 1] and hand[d + 2]:
        opts |= 1 << CHI_LOW
    if 1 <= r <= 7 and hand[d - 1] and hand[d + 1]:
        opts |= 1 << CHI_MID
    if r >= 2 and hand[d - 2] and hand[d - 1]:
        opts |= 1 << CHI_HIGH
    return opts


def _offer(hand, melds, declared, d, at_end, drawable) -> int:
    """The rules' claim options of the opponent on the discard ``d`` (a bit mask)."""
    opts = 0
    if declared and _complete_with(hand, melds, d):
        opts |= 1 << WIN
    if not declared and not at_end:
        if hand[d] >= 2:
            opts |= 1 << PENG
            if hand[d] == 3 and drawable:
                opts |= 1 << KONG
        opts |= _chi_options(hand, d)
    return opts


def check_game(wall, log, row, final, dealer: int, extra_draws: int = 3, flower_tiles: int = 1) -> set[str]:
    """Assert the rules over one game (``row``: the frame's row as a dict); returns what it showed."""
    seen: set[str] = set()
    other = 1 - dealer
    hands = [[0] * 34, [0] * 34]
    melds: list[list[tuple[str, int]]] = [[], []]
    for t in wall[:14]:
        hands[dealer][t] += 1
    for t in wall[14:27]:
        hands[other][t] += 1
    front, back = 27, 70
    declared = [False, False]
    declared_first = [False, False]
    n_discards = [0, 0]
    own_draws = [0, 0]
    since = [-1, -1]
    ticks = 0
    drawn = [-1, -1]
    last = None  # (seat, tile, last_discard)
    flowers = []
    extra = []
    pending_win = None  # the seat that must win next
    expect_offer = 0  # the claim options the last discard must be offered with
    repl = [False, False]  # the seat's last draw was a kong's replacement
    win = None
    events = [tuple(int(x) for x in e) for e in log]
    i = 0
    if R.is_complete(hands[dealer], ()):
        pending_win = dealer
    while i < len(events):
        code, s, t, a, b = events[i]
        i += 1
        if code == EV_READY:  # follows the declaring discard
            assert declared[s]
            continue
        if pending_win is not None and code not in (EV_WIN, EV_CLAIM_OFFER):
            raise AssertionError(f"seat {pending_win} should have won before event {code}")
        if expect_offer and code != EV_CLAIM_OFFER:
            raise AssertionError(f"the discard was not offered (options {expect_offer})")
        if code == EV_FLOWER:
            assert t == wall[FLOWER_START + a] and a < flower_tiles
            flowers.append(t)
            continue
        if code == EV_DRAW:
            assert front <= back, "a draw past the 71 tiles"
            if a:
                assert t == wall[back], "a replacement is the back tile"
                back -= 1
            else:
                assert t == wall[front], "a draw is the front tile"
                front += 1
            assert b == back - front + 1
            hands[s][t] += 1
            own_draws[s] += 1
            drawn[s] = t
            repl[s] = bool(a)
            if R.is_complete(hands[s], melds[s]):
                pending_win = s
            continue
        if code == EV_DISCARD:
            assert hands[s][t] > 0, "a discard the seat holds"
            if declared[s]:
                assert t == drawn[s], "报听 locks the hand: the drawn tile is thrown"
                seen.add("locked_discard")
            hands[s][t] -= 1
            n_discards[s] += 1
            waits = _waits(hands[s], melds[s])
            since[s] = (since[s] if since[s] >= 0 else ticks) if waits else -1
            ticks += 1
            if a:
                assert waits and not declared[s], "a declaration leaves a waiting hand"
                declared[s] = True
                declared_first[s] = n_discards[s] == 1 and not melds[s]
                seen.add("declared")
            drawn[s] = -1
            at_end = front > back
            last = (s, t, at_end)
            o = 1 - s
            if not declared[o] and _complete_with(hands[o], melds[o], t):
                pending_win = o
            else:
                expect_offer = _offer(hands[o], melds[o], declared[o], t, at_end, front <= back)
            continue
        if code == EV_CLAIM_OFFER:
            ds_, d, at_end = last
            o = 1 - ds_
            assert s == o and t == d, "only the opponent is offered the discard"
            opts = expect_offer
            expect_offer = 0
            assert a == opts, f"claim options {a} != the rules' {opts}"
            assert b == PASS or opts >> b & 1
            if opts >> WIN & 1:
                seen.add("win_offer")
                if b == PASS:
                    seen.add("win_passed")
                else:
                    pending_win = o
            continue
        if code == EV_CLAIM:
            o = s
            assert not declared[o]
            d = t
            if a == PENG:
                hands[o][d] -= 2
                melds[o].append(("peng", d))
            elif a == KONG:
                hands[o][d] -= 3
                melds[o].append(("kong", d))
            else:
                low = d - (a - CHI_LOW)
                for x in range(low, low + 3):
                    if x != d:
                        assert hands[o][x] > 0
                        hands[o][x] -= 1
                melds[o].append(("chi", low))
            seen.add("claim")
            continue
        if code == EV_CONCEALED_KONG:
            assert not declared[s] and hands[s][t] == 4 and front <= back
            hands[s][t] -= 4
            melds[s].append(("concealed_kong", t))
            seen.add("kong")
            continue
        if code == EV_ADDED_KONG:
            assert not declared[s] and hands[s][t] == 1 and ("peng", t) in melds[s] and front <= back
            hands[s][t] -= 1
            melds[s][melds[s].index(("peng", t))] = ("kong", t)
            seen.add("kong")
            o = 1 - s
            if _complete_with(hands[o], melds[o], t):
                assert i < len(events) and events[i][0] == EV_ROBBED_KONG, "a completing added kong is robbed"
            continue
        if code == EV_ROBBED_KONG:
            assert _complete_with(hands[s], melds[s], t)
            k = melds[a].index(("kong", t))
            melds[a][k] = ("peng", t)
            seen.add("robbed_kong")
            pending_win = s
            last = (a, t, False)
            continue
        if code == EV_EXTRA_DRAW:
            assert front > back, "extra draws only after the 71 tiles"
            assert since[s] >= 0 and (since[1 - s] < 0 or since[s] < since[1 - s]), "the seat waiting longest"
            assert b == len(extra) < extra_draws and t == wall[EXTRA_START + b]
            extra.append(t)
            hands[s][t] += 1
            won = R.is_complete(hands[s], melds[s])
            assert a == int(won)
            if not won:
                hands[s][t] -= 1
            else:
                pending_win = s
            seen.add("extra_draw")
            continue
        if code == EV_WIN:
            assert s == pending_win, f"the win goes to seat {pending_win}, not {s}"
            win = (s, t, a, b)
            pending_win = None
            continue
        if code == EV_WIN_DETAIL:
            continue
        if code == EV_EXHAUSTIVE:
            assert front > back
            waiting = [k for k in (0, 1) if since[k] >= 0]
            assert (not waiting and not extra) or len(extra) == extra_draws
            seen.add("draw_game")
            continue
        raise AssertionError(f"unknown event {code}")
    assert pending_win is None
    pays = [row["pay_0"], row["pay_1"]]
    assert sum(pays) == 0, "payments sum to zero"
    if win is None:
        assert row["winner"] == -1 and pays == [0, 0]
    else:
        s, t, method, discarder = win
        assert row["winner"] == s
        self_drawn = method == SELF_DRAW
        c13 = list(hands[s])
        if self_drawn:
            c13[t] -= 1
        how = {}
        if self_drawn:
            if not own_draws[dealer] and s == dealer and not extra:
                how["tenhou"] = True
                seen.add("tenhou")
            elif extra:
                how["extra_draw"] = True
            else:
                if front > back:
                    how["last_tile"] = True
                if repl[s]:
                    how["kong_replacement"] = True
                    seen.add("rinshan")
                if s != dealer and own_draws[s] == 1 and not melds[s] and not how.get("kong_replacement"):
                    how = {"renhou": True}
        else:
            robbed = any(e[0] == EV_ROBBED_KONG for e in events)
            if robbed:
                how["robbed_kong"] = True
            elif last[2]:
                how["last_discard"] = True
                seen.add("last_discard")
            if discarder == dealer and n_discards[dealer] == 1 and own_draws[s] == 0 and not melds[s]:
                how = {"chiihou": True}
        if "tenhou" not in how and "chiihou" not in how and "renhou" not in how and declared[s]:
            how["declared"] = True
            if declared_first[s]:
                how["declared_first"] = True
        score = R.score(c13, melds[s], t, self_draw=self_drawn, flowers=flowers, **how)
        assert row["fan_total"] == score.total_fans, (
            f"F {row['fan_total']} != the reference's {score.total_fans}"
        )
        assert row["value"] == score.value, f"value {row['value']} != the reference's {score.value}"
        assert pays[s] == score.value and pays[1 - s] == -score.value
        # the wait of the split scored (平和 two-sided), not another split's (issue 39)
        assert row["wait_kind"] in score.waits, f"wait {row['wait_kind']}, scored split's {score.waits}"
        seen.add("self_draw" if self_drawn else "deal_in")
    tiles = Counter(int(x) for x in wall[:IN_PLAY]) + Counter(extra)
    got = Counter()
    for k in range(final.shape[0]):
        for t in range(34):
            got[t] += int(final[k, t])
    assert +got == +tiles, "the final tiles are the 71 and the extra draws"
    return seen
