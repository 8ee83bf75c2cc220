"""``ds.replay_html``: one deal as a self-contained HTML replay viewer.

The page is built from the deal's :func:`~daqing_sim.game.deal_log.deal_log` (the same kernel run
as :func:`daqing_sim.simulate`): the table after every move is computed here in Python
(:func:`daqing_sim.render.states.table_states`) and stored in the page as JSON; the page's script
only draws it (:mod:`daqing_sim.render.viewer`). CLI: ``daqing-sim replay --html FILE``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from daqing_sim.codes import FAMILIES, OUTCOMES, family_title
from daqing_sim.families import family_spec
from daqing_sim.game.deal_log import SEATS, logged_deal, result_row, settlement
from daqing_sim.game.engine import O_BIG, O_OUTCOME, O_PAY, O_WINNER
from daqing_sim.render.states import table_states
from daqing_sim.render.viewer import viewer_page
from daqing_sim.rules import RuleSet
from daqing_sim.validation import atomic_write_bytes

#: each family's name at the start of a title ("Two-player")
TITLES = {f: family_title(f)[:1].upper() + family_title(f)[1:] for f in FAMILIES}


def _settlement(row: np.ndarray, rules: RuleSet, dealer: int, names) -> dict | None:
    if OUTCOMES[row[O_OUTCOME]] == "exhaustive_draw":
        return None
    if "value" in family_spec(rules.family).columns:  # a win settled as F and a value
        win = result_row(row, rules, dealer, names)
        win.pop("frame")
        win["fans"] = [[label, int(n)] for label, n in win["fans"]]
        return win
    winner = int(row[O_WINNER])
    st = settlement(row, winner, rules, dealer)
    pays = [int(row[O_PAY + s]) for s in range(4)]
    if pays != [int(x) for x in st.payments]:  # pragma: no cover - scoring and kernel agree (test_scoring)
        raise AssertionError(
            f"settlement {list(st.payments)} disagrees with the kernel's {pays}: please report it"
        )
    return {
        "winner": winner,
        "payments": pays,
        "fans": {str(s): names for s, names in st.fans.items()},
        "owed": {str(s): int(v) for s, v in st.owed.items()},
        "big": bool(row[O_BIG]),
        "pays_all": bool(st.pays_all),
        "method": st.method,
    }


def replay_payload(
    seed: int,
    deal: int,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] | None = None,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
) -> dict[str, Any]:
    """What the viewer page draws (see :func:`replay_html`): title, family, seats, states,
    settlement."""
    df, row = logged_deal(seed, deal, rules, strategies, dealer, knobs)
    return payload_of_log(df, row, rules)


def payload_of_log(df, row: np.ndarray, rules: RuleSet) -> dict[str, Any]:
    """:func:`replay_payload` of a deal's event frame ``df`` (``attrs``: seed, deal, dealer,
    strategies, family) and its result row, however it was played (e.g. a ``DealEnv`` deal)."""
    seed, deal, dealer, names = (df.attrs[k] for k in ("seed", "deal", "dealer", "strategies"))
    changed = rules.changed()
    sub = f"dealer seat {dealer}; strategies {', '.join(names)}"
    if changed:
        sub += "; rules " + ", ".join(f"{k}={v}" for k, v in changed.items())
    family = df.attrs["family"]
    return {
        "title": f"{TITLES[family]} deal {deal} of seed {seed}",
        "subtitle": sub,
        "family": family,
        "seats": list(names)[: SEATS[family]],
        "dealer": dealer,
        "states": table_states(df, dealer, family),
        "settlement": _settlement(row, rules, dealer, names),
        "dead_wall": getattr(rules, "dead_wall_tiles", 14),
        "log": df,
    }


def replay_html(
    seed: int,
    deal: int,
    rules: RuleSet = RuleSet(),
    strategies: Sequence[Any] | None = None,
    dealer: int = 0,
    knobs: Sequence[Mapping[str, float] | None] | None = None,
    path: str | os.PathLike | None = None,
) -> str:
    """Deal ``deal`` of ``seed`` as one self-contained HTML replay viewer (no network needed).

    Any rule family. The page shows the hands (four, or two) with the drawn tile apart, melds
    (the claimed tile sideways, concealed kongs face down outside), ponds (摸打 and the
    ready-declaring discard marked), the wall count, the claim offers and answers, and the win
    with its fans and payments; under Daqing the bao (seen by each ready seat), under Beijing
    the 烧庄 rounds, the 互包 bindings and a robbed kong, for two players the flower tiles, 报听,
    the declared hand's choice to win or pass and the extra draws of 海底捞月. A "show hidden"
    toggle shows or hides the hands (and the bao). Every label is drawn with the project's own
    glyphs, so the page looks the same on a machine without a CJK font. Step with the buttons,
    the arrow keys or the slider; ``FILE#move=N`` opens at move N.

    Parameters
    ----------
    seed, deal : int
        Identify the deal, as in the ``deal`` column of :func:`daqing_sim.simulate`.
    rules, strategies, dealer, knobs
        As given to :func:`daqing_sim.simulate` (no strategies: the family's default field, as
        :func:`daqing_sim.replay`).
    path : str or path-like, optional
        Where to write the page (atomically); it is returned either way.

    Returns
    -------
    str
        The HTML document.

    Examples
    --------
    >>> import daqing_sim as ds
    >>> page = ds.replay_html(0, 3, strategies=("random",) * 4)
    >>> page.startswith("<!DOCTYPE html>"), "http://" in page or "https://" in page
    (True, False)
    """
    return write_page(replay_payload(seed, deal, rules, strategies, dealer, knobs), path)


def write_page(payload: dict[str, Any], path: str | os.PathLike | None = None) -> str:
    """The viewer page of ``payload`` (:func:`replay_payload`), written to ``path`` if given."""
    page = viewer_page(payload)
    if path is not None:
        path = Path(path)
        if path.is_dir():
            raise ValueError(f"path {str(path)!r} is a directory: give a file name such as replay.html")
        if not path.parent.exists():
            raise ValueError(f"the folder of {str(path)!r} does not exist: create it first")
        atomic_write_bytes(path, page.encode("utf-8"))
    return page


__all__ = ["replay_html", "replay_payload", "payload_of_log", "write_page"]
