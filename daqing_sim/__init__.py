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
    "parse_hand": "notation",
    "format_hand": "notation",
    "Hand": "notation",
    "Meld": "notation",
    "tile_name": "tiles",
    "tile_from_name": "tiles",
    "standard_shanten": "evaluator",
    "daqing_shanten": "evaluator",
    "wait_set": "evaluator",
    "analyze_hand": "evaluator",
    "HandAnalysis": "evaluator",
    "Wait": "evaluator",
    "settle": "scoring",
    "settle_detail": "scoring",
    "Settlement": "scoring",
    "generate_walls": "wall",
    "simulate": "simulate",
    "replay": "replay",
    "load_results": "experiment",
    "summarize": "analysis",
    "write_summary": "analysis",
    "run_experiment": "experiment",
    "load_experiment": "experiment",
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
