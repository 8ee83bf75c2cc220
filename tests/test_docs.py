"""The code blocks of docs/PLAYERS.md run as written (with smaller deal counts)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "PLAYERS.md"


def _blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_players_guide_examples_run():
    blocks = _blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) == 3
    # a script's own namespace: classes defined there go to workers by value, as in a user's script
    ns: dict = {"__name__": "__main__"}
    small = {"ds.simulate(1_000,": "ds.simulate(40,", "ds.simulate(10_000,": "ds.simulate(200,"}
    labels = []
    for code in blocks:
        for big, few in small.items():
            code = code.replace(big, few)
        exec(compile(code, str(DOC), "exec"), ns)
        labels.append(tuple(ns["df"]["strategy_0"].astype(str).unique()))
    assert labels[:2] == [("cautious",), ("folder",)]  # the Python player ran with n_jobs=2
    assert ns["env"].done and sum(ns["env"].payments) == 0


def test_cli_reference_is_current():
    """docs/CLI.md is generated from the parser: regenerate it with
    ``python -m daqing_sim.cli --reference > docs/CLI.md`` after changing a flag."""
    from daqing_sim.cli import _COMMANDS, reference_markdown

    text = (Path(__file__).parent.parent / "docs" / "CLI.md").read_text(encoding="utf-8")
    assert text.rstrip("\n") == reference_markdown().rstrip("\n")
    for name in _COMMANDS:
        assert f"## `daqing-sim {name}`" in text
