"""Reviews of a seat's decisions in one deal: what each option was worth, the chosen and the best
move, and the value lost (:func:`daqing_sim.reviews.core.review`), for the terminal, the replay
viewer (:mod:`daqing_sim.reviews.viewer`) and ``daqing-sim play``.

A package above ``search``: every decision is valued by the search's decision evaluator
(:class:`daqing_sim.search.evaluator.Evaluator`) on the deal replayed move by move from its event log.
"""
