"""Seeded generator of two-player winning hands drawn from the 136 tiles (four copies of 34 kinds).

Every case is a winning 14-tile hand split into the 13 tiles before the win (concealed counts and
melds) and the winning tile, with a consistent way of winning (docs/RULES_TWO_PLAYER.md, reading
24) and maybe a face-up flower tile. The shapes aim at every pattern and limit hand of the page:
plain random hands (open and concealed), all sequences (平和), one suit with and without honors,
terminal and honor groups (混全带幺, 纯全带幺, 混老头), dragons and winds, all honors, all
terminals, the green and red tile sets, nine gates, 一气通贯 with the 东北 winds, the same
sequence or triplet in three suits, consecutive triplets, repeated sequences, high characters,
seven pairs (with fours, of one suit 2-8), thirteen orphans and kongs. Plain Python (``random``),
no numpy, no ``daqing_sim``; each case is checked with :mod:`reference_two_player` before it is
returned, so every case is a win by the reference's definition.

``TwoPlayerGen(seed, concealed=True)`` draws only concealed hands (melds: concealed kongs) and
only the ways of winning the riichi calculator also knows (no extra draw, no flower tile).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import reference_beijing as RB
import reference_two_player as R

SHAPES = (
    "standard",
    "concealed",
    "pinfu",
    "one_suit",
    "one_suit_honors",
    "outside",
    "terminals_honors",
    "dragons",
    "winds",
    "all_honors",
    "all_terminals",
    "green",
    "red",
    "nine_gates",
    "ittsu",
    "sanshoku",
    "doukou",
    "renkou",
    "peikou",
    "high_characters",
    "seven_pairs",
    "four_pairs",
    "one_suit_pairs",
    "orphans",
    "kongs",
    "ambiguous",
)

# the riichi comparison is about the patterns both define: the common shapes twice as often
COMMON_SHAPES = ("standard", "concealed", "pinfu", "one_suit", "one_suit_honors", "outside", "ittsu")
CONCEALED_SHAPES = SHAPES + COMMON_SHAPES + ("sanshoku", "peikou", "seven_pairs", "ambiguous")
WHOLE = ("nine_gates", "seven_pairs", "four_pairs", "one_suit_pairs", "orphans")


@dataclass(frozen=True)
class Case:
    """One win: the 13 tiles before it, the winning tile, how it was won and the flower tiles."""

    counts: tuple[int, ...]
    melds: tuple[tuple[str, int], ...]
    win_tile: int
    self_draw: bool
    how: tuple[tuple[str, bool], ...]
    flowers: tuple[int, ...]
    shape: str

    def hand(self, honors: str = "z") -> str:
        return RB.notation(self.counts, self.melds, honors)

    def flags(self) -> dict[str, bool]:
        """The ways of winning that are on (``self_draw`` included)."""
        return {"self_draw": self.self_draw, **{k: v for k, v in self.how if v}}


class TwoPlayerGen:
    """``TwoPlayerGen(seed).case()`` draws one :class:`Case`; ``cases(n)`` a list of them."""

    def __init__(self, seed: int, concealed: bool = False) -> None:
        self.rng = random.Random(seed)
        self.concealed = concealed

    # -- pieces drawn from a pool of counts
    def _take(self, pool: list[int], tiles: list[int]) -> bool:
        need = [0] * R.N_KINDS
        for t in tiles:
            need[t] += 1
        if any(n > pool[t] for t, n in enumerate(need) if n):
            return False
        for t, n in enumerate(need):
            pool[t] -= n
        return True

    def _seq(self, suit: int | None = None, ranks=range(7)) -> list[int]:
        s = self.rng.randrange(3) if suit is None else suit
        low = s * 9 + self.rng.choice(list(ranks))
        return [low, low + 1, low + 2]

    def _kind(self, kinds) -> int:
        return self.rng.choice(list(kinds))

    def _any_kind(self, honors: float) -> int:
        if self.rng.random() < honors:
            return 27 + self.rng.randrange(7)
        return self.rng.randrange(27)

    def _build(self, pool, groups_from, pair_from, n: int = 4) -> list[list[int]] | None:
        """``n`` groups from ``groups_from()`` (a tile list or None) and a pair of a kind from
        ``pair_from()``, taken from ``pool``; None when the pool runs dry."""
        groups = []
        for _ in range(n):
            for _try in range(60):
                g = groups_from()
                if g is not None and self._take(pool, g):
                    groups.append(g)
                    break
            else:
                return None
        for _try in range(60):
            t = pair_from()
            if self._take(pool, [t, t]):
                return groups + [[t, t]]
        return None

    # -- shapes: a list of groups (the last is the pair), or None
    def _groups(self, shape: str):
        rng = self.rng
        pool = [4] * R.N_KINDS
        orphans = R.ORPHANS
        suit = rng.randrange(3)

        def mixed(p_seq=0.55, honors=0.2):
            return lambda: self._seq() if rng.random() < p_seq else [self._any_kind(honors)] * 3

        def pair_any(honors=0.2):
            return lambda: self._any_kind(honors)

        if shape in ("standard", "concealed"):
            return self._build(pool, mixed(), pair_any())
        if shape == "pinfu":
            return self._build(pool, lambda: self._seq(), pair_any(0.1))
        if shape == "one_suit":
            return self._build(
                pool, lambda: self._seq(suit) if rng.random() < 0.6 else [suit * 9 + rng.randrange(9)] * 3,
                lambda: suit * 9 + rng.randrange(9),
            )  # fmt: skip
        if shape == "one_suit_honors":
            kinds = [*range(9 * suit, 9 * suit + 9), *range(27, 34)]
            return self._build(
                pool,
                lambda: self._seq(suit) if rng.random() < 0.5 else [self._kind(kinds)] * 3,
                lambda: self._kind(kinds),
            )
        if shape == "outside":
            return self._build(
                pool,
                lambda: self._seq(ranks=(0, 6)) if rng.random() < 0.6 else [self._kind(orphans)] * 3,
                lambda: self._kind(orphans if rng.random() < 0.7 else range(27)),
            )
        if shape == "terminals_honors":
            return self._build(pool, lambda: [self._kind(orphans)] * 3, lambda: self._kind(orphans))
        if shape == "dragons":
            return self._build(
                pool,
                lambda: [self._kind(R.DRAGONS)] * 3 if rng.random() < 0.6 else mixed()(),
                lambda: self._kind(R.DRAGONS) if rng.random() < 0.6 else self._any_kind(0.2),
            )
        if shape == "winds":
            return self._build(
                pool,
                lambda: [self._kind(R.WINDS)] * 3 if rng.random() < 0.7 else mixed()(),
                lambda: self._kind(R.WINDS) if rng.random() < 0.6 else self._any_kind(0.2),
            )
        if shape == "all_honors":
            return self._build(pool, lambda: [27 + rng.randrange(7)] * 3, lambda: 27 + rng.randrange(7))
        if shape == "all_terminals":
            ends = (0, 8, 9, 17, 18, 26)
            return self._build(pool, lambda: [self._kind(ends)] * 3, lambda: self._kind(ends))
        if shape == "green":
            green = sorted(R.GREEN_TILES)
            return self._build(
                pool,
                lambda: [19, 20, 21] if rng.random() < 0.4 else [self._kind(green)] * 3,
                lambda: self._kind(green),
            )
        if shape == "red":
            red = sorted(R.RED_TILES)
            return self._build(pool, lambda: [self._kind(red)] * 3, lambda: self._kind(red))
        if shape == "nine_gates":
            b = suit * 9
            tiles = [b] * 3 + list(range(b + 1, b + 8)) + [b + 8] * 3 + [b + rng.randrange(9)]
            return [tiles]  # one concealed block, no pair given separately
        if shape == "ittsu":
            fixed = [[suit * 9 + r, suit * 9 + r + 1, suit * 9 + r + 2] for r in (0, 3, 6)]
            for g in fixed:
                self._take(pool, g)
            if rng.random() < 0.5:  # 东北新干线: 东 triplet and 北 pair, or the other way round
                trip, pair = (R.EAST, R.NORTH) if rng.random() < 0.5 else (R.NORTH, R.EAST)
                if rng.random() < 0.2:
                    pair = self._any_kind(0.5)
                got = self._build(pool, lambda: [trip] * 3, lambda: pair, n=1)
            else:
                got = self._build(pool, mixed(), pair_any(), n=1)
            return None if got is None else fixed + got
        if shape in ("sanshoku", "doukou"):
            r = rng.randrange(7 if shape == "sanshoku" else 9)
            fixed = (
                [[s * 9 + r, s * 9 + r + 1, s * 9 + r + 2] for s in range(3)]
                if shape == "sanshoku"
                else [[s * 9 + r] * 3 for s in range(3)]
            )
            for g in fixed:
                self._take(pool, g)
            got = self._build(pool, mixed(), pair_any(), n=1)
            return None if got is None else fixed + got
        if shape == "renkou":
            k = rng.choice((3, 3, 4))
            r = rng.randrange(10 - k)
            fixed = [[suit * 9 + r + i] * 3 for i in range(k)]
            for g in fixed:
                self._take(pool, g)
            got = self._build(pool, mixed(), pair_any(), n=4 - k)
            return None if got is None else fixed + got
        if shape == "peikou":
            a = self._seq()
            b = self._seq() if rng.random() < 0.5 else a
            fixed = [a, a] + ([b, b] if rng.random() < 0.6 else [])
            for g in fixed:
                if not self._take(pool, g):
                    return None
            got = self._build(pool, mixed(), pair_any(), n=4 - len(fixed))
            return None if got is None else fixed + got
        if shape == "high_characters":
            return self._build(
                pool,
                lambda: [rng.randrange(4, 9)] * 3 if rng.random() < 0.7 else self._seq(0, range(3, 7)),
                lambda: rng.randrange(3, 9),
            )
        if shape in ("seven_pairs", "four_pairs", "one_suit_pairs"):
            kinds = list(range(9 * suit + 1, 9 * suit + 8)) if shape == "one_suit_pairs" else list(range(34))
            if shape == "one_suit_pairs" and rng.random() < 0.3:
                kinds = list(range(9 * suit, 9 * suit + 9))
            if shape == "seven_pairs" and rng.random() < 0.3:
                kinds = list(R.ORPHANS) + list(range(27, 34))
            quads = rng.choice((1, 1, 2)) if shape == "four_pairs" else int(rng.random() < 0.15)
            chosen = rng.sample(kinds, 7 - quads)
            return [[t] * (4 if i < quads else 2) for i, t in enumerate(chosen)]
        if shape == "orphans":
            return [list(R.ORPHANS) + [self._kind(R.ORPHANS)]]
        if shape == "kongs":
            return self._build(pool, mixed(0.2, 0.3), pair_any())
        # ambiguous: tiles that split several ways (consecutive triplets or equal sequences)
        r = rng.randrange(7)
        if rng.random() < 0.5:
            fixed = [[suit * 9 + r + i] * 3 for i in range(3)]
        else:
            fixed = [[suit * 9 + r + i for i in range(3)]] * 3
        for g in fixed:
            self._take(pool, g)
        got = self._build(pool, mixed(0.6), pair_any(), n=1)
        return None if got is None else fixed + got

    def _melds(self, groups: list[list[int]], shape: str) -> tuple[list[int], list[tuple[str, int]]]:
        """Make some of the (non-pair) groups melds: chi, peng, kongs (fourth copy permitting)."""
        rng = self.rng
        total = [0] * R.N_KINDS
        for g in groups:
            for t in g:
                total[t] += 1
        if shape in WHOLE:  # seven pairs, thirteen orphans, nine gates: concealed tiles only
            return [t for g in groups for t in g], []
        if shape in ("concealed", "pinfu") and rng.random() < 0.8:
            n_open = 0
        else:
            n_open = rng.choice((0, 0, 1, 1, 2, 3, 4))
        if shape == "kongs":
            n_open = rng.choice((2, 3, 4, 4))
        concealed: list[int] = []
        melds: list[tuple[str, int]] = []
        order = list(range(4))
        rng.shuffle(order)
        chosen = set(order[:n_open])
        for i, g in enumerate(groups[:-1]):
            if i not in chosen:
                concealed += g
                continue
            if g[0] != g[1]:
                if self.concealed:
                    concealed += g
                else:
                    melds.append(("chi", g[0]))
                continue
            kong = total[g[0]] == 3 and rng.random() < (0.9 if shape == "kongs" else 0.35)
            if kong:
                total[g[0]] += 1
                if self.concealed or rng.random() < 0.4:
                    melds.append(("concealed_kong", g[0]))
                else:
                    melds.append(("kong", g[0]))
            elif self.concealed:
                concealed += g
            else:
                melds.append(("peng", g[0]))
        concealed += groups[-1]
        return concealed, melds

    def case(self) -> Case:
        while True:
            shape = self.rng.choice(CONCEALED_SHAPES if self.concealed else SHAPES)
            groups = self._groups(shape)
            if groups is None:
                continue
            concealed, melds = self._melds(groups, shape)
            counts = [0] * R.N_KINDS
            for t in concealed:
                counts[t] += 1
            if max(RB.total_counts(counts, melds)) > 4:
                continue
            if not R.is_complete(counts, melds):  # pragma: no cover - the shapes are wins
                raise AssertionError(f"not a win: {RB.notation(counts, melds)}")
            win = self.rng.choice(concealed)
            counts[win] -= 1
            return self._context(tuple(counts), tuple(melds), win, shape)

    def _context(self, counts, melds, win, shape) -> Case:
        rng = self.rng
        has_kong = any(k in ("kong", "concealed_kong") for k, _ in melds)
        opened = any(k != "concealed_kong" for k, _ in melds)
        total = RB.total_counts(counts, melds)
        how: dict[str, bool] = {}
        self_draw = rng.random() < 0.5
        first = not melds and rng.random() < 0.06
        if first:
            how[rng.choice(("tenhou", "renhou")) if self_draw else "chiihou"] = True
        else:
            if rng.random() < 0.35:
                how["declared_first" if not opened and rng.random() < 0.3 else "declared"] = True
            if self_draw:
                if has_kong and not how and rng.random() < 0.4:
                    how["kong_replacement"] = True
                r = rng.random()
                if r < 0.12 and not (self.concealed and how.get("kong_replacement")):
                    how["last_tile"] = True
                elif r < 0.24 and not self.concealed:
                    how["extra_draw"] = True
            else:
                r = rng.random()
                if r < 0.12:
                    how["last_discard"] = True
                elif r < 0.3 and total[win] == 0:
                    how["robbed_kong"] = True  # the other three copies are the robbed kong's
        flowers: tuple[int, ...] = ()
        if not self.concealed and rng.random() < 0.5:
            full = list(total)
            full[win] += 1
            if how.get("robbed_kong"):
                full[win] = 4
            held = [t for t in range(R.N_KINDS) if 0 < full[t] < 4]
            free = [t for t in range(R.N_KINDS) if full[t] < 4]
            flowers = (rng.choice(held if held and rng.random() < 0.7 else free),)
        return Case(counts, melds, win, self_draw, tuple(sorted(how.items())), flowers, shape)

    def cases(self, n: int) -> list[Case]:
        return [self.case() for _ in range(n)]
