"""Split (issue 35: a family is a package): the 34-kind shapes are :mod:`daqing_sim.hand.kinds34`
(shared by Beijing and two-player), Beijing's fans :mod:`daqing_sim.families.beijing.hand`. This
name stays one round so branches written against it merge."""

from daqing_sim.families.beijing.hand import *  # noqa: F403
from daqing_sim.hand.kinds34 import *  # noqa: F403
