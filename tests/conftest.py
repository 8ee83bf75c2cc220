"""Shared test fixtures: seeded random hands drawn from the 112-tile multiset.

``HandGen`` draws hands as ``(counts, melds)`` with ``counts`` a ``(28,)`` uint8 array of
concealed tiles and ``melds`` a list of ``(meld_kind_code, lowest_tile)``. Besides plain
random hands it builds near-ready hands (a complete 4-groups-plus-pair shape minus one
tile, optionally perturbed), because random 13-tile hands are rarely ready.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
os.environ.setdefault("NUMBA_NUM_THREADS", "1")
# no cold-start helper processes (daqing_sim.coldstart) beside the test workers: the kernels are
# compiled before the tests (warm_kernels.py)
os.environ.setdefault("DAQING_SIM_HELPERS", "0")

from daqing_sim.codes import ADDED_KONG, CHI, CONCEALED_KONG, KONG, N_KINDS, PENG, ZHONG
from daqing_sim.rules import RuleSet  # noqa: E402

Melds = list[tuple[int, int]]


def _say(line: str) -> None:
    # pytest_configure runs before pytest captures output: standard error reaches the terminal
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def pytest_configure(config: pytest.Config) -> None:
    """Before any test (in the main process only, not in xdist workers): compile or load the
    parts of ``warm_kernels.py``, one subprocess each, as many at a time as there are cores and
    each once the parts it calls are cached, so a cold numba cache is filled once, on every core
    at once, and no two test workers compile the same kernels. It says first how many parts
    compile and about how long that takes, then each part as it ends (how many of how many).
    ``DAQING_TEST_WARM=0`` skips it."""
    if hasattr(config, "workerinput") or os.environ.get("DAQING_TEST_WARM") == "0":
        return
    import time

    started = time.perf_counter()
    from warm_kernels import ORDER, estimate, run_parts

    from daqing_sim.compile_notice import busy_factor, say_seconds

    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    jobs = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    try:
        from warm_kernels import cold_parts

        cold = cold_parts()
    except Exception:  # the check itself failed (a broken import): the parts will say what
        cold = list(ORDER)
    total = len(ORDER)
    wait = say_seconds(estimate(cold, jobs), busy_factor(jobs))
    if cold:
        _say(
            f"numba kernels: compiling {len(cold)} of {total} parts before the tests (first run, or their "
            f"source changed; cached on disk after), {wait}, {jobs} at a time (tests/warm_kernels.py)"
        )
    else:
        _say(f"numba kernels: all {total} parts cached, loading them ({wait})")

    def report(part: str, done: list[str], running: list[str]) -> None:
        if part in cold:
            now = f"; now {', '.join(running)}" if running else ""
            at = time.perf_counter() - started
            _say(f"numba kernels [{len(done)}/{total}]: {part} done at {at:.0f} s{now}")

    took, failed, parts = run_parts(jobs, env, report)
    # a failing part is not an error here: the tests that use those kernels report it
    note = f", failed: {', '.join(failed)}" if failed else ""
    cpu = sum(p[2] for p in parts.values())
    _say(f"numba kernels compiled or loaded in {took:.0f} s ({cpu:.0f} s of CPU){note}")
    if os.environ.get("DAQING_TEST_WARM_LOG"):  # each part's (start s, end s, CPU s)
        with open(os.environ["DAQING_TEST_WARM_LOG"], "w") as f:
            json.dump({"cold": cold, "parts": parts}, f)


def _meld_tiles(kind: int, tile: int) -> list[int]:
    if kind == CHI:
        return [tile, tile + 1, tile + 2]
    return [tile] * (3 if kind == PENG else 4)


class HandGen:
    """Seeded generator of hands drawn without replacement from the 112 tiles."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    # -- pieces
    def _take(self, pool: np.ndarray, tiles: list[int]) -> bool:
        need = np.bincount(tiles, minlength=N_KINDS)
        if np.any(need > pool):
            return False
        pool -= need
        return True

    def random_group(self, pool: np.ndarray, p_sequence: float = 0.6, zhong: bool = True) -> list[int]:
        """One random sequence or triplet available in ``pool`` (tiles removed from it)."""
        for _ in range(200):
            if self.rng.random() < p_sequence:
                s, r = self.rng.integers(3), self.rng.integers(7)
                tiles = [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2]
            else:
                k = int(self.rng.integers(N_KINDS if zhong else ZHONG))
                tiles = [k] * 3
            if self._take(pool, tiles):
                return tiles
        raise RuntimeError("no group fits the pool")  # pragma: no cover

    def random_melds(self, pool: np.ndarray, n_melds: int) -> Melds:
        melds: Melds = []
        kinds = [CHI, PENG, KONG, CONCEALED_KONG, ADDED_KONG]
        while len(melds) < n_melds:
            kind = int(self.rng.choice(kinds, p=[0.45, 0.3, 0.1, 0.1, 0.05]))
            tile = int(self.rng.integers(N_KINDS))
            if kind == CHI and (tile == ZHONG or tile % 9 > 6):
                continue
            if self._take(pool, _meld_tiles(kind, tile)):
                melds.append((kind, tile))
        return melds

    def _draw(self, pool: np.ndarray, n: int) -> np.ndarray:
        tiles = self.rng.choice(np.repeat(np.arange(N_KINDS), pool), size=n, replace=False)
        got = np.bincount(tiles, minlength=N_KINDS)
        pool -= got
        return got.astype(np.uint8)

    # -- hands
    def random_hand(
        self, n_melds: int | None = None, size: int = 13, zhong: int = 0
    ) -> tuple[np.ndarray, Melds]:
        """A random hand of ``size`` (13 or 14) tiles with ``n_melds`` melds (random 0-4
        when None) and at least ``zhong`` concealed 中."""
        if n_melds is None:
            n_melds = int(self.rng.choice(5, p=[0.4, 0.3, 0.15, 0.1, 0.05]))
        pool = np.full(N_KINDS, 4, dtype=np.int64)
        melds = self.random_melds(pool, n_melds)
        zhong = min(zhong, int(pool[ZHONG]), size - 3 * n_melds)
        pool[ZHONG] -= zhong
        counts = self._draw(pool, size - 3 * n_melds - zhong)
        counts[ZHONG] += zhong
        return counts, melds

    def complete_hand(
        self, n_melds: int | None = None, p_sequence: float = 0.6, zhong: bool = True
    ) -> tuple[np.ndarray, Melds]:
        """A 14-tile hand split into melds, concealed groups and a pair."""
        if n_melds is None:
            n_melds = int(self.rng.choice(5, p=[0.3, 0.3, 0.2, 0.12, 0.08]))
        pool = np.full(N_KINDS, 4, dtype=np.int64)
        if not zhong:
            pool[ZHONG] = 0
        melds = self.random_melds(pool, n_melds)
        tiles: list[int] = []
        for _ in range(4 - n_melds):
            tiles += self.random_group(pool, p_sequence, zhong)
        while True:
            k = int(self.rng.integers(N_KINDS))
            if self._take(pool, [k, k]):
                tiles += [k, k]
                break
        return np.bincount(tiles, minlength=N_KINDS).astype(np.uint8), melds

    def near_ready(
        self,
        n_melds: int | None = None,
        p_sequence: float = 0.6,
        zhong: bool = True,
        exchanges: int = 0,
    ) -> tuple[np.ndarray, Melds]:
        """A complete shape minus one random concealed tile, then ``exchanges`` random
        exchanges (discard a concealed tile, draw a kind held fewer than 4 times)."""
        counts, melds = self.complete_hand(n_melds, p_sequence, zhong)
        counts = counts.copy()
        counts[self.rng.choice(np.repeat(np.arange(N_KINDS), counts))] -= 1
        held = counts.astype(np.int64)
        for k, t in melds:
            for x in _meld_tiles(k, t):
                held[x] += 1
        for _ in range(exchanges):
            d = self.rng.choice(np.repeat(np.arange(N_KINDS), counts))
            counts[d] -= 1
            held[d] -= 1
            x = int(self.rng.choice(np.flatnonzero(held < 4)))
            counts[x] += 1
            held[x] += 1
        return counts, melds

    def random_rules(self) -> RuleSet:
        """Random flips of the flags the evaluator reads."""
        flags = {
            name: bool(self.rng.random() < 0.5)
            for name in ("jia_includes_edge", "jia_includes_single", "dragon_waives_sequence")
        }
        for name in ("require_two_suits", "require_terminal", "require_triplet", "require_sequence"):
            flags[name] = bool(self.rng.random() < 0.7)
        return RuleSet(**flags)


@pytest.fixture
def hand_gen() -> HandGen:
    """A fresh generator with a fixed seed (each test sees the same hands every run)."""
    return HandGen(20261129)
