"""The two-player rule family's package (see :mod:`daqing_sim.families`)."""
