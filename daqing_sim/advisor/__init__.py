"""The hand advisor: which tile to discard (or whether to claim), with ready and win odds and
the expected 2^N value. The public entry is :func:`daqing_sim.advise` (:mod:`.api`)."""
