"""Seeded generator of Beijing winning hands drawn from the 136 tiles (four copies of 34 kinds).

Every case is a winning 14-tile hand split into the 13 tiles before the win (concealed counts and
melds) and the winning tile, with a consistent way of winning (self-draw or not, last tile, last
discard, kong replacement, robbed kong). The shapes cover four melds and a pair with random
exposed and concealed melds and kongs, seven pairs, luxury seven pairs, one suit, honor-heavy
hands, near-dragon hands (123 456 789 of a suit, parts of it as chi melds), all triplets, four
exposed melds with a single wait, 5m kanchan/single waits, and tiles that split several ways
(where the split worth the most matters). Plain Python (``random``), no
numpy, no ``daqing_sim``; shapes are checked with :mod:`reference_beijing` before a case is
returned, so every case is a win by the reference's definition.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import reference_beijing as R

SHAPES = (
    "standard",
    "seven_pairs",
    "luxury",
    "one_suit",
    "honors",
    "dragon",
    "all_triplets",
    "big_single",
    "five",
    "one_suit_pairs",
    "ambiguous",
)


@dataclass(frozen=True)
class Case:
    """One win: the 13-tile hand before it, the winning tile and how it was won."""

    counts: tuple[int, ...]
    melds: tuple[tuple[str, int], ...]
    win_tile: int
    self_draw: bool
    last_tile: bool
    last_discard: bool
    kong_replacement: bool
    robbed_kong: bool
    shape: str

    def hand(self, honors: str = "z") -> str:
        return R.notation(self.counts, self.melds, honors)

    def flags(self) -> dict[str, bool]:
        return {
            "self_draw": self.self_draw,
            "last_tile": self.last_tile,
            "last_discard": self.last_discard,
            "kong_replacement": self.kong_replacement,
            "robbed_kong": self.robbed_kong,
        }


class BeijingGen:
    """``BeijingGen(seed).case()`` draws one :class:`Case`; ``cases(n)`` a list of them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

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

    def _kinds(self, suit: int | None, honors: float) -> int:
        if suit is not None:
            return suit * 9 + self.rng.randrange(9)
        if self.rng.random() < honors:
            return 27 + self.rng.randrange(7)
        return self.rng.randrange(27)

    def _group(self, pool, p_seq: float, suit: int | None = None, honors: float = 0.2) -> list[int] | None:
        for _ in range(50):
            if self.rng.random() < p_seq:
                s = suit if suit is not None else self.rng.randrange(3)
                low = s * 9 + self.rng.randrange(7)
                tiles = [low, low + 1, low + 2]
            else:
                tiles = [self._kinds(suit, honors)] * 3
            if self._take(pool, tiles):
                return tiles
        return None

    def _pair(self, pool, suit: int | None = None, honors: float = 0.2) -> list[int] | None:
        for _ in range(50):
            t = self._kinds(suit, honors)
            if self._take(pool, [t, t]):
                return [t, t]
        return None

    # -- shapes: (concealed tiles of the 14, melds) or None
    def _standard(
        self,
        p_seq: float = 0.55,
        suit: int | None = None,
        honors: float = 0.2,
        n_melds: int | None = None,
        fixed: list[list[int]] | None = None,
        exposed_only: bool = False,
    ):
        pool = [4] * R.N_KINDS
        groups = []
        for g in fixed or []:
            if not self._take(pool, g):
                return None
            groups.append(g)
        while len(groups) < 4:
            g = self._group(pool, p_seq, suit, honors)
            if g is None:
                return None
            groups.append(g)
        pair = self._pair(pool, suit, honors)
        if pair is None:
            return None
        self.rng.shuffle(groups)
        k = self.rng.choice((0, 0, 1, 1, 2, 2, 3, 4)) if n_melds is None else n_melds
        concealed, melds = list(pair), []
        for i, g in enumerate(groups):
            if i >= k:
                concealed += g
                continue
            if g[0] != g[1]:
                melds.append(("chi", g[0]))
                continue
            kong_ok = pool[g[0]] >= 1
            r = self.rng.random()
            if kong_ok and r < 0.35:
                pool[g[0]] -= 1
                kind = "kong" if exposed_only or self.rng.random() < 0.6 else "concealed_kong"
                melds.append((kind, g[0]))
            else:
                melds.append(("peng", g[0]))
        return concealed, melds

    def _pairs(self, n_quads: int = 0, suit: int | None = None, honors: float = 0.25):
        pool = [4] * R.N_KINDS
        concealed: list[int] = []
        kinds: set[int] = set()
        for _ in range(200):
            if len(concealed) == 14:
                break
            t = self._kinds(suit, honors)
            if t in kinds:
                continue
            quad = n_quads > 0 and len(concealed) <= 10
            tiles = [t] * (4 if quad else 2)
            if self._take(pool, tiles):
                kinds.add(t)
                concealed += tiles
                n_quads -= quad
        return (concealed, []) if len(concealed) == 14 else None

    def _dragon(self):
        s = self.rng.randrange(3)
        straight = [[s * 9 + r, s * 9 + r + 1, s * 9 + r + 2] for r in (0, 3, 6)]
        if self.rng.random() < 0.3:  # near-dragon: one piece shifted
            i = self.rng.randrange(3)
            low = straight[i][0] + self.rng.choice((-1, 1))
            low = min(max(low, s * 9), s * 9 + 6)
            straight[i] = [low, low + 1, low + 2]
        suit = s if self.rng.random() < 0.3 else None
        return self._standard(p_seq=0.6, suit=suit, fixed=straight)

    def _ambiguous(self):
        # tiles that split several ways: three triplets in a row (or three equal sequences), or
        # a straight with a fourth sequence of its suit overlapping it
        s = self.rng.randrange(3)
        if self.rng.random() < 0.5:
            r = self.rng.randrange(7)
            fixed = [[s * 9 + r + k] * 3 for k in range(3)]
        else:
            r = self.rng.randrange(7)
            fixed = [[s * 9 + q, s * 9 + q + 1, s * 9 + q + 2] for q in (0, 3, 6)]
            fixed.append([s * 9 + r, s * 9 + r + 1, s * 9 + r + 2])
        suit = s if self.rng.random() < 0.4 else None
        return self._standard(p_seq=0.6, suit=suit, fixed=fixed, n_melds=self.rng.choice((0, 0, 1)))

    def _five(self):
        # 456m in the concealed part (so 5m may be a kanchan win), or a 5m pair
        fixed = [[3, 4, 5]] if self.rng.random() < 0.7 else [[4, 4, 4]]
        return self._standard(p_seq=0.5, fixed=fixed, n_melds=self.rng.choice((0, 1, 2)))

    def _shape(self, shape: str):
        if shape == "standard":
            return self._standard()
        if shape == "seven_pairs":
            return self._pairs()
        if shape == "luxury":
            return self._pairs(n_quads=self.rng.choice((1, 1, 1, 2)))
        if shape == "one_suit":
            return self._standard(p_seq=0.6, suit=self.rng.randrange(3), honors=0)
        if shape == "one_suit_pairs":
            return self._pairs(n_quads=self.rng.choice((0, 0, 1)), suit=self.rng.randrange(3))
        if shape == "honors":
            return self._standard(p_seq=0.2, honors=0.8)
        if shape == "dragon":
            return self._dragon()
        if shape == "ambiguous":
            return self._ambiguous()
        if shape == "all_triplets":
            return self._standard(p_seq=0.0, honors=0.35)
        if shape == "big_single":
            return self._standard(n_melds=4, exposed_only=self.rng.random() < 0.8)
        return self._five()

    def case(self) -> Case:
        while True:
            shape = self.rng.choice(SHAPES)
            got = self._shape(shape)
            if got is None:
                continue
            concealed, melds = got
            if shape == "five" and 4 in concealed and self.rng.random() < 0.7:
                win = 4
            else:
                win = self.rng.choice(concealed)
            counts = [0] * R.N_KINDS
            for t in concealed:
                counts[t] += 1
            if not R.is_complete(counts, melds):  # pragma: no cover - the shapes are wins
                raise AssertionError(f"not a win: {R.notation(counts, melds)}")
            counts[win] -= 1
            return self._context(tuple(counts), tuple(melds), win, shape)

    def _context(self, counts, melds, win, shape) -> Case:
        rng = self.rng
        has_kong = any(k in ("kong", "concealed_kong") for k, _ in melds)
        self_draw = rng.random() < 0.5
        last_tile = last_discard = kong_replacement = robbed = False
        if self_draw:
            if has_kong and rng.random() < 0.4:
                kong_replacement = True
                last_tile = rng.random() < 0.1  # the replacement was the last drawable tile
            elif rng.random() < 0.2:
                last_tile = True
        else:
            held = R.total_counts(counts, melds)[win]
            if held == 0 and rng.random() < 0.3:
                robbed = True  # the other three copies are the robbed kong's
            elif rng.random() < 0.2:
                last_discard = True
        return Case(counts, melds, win, self_draw, last_tile, last_discard, kong_replacement, robbed, shape)

    def cases(self, n: int) -> list[Case]:
        return [self.case() for _ in range(n)]
