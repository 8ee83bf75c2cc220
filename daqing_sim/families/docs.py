"""docs/DESIGN.md's tables of the rule families, written from the family specs (a test keeps the
document's copy current; ``python tools/family_tables.py`` rewrites it).

>>> print(spec_markdown("two_player").splitlines()[2][:60])
2 seats, 34 tile kinds, a wall of 136 tiles; players: expert
"""

from __future__ import annotations

from daqing_sim.families import FAMILY_PACKAGES, family_spec

START = "<!-- family tables: written by tools/family_tables.py from the family specs -->"
END = "<!-- end of the family tables -->"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|")


def _value(v: object) -> str:
    return f"`{str(v).lower()}`" if isinstance(v, bool) else f'`"{v}"`' if isinstance(v, str) else f"`{v}`"


def spec_markdown(family: str) -> str:
    """One family's section: its package, table, flags and fans."""
    s = family_spec(family)
    lines = [
        f"### {s.title} (`{FAMILY_PACKAGES[family]}`, {s.rules_page})",
        "",
        f"{s.seats} seats, {s.kinds} tile kinds, a wall of {s.wall} tiles; players: {', '.join(s.players)} "
        f"(default field: {', '.join(s.default_field)}).",
        "",
        "| flag | default | values | meaning |",
        "| --- | --- | --- | --- |",
        *(f"| `{f.name}` | {_value(f.default)} | {_cell(f.domain)} | {_cell(f.doc)} |" for f in s.flags),
        "",
        "| fan | code name | English | fans |",
        "| --- | --- | --- | --- |",
        *(f"| {f.zh or '-'} | `{f.code}` | {_cell(f.en)} | {f.value or 'limit'} |" for f in s.fans),
    ]
    return "\n".join(lines)


def tables_markdown() -> str:
    """Every registered family's section, between the markers docs/DESIGN.md holds."""
    body = "\n\n".join(spec_markdown(name) for name in FAMILY_PACKAGES)
    return f"{START}\n\n{body}\n\n{END}"


__all__ = ["spec_markdown", "tables_markdown", "START", "END"]
