"""Count the modules outside ``daqing_sim/families/`` that hold family-specific code (not part of
the package), for issue 35's before/after figure:

    python tools/family_code_count.py CHECKOUT      # the count, then one module per line

A module counts when its code (comments and triple-quoted strings dropped) names a family
(``"beijing"``, ``"two_player"``, ``family == "daqing"``) or a family's modules (``families.<name>``,
the old ``hand.beijing``, ``deal_*``, ``frame_*``, ``players.beijing*`` ... paths); a module that
only aliases a moved one (``sys.modules[__name__] = ...``, or ``import *`` re-exports) does not.
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from pathlib import Path

PATTERN = re.compile(
    r"""["']beijing["']|["']two_player["']|family\s*[!=]=\s*["']daqing["']|families\.(daqing|beijing|two_player)"""
    r"""|hand\.beijing|hand\.two_player|deal_beijing|deal_two_player|deal_daqing|frame_beijing|frame_two_player"""
    r"""|players\.beijing|players\.two_player|game\.beijing|import (beijing|two_player)"""
    r"""|\bbeijing_|\btwo_player_"""
)


def family_modules(checkout: Path) -> list[str]:
    root = checkout / "daqing_sim"
    hits = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(checkout)
        if rel.parts[1] == "families":
            continue
        src = path.read_text(encoding="utf-8")
        if "sys.modules[__name__]" in src or "import *  # noqa: F403" in src:
            continue
        tokens = [
            t.string
            for t in tokenize.generate_tokens(io.StringIO(src).readline)
            if t.type != tokenize.COMMENT
        ]
        code = " ".join(s for s in tokens if not s.startswith(('"""', "'''", 'r"""')))
        if PATTERN.search(code):
            hits.append(str(rel))
    return hits


if __name__ == "__main__":
    found = family_modules(Path(sys.argv[1]))
    print(len(found))
    print("\n".join(found))
