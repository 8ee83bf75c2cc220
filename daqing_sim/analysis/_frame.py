"""Shared checks and views of results frames (private to the analysis package)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

SEATS = (0, 1, 2, 3)
OUTCOMES = ("self_draw", "deal_in", "deal_in_not_ready", "exhaustive_draw")
BAO_KINDS = ("none", "bao", "bao_edge", "bao_in_bao")
GROUP_KEYS = ("variant", "role", "seat", "strategy")


def seat_cols(base: str, df: pd.DataFrame | None = None) -> list[str]:
    """``base_0 .. base_3``; of the seats of ``df`` when given (two for a two-player frame)."""
    return [f"{base}_{s}" for s in (SEATS if df is None else frame_seats(df))]


def frame_seats(df: pd.DataFrame) -> tuple[int, ...]:
    """The seats of a results frame: two for a two-player frame, else four."""
    return SEATS[:2] if isinstance(df, pd.DataFrame) and frame_families(df) == ["two_player"] else SEATS


def one_table(df: object, func: str) -> tuple[int, ...]:
    """The seats of ``df`` (see :func:`frame_seats`); a one-line error when it mixes two-player
    variants with four-seat ones, whose seat columns cannot be read together."""
    if isinstance(df, pd.DataFrame) and "two_player" in (fams := frame_families(df)) and len(fams) > 1:
        names = ", ".join(FAMILY_NAMES.get(f, f) for f in fams)
        raise ValueError(
            f"{func}: the frame holds several rule families ({names}) with different numbers of seats; "
            "split it with an.family_parts(df)"
        )
    return frame_seats(df)


def family_name(df: pd.DataFrame) -> str:
    """The frame's rule family as the docs name it (Daqing, Beijing, two-player)."""
    fams = frame_families(df)
    return ", ".join(FAMILY_NAMES.get(f, f) for f in fams)


FAMILY_NAMES = {"daqing": "Daqing", "beijing": "Beijing", "two_player": "two-player"}
#: functions of one family -> what reads the other families' frames instead
OTHER_FAMILY_HINTS = {
    "value_statistics": "Daqing payments: expected_payment or net_result",
    "value_distribution": "Daqing payments: payment_distribution",
    "fan_type_shares": "win_fan_shares reads a frame of any family",
    "tenpai_probability": "readiness_probability reads a frame of any family",
    "ready_probability": "readiness_probability reads a frame of any family",
    "wait_classes": "wait_kind_frequencies(df, at='win') (the wait of each win)",
    "wait_label_purity": "wait_kind_frequencies(df, at='win') (the wait of each win)",
    "wait_kind_outcomes": "wait_kind_frequencies(df, at='win') (the wait of each win)",
    "bao_shares": "win_fan_shares (bao, 宝, is Daqing's alone)",
    "fan_distribution": "fan_total_distribution or win_fan_shares (the win's fans)",
    "in_base_units": "nothing to convert (Daqing pays 2^N units, a two-player win its value in points)",
}


def frame_families(df: pd.DataFrame) -> list[str]:
    """The rule families of a results frame's rows: a Daqing frame has no ``family`` column (or
    leaves it empty), a Beijing or two-player one names its family there."""
    if "family" not in df.columns:
        return ["daqing"]
    fams = [str(f) for f in pd.unique(df["family"].astype(object).where(df["family"].notna(), "daqing"))]
    return fams or ["daqing"]


def _wrong_family(df: pd.DataFrame, missing: list[str], func: str) -> str:
    """Why ``func`` cannot read a frame of another rule family (it lacks ``missing``), in one line."""
    fams = frame_families(df)
    if len(fams) > 1:
        names = ", ".join(FAMILY_NAMES.get(f, f) for f in fams)
        return f"{func}: the frame holds several rule families ({names}); split it with an.family_parts(df)"
    fam = fams[0]
    name = FAMILY_NAMES.get(fam, fam)
    hint = OTHER_FAMILY_HINTS.get(func)
    hint = f"; for this frame: {hint}" if hint else ""
    if fam == "two_player" and missing[0].endswith(("_2", "_3")):
        return (
            f"{func}: reads frames of four seats (Daqing, Beijing; it needs {missing[0]}), and this is a "
            f"two-player frame{hint or '; the two_player_* functions of daqing_sim.analysis read it'}"
        )
    made = "made for other rule families"
    return f"{func}: this is a {name} frame, which has no column {missing[0]} ({made}){hint}"


# columns that only Beijing and two-player frames have (a Daqing frame lacking them is not broken)
_NOT_DAQING = (
    "value",
    "fan_total",
    "fan_",
    "tenpai_turn_",
    "burn_rounds",
    "mutual_",
    "robbed_kong",
    "declared_turn_",
)


def _other_family(df: pd.DataFrame, missing: list[str]) -> bool:
    """Whether ``missing`` is missing because the frame is of another rule family than the
    function reads (rather than a frame that is not a results frame, or lost a column)."""
    if not {"deal", "outcome", "winner", "dealer"} <= set(df.columns) or missing == ["variant"]:
        return False
    if frame_families(df) != ["daqing"]:
        return True
    return any(c.startswith(_NOT_DAQING) for c in missing)


def require(df: object, columns: Iterable[str], func: str) -> pd.DataFrame:
    """Return ``df`` when it is a non-empty results frame holding ``columns``, else a one-line
    ValueError: naming the frame's rule family when the columns are another family's."""
    if not isinstance(df, pd.DataFrame):
        got = "a dict of frames" if isinstance(df, dict) else type(df).__name__
        raise ValueError(
            f"{func}: expected a results DataFrame (from simulate() or load_results()), got {got}"
        )
    missing = [c for c in dict.fromkeys(columns) if c not in df.columns]
    if missing:
        if _other_family(df, missing):
            raise ValueError(_wrong_family(df, missing, func))
        raise ValueError(
            f"{func}: results frame is missing column(s) {', '.join(missing)}; pass the DataFrame "
            "returned by simulate() or load_results() (schema in docs/DESIGN.md)"
        )
    if len(df) == 0:
        raise ValueError(f"{func}: results frame has no rows; simulate at least one deal")
    return df


def parse_by(by: str | Sequence[str] | None, default: Sequence[str], allowed: Sequence[str], func: str):
    keys = list(default) if by is None else [by] if isinstance(by, str) else list(by)
    bad = [k for k in keys if k not in allowed]
    if bad:
        raise ValueError(
            f"{func}: cannot group by {', '.join(map(repr, bad))}; use any of {', '.join(allowed)}"
        )
    return keys


def with_variant(df: pd.DataFrame, keys: list[str]) -> list[str]:
    has_variant = "variant" in getattr(df, "columns", ())  # a non-frame is rejected by require
    others = [k for k in keys if k != "variant"]
    return ["variant", *others] if has_variant else others


def variants(df: pd.DataFrame) -> list:
    """The variants of ``df`` in the order of its categories (``[None]`` without a variant column)."""
    if "variant" not in df.columns:
        return [None]
    v = df["variant"]
    if isinstance(v.dtype, pd.CategoricalDtype):
        present = set(v.unique())
        return [c for c in v.cat.categories if c in present]
    return list(pd.unique(v))


def by_variant(df: pd.DataFrame):
    for v in variants(df):
        yield v, (df if v is None else df[df["variant"] == v])


def ordered(table: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """Give a result's variant column the variant order of ``df`` (not alphabetical)."""
    if "variant" in table.columns and "variant" in df.columns:
        order = [v for v in variants(df) if v in set(table["variant"])]
        table["variant"] = pd.Categorical(table["variant"], categories=order)
    return table


def text(column: pd.Series) -> np.ndarray:
    """``column.astype(str).to_numpy()``, taken from the categories once for a categorical column
    (a results frame's labels are categorical: converting each row's label costs seconds at 300,000)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        if (codes >= 0).all():  # a missing label (code -1) is left to astype, below
            return np.asarray(column.cat.categories.astype(str), dtype=object)[codes]
    return column.astype(str).to_numpy()


def outcome(df: pd.DataFrame) -> np.ndarray:
    return text(df["outcome"])


def seat_long(df: pd.DataFrame, fields: Sequence[str]) -> pd.DataFrame:
    """One row per (deal, seat): row (position in ``df``), seat, [variant,] role and ``fields``."""
    n = len(df)
    seats = frame_seats(df)
    out = {
        "row": np.tile(np.arange(n), len(seats)),
        "seat": np.repeat(np.array(seats, dtype=np.int8), n),
    }
    if "variant" in df.columns:
        out["variant"] = pd.concat([df["variant"]] * len(seats), ignore_index=True)
    dealer = np.tile(df["dealer"].to_numpy(), len(seats))
    out["role"] = pd.Categorical(
        np.where(out["seat"] == dealer, "dealer", "non_dealer"), categories=["dealer", "non_dealer"]
    )
    for f in fields:
        out[f] = pd.concat([df[c] for c in seat_cols(f, df)], ignore_index=True)
        if f == "strategy":
            out[f] = out[f].astype(str)
    return pd.DataFrame(out)


def seat_matrix(df: pd.DataFrame, base: str) -> np.ndarray:
    """``(deals, seats)``: the columns ``base_s`` of the frame's seats."""
    return np.column_stack([df[c].to_numpy() for c in seat_cols(base, df)])


def grouped(long: pd.DataFrame, keys: list[str]):
    if not keys:
        yield (), long
        return
    for k, g in long.groupby(keys, observed=True, sort=True):
        yield (k if isinstance(k, tuple) else (k,)), g


def deal_keys(df: pd.DataFrame) -> list[str]:
    return ["seed", "deal"] if "seed" in df.columns else ["deal"]


def insert_keys(part: pd.DataFrame, keys: Sequence[str], values: Sequence) -> pd.DataFrame:
    for i, (name, value) in enumerate(zip(keys, values, strict=True)):
        part.insert(i, name, value)
    return part
