"""Moved to :mod:`daqing_sim.families.daqing.greedy` (issue 35).
This name stays one round so branches
written against it merge; it is the same module object, so patching either name patches both."""

import sys

from daqing_sim.families.daqing import greedy as _moved

sys.modules[__name__] = _moved
