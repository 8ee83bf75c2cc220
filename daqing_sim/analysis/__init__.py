"""Statistics and plots on results frames: ``from daqing_sim import analysis as an``.

Modules: :mod:`~daqing_sim.analysis.intervals` (scipy-based intervals),
:mod:`~daqing_sim.analysis.estimators` (ready, waits, outcomes, payments, risk, paired
differences, strategies), :mod:`~daqing_sim.analysis.families` (rule families in a frame, the
Beijing estimators: 听牌, fan types, values, 烧庄, 互包, robbed kongs; figures across families),
:mod:`~daqing_sim.analysis.duplicate` (duplicate tournaments: per-wall
means, t intervals over walls), :mod:`~daqing_sim.analysis.summary` (the registry of summary
metrics, ``summary.csv``, prose formatting) and :mod:`~daqing_sim.analysis.plots` (the
only one importing matplotlib, loaded on first use of a ``plot_*`` name).

>>> from daqing_sim import analysis as an
>>> an.format_ci(0.5, 0.4, 0.6)
'0.50 (95% CI 0.40 to 0.60)'
"""

from __future__ import annotations

import importlib
from typing import Any

from daqing_sim.analysis.duplicate import *  # noqa: F403
from daqing_sim.analysis.duplicate import __all__ as _duplicate_all
from daqing_sim.analysis.estimators import *  # noqa: F403
from daqing_sim.analysis.estimators import __all__ as _estimators_all
from daqing_sim.analysis.families import *  # noqa: F403
from daqing_sim.analysis.families import __all__ as _families_all
from daqing_sim.analysis.intervals import *  # noqa: F403
from daqing_sim.analysis.intervals import __all__ as _intervals_all
from daqing_sim.analysis.summary import *  # noqa: F403
from daqing_sim.analysis.summary import __all__ as _summary_all

_PLOTS = (
    "plot_ready_probability",
    "plot_wait_kinds",
    "plot_payment_distribution",
    "plot_expected_payment",
    "plot_paired_difference",
    "plot_strategy_results",
    "plot_net_result",
    "plot_deal_length",
    "plot_tenpai_probability",
    "plot_fan_types",
    "plot_value_distribution",
    "plot_two_player_patterns",
    "plot_beijing_events",
    "plot_family_readiness",
    "plot_family_comparison",
    "plot_family_fans",
    "plot_family_gains",
)

__all__ = [*_intervals_all, *_estimators_all, *_families_all, *_duplicate_all, *_summary_all, *_PLOTS]


def __getattr__(name: str) -> Any:
    if name in _PLOTS:
        return getattr(importlib.import_module("daqing_sim.analysis.plots"), name)
    raise AttributeError(f"module 'daqing_sim.analysis' has no attribute {name!r}")
