"""Confidence intervals, all computed by scipy: Wilson, bootstrap over deals, quantiles, Kaplan-Meier.

Every interval is two-sided at ``confidence`` (default 0.95). A family of ``m``
simultaneous claims uses :func:`familywise_confidence` (Bonferroni: each interval at
``1 - 0.05 / m``), which holds the family-wise error rate at 5 % whatever the
dependence between the claims.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence

import numpy as np
from scipy import stats

__all__ = [
    "CONFIDENCE",
    "N_RESAMPLES",
    "BOOT_SEED",
    "MAX_BLOCKS",
    "BOOTSTRAP_METHOD",
    "WILSON_METHOD",
    "EXACT_METHOD",
    "wilson_interval",
    "exact_interval",
    "bootstrap_deals",
    "bootstrap_ratio",
    "quantile_interval",
    "quantile_intervals",
    "kaplan_meier",
    "familywise_confidence",
]

CONFIDENCE = 0.95
# Percentile endpoints have a Monte-Carlo SD of about 1.36 / sqrt(N_RESAMPLES) half-widths
# (normal case); 25 000 resamples keep it under 1 % (tests/test_analysis.py measures it).
N_RESAMPLES = 25_000
BOOT_SEED = 0
MAX_BLOCKS = 1_000
BOOTSTRAP_METHOD = (
    f"percentile bootstrap (scipy.stats.bootstrap), {N_RESAMPLES} resamples of whole deals, seed "
    f"{BOOT_SEED}; above {MAX_BLOCKS} deals, {MAX_BLOCKS} blocks of consecutive deals"
)
WILSON_METHOD = "Wilson score interval (scipy.stats.binomtest)"
EXACT_METHOD = "exact Clopper-Pearson interval (scipy.stats.binomtest)"


def wilson_interval(successes, trials, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of binomial proportions, by ``scipy.stats.binomtest``.

    Parameters
    ----------
    successes, trials : array_like of int
        Counts; ``trials == 0`` gives ``nan`` bounds.
    confidence : float
        Confidence level of each interval.

    Returns
    -------
    lo, hi : ndarray (0-d for scalar input)

    Examples
    --------
    >>> lo, hi = wilson_interval(5, 10)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.2366, 0.7634)
    """
    k = np.asarray(successes)
    n = np.asarray(trials)
    k, n = np.broadcast_arrays(k, n)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("wilson_interval: successes must lie between 0 and trials")
    lo = np.full(k.shape, np.nan)
    hi = np.full(k.shape, np.nan)
    for i in np.ndindex(k.shape):
        if n[i] > 0:
            ci = stats.binomtest(int(k[i]), int(n[i])).proportion_ci(confidence, method="wilson")
            lo[i], hi[i] = ci.low, ci.high
    return lo, hi


def exact_interval(successes, trials, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Exact (Clopper-Pearson) binomial interval by ``scipy.stats.binomtest``; ``trials == 0`` gives nan.

    >>> lo, hi = exact_interval(0, 1000)
    >>> float(lo), round(float(hi), 5)
    (0.0, 0.00368)
    """
    k, n = np.broadcast_arrays(np.asarray(successes, dtype=np.int64), np.asarray(trials, dtype=np.int64))
    lo, hi = np.full(k.shape, np.nan), np.full(k.shape, np.nan)
    for idx in np.ndindex(k.shape):
        if n[idx] > 0:
            ci = stats.binomtest(int(k[idx]), int(n[idx])).proportion_ci(confidence, method="exact")
            lo[idx], hi[idx] = ci.low, ci.high
    return lo, hi


def _blocks(arrays: Sequence[np.ndarray], max_blocks: int) -> list[np.ndarray]:
    """Sum consecutive rows into ``max_blocks`` blocks: deals are i.i.d., so the block totals are too."""
    n = len(arrays[0])
    if n <= max_blocks:
        return list(arrays)
    starts = np.linspace(0, n, max_blocks + 1).astype(np.int64)[:-1]
    return [np.add.reduceat(a, starts, axis=0) for a in arrays]


@functools.lru_cache(maxsize=2)
def _resample_counts(m: int, n_resamples: int, seed: int, batch: int) -> np.ndarray:
    """How often each of ``m`` rows appears in each resample, ``(n_resamples, m)``, made once.

    The rows are drawn as ``scipy.stats.bootstrap`` draws them (``rng.integers(0, m, (batch, m))``
    batch after batch from ``default_rng(seed)``), so the resamples are the ones scipy would use;
    every interval of a summary shares them (same seed), and keeping them (as floats, ready
    for the product with the totals: 200 MB for 25,000 resamples of 1,000 blocks) saves
    drawing ``n_resamples * m`` indices again for each statistic. Read-only.
    """
    rng = np.random.default_rng(seed)
    out = np.empty((n_resamples, m))
    for k in range(0, n_resamples, batch):
        b = min(batch, n_resamples - k)
        idx = rng.integers(0, m, (b, m))
        flat = (idx + m * np.arange(b)[:, None]).ravel()
        out[k : k + b] = np.bincount(flat, minlength=b * m).reshape(b, m)
    out.flags.writeable = False
    return out


def bootstrap_deals(
    arrays: Sequence[np.ndarray],
    statistic: Callable[[list[np.ndarray]], np.ndarray],
    *,
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES,
    seed: int = BOOT_SEED,
    max_blocks: int = MAX_BLOCKS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Percentile bootstrap, resampling deals (rows), of a statistic of column totals.

    Each resample is a draw of rows with replacement, as ``scipy.stats.bootstrap`` draws
    them; the statistic is evaluated from the resampled totals ``w @ A`` (``w`` the
    resample's row counts), so every array is resampled with the same rows (paired), and the
    interval ends are the ``scipy.stats.quantile`` (linear) of the statistic's resampled
    values at ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``, as scipy's percentile
    method computes them. The row counts of the resamples are drawn once per number of
    rows and seed and shared by every call: the statistics of one summary use the same
    resamples, and a call costs one product of matrices, not ``n_resamples`` draws of rows.

    With the default 25,000 resamples an interval end has a Monte-Carlo SD of about
    ``1.36 / sqrt(n_resamples)`` = 0.9 % of the interval's half-width (normal case).

    Parameters
    ----------
    arrays : sequence of ndarray, each (n, g)
        Per-deal totals (e.g. sums and counts of a quantity per group).
    statistic : callable
        Maps the list of totals, each ``(b, g)``, to the statistic ``(b, g)``.
    confidence, n_resamples, seed, max_blocks
        Level, resamples, random seed; above ``max_blocks`` rows, consecutive rows are
        summed into that many blocks, which are resampled instead.

    Returns
    -------
    estimate, lo, hi : ndarray, shape (g,)

    Examples
    --------
    >>> x = np.arange(10.0)[:, None]
    >>> est, lo, hi = bootstrap_deals([x], lambda t: t[0] / 10, n_resamples=2000)
    >>> float(est[0]), bool(lo[0] < 4.5 < hi[0])
    (4.5, True)
    """
    arrays = [np.asarray(a, dtype=float).reshape(len(a), -1) for a in arrays]
    with np.errstate(invalid="ignore", divide="ignore"):
        est = np.asarray(statistic([a.sum(0)[None, :] for a in arrays]), dtype=float)[0]
    if len(arrays[0]) < 2:
        return est, est.copy(), est.copy()
    blocks = _blocks(arrays, max_blocks)
    m = len(blocks[0])
    counts = _resample_counts(m, int(n_resamples), int(seed), max(1, 2_000_000 // m))
    widths = np.cumsum([0] + [b.shape[1] for b in blocks])
    stacked = np.concatenate(blocks, axis=1)
    totals = counts @ stacked
    parts = [totals[:, a:b] for a, b in zip(widths[:-1], widths[1:], strict=True)]
    with np.errstate(invalid="ignore", divide="ignore"):
        theta = np.asarray(statistic(parts), dtype=float).reshape(len(totals), -1)
    alpha = (1 - confidence) / 2
    finite = np.isfinite(theta).all(axis=0)
    lo, hi = np.full(len(est), np.nan), np.full(len(est), np.nan)
    if finite.any():
        q = stats.quantile(theta[:, finite], np.array([alpha, 1 - alpha])[:, None], axis=0)
        lo[finite], hi[finite] = q[0], q[1]
    bad = ~finite & np.isfinite(est)
    if bad.any():  # resamples without an observation of a rare group give NaN: ignore them
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a group never seen in any resample
            lo[bad], hi[bad] = np.nanpercentile(theta[:, bad], [100 * alpha, 100 * (1 - alpha)], axis=0)
    return est, lo, hi


def bootstrap_ratio(
    sums: np.ndarray,
    counts: np.ndarray | None = None,
    *,
    contrast_to: int | None = None,
    confidence: float = CONFIDENCE,
    **kw,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratio ``sum(sums) / sum(counts)`` per column, with a bootstrap interval over rows (deals).

    Parameters
    ----------
    sums : ndarray, shape (n,) or (n, g)
        Per-deal totals of the quantity, one column per group.
    counts : ndarray, same shape, optional
        Per-deal number of observations of each group (default 1 each: a plain mean).
    contrast_to : int, optional
        Report every ratio minus the ratio of this column, bootstrapped jointly
        (a paired contrast; the column itself gets 0).
    confidence : float
        Level of each interval.
    **kw
        ``n_resamples``, ``seed``, ``max_blocks`` of :func:`bootstrap_deals`.

    Returns
    -------
    estimate, lo, hi : ndarray, shape (g,), or floats for 1-d ``sums``

    Examples
    --------
    >>> est, lo, hi = bootstrap_ratio(np.array([1.0, 2.0, 3.0, 6.0]), n_resamples=2000)
    >>> float(est), bool(lo <= est <= hi)
    (3.0, True)
    """
    S = np.asarray(sums, dtype=float)
    squeeze = S.ndim == 1
    S = S.reshape(len(S), -1)
    C = np.ones_like(S) if counts is None else np.asarray(counts, dtype=float).reshape(S.shape)
    if len(S) == 0:
        nan = np.full(S.shape[1], np.nan)
        return (nan[0],) * 3 if squeeze else (nan, nan.copy(), nan.copy())

    def ratio(t: list[np.ndarray]) -> np.ndarray:
        r = t[0] / t[1]
        return r - r[:, [contrast_to]] if contrast_to is not None else r

    est, lo, hi = bootstrap_deals([S, C], ratio, confidence=confidence, **kw)
    if squeeze:
        return float(est[0]), float(lo[0]), float(hi[0])
    return est, lo, hi


def quantile_interval(x, p: float, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """The ``p`` quantile of ``x`` and its distribution-free interval (``scipy.stats.quantile_test``).

    The estimate is the order statistic ``inverted_cdf`` (a value that occurred); the
    interval is exact for i.i.d. data (order statistics bracketing the quantile), and a
    bound is infinite when too few values exist (e.g. the 1 % quantile of 20 values).

    Examples
    --------
    >>> est, lo, hi = quantile_interval(np.arange(1, 101), 0.5)
    >>> float(est), bool(lo <= est <= hi)
    (50.0, True)
    """
    est, lo, hi = quantile_intervals(x, [p], confidence)
    return float(est[0]), float(lo[0]), float(hi[0])


def quantile_intervals(
    x, ps: Sequence[float], confidence: float = CONFIDENCE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`quantile_interval` for several ``ps`` at once, sorting ``x`` once.

    The bounds are the order statistics ``scipy.stats.quantile_test(x, p=p)
    .confidence_interval(confidence)`` picks (two-sided: ranks ``binom(n, p).ppf(a) - 1``
    and ``binom(n, p).isf(a)``, ``a = (1 - confidence) / 2``), with the binomial quantiles
    of all ``ps`` computed in one call.

    Examples
    --------
    >>> est, lo, hi = quantile_intervals(np.arange(1, 101), [0.05, 0.5])
    >>> [float(v) for v in est], bool((lo <= est).all() and (est <= hi).all())
    ([5.0, 50.0], True)
    """
    x = np.sort(np.asarray(x, dtype=float))
    ps = np.asarray(ps, dtype=float)
    n = len(x)
    if n == 0:
        nan = np.full(len(ps), np.nan)
        return nan, nan.copy(), nan.copy()
    est = np.quantile(x, ps, method="inverted_cdf")
    a = (1 - confidence) / 2
    low_index = stats.binom.ppf(a, n, ps).astype(np.int64) - 1
    high_index = stats.binom.isf(a, n, ps).astype(np.int64)
    # too few values for an order statistic to bound the quantile: the bound is unbounded
    lo = np.where(low_index >= 0, x[np.clip(low_index, 0, n - 1)], -np.inf)
    hi = np.where(high_index < n, x[np.clip(high_index, 0, n - 1)], np.inf)
    return est, lo, hi


def kaplan_meier(
    times: np.ndarray, event: np.ndarray, ks: Sequence[int], confidence: float = CONFIDENCE
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kaplan-Meier P(event by time k) with right censoring, by ``scipy.stats.ecdf``.

    Parameters
    ----------
    times : ndarray of int
        Event time where ``event``, else the last time observed without the event
        (right-censored: the event, if any, comes later).
    event : ndarray of bool
    ks : sequence of int
        Times reported.
    confidence : float
        Level of the pointwise log-log (Greenwood) interval.

    Returns
    -------
    p, lo, hi, at_risk : ndarray, one per k
        ``1 - S(k)``, its interval, and the number still at risk at k (``times >= k``).
        Before the first event (``p == 0``) Greenwood's variance is 0 and the log-log interval
        undefined; there the upper bound is the exact (Clopper-Pearson) one for no event among
        the ``at_risk`` subjects followed through k (each was event-free through k), 1 when none
        was.

    Examples
    --------
    >>> p, lo, hi, n = kaplan_meier(np.array([1, 2, 3, 4]), np.array([True, False, True, False]), [1, 3])
    >>> [round(float(v), 3) for v in p], [int(v) for v in n]
    ([0.25, 0.625], [4, 2])
    >>> p, lo, hi, n = kaplan_meier(np.array([5, 7, 9]), np.array([False, False, False]), [6])
    >>> float(p[0]), float(lo[0]), round(float(hi[0]), 3), int(n[0])  # no event: 1 - 0.025 ** (1 / 2)
    (0.0, 0.0, 0.842, 2)
    """
    times = np.asarray(times, dtype=float)
    event = np.asarray(event, dtype=bool)
    ks = np.asarray(ks, dtype=float)
    at_risk = np.array([int((times >= k).sum()) for k in ks])
    none_yet = 1 - ((1 - confidence) / 2) ** (1 / np.maximum(at_risk, 1))  # Clopper-Pearson, 0 events
    none_yet = np.where(at_risk > 0, none_yet, 1.0)
    if not event.any():
        zero = np.zeros(len(ks))
        return zero, zero.copy(), none_yet, at_risk
    data = stats.CensoredData(uncensored=times[event], right=times[~event])
    sf = stats.ecdf(data).sf
    p = 1 - sf.evaluate(ks)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # undefined where S is 0 or 1: handled below
        ci = sf.confidence_interval(confidence, method="log-log")
        lo, hi = 1 - ci.high.evaluate(ks), 1 - ci.low.evaluate(ks)
    # before the first event (p == 0) and once every seat is ready (p == 1) Greenwood's variance is 0
    lo = np.where(np.isnan(lo) & (p == 0), 0.0, np.where(np.isnan(lo) & (p == 1), 1.0, lo))
    hi = np.where(np.isnan(hi) & (p == 1), 1.0, np.where(np.isnan(hi) & (p == 0), none_yet, hi))
    return p, lo, hi, at_risk


def familywise_confidence(family_size: int, confidence: float = CONFIDENCE) -> float:
    """Bonferroni: the level of each of ``family_size`` intervals that hold jointly at ``confidence``.

    >>> familywise_confidence(10)
    0.995
    """
    if isinstance(family_size, bool) or not isinstance(family_size, int | np.integer) or family_size < 1:
        raise ValueError(
            f"familywise_confidence: family_size must be a whole number >= 1, not {family_size!r}"
        )
    return round(1 - (1 - confidence) / int(family_size), 12)
