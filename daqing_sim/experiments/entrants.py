"""Tournament entrants: their labels, the four cyclic seat rotations, and the CLI spelling.

An entrant is anything ``ds.simulate`` takes for a seat: a strategy name, ``(name, {knob:
value})``, or a player object. Entrants are handed to ``simulate`` unchanged; only their
*labels* are computed here, and entrants with the same label are pooled in the statistics.

>>> entrant_label(("jia_hunter", {"min_outs_fraction": 0.3}))
'jia_hunter(min_outs_fraction=0.3)'
>>> rotate(["a", "b", "c", "d"], 1)
['d', 'a', 'b', 'c']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from daqing_sim.players.plugins import PYTHON_BUILTINS

N_ROTATIONS = 4
_SPEC_RE = re.compile(r"^\s*([A-Za-z_][\w.:]*)\s*(?:\((.*)\))?\s*$")


def _knobbed(entry: Any) -> bool:
    """Whether ``entry`` is ``(name, {knob: value})`` (the form ``simulate`` reads so too)."""
    return (
        isinstance(entry, tuple | list)
        and len(entry) == 2
        and isinstance(entry[0], str)
        and isinstance(entry[1], Mapping | None)
    )


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return f"{value:g}"
    return str(value)


def entrant_label(entry: Any) -> str:
    """The label of an entrant in tournament tables.

    A name is its own label; ``(name, {knob: value})`` is ``name(knob=value, ...)`` with the
    knobs sorted (no knobs: ``name``); an object is its ``name`` attribute when that is a
    string, else its class name.

    >>> entrant_label("greedy"), entrant_label(("defensive", {"fold_shanten": 3.0}))
    ('greedy', 'defensive(fold_shanten=3)')
    """
    if isinstance(entry, str):
        return entry
    if _knobbed(entry):
        name, knobs = entry[0], dict(entry[1] or {})
        if not knobs:
            return name
        return f"{name}({','.join(f'{k}={_value_text(v)}' for k, v in sorted(knobs.items()))})"
    name = getattr(entry, "name", None)
    return name if isinstance(name, str) and name else type(entry).__name__


def check_entrants(entrants: Any, where: str = "entrants", n_seats: int = N_ROTATIONS) -> list[Any]:
    """The entrants (one per seat: four, two under the two-player family) as a list, or a
    ValueError saying how many to give."""
    word = {2: "two", 4: "four"}[n_seats]
    if isinstance(entrants, str | Mapping) or not isinstance(entrants, Sequence):
        raise ValueError(
            f"{where} must be a list of {word} entrants (strategy names, (name, knobs) pairs or players), "
            f"not {entrants!r}"
        )
    if len(entrants) != n_seats:
        family = " under the two-player family" if n_seats == 2 else ""
        raise ValueError(
            f"{where} has {len(entrants)} entrant(s): a tournament seats exactly {word}{family} "
            "(repeat one to play it against copies of itself)"
        )
    return list(entrants)


def rotate(entrants: Sequence[Any], r: int) -> list[Any]:
    """Seats of rotation ``r``: entrant ``i`` sits at seat ``(i + r) % n`` (``n`` entrants)."""
    n = len(entrants)
    seats: list[Any] = [None] * n
    for i, entry in enumerate(entrants):
        seats[(i + r) % n] = entry
    return seats


def rotation_name(r: int) -> str:
    """Variant name of rotation ``r`` (``rotation_0`` .. ``rotation_3``)."""
    return f"rotation_{r}"


def seat_labels(entrants: Sequence[Any]) -> dict[str, tuple[str, ...]]:
    """Rotation name -> the labels of the seats, as :mod:`daqing_sim.analysis.duplicate` takes them
    (as many rotations as entrants)."""
    labels = [entrant_label(e) for e in entrants]
    return {rotation_name(r): tuple(rotate(labels, r)) for r in range(len(labels))}


def _parse_value(text: str, spec: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        number = float(low)
    except ValueError:
        raise ValueError(
            f"entrant {spec!r}: knob value {text.strip()!r} is not a number; "
            "write e.g. jia_hunter(min_outs_fraction=0.3)"
        ) from None
    return int(number) if number.is_integer() and "." not in low and "e" not in low else number


def parse_entrant(spec: str) -> Any:
    """A command-line entrant: ``name`` or ``name(knob=value,...)`` (the label's spelling).

    >>> parse_entrant("greedy"), parse_entrant("defensive(fold_shanten=3)")
    ('greedy', ('defensive', {'fold_shanten': 3}))
    """
    m = _SPEC_RE.match(spec)
    if m is None:
        raise ValueError(
            f"entrant {spec!r} is not a strategy name or name(knob=value,...); "
            "e.g. greedy or 'defensive(fold_shanten=3)'"
        )
    name, inner = m.group(1), m.group(2)
    if inner is None or not inner.strip():
        return name
    knobs = {}
    for part in inner.split(","):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(
                f"entrant {spec!r}: knobs are written knob=value, e.g. defensive(fold_shanten=3)"
            )
        word = value.strip()
        # search's word knobs (when=close, field=greedy) are words; every other knob a number
        is_word = name in PYTHON_BUILTINS and word.isidentifier()
        knobs[key.strip()] = word if is_word else _parse_value(value, spec)
    return (name, knobs)
