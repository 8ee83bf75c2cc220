"""Duplicate-play statistics: entrants rotated over the four seats on the same walls.

In a duplicate tournament every wall is played four times, once per cyclic seat rotation,
with the same deal seed, so every entrant plays every seat's tiles (the dealer's included)
of every wall. The unit of independent information is the **wall**: the four rotations of
one wall, and the seats of one deal, are strongly dependent (payments sum to zero). So every
figure here is first reduced to one number per wall and entrant *label* (copies of the same
label pooled): the label's mean payment over all its seat-deals on that wall. Means and
intervals are then taken over walls, a Student t interval (``scipy.stats.ttest_1samp``).

The input is a results frame of the rotations (``pay_0..pay_3``, ``deal`` and a rotation
column, ``variant`` by default) and, per rotation, the label of each seat. This module plays
nothing (see :mod:`daqing_sim.experiments.tournament`).

>>> import pandas as pd
>>> df = pd.DataFrame({"variant": ["r0", "r1"], "deal": [0, 0],
...                    "pay_0": [4, -2], "pay_1": [-2, 4], "pay_2": [-1, -1], "pay_3": [-1, -1]})
>>> labels = {"r0": ("a", "b", "c", "c"), "r1": ("b", "a", "c", "c")}
>>> wall_means(df, labels)["a"].tolist()
[4.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from daqing_sim.analysis.intervals import CONFIDENCE

__all__ = [
    "DUPLICATE_METHOD",
    "wall_means",
    "duplicate_table",
    "duplicate_pairs",
    "tournament_pairs",
    "format_tournament",
]

DUPLICATE_METHOD = (
    "Student t interval (scipy.stats.ttest_1samp) over per-wall means; walls are the independent units"
)
TABLE_COLUMNS = [
    "entrant",
    "copies",
    "n_walls",
    "n_seat_deals",
    "mean_pay",
    "lo",
    "hi",
    "diff",
    "diff_lo",
    "diff_hi",
    "sd_wall",
    "confidence",
]
PAIR_COLUMNS = ["a", "b", "n_walls", "mean_a", "mean_b", "diff", "lo", "hi", "confidence"]


def _labels_in_order(seat_labels: Mapping[object, Sequence[str]]) -> list[str]:
    return list(dict.fromkeys(label for seats in seat_labels.values() for label in seats))


def _check_frame(df: pd.DataFrame, seat_labels: Mapping[object, Sequence[str]], by: str, func: str) -> None:
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{func}: give a results DataFrame, not {type(df).__name__}")
    n = len(next(iter(seat_labels.values()), ())) or 4  # seats: four, two-player two
    need = [by, "deal"] + [f"pay_{s}" for s in range(n)]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise ValueError(
            f"{func}: the frame lacks column(s) {', '.join(missing)}; pass the rotations' results frames"
        )
    if not seat_labels:
        raise ValueError(f"{func}: seat_labels is empty; give the four seat labels of every rotation")
    for rotation, seats in seat_labels.items():
        if isinstance(seats, str) or len(seats) != n or n not in (2, 4):
            raise ValueError(
                f"{func}: seat_labels[{rotation!r}] must be four labels (seats 0-3; two-player: two)"
            )


def _sums(
    df: pd.DataFrame, seat_labels: Mapping[object, Sequence[str]], by: str, func: str
) -> tuple[np.ndarray, list[str], np.ndarray, np.ndarray]:
    """Per wall and label: the sum of the label's payments and its number of seat-deals."""
    _check_frame(df, seat_labels, by, func)
    labels = _labels_in_order(seat_labels)
    column = df[by].astype(str).to_numpy()
    walls: np.ndarray | None = None
    sums = counts = np.zeros((0, len(labels)))
    for rotation, seats in seat_labels.items():
        part = df[column == str(rotation)]
        deals = part["deal"].to_numpy(dtype=np.int64)
        if walls is None:
            walls = np.unique(deals)
            if len(walls) != len(deals):
                raise ValueError(f"{func}: deal ids repeat within rotation {rotation!r}; cannot pair walls")
            if not len(walls):
                raise ValueError(f"{func}: rotation {rotation!r} has no deals")
            sums = np.zeros((len(walls), len(labels)))
            counts = np.zeros((len(walls), len(labels)), dtype=np.int64)
        if len(deals) != len(walls) or not np.array_equal(np.sort(deals), walls):
            raise ValueError(
                f"{func}: rotation {rotation!r} plays {len(deals):,} deals, not the same "
                f"{len(walls):,} walls as the first rotation; a duplicate tournament needs every wall "
                "in every rotation"
            )
        pos = np.searchsorted(walls, deals)
        for seat, label in enumerate(seats):
            j = labels.index(label)
            sums[pos, j] += part[f"pay_{seat}"].to_numpy(dtype=np.float64)
            counts[pos, j] += 1
    assert walls is not None
    return walls, labels, sums, counts


def wall_means(
    df: pd.DataFrame, seat_labels: Mapping[object, Sequence[str]], by: str = "variant"
) -> pd.DataFrame:
    """Per wall, every label's mean payment per seat-deal over all rotations.

    Parameters
    ----------
    df : DataFrame
        Results of the rotations: ``deal``, ``pay_0..pay_3`` and the column ``by``; every
        rotation plays the same walls (deal ids).
    seat_labels : mapping
        Rotation (a value of ``df[by]``) -> the label of seats 0-3. Seats with the same label
        are pooled (copies of one entrant).
    by : str
        Column naming the rotation.

    Returns
    -------
    DataFrame
        Index ``deal`` (the wall), one column per label (in order of first appearance), 2^N units.
    """
    walls, labels, sums, counts = _sums(df, seat_labels, by, "wall_means")
    return pd.DataFrame(sums / counts, index=pd.Index(walls, name="deal"), columns=labels)


def _t_interval(x: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """``(mean, lo, hi)``: Student t interval of the mean of ``x`` (degenerate when x is constant)."""
    mean = float(np.mean(x)) if len(x) else np.nan
    if len(x) < 2:
        return mean, np.nan, np.nan
    if np.ptp(x) == 0:  # scipy gives NaN here; an exact, constant difference has a point interval
        return mean, mean, mean
    ci = stats.ttest_1samp(x, 0.0).confidence_interval(confidence)
    return mean, float(ci.low), float(ci.high)


def _check_confidence(confidence: float, func: str) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, float | int) or not 0 < confidence < 1:
        raise ValueError(f"{func}: confidence must be a number between 0 and 1, not {confidence!r}")
    return float(confidence)


def duplicate_table(
    df: pd.DataFrame,
    seat_labels: Mapping[object, Sequence[str]],
    by: str = "variant",
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """One row per entrant label: mean payment per seat-deal and its paired difference to the field.

    What the intervals estimate: ``lo, hi`` cover the label's **expected payment per
    seat-deal in this field** (these entrants, each rotated over every seat), the mean over the
    population of walls, with ``confidence``; ``diff_lo, diff_hi`` cover the expected per-wall
    difference between the label and the average of the other labels (how much more it wins
    than the others on the same tiles). Both are Student t intervals over walls of per-wall
    means (:func:`wall_means`), so the dependence between the seats and rotations of one wall
    is respected; they hold for the simulated players, not for people.

    Parameters
    ----------
    df, seat_labels, by
        As for :func:`wall_means`.
    confidence : float
        Level of every interval (not adjusted for the number of entrants).

    Returns
    -------
    DataFrame
        ``entrant, copies, n_walls, n_seat_deals, mean_pay, lo, hi, diff, diff_lo, diff_hi,
        sd_wall, confidence``: ``copies`` seats per deal held by the label, ``sd_wall`` the SD
        of its per-wall means; ``diff`` is NaN when only one label plays. ``attrs["method"]``
        names the interval; ``attrs["pairs"]`` holds :func:`duplicate_pairs` as records (plain
        dicts, so that tables can still be concatenated): read it with :func:`tournament_pairs`.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"variant": ["r0", "r1"] * 2, "deal": [0, 0, 1, 1],
    ...                    "pay_0": [3, -1, -1, 3], "pay_1": [-1, 3, 3, -1],
    ...                    "pay_2": [-1, -1, -1, -1], "pay_3": [-1, -1, -1, -1]})
    >>> t = duplicate_table(df, {"r0": ("a", "b", "c", "c"), "r1": ("b", "a", "c", "c")})
    >>> t[["entrant", "copies", "n_walls", "n_seat_deals", "mean_pay"]].to_dict("list")
    {'entrant': ['a', 'b', 'c'], 'copies': [1, 1, 2], 'n_walls': [2, 2, 2], 'n_seat_deals': [4, 4, 8], \
'mean_pay': [1.0, 1.0, -1.0]}
    """
    func = "duplicate_table"
    confidence = _check_confidence(confidence, func)
    walls, labels, sums, counts = _sums(df, seat_labels, by, func)
    means = sums / counts
    # rotations each label plays in (a tournament with a baseline plays two sets of rotations)
    played = [sum(label in seats for seats in seat_labels.values()) for label in labels]
    rows = []
    for j, label in enumerate(labels):
        mean, lo, hi = _t_interval(means[:, j], confidence)
        others = [k for k in range(len(labels)) if k != j]
        if others:
            diff, dlo, dhi = _t_interval(means[:, j] - means[:, others].mean(axis=1), confidence)
        else:
            diff = dlo = dhi = np.nan
        rows.append(
            {
                "entrant": label,
                "copies": int(counts[0, j]) // played[j],
                "n_walls": len(walls),
                "n_seat_deals": int(counts[:, j].sum()),
                "mean_pay": float(sums[:, j].sum() / counts[:, j].sum()),
                "lo": lo,
                "hi": hi,
                "diff": diff,
                "diff_lo": dlo,
                "diff_hi": dhi,
                "sd_wall": float(np.std(means[:, j], ddof=1)) if len(walls) > 1 else np.nan,
                "confidence": confidence,
            }
        )
    table = pd.DataFrame(rows, columns=TABLE_COLUMNS)
    table.attrs["method"] = DUPLICATE_METHOD
    table.attrs["pairs"] = _pairs(walls, labels, means, confidence).to_dict("records")
    return table


def tournament_pairs(table: pd.DataFrame) -> pd.DataFrame:
    """The pairwise table of a :func:`duplicate_table` (or ``ds.tournament``) result.

    Returns
    -------
    DataFrame
        ``a, b, n_walls, mean_a, mean_b, diff, lo, hi, confidence``: every ordered pair of
        labels, ``diff`` the mean over walls of ``a``'s minus ``b``'s per-wall mean payment.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"variant": ["r0", "r1"], "deal": [0, 0],
    ...                    "pay_0": [4, -2], "pay_1": [-2, 4], "pay_2": [-1, -1], "pay_3": [-1, -1]})
    >>> t = duplicate_table(df, {"r0": ("a", "b", "c", "c"), "r1": ("b", "a", "c", "c")})
    >>> tournament_pairs(t).query("a == 'a' and b == 'c'")["diff"].item()
    5.0
    """
    if not isinstance(table, pd.DataFrame) or "pairs" not in table.attrs:
        raise ValueError(
            "tournament_pairs: give the table returned by ds.tournament or duplicate_table "
            "(its attrs['pairs'] is missing)"
        )
    pairs = pd.DataFrame(list(table.attrs["pairs"]), columns=PAIR_COLUMNS)
    pairs.attrs["method"] = DUPLICATE_METHOD
    return pairs


def _pairs(walls: np.ndarray, labels: list[str], means: np.ndarray, confidence: float) -> pd.DataFrame:
    rows = []
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            if i == j:
                continue
            diff, lo, hi = _t_interval(means[:, i] - means[:, j], confidence)
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "n_walls": len(walls),
                    "mean_a": float(means[:, i].mean()),
                    "mean_b": float(means[:, j].mean()),
                    "diff": diff,
                    "lo": lo,
                    "hi": hi,
                    "confidence": confidence,
                }
            )
    pairs = pd.DataFrame(rows, columns=PAIR_COLUMNS)
    pairs.attrs["method"] = DUPLICATE_METHOD
    return pairs


def duplicate_pairs(
    df: pd.DataFrame,
    seat_labels: Mapping[object, Sequence[str]],
    by: str = "variant",
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """Paired differences between every two labels: ``a`` minus ``b``, per wall, with intervals.

    ``lo, hi`` cover the expected difference of the two labels' per-wall mean payments
    (per seat-deal, 2^N units) on the same walls: a Student t interval over walls. Every
    ordered pair is a row (``b - a`` is the negated row).

    Parameters
    ----------
    df, seat_labels, by, confidence
        As for :func:`duplicate_table`.

    Returns
    -------
    DataFrame
        ``a, b, n_walls, mean_a, mean_b, diff, lo, hi, confidence``.
    """
    func = "duplicate_pairs"
    confidence = _check_confidence(confidence, func)
    walls, labels, sums, counts = _sums(df, seat_labels, by, func)
    return _pairs(walls, labels, sums / counts, confidence)


def _left(frame: pd.DataFrame, column: str) -> str:
    """A plain-text table: ``column`` aligned left (names read better so), the others right."""
    cells = {c: [str(c), *map(str, frame[c])] for c in frame.columns}
    widths = {c: max(map(len, v)) for c, v in cells.items()}
    rows = zip(*(cells[c] for c in frame.columns), strict=True)
    align = [(str.ljust if c == column else str.rjust, widths[c]) for c in frame.columns]
    lines = ("  ".join(f(v, w) for (f, w), v in zip(align, row, strict=True)) for row in rows)
    return "\n".join(line.rstrip() for line in lines)


def format_tournament(table: pd.DataFrame, pairs: pd.DataFrame | None = None, family: str = "daqing") -> str:
    """The tournament table as printed by ``daqing-sim tournament`` (and after ``run``); the
    footnote names the payments' unit of the rule ``family``.

    ``pairs`` (:func:`tournament_pairs`) adds each pair once, ``a`` before ``b`` in entrant order.

    >>> t = pd.DataFrame({"entrant": ["a"], "copies": [1], "n_walls": [10], "n_seat_deals": [40],
    ...                   "mean_pay": [0.5], "lo": [0.25], "hi": [0.75], "diff": [0.6],
    ...                   "diff_lo": [0.3], "diff_hi": [0.9], "confidence": [0.95]})
    >>> print(format_tournament(t).splitlines()[1])
    a             1       10          40  0.50 (0.25 to 0.75)  +0.60 (+0.30 to +0.90)
    """
    from daqing_sim.analysis.summary import format_interval

    def cell(e: float, lo: float, hi: float, sign: bool = False) -> str:
        if not np.isfinite(e):
            return "n/a"
        a, b, c = format_interval(e, lo, hi, sign=sign)
        return f"{a} ({b} to {c})"

    level = f"{100 * float(table['confidence'].iloc[0]):.4g}%" if len(table) else "95%"
    out = pd.DataFrame(
        {
            "entrant": table["entrant"],
            "copies": table["copies"],
            "n_walls": table["n_walls"],
            "seat_deals": table["n_seat_deals"],
            f"mean pay ({level} CI)": [cell(r.mean_pay, r.lo, r.hi) for r in table.itertuples()],
            "vs the others": [cell(r.diff, r.diff_lo, r.diff_hi, sign=True) for r in table.itertuples()],
        }
    )
    lines = [_left(out, "entrant")]
    if pairs is not None and len(pairs):
        order = {label: i for i, label in enumerate(table["entrant"])}
        half = [r for r in pairs.itertuples() if order.get(r.a, 0) < order.get(r.b, 0)]
        p = pd.DataFrame(
            {
                "a - b": [f"{r.a} - {r.b}" for r in half],
                f"paired difference per seat-deal ({level} CI)": [
                    cell(r.diff, r.lo, r.hi, sign=True) for r in half
                ],
            }
        )
        lines += ["", _left(p, "a - b")]
    unit = {
        "daqing": "2^N units",
        "two_player": "points (F x multiplier x points per fan, a first game's)",
    }.get(family, "points (a fan is worth 1,000 to a concealed hand)")
    lines += ["", f"{unit} per seat-deal; {DUPLICATE_METHOD}."]
    return "\n".join(lines)
