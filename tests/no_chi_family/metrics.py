"""The no-chi family's metrics: Daqing's, on a frame of Daqing's columns."""

import daqing_sim.analysis  # noqa: F401  (first: Daqing's metrics module cannot be the first import of it)
from daqing_sim.families.daqing.metrics import plots, summarize

__all__ = ["plots", "summarize"]
