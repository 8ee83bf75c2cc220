"""The plots' CJK font holds every fan and pattern name, so figures show the rule sets' Chinese
names (not empty boxes) on a machine without a CJK font."""

from __future__ import annotations

import re
import warnings

from fontTools.ttLib import TTFont

import daqing_sim as ds
from daqing_sim.analysis import families as fam
from daqing_sim.analysis import plots
from daqing_sim.hand import fan_names

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def test_plot_font_holds_every_fan_name():
    cmap = TTFont(plots.TILE_FONT).getBestCmap()
    names = [*fan_names.BEIJING.values(), *fan_names.TWO_PLAYER.values(), "役满"]
    names += [name for name, _ in fam.TWO_PLAYER_FANS.values()]
    missing = sorted({c for name in names for c in CJK.findall(name) if ord(c) not in cmap})
    assert not missing, f"the plot font lacks {''.join(missing)}: run tools/extract_glyphs.py"


def test_two_player_pattern_plot_names_patterns_in_chinese_first():
    df = ds.simulate(400, rules=ds.RuleSet(family="two_player"), strategies=("greedy", "greedy"), seed=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = plots.plot_two_player_patterns(df)
        fig.canvas.draw()
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels() if t.get_text()]
    assert labels and all(CJK.match(label) for label in labels), labels
    assert any(label.startswith("门清 concealed") for label in labels), labels
    assert not [w for w in caught if "missing from" in str(w.message)], [str(w.message) for w in caught]
