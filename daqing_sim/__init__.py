"""daqing_sim: Monte-Carlo statistics and strategy analysis for Daqing mahjong (大庆麻将).

>>> import daqing_sim as ds
>>> ds.analyze_hand("23m456p789s中中 [345m]").ready
True
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# Public name -> module that defines it. Imported lazily so that `import daqing_sim`
# stays fast and a CLI error never waits for numba compilation it does not need.
_EXPORTS = {
    "RuleSet": "rules",
    "unrestricted": "rules",
    "parse_hand": "hand.notation",
    "format_hand": "hand.notation",
    "Hand": "hand.notation",
    "Meld": "hand.notation",
    "tile_name": "hand.tiles",
    "tile_from_name": "hand.tiles",
    "standard_shanten": "hand.evaluator",
    "daqing_shanten": "hand.evaluator",
    "wait_set": "hand.evaluator",
    "analyze_hand": "hand.evaluator",
    "HandAnalysis": "hand.evaluator",
    "Wait": "hand.evaluator",
    "settle": "families.daqing.scoring",
    "settle_detail": "families.daqing.scoring",
    "score_win": "game.score_win",
    "WinScore": "game.score_win",
    "Settlement": "families.daqing.scoring",
    "generate_walls": "game.wall",
    "simulate": "game.simulate",
    "simulate_match": "game.match",
    "replay": "game.replay",
    "replay_html": "reviews.viewer",
    "review": "reviews.core",
    "Review": "reviews.core",
    "deal_log": "game.deal_log",
    "load_results": "experiments.results",
    "summarize": "analysis.summary",
    "write_summary": "analysis.summary",
    "run_experiment": "experiments.runner",
    "load_experiment": "experiments.config",
    "experiment_results": "experiments.runner",
    "tournament": "experiments.tournament",
    "tournament_results": "experiments.tournament",
    "tournament_pairs": "analysis.duplicate",
    "advise": "advisor.api",
    "Player": "players.interface",
    "Observation": "players.interface",
    "Discard": "players.interface",
    "Claim": "players.interface",
    "Kong": "players.interface",
    "DealEnv": "game.env",
    "PlayerError": "game.external",
    "JittedPlayer": "players.user",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'daqing_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
