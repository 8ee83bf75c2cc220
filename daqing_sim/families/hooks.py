"""The protocol of the one deal loop (:func:`daqing_sim.game.engine._play_deal`): the steps where
rule families differ, each a hook the loop calls with the deal state first.

A hook resolves, while numba types the loop, to the function ``step_<hook>`` of the ``deal``
module of the family whose ``deal.STATE`` is the state's type (a namedtuple class), found through
the registry (:data:`daqing_sim.families.FAMILY_PACKAGES`); so a new family's package supplies its
steps and its state type, and the loop is not edited. The step functions are plain Python
functions with the hook's parameters (numba checks the names), inlined into the loop
(``inline="always"``): a Daqing compile never sees another family's step and the Daqing steps are
compiled as the loop's own code, as they were when they were written in its body.

The loop is compiled without reference counting in its own code
(:func:`daqing_sim.jit.njit_no_refs_loop`): an inlined step takes the whole state, and numba
would otherwise count a reference to each of its ~25 arrays on the way in and out of every step
(measured: 0.73-0.93x the deals/s of the loop that branched on the family, docs/DESIGN.md); so a
step must not allocate an array itself (a function it calls may). The stubs below are never
called from Python.

>>> sorted(PROTOCOL)[:3]
['after_claims', 'after_discard', 'after_kong']
"""

from __future__ import annotations

from numba.core.errors import TypingError

from daqing_sim.families import FAMILY_PACKAGES, family_module
from daqing_sim.jit import overload_inline

#: hook name -> its parameters (a family's ``step_<name>`` takes exactly these) and what it returns
PROTOCOL: dict[str, tuple[str, str]] = {
    "seats": ("st", "seats at the table (a constant)"),
    "lock": ("st, rules", "does a ready hand lock (discard every non-winning draw, claim only wins)"),
    "start": (
        "st, wall, rules, log, log_on, n_log, front, back, bao",
        "(front, back, bao, n_log) after the family's own start of a deal (its state reset)",
    ),
    "wall_end": (
        "st, wall, rules, tabs, log, log_on, n_log, front, back",
        "(end, winner, win_tile, n_log): does play stop before this draw, and a win there",
    ),
    "self_draw_win": (
        "st, wall, rules, tabs, cur, drawn, dealer, bao, replacement, front, back",
        "(winner, win_tile, win_kind, big, bao_kind, win_drawn) of a self-draw, winner -1 none",
    ),
    "kong_options": (
        "st, obs, rules, tabs, cur, lock, front, back",
        "the number of kongs ``cur`` may declare (``st.kong_opts`` filled)",
    ),
    "simple_kong": ("st, code, kn, kong_opts, rng, seat", "a table-free player's kong, or -1"),
    "kong": ("st, code, kn, obs, rules, tabs, kong_opts", "a table-free player's kong on ``obs``"),
    "after_kong": (
        "st, wall, rules, tabs, cur, kt, concealed, log, log_on, n_log, bao, front, back, n_repl",
        "(bao, back, n_repl, n_log, winner, win_tile, win_kind, big, bao_kind, method, "
        "discarder_ready) after ``cur``'s kong of ``kt``, winner -1 none (a deal-in: the kong robbed)",
    ),
    "forced_discard": (
        "st, rules, cur, drawn, dealer, front, back",
        "a discard the rules force on ``cur``, or -1",
    ),
    "simple_discard": (
        "st, obs, rules, tabs, code, kn, cur, drawn",
        "(tile, declare) of a table-free player",
    ),
    "discard": ("st, code, kn, obs, rules, tabs", "(tile, declare) of a table-free player on ``obs``"),
    "after_discard": (
        "st, obs, rules, tabs, orow, cur, declare, keep_ready, thrown_drawn",
        "is ``cur`` newly ready after its discard (its declaration recorded)",
    ),
    "discard_win": (
        "st, rules, tabs, log, log_on, n_log, cur, d, dealer, last_live, front, back",
        "(claimable, at_end, n_log, winner, win_kind, big, discarder_ready) on the discard ``d``",
    ),
    "bao_check": (
        "st, wall, rules, cur, newly_ready, log, log_on, n_log, bao, front, back, n_repl",
        "(bao, back, n_repl, n_log, winner, win_kind, big, bao_kind): a self-draw on the bao "
        "(the win tile) after a discard or a claim, winner -1 none",
    ),
    "before_claims": (
        "st, cur, d, claimable, at_end, lock",
        "may ``d`` be claimed (after the loop marked the locked hands' safe tiles)",
    ),
    "claim_options": (
        "st, obs, rules, tabs, cur, d, stage, at_end, front, back",
        "(seat, options, stop) at claim stage ``stage``: the seat asked (-1 none) and its "
        "options; ``stop`` ends the claims",
    ),
    "claim": ("st, code, kn, obs, rules, tabs, t, options", "a table-free player's claim on ``obs``"),
    "after_claims": (
        "st, claimer, action",
        "did ``claimer`` take the discard as a win (``action``); the family's own note of the claims",
    ),
    "note_claim": (
        "st, rules, claimer, cur, action, log, log_on, n_log",
        "``n_log`` after the family's note of ``claimer``'s meld from ``cur``",
    ),
    "record": (
        "st, rules, dealer, orow, hrow, rec_hand, tabs",
        "settle the deal and write its row ``orow`` (and the winner's hand ``hrow``)",
    ),
    "legal_discards": (
        "st, ctl, rules, tabs, tk, tb",
        "fill ``ctl[C_LEGAL + t]`` at a paused discard of an outside seat",
    ),
}


def deal_module(st):
    """The ``deal`` module of the family whose ``STATE`` is the numba type ``st``'s class."""
    cls = getattr(st, "instance_class", None)
    for name in FAMILY_PACKAGES:
        mod = family_module(name, "deal")
        if getattr(mod, "STATE", None) is cls and cls is not None:
            return mod
    raise TypingError(f"no rule family's deal.STATE is {st}: give the family's deal module STATE")


def _stub(*args):
    raise NotImplementedError("a family hook runs inside the jitted deal loop only")


def _hook(name: str, params: str, doc: str):
    """The hook ``name`` and its overload, which returns the family's ``step_<name>``."""
    scope = {"_stub": _stub, "deal_module": deal_module}
    # numba checks the overload's typing function and the step against each other by their
    # parameter names, so both are written with the protocol's names
    exec(
        f"def {name}({params}):\n    return _stub()\n"
        f"def typing({params}):\n    return getattr(deal_module(st), 'step_{name}')\n",
        scope,
    )
    hook = scope[name]
    hook.__doc__ = f"Protocol hook: {doc}."
    hook.__module__ = __name__
    overload_inline(hook)(scope["typing"])
    return hook


for _name, (_params, _doc) in PROTOCOL.items():
    globals()[_name] = _hook(_name, _params, _doc)


def inherit_steps(namespace: dict, base) -> None:
    """Give a family's ``deal`` module (its ``globals()``, after its own steps) every
    ``step_<hook>`` of the protocol it does not define, taken from the ``deal`` module ``base``: a
    family that changes a few steps of another writes only those.

    >>> import types
    >>> base = types.SimpleNamespace(**{f"step_{h}": h for h in PROTOCOL})
    >>> mine = {"step_claim": "my claim"}
    >>> inherit_steps(mine, base)
    >>> mine["step_claim"], mine["step_record"], len(mine) == len(PROTOCOL)
    ('my claim', 'record', True)
    """
    for name in PROTOCOL:
        namespace.setdefault(f"step_{name}", getattr(base, f"step_{name}"))


# ---- the search's world samplers (search.evaluator) still prune their per-family code on these
# (``None`` for the other families' states); the deal loop no longer uses them.


def _is(st, family: str) -> bool:
    """Is the numba type ``st`` the deal state of ``family``?"""
    return getattr(st, "instance_class", None) is family_module(family, "deal").STATE


def family_state(st):
    """``None`` for a Daqing deal state, the state itself for another family's."""
    return _stub()


@overload_inline(family_state)
def _family_state(st):
    if _is(st, "daqing"):
        return lambda st: None
    return lambda st: st


def beijing_state(st):
    """The state itself for a Beijing deal state, else ``None``."""
    return _stub()


@overload_inline(beijing_state)
def _beijing_state(st):
    if _is(st, "beijing"):
        return lambda st: st
    return lambda st: None


def two_player_state(st):
    """The state itself for a two-player deal state, else ``None``."""
    return _stub()


@overload_inline(two_player_state)
def _two_player_state(st):
    if _is(st, "two_player"):
        return lambda st: st
    return lambda st: None


__all__ = [
    "PROTOCOL",
    "beijing_state",
    "deal_module",
    "family_state",
    "inherit_steps",
    "two_player_state",
    *PROTOCOL,
]
