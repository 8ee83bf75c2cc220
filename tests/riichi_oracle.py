"""The PyPI ``mahjong`` package (a riichi hand calculator) as the outside oracle of the two-player
fan evaluator, on the patterns both define (docs/RULES_TWO_PLAYER.md, "Against the riichi hand
calculator").

The calculator returns the yaku of the split of a hand that *riichi* values most, which need not
be the split worth the most here. So every split is scored by the calculator on its own: its
divider's splits of the hand, and for each the groups the winning tile can have completed, each
one run through ``HandCalculator.estimate_hand_value`` with the divider and the winning-group
search restricted to that one (``unittest.mock.patch``; the calculator's own yaku checks, guards
and yakuman masking all run). :func:`compare` then asks whether the evaluator's patterns, in the
common vocabulary and with the documented definitions that differ mapped, are those of one of the
calculator's splits. Nothing here imports ``daqing_sim``.
"""

from __future__ import annotations

from collections.abc import Sequence
from unittest.mock import patch

import reference_beijing as RB
from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld

# the calculator's yaku (class names) -> the code names here; unlisted ones (yakuhai, sankantsu,
# dora, ippatsu) have no pattern here and are dropped
YAKU = {
    "Tsumo": "tsumo",
    "Chankan": "tsumo",  # a robbed kong is scored as a self-draw here (reading 5)
    "Riichi": "riichi",
    "DaburuRiichi": "double_riichi",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Ryanpeikou": "ryanpeikou",
    "Chiitoitsu": "chiitoitsu",
    "Toitoi": "toitoi",
    "Sanshoku": "sanshoku",
    "Sanankou": "sanankou",
    "SanshokuDoukou": "sanshoku_doukou",
    "Honroto": "honroutou",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Junchan": "junchan",
    "Honitsu": "honitsu",
    "Chinitsu": "chinitsu",
    "Shosangen": "shousangen",
    "Rinshan": "rinshan",
    "Haitei": "haitei",
    "Houtei": "houtei",
    "Suuankou": "suuankou",
    "SuuankouTanki": "suuankou",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "DaiSuushii": "daisuushii",
    "Tsuuiisou": "tsuuiisou",
    "Chinroutou": "chinroutou",
    "Suukantsu": "suukantsu",
    "Ryuuiisou": "ryuuiisou",
    "DaburuChuurenPoutou": "chuuren",  # the pure nine gates
    "ChuurenPoutou": "impure_chuuren",  # not a pattern here (reading 22)
    "KokushiMusou": "kokushi",
    "DaburuKokushiMusou": "kokushi",
    "Daisharin": "daisharin",
    "Tenhou": "tenhou",
    "Chiihou": "renhou",  # riichi's chiihou is the first self-draw: 人和 here (reading 25)
    "RenhouYakuman": "chiihou",  # riichi's renhou is a win before one's first draw: 地和 here
}
COMMON_LIMITS = {
    "suuankou", "daisangen", "shousuushii", "daisuushii", "tsuuiisou", "chinroutou", "suukantsu",
    "ryuuiisou", "chuuren", "kokushi", "daisharin", "tenhou", "chiihou", "renhou",
}  # fmt: skip
COMMON = {
    "tsumo", "riichi", "double_riichi", "pinfu", "tanyao", "iipeikou", "ryanpeikou", "chiitoitsu",
    "toitoi", "sanshoku", "sanankou", "sanshoku_doukou", "honroutou", "ittsu", "chanta", "junchan",
    "honitsu", "chinitsu", "shousangen", "rinshan", "haitei", "houtei",
} | COMMON_LIMITS  # fmt: skip
OWN_LIMITS = {"hyakumangoku", "suurenkou", "benikujaku", "tohoku_shinkansen"}  # not riichi's


def riichi_kind(t: int) -> int:
    """Our tile kind in the calculator's 34 order (東南西北 白發中 after the suits)."""
    if t < 27:
        return t
    return {28: 27, 29: 28, 30: 29, 31: 30, 32: 31, 33: 32, 27: 33}[t]


def to_136(c14: Sequence[int], melds) -> tuple[list[int], list[Meld], int | None]:
    """The calculator's 136-tile list (concealed tiles and concealed kongs), its melds, and the
    next unused copy of each kind (to pick the winning tile's copy)."""
    used = [0] * 34
    tiles: list[int] = []
    out_melds = []

    def take(t: int, n: int) -> list[int]:
        k = riichi_kind(t)
        got = [4 * k + used[k] + i for i in range(n)]
        used[k] += n
        return got

    for kind, low in melds:
        assert kind == "concealed_kong", "the oracle takes concealed hands only"
        ts = take(low, 4)
        tiles += ts
        out_melds.append(Meld(meld_type=Meld.KAN, tiles=ts, opened=False))
    for t in range(34):
        tiles += take(t, c14[t])
    return tiles, out_melds, used


def _config(flags: dict[str, bool]) -> HandConfig:
    return HandConfig(
        is_tsumo=flags.get("self_draw", False),
        is_riichi=flags.get("declared", False) and not flags.get("declared_first", False),
        is_daburu_riichi=flags.get("declared_first", False),
        is_rinshan=flags.get("kong_replacement", False),
        is_chankan=flags.get("robbed_kong", False),
        is_haitei=flags.get("last_tile", False),
        is_houtei=flags.get("last_discard", False),
        is_tenhou=flags.get("tenhou", False),
        is_chiihou=flags.get("renhou", False),
        is_renhou=flags.get("chiihou", False),
        player_wind=EAST if flags.get("tenhou") else SOUTH,
        round_wind=EAST,
        options=OptionalRules(has_daisharin_other_suits=True, renhou_as_yakuman=True, has_open_tanyao=True),
    )


def _names(resp) -> set[str]:
    if resp.error == HandCalculator.ERR_NO_YAKU:
        return set()
    if resp.error:
        raise AssertionError(f"the riichi calculator refused the hand: {resp.error}")
    return {YAKU[type(y).__name__] for y in resp.yaku if type(y).__name__ in YAKU}


def riichi_splits(counts13: Sequence[int], melds, win: int, flags: dict[str, bool]) -> list[dict]:
    """Each split of the calculator: ``{"yaku": our names, "pairs": seven pairs?, "chi": any
    sequence?, "pair": our kind of the pair or -1}``."""
    c14 = list(counts13)
    c14[win] += 1
    tiles, riichi_melds, _ = to_136(c14, melds)
    k = riichi_kind(win)
    win_136 = max(t for t in tiles if t // 4 == k and not any(t in m.tiles for m in riichi_melds))
    tiles_34 = [0] * 34
    for t in tiles:
        tiles_34[t // 4] += 1
    divisions = HandDivider.divide_hand(tiles_34, riichi_melds)
    out = []
    if not divisions:  # thirteen orphans is the calculator's "exception hand", outside the divisions
        resp = HandCalculator.estimate_hand_value(tiles, win_136, melds=riichi_melds, config=_config(flags))
        if resp.error == HandCalculator.ERR_HAND_NOT_WINNING:
            return []  # e.g. seven pairs holding four identical tiles: no riichi win
        return [{"yaku": _names(resp), "pairs": False, "chi": False, "pair": -1}]
    back = {riichi_kind(t): t for t in range(34)}
    for div in divisions:
        pairs = len(div) == 7
        chi = any(len(g) == 3 and g[0] != g[1] for g in div)
        pair = next((back[g[0]] for g in div if len(g) == 2), -1)
        for wg in HandCalculator._find_win_groups(win_136, div, []):
            with (
                patch.object(HandDivider, "divide_hand", lambda *a, _d=div: [_d]),
                patch.object(HandCalculator, "_find_win_groups", lambda *a, _w=wg: [_w]),
            ):
                resp = HandCalculator.estimate_hand_value(
                    tiles, win_136, melds=riichi_melds, config=_config(flags)
                )
            out.append({"yaku": _names(resp), "pairs": pairs, "chi": chi, "pair": pair})
    return out


def expected(split: dict) -> set[str] | str:
    """Our patterns (common vocabulary) for one calculator split, the documented differences
    mapped; a string names a difference that leaves nothing to compare."""
    yaku = set(split["yaku"])
    for name, shown, why in (
        ("impure_chuuren", True, "nine gates not waiting on all nine"),
        ("tsuuiisou", split["pairs"], "seven pairs of honors"),
    ):
        if name in yaku and shown:  # not a limit hand here: only other limit hands compare
            yaku.discard(name)
            if not yaku & COMMON_LIMITS:
                return why
    if "pinfu" in yaku and split["pair"] >= 27:
        yaku.discard("pinfu")  # riichi's pinfu takes a guest wind pair; no honor pair here
    if not split["chi"] and not split["pairs"] and "honroutou" in yaku and not yaku & COMMON_LIMITS:
        yaku.add("chanta")  # no sequence needed here: all triplets of terminals and honors
    return yaku & COMMON


def compare(c14: Sequence[int], melds, ours: dict[str, int], splits: list[dict]) -> tuple[str, str]:
    """``("agree", how)``, ``("differs", why)`` for a documented difference (then the evaluator's
    own reading of it is checked), or ``("disagree", detail)``."""
    names = set(ours)
    four_pairs = not melds and 4 in c14 and all(c % 2 == 0 for c in c14)
    if four_pairs and (not splits or names & {"chiitoitsu", "dragon_seven_pairs", "daisharin"}):
        return "differs", "seven pairs with four identical tiles"  # no such riichi reading
    options = [expected(s) for s in splits]
    mine = names & COMMON
    own_limit = bool(names & OWN_LIMITS)
    sets = [e for e in options if not isinstance(e, str)]
    shown = [e if isinstance(e, str) else sorted(e) for e in options]
    detail = f"ours {sorted(names)}, riichi's splits {shown}"
    if own_limit:  # a limit hand riichi does not know: compare the limit hands both know
        if any(e & COMMON_LIMITS == mine & COMMON_LIMITS for e in sets):
            return "agree", "own limit hand"
        return "disagree", detail
    if mine in sets:
        return "agree", "one split" if len(options) == 1 else "several splits"
    for e in options:
        if isinstance(e, str):  # the evaluator must read it its own way
            if e.startswith("nine gates"):
                ok = "chuuren" not in names and "chinitsu" in names
            else:
                ok = "tsuuiisou" not in names and "chiitoitsu" in names
            if ok:
                return "differs", e
    return "disagree", detail


def hand_text(counts13, melds) -> str:
    return RB.notation(counts13, melds)
