"""Shared checks and views of results frames (private to the analysis package)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

SEATS = (0, 1, 2, 3)
OUTCOMES = ("self_draw", "deal_in", "deal_in_not_ready", "exhaustive_draw")
BAO_KINDS = ("none", "bao", "bao_edge", "bao_in_bao")
GROUP_KEYS = ("variant", "role", "seat", "strategy")


def seat_cols(base: str) -> list[str]:
    return [f"{base}_{s}" for s in SEATS]


def require(df: object, columns: Iterable[str], func: str) -> pd.DataFrame:
    """Return ``df`` when it is a non-empty results frame holding ``columns``, else a one-line ValueError."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(
            f"{func}: expected a results DataFrame (from simulate() or load_results()), "
            f"got {type(df).__name__}"
        )
    missing = [c for c in dict.fromkeys(columns) if c not in df.columns]
    if missing:
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
    out = {
        "row": np.tile(np.arange(n), 4),
        "seat": np.repeat(np.array(SEATS, dtype=np.int8), n),
    }
    if "variant" in df.columns:
        out["variant"] = pd.concat([df["variant"]] * 4, ignore_index=True)
    dealer = np.tile(df["dealer"].to_numpy(), 4)
    out["role"] = pd.Categorical(
        np.where(out["seat"] == dealer, "dealer", "non_dealer"), categories=["dealer", "non_dealer"]
    )
    for f in fields:
        out[f] = pd.concat([df[c] for c in seat_cols(f)], ignore_index=True)
        if f == "strategy":
            out[f] = out[f].astype(str)
    return pd.DataFrame(out)


def seat_matrix(df: pd.DataFrame, base: str) -> np.ndarray:
    return np.column_stack([df[c].to_numpy() for c in seat_cols(base)])


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
