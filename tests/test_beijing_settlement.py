"""Beijing settlement kernels (families/beijing/settle.py) against the plain-Python reference
(tests/reference_beijing.py, which imports nothing of the package's kernels)."""

from __future__ import annotations

import numpy as np
import pytest
import reference_beijing as R

from daqing_sim.families.beijing import settle as G


def _kernel_pay(value, winner, how, payer, partner):
    out = np.zeros(4, dtype=np.int64)
    G.bj_payments_k(value, winner, how, payer, partner, out)
    return out.tolist()


def test_payments_equal_the_reference_on_every_case():
    rng = np.random.default_rng(11)
    counted = {G.DEAL_IN_WIN: 0, G.SELF_DRAWN_WIN: 0, G.ROBBED_KONG_WIN: 0}
    bound = 0
    for _ in range(3000):
        value = int(rng.integers(1, 40)) * 500
        winner = int(rng.integers(4))
        others = [s for s in range(4) if s != winner]
        how = int(rng.integers(3))
        payer = int(rng.choice(others))
        partner = int(rng.choice(others)) if rng.random() < 0.3 else -1
        expected = R.payments(
            value,
            winner,
            self_draw=how == G.SELF_DRAWN_WIN,
            discarder=payer if how == G.DEAL_IN_WIN else None,
            robbed_from=payer if how == G.ROBBED_KONG_WIN else None,
            bound_partner=None if partner < 0 else partner,
        )
        got = _kernel_pay(value, winner, how, payer, partner)
        assert got == expected and sum(got) == 0
        counted[how] += 1
        bound += partner >= 0
    assert min(counted.values()) > 800 and bound > 600


@pytest.mark.parametrize("rounds", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("dealer", [0, 2])
def test_burning_the_dealer_equals_the_reference(rounds, dealer):
    out = np.zeros(4, dtype=np.int64)
    G.bj_burn_k(rounds, dealer, 1000, out)
    assert out.tolist() == R.burn_payments(rounds, dealer, burn_points=1000)


def test_bindings_follow_the_claims_as_the_reference_reads_them():
    rng = np.random.default_rng(5)
    n_bound = 0
    for _ in range(2000):
        claims = []
        for _ in range(int(rng.integers(0, 12))):
            a, b = rng.choice(4, size=2, replace=False)
            claims.append((int(a), int(b)))
        claims_from = np.zeros((4, 4), dtype=np.int64)
        bound = np.full(4, -1, dtype=np.int64)
        for a, b in claims:
            G.bj_note_claim_k(claims_from, bound, a, b)
        pairs = R.bindings(claims)
        for s in range(4):
            p = R.bound_partner(s, pairs)
            assert bound[s] == (-1 if p is None else p), claims
        n_bound += bool(pairs)
    assert n_bound > 100  # bindings did form
