"""A series equal to one drawn before is not hidden under it: the legend names the twin and the
marks differ (issue 39 item 7: identical series hid under each other)."""

from __future__ import annotations

import pandas as pd

import daqing_sim as ds
from daqing_sim.analysis import plots


def _twins() -> pd.DataFrame:
    df = ds.simulate(300, rules=ds.RuleSet(family="beijing"), strategies=("greedy",) * 4, seed=4)
    return pd.concat([df.assign(variant="classic"), df.assign(variant="twin")], ignore_index=True)


def _legend(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]


def test_equal_curves_and_values_name_their_twin():
    df = _twins()
    for fig in (plots.plot_tenpai_probability(df), plots.plot_value_distribution(df)):
        labels = _legend(fig)
        assert any("twin" in t and "the same as classic" in t for t in labels), labels
        assert not any(t.startswith("classic") and "the same as" in t for t in labels), labels


def test_different_variants_are_not_called_the_same():
    df = _twins()
    df = df[(df["variant"] == "classic") | (df.index % 2 == 0)]  # the twin keeps half its deals
    labels = _legend(plots.plot_value_distribution(df))
    assert labels and not any("the same as" in t for t in labels), labels
