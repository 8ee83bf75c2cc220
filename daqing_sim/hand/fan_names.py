"""The Chinese names of the Beijing and two-player fans, by code name, from the family specs
(docs/RULES_BEIJING.md, docs/RULES_TWO_PLAYER.md): what the replay and the viewer print beside
the code names. A code name missing here (Beijing's ``plain_win`` and ``last_discard``) has no
Chinese name in the rules.
"""

from __future__ import annotations

from daqing_sim.families import family_spec

BEIJING = {f.code: f.zh for f in family_spec("beijing").fans if f.zh}
TWO_PLAYER = {f.code: f.zh for f in family_spec("two_player").fans if f.zh}
FAMILY_FANS = {"beijing": BEIJING, "two_player": TWO_PLAYER}


def fan_label(family: str, code: str) -> str:
    """``"清一色 chinitsu"``: the Chinese name, when the rules give one, and the code name."""
    zh = FAMILY_FANS.get(family, {}).get(code)
    return f"{zh} {code}" if zh else code


__all__ = ["BEIJING", "TWO_PLAYER", "FAMILY_FANS", "fan_label"]
