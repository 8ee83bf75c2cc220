"""Drive a ``ds.DealEnv`` with one Python player at its caller seats (shared by the tests of
Python players under each family)."""

from __future__ import annotations


def drive(env, player):
    """Reset ``env`` and answer every caller decision with ``player``; the deal's result row."""
    obs = env.reset()
    while not env.done:
        if obs.decision == "discard":
            action = player.discard(obs)
        elif obs.decision == "claim":
            action = player.claim(obs, env.legal_actions())
        else:
            action = player.kong(obs, env.legal_actions())
        obs = env.step(action)
    return env.result()
