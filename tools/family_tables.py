"""Rewrite docs/DESIGN.md's family tables from the family specs (not part of the package).

PYTHONPATH=. python tools/family_tables.py
"""

from __future__ import annotations

from pathlib import Path

from daqing_sim.families.docs import END, START, tables_markdown

DESIGN = Path(__file__).resolve().parent.parent / "docs" / "DESIGN.md"

if __name__ == "__main__":
    text = DESIGN.read_text(encoding="utf-8")
    i, j = text.index(START), text.index(END) + len(END)
    DESIGN.write_text(text[:i] + tables_markdown() + text[j:], encoding="utf-8")
    print("docs/DESIGN.md: family tables rewritten")
