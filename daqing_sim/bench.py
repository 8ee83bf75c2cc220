"""``daqing-sim bench``: single-core throughput of the kernels, after compilation.

Hands are random 13-tile draws from the 112-tile set (no melds). The kernels are
single-threaded (no ``prange``); the command also sets ``NUMBA_NUM_THREADS=1`` for
anything it starts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from daqing_sim.game.simulate import simulate
from daqing_sim.rules import RuleSet
from daqing_sim.validation import check_int

TARGETS = {
    "standard_shanten": 20e6,
    "standard_shanten_api": 20e6,
    "wait_set": 2e6,
    "daqing_shanten": 2e6,
    "deals_greedy": 5_000,
    "deals_expert": 2_500,
    "deals_random": 50_000,
    "advise_exact_k3": 1.0,  # seconds per 14-tile hand, at most
}


# (ours, an outside peer measured in the same run, the ratio aimed at)
RATIOS = (
    ("standard_shanten_api", "standard_shanten", 0.9),  # ds.standard_shanten vs its kernel
    ("deals_user_jitted", "deals_greedy", 0.5),
    ("deals_python_random", "riichienv_random", 2.0),
    ("deals_expert", "riichienv_random", 3.0),
    # Beijing (136 tiles, four seats, like RiichiEnv's game): issue 20's aims
    ("deals_beijing_greedy", "riichienv_random", 8.0),
    ("deals_beijing_expert", "riichienv_random", 5.0),
    # two-player games (71 tiles, two seats) against four-seat Daqing deals: issue 21's aim
    ("games_two_player_greedy", "deals_greedy", 1.5),
    # our public shanten API on a batch vs xiangting's Rust shanten called per hand from Python
    ("standard_shanten_api", "xiangting_shanten", 1.0),
)


def random_hands(n: int, seed: int = 0, n_tiles: int = 13) -> np.ndarray:
    """``(n, 28)`` uint8 count vectors of ``n_tiles`` tiles drawn from the 112-tile set."""
    rng = np.random.default_rng(seed)
    tiles = np.repeat(np.arange(28, dtype=np.int64), 4)
    picks = np.argsort(rng.random((n, 112)), axis=1)[:, :n_tiles]
    hands = np.zeros((n, 28), dtype=np.uint8)
    np.add.at(hands, (np.repeat(np.arange(n), n_tiles), tiles[picks].ravel()), 1)
    return hands


def _rate(fn, n: int, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n / best


def _rates_alternated(fns: dict[str, Any], n: int, repeat: int = 7) -> dict[str, float]:
    """``n`` over the best of ``repeat`` timings of each function, timed in turn round by round,
    so a ratio of two of them compares runs made under the same load."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    return {name: n / t for name, t in best.items()}


def bench_evaluator(n: int = 1_000_000, seed: int = 0) -> dict[str, float]:
    """Hands per second of the batch kernels, and of the public ``ds.standard_shanten`` on the
    same ``(n, 28)`` uint8 batch (after a warm-up; the standard-shanten kernel and the API are
    timed alternately, best of seven each, the others best of three)."""
    from daqing_sim.compile_notice import announce
    from daqing_sim.hand import kernels as K
    from daqing_sim.hand.tables import get_tables

    announce("hand_batch")
    tabs = get_tables()
    rules = RuleSet().encode()
    hands = random_hands(n, seed)
    small = hands[: max(1, n // 5)]
    out = np.empty(n, dtype=np.int8)
    K.std_shanten_batch_k(hands[:8], tabs, out)
    K.wait_set_batch_k(hands[:8], rules, tabs, out)
    K.daqing_shanten_batch_k(hands[:8], rules, tabs, out)
    from daqing_sim.hand.evaluator import standard_shanten

    standard_shanten(hands[:8])
    pair = {
        "standard_shanten": lambda: K.std_shanten_batch_k(hands, tabs, out),
        "standard_shanten_api": lambda: standard_shanten(hands),
    }
    return {
        **_rates_alternated(pair, n),
        "wait_set": _rate(lambda: K.wait_set_batch_k(small, rules, tabs, out), len(small)),
        "daqing_shanten": _rate(lambda: K.daqing_shanten_batch_k(small, rules, tabs, out), len(small)),
    }


def deals_per_second(
    strategies: Sequence[Any] = ("greedy",) * 4,
    n_deals: int = 20_000,
    rules: RuleSet = RuleSet(),
    repeat: int = 1,
) -> float:
    """Deals per second of :func:`simulate` on one core, after a warm-up compile: the best of
    ``repeat`` timed runs of the same deals (the others are slowed by whatever else ran).

    Parameters
    ----------
    strategies : sequence of 4
        Seat strategies.
    n_deals : int
        Deals to time (one process, ``n_jobs=1``).
    rules : RuleSet
        Rule flags.
    repeat : int
        Timed runs (>= 1).

    Returns
    -------
    float
    """
    n_deals = check_int(n_deals, "n_deals", minimum=1)
    repeat = check_int(repeat, "repeat", minimum=1)
    simulate(16, rules=rules, strategies=strategies, seed=12345)
    return _rate(lambda: simulate(n_deals, rules=rules, strategies=strategies, seed=0), n_deals, repeat)


def bench_deals(n_deals: int = 20_000, repeat: int = 3) -> dict[str, float]:
    """Deals per second with four greedy, four expert and four random players (best of
    ``repeat`` runs, after a warm-up)."""
    return {
        "deals_greedy": deals_per_second(("greedy",) * 4, n_deals, repeat=repeat),
        "deals_expert": deals_per_second(("expert",) * 4, n_deals, repeat=repeat),
        "deals_random": deals_per_second(("random",) * 4, 5 * n_deals, repeat=repeat),
    }


def bench_beijing(n_deals: int = 20_000, repeat: int = 3) -> dict[str, float]:
    """Beijing deals per second with four greedy, four expert and four random players (best of
    ``repeat`` runs, after a warm-up)."""
    beijing = RuleSet(family="beijing")
    return {
        "deals_beijing_greedy": deals_per_second(("greedy",) * 4, n_deals, beijing, repeat),
        "deals_beijing_expert": deals_per_second(("expert",) * 4, n_deals, beijing, repeat),
        "deals_beijing_random": deals_per_second(("random",) * 4, n_deals, beijing, repeat),
    }


def bench_two_player(n_games: int = 20_000, repeat: int = 3) -> dict[str, float]:
    """Two-player games per second with two greedy and two expert players (best of ``repeat``
    runs, after a warm-up)."""
    two = RuleSet(family="two_player")
    return {
        "games_two_player_greedy": deals_per_second(("greedy",) * 2, n_games, two, repeat),
        "games_two_player_expert": deals_per_second(("expert",) * 2, n_games, two, repeat),
    }


def bench_python_players(n_deals: int = 2_000, repeat: int = 3) -> dict[str, float]:
    """Deals per second with four trivial Python players
    (:class:`~daqing_sim.players.examples.RandomLegal`) on the stepped engine."""
    from daqing_sim.players.examples import RandomLegal

    seats = tuple(RandomLegal() for _ in range(4))
    return {"deals_python_random": deals_per_second(seats, n_deals, repeat=repeat)}


def bench_jitted_player(n_deals: int = 20_000, repeat: int = 3) -> dict[str, float]:
    """Deals per second with four user jitted players
    (:data:`~daqing_sim.players.examples_jitted.CAUTIOUS`, greedy's building blocks in a
    user's module, run as first-class functions)."""
    from daqing_sim.players.examples_jitted import CAUTIOUS

    return {"deals_user_jitted": deals_per_second((CAUTIOUS,) * 4, n_deals, repeat=repeat)}


def bench_riichienv(seconds: float = 10.0) -> dict[str, float]:
    """Hands per second of RiichiEnv (``pip install riichienv``) with its random Python agents,
    one hand per environment as in its README; empty when it is not installed."""
    try:
        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent
    except ImportError:
        return {}
    agent = RandomAgent()
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env = RiichiEnv(seed=n)
        obs = env.reset()
        while not env.done():
            obs = env.step({p: agent.act(o) for p, o in obs.items()})
        n += 1
    return {"riichienv_random": n / (time.perf_counter() - t0)}


def bench_xiangting(n: int = 50_000, seed: int = 0) -> dict[str, float]:
    """Hands per second of xiangting (``pip install xiangting``: a Rust shanten calculator with
    Python bindings, one call per hand) on the same random 13-tile hands as
    :func:`bench_evaluator`, 中 as 7z; empty when it is not installed. Its number is the smallest
    over four melds and a pair, seven pairs and thirteen orphans (ours is the first only), so the two
    agree on most hands but not all: a comparison of speed, not of values."""
    try:
        import xiangting
    except ImportError:
        return {}
    hands = random_hands(n, seed)
    rows = np.zeros((n, 34), dtype=np.int64)
    rows[:, :27] = hands[:, :27]
    rows[:, 33] = hands[:, 27]  # 中 is 7z, xiangting's last index
    lists = rows.tolist()
    four = xiangting.PlayerCount.FOUR
    calc = xiangting.calculate_replacement_number
    return {"xiangting_shanten": _rate(lambda: [calc(h, four) for h in lists], n)}


def bench_advisor(n_hands: int = 100, k: int = 3, seed: int = 0) -> dict[str, float]:
    """Median seconds of ``advise(method="exact", k=k)`` on random 14-tile hands (no melds,
    nothing seen), after a warm-up compile.

    Examples
    --------
    >>> bench_advisor(2, k=1)["advise_exact_k1"] > 0
    True
    """
    from daqing_sim.advisor.api import advise
    from daqing_sim.hand.notation import hand_from_arrays

    n_hands = check_int(n_hands, "n_hands", minimum=1)
    hands = [hand_from_arrays(h) for h in random_hands(n_hands, seed, n_tiles=14)]
    advise(hands[0], k=k)
    times = []
    for hand in hands:
        t0 = time.perf_counter()
        advise(hand, k=k)
        times.append(time.perf_counter() - t0)
    return {f"advise_exact_k{k}": float(np.median(times))}


def bench_advisor_simulate(n_hands: int = 5, n_sims: int = 500, seed: int = 0) -> dict[str, float]:
    """Median seconds of ``advise(method="simulate", n_sims=n_sims)`` on random 14-tile hands
    (four experts, nothing seen), and the simulated deals per second behind it (every candidate
    discard plays the ``n_sims`` worlds).

    Examples
    --------
    >>> r = bench_advisor_simulate(1, n_sims=20)
    >>> r["advise_simulate_deals"] > 0
    True
    """
    from daqing_sim.advisor.api import advise
    from daqing_sim.hand.notation import hand_from_arrays

    n_hands = check_int(n_hands, "n_hands", minimum=1)
    n_sims = check_int(n_sims, "n_sims", minimum=1)
    hands = [hand_from_arrays(h) for h in random_hands(n_hands, seed, n_tiles=14)]
    advise(hands[0], method="simulate", n_sims=4, seed=1)
    times, deals = [], 0
    for i, hand in enumerate(hands):
        t0 = time.perf_counter()
        df = advise(hand, method="simulate", n_sims=n_sims, seed=i)
        times.append(time.perf_counter() - t0)
        deals += n_sims * len(df)
    return {
        f"advise_simulate_{n_sims}": float(np.median(times)),
        "advise_simulate_deals": deals / float(np.sum(times)),
    }
