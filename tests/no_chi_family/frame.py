"""The no-chi family's results frame: Daqing's columns and builder."""

from daqing_sim.families.daqing.frame import results_frame

__all__ = ["results_frame"]
