"""The Chinese names of the Beijing and two-player fans, by code name (docs/RULES_BEIJING.md,
docs/RULES_TWO_PLAYER.md): what the replay and the viewer print beside the code names. A code
name missing here (Beijing's ``plain_win`` and ``last_discard``) has no Chinese name in the rules.
"""

from __future__ import annotations

BEIJING = {
    "all_triplets": "对对和",
    "big_single_wait": "大钓",
    "catch_five": "捉五魁",
    "last_tile": "海底捞月",
    "dragon": "一条龙",
    "seven_pairs": "七对",
    "kong_bloom": "杠上开花",
    "one_suit": "清一色",
    "luxury_seven_pairs": "豪华七对",
}
TWO_PLAYER = {
    "plain_win": "推倒胡",
    "concealed": "门清",
    "riichi": "门清报听",
    "pinfu": "平和",
    "tanyao": "断幺九",
    "tsumo": "门清自摸",
    "flower": "花牌",
    "haitei": "河底捞月",
    "houtei": "河底捞鱼",
    "extra_draw": "海底捞月",
    "double_riichi": "天听",
    "iipeikou": "一杯口",
    "toitoi": "碰碰胡",
    "sanshoku": "三色同顺",
    "sanankou": "三暗刻",
    "honroutou": "混老头",
    "ittsu": "一气通贯",
    "rinshan": "杠上开花",
    "chiitoitsu": "七对子",
    "sanrenkou": "三连刻",
    "sanshoku_doukou": "三色同刻",
    "chanta": "混全带幺",
    "honitsu": "混一色",
    "ryanpeikou": "两杯口",
    "junchan": "纯全带幺",
    "shousangen": "小三元",
    "chinitsu": "清一色",
    "dragon_seven_pairs": "龙七对",
    "tenhou": "天和",
    "chiihou": "地和",
    "renhou": "人和",
    "suuankou": "四暗刻",
    "daisangen": "大三元",
    "shousuushii": "小四喜",
    "daisuushii": "大四喜",
    "tsuuiisou": "字一色",
    "chinroutou": "清老头",
    "suukantsu": "四杠子",
    "ryuuiisou": "绿一色",
    "chuuren": "九莲宝灯",
    "kokushi": "国士无双",
    "daisharin": "大车轮",
    "hyakumangoku": "百万石",
    "suurenkou": "四连刻",
    "benikujaku": "红孔雀",
    "tohoku_shinkansen": "东北新干线",
}
FAMILY_FANS = {"beijing": BEIJING, "two_player": TWO_PLAYER}


def fan_label(family: str, code: str) -> str:
    """``"清一色 chinitsu"``: the Chinese name, when the rules give one, and the code name."""
    zh = FAMILY_FANS.get(family, {}).get(code)
    return f"{zh} {code}" if zh else code


__all__ = ["BEIJING", "TWO_PLAYER", "FAMILY_FANS", "fan_label"]
