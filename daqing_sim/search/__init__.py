"""Looking ahead by simulation: the decision evaluator (:mod:`daqing_sim.search.evaluator`) and the
``search`` player (:mod:`daqing_sim.search.player`).

A package of its own, outside ``game`` and ``players``: the engine's cache check
(``game.engine._drop_stale_cache``) recompiles the engine when a module there changes, and the
engine does not call this code (the search player decides outside the batch kernel).
"""
