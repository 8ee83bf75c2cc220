"""Experiment files: studies of rule variants on the same walls, from a TOML file.

An experiment names a number of deals, a seed, the seat strategies, base rule
overrides and a list of **variants** (rule and strategy overrides). Every variant
plays the same deals ``0 .. n_deals - 1`` of the same seed, so all variants (of one rule family,
below) see the same walls (common random numbers) and their differences are not noise of
the deal.

A minimal file::

    name = "bao_replacement"
    description = "换宝 on (classic) against off (newer practice)"
    n_deals = 100_000
    seed = 1
    chunk_size = 5_000
    strategies = "expert"            # every seat, or one name per seat (default: the family's field)

    [rules]                          # overrides of the classic flags for every variant

    [knobs]                          # strategy knobs by strategy name (optional)
    jia_hunter = { min_outs_fraction = 0.5 }

    [[variants]]
    name = "classic"

    [[variants]]
    name = "no_replacement"
    rules = { bao_replacement = false }  # also: strategies = [...], knobs = {...}

``daqing-sim run FILE`` runs it into ``results/NAME/`` (:mod:`daqing_sim.experiments.runner`),
resumes an interrupted run, then writes ``summary.csv`` and plots. A chunk's identity is its
variant's resolved configuration, the seed, the chunk size and its index (:meth:`Experiment.chunk_identity`),
not ``n_deals``: a run that grows reuses every finished chunk. A quick look with ``--n-deals N``
other than the file's goes to its own directory ``results/.quick/NAME-nN``.

**Rule families.** ``[rules] family = "beijing"`` plays every variant under Beijing rules
(docs/RULES_BEIJING.md), and a variant may name its own family (``rules = { family =
"beijing" }``): such a variant starts from its family's defaults, since the flags of the
experiment's ``[rules]`` belong to the other family. Walls come from one stream per family
(:func:`daqing_sim.game.wall.generate_walls`), so variants share walls only within a family,
and the summary takes paired differences only between variants of one family (against the
baseline when it is of that family, else against the family's first variant). A variant
without strategies plays its family's default field (``players.registry.default_field``:
four experts under both families; under Beijing ``expert``, ``greedy`` and ``random`` play). A
``[tournament]`` plays the family of its ``rules`` (Daqing by default; its entrants' knobs are
checked under that family).

**Two-player games.** ``[rules] family = "two_player"`` (docs/RULES_TWO_PLAYER.md) seats two:
``strategies`` is one name or a list of two (``random``, ``greedy``, ``expert``; default two
experts), ``dealer`` is seat 0 or 1, and a ``[tournament]`` has two entrants and two seat
rotations. A list of four under this family, or of two under Daqing or Beijing, is a one-line
error. The experiment's ``strategies`` serve a variant of another family only as one name.

A duplicate tournament replaces the variants by a ``[tournament]`` table; it expands into the
seat rotations ``rotation_0 .. rotation_3`` (entrant ``i`` at seat ``(i + r) % 4``, all on the
same walls; two-player: ``rotation_0`` and ``rotation_1``), and the run also writes ``tournament.csv`` (see
:mod:`daqing_sim.experiments.tournament`). A tournament file::

    name = "strategies"
    chunk_size = 4_096

    [tournament]
    entrants = ["greedy", "jia_hunter", { strategy = "defensive", knobs = { fold_shanten = 3 } }, "random"]
    n_walls = 200_000                # walls; each rotation plays them all
    seed = 20240106
    rules = { kong_fan = false }     # optional; also knobs = { jia_hunter = { ... } } by strategy
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daqing_sim.codes import family_title
from daqing_sim.experiments.entrants import entrant_label, rotate, rotation_name
from daqing_sim.experiments.entrants import seat_labels as _seat_labels
from daqing_sim.families import FAMILY_PACKAGES, family_spec
from daqing_sim.players import registry as strategies_module
from daqing_sim.players.plugins import PYTHON_BUILTINS, is_player_spec, load_player, player_digest
from daqing_sim.rules import RuleSet

# the families experiment files play
EXPERIMENT_FAMILIES = tuple(FAMILY_PACKAGES)

# The built-in players of each family that some built-in player does not play (its spec's).
FAMILY_PLAYERS: dict[str, tuple[str, ...]] = {
    f: family_spec(f).players
    for f in FAMILY_PACKAGES
    if set(strategies_module.PLAYER_NAMES) - set(family_spec(f).players)
}
_TITLES = {f: family_title(f) for f in FAMILY_PACKAGES}
_WORDS = {2: "two", 3: "three", 4: "four"}


def family_seats(family: str) -> int:
    """Seats at the table of ``family``: four, two-player two (``players.registry.FAMILY_SEATS``)."""
    return strategies_module.FAMILY_SEATS.get(family, 4)


def _seat_count_hint(family: str) -> str:
    """Where the other seat count is played, for the errors on a list of the wrong length."""
    others = [f for f in FAMILY_PACKAGES if family_seats(f) != family_seats(family)]
    if others and all(family_seats(f) == 4 for f in others):
        return f"{' and '.join(_TITLES[f] for f in others)} seat four"
    return "; ".join(
        f'{_TITLES[f]} games seat {_WORDS[family_seats(f)]}: [rules] family = "{f}"' for f in others
    )


# key -> what it holds; also the list shown when a key is unknown.
EXPERIMENT_KEYS = {
    "name": "results directory name (default: the file name)",
    "description": "the question the experiment answers",
    "n_deals": "deals per variant (default: 10,000)",
    "seed": "seed of the walls, the same for every variant (default: 0)",
    "chunk_size": "deals per Parquet chunk / unit of parallel work (default: 4,096)",
    "dealer": "dealer seat 0-3 (two-player: 0 or 1)",
    "record_hands": "keep the winner's hand as notation",
    "strategies": "seat strategies: one name or a list of one per seat, four (two-player: two) "
    "(default: the family's default field)",
    "knobs": "strategy knobs by strategy name, e.g. [knobs] jia_hunter = { min_outs_fraction = 0.3 }",
    "rules": 'rule flag overrides for every variant of its family (family = "beijing": Beijing rules)',
    "baseline": "variant the summary compares against (default: the first)",
    "variants": "list of [[variants]] tables",
    "tournament": "a duplicate tournament instead of variants: [tournament] entrants, n_walls, seed",
}
TOURNAMENT_KEYS = {
    "entrants": 'one entrant per seat, four (two-player: two): strategy names or { strategy = "...", '
    "knobs = { ... } } tables",
    "n_walls": "walls, each played in every seat rotation (deals per rotation)",
    "seed": "seed of the walls, the same for every rotation (default: 0)",
    "rules": "rule flag overrides",
    "knobs": "strategy knobs by strategy name, for every entrant of that strategy",
}
ENTRANT_KEYS = {"strategy": "strategy name", "knobs": "this entrant's knobs, e.g. { fold_shanten = 3 }"}
# Top-level keys that a [tournament] replaces (its rotations are the variants).
_NOT_WITH_TOURNAMENT = {
    "variants": "[[variants]]",
    "strategies": "strategies",
    "n_deals": "n_deals (use n_walls in [tournament])",
    "seed": "seed (put it in [tournament])",
    "rules": "[rules] (put rules in [tournament])",
    "knobs": "[knobs] (put knobs in [tournament])",
    "baseline": "baseline",
}
VARIANT_KEYS = {
    "name": "variant name (letters, digits, _ . -)",
    "description": "what the variant changes",
    "rules": "rule flag overrides on top of the experiment's [rules] (a family of its own: on its defaults)",
    "strategies": "seat strategies replacing the experiment's",
    "knobs": "strategy knobs (by strategy name) merged over the experiment's",
}
DEFAULT_CHUNK_SIZE = 4_096  # one wall block: ~2 s of one core
DEFAULT_N_DEALS = 10_000
DEFAULT_SEED = 0
DEFAULT_VARIANT = "base"
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
# Chunk files are named chunk-NNNNNN.parquet and every chunk is one unit of work: more per
# variant is beyond what a run can store or schedule sensibly.
MAX_CHUNKS = 999_999


def known_strategies() -> tuple[str, ...]:
    """Strategy names accepted in seat lists (the registry's and ``search``)."""
    return (*strategies_module.STRATEGIES, *PYTHON_BUILTINS)


@dataclass(frozen=True)
class Variant:
    """One arm of an experiment: resolved rules and seat strategies."""

    name: str
    rules: RuleSet
    strategies: tuple[str, ...]  # one per seat: four, two-player two
    knobs: dict[str, dict[str, Any]] = field(default_factory=dict)  # strategy -> knob -> value
    description: str = ""
    # Per-seat knobs over those by strategy name (tournament entrants with their own knobs).
    seat_knob_overrides: tuple[dict[str, Any], ...] | None = None

    def seat_knobs(self) -> list[dict[str, Any] | None] | None:
        """Knobs per seat as ``simulate(knobs=...)`` takes them (None: all defaults)."""
        over = self.seat_knob_overrides or ({},) * len(self.strategies)
        pairs = zip(self.strategies, over, strict=True)
        seats = [{**(self.knobs.get(name) or {}), **o} or None for name, o in pairs]
        return seats if any(seats) else None

    def resolved(self) -> dict[str, Any]:
        data = {
            "name": self.name,
            "description": self.description,
            "rules": self.rules.to_dict(),
            "strategies": list(self.strategies),
            "knobs": self.knobs,
        }
        if self.seat_knob_overrides is not None:  # only then: other experiments keep their identity
            data["seat_knobs"] = [dict(k) for k in self.seat_knob_overrides]
        # what an alias plays, where it is not what it played when the shipped hashes were
        # written (``expert`` was expert1 until issue 38): results of the old field are not reused
        plays = {
            s: strategies_module.plays_as(s, self.rules.family)
            for s in sorted(set(self.strategies))
            if isinstance(s, str) and not is_player_spec(s)
        }
        plays = {s: v for s, v in plays.items() if v not in (s, "expert1")}
        if plays:
            data["plays"] = plays
        specs = sorted({s for s in self.strategies if is_player_spec(s)})
        if specs:  # a Python player's source is part of what decides the deals
            data["player_sources"] = {s: player_digest(s) for s in specs}
        return data


@dataclass(frozen=True)
class Tournament:
    """The ``[tournament]`` of an experiment: one entrant per seat as ``simulate`` takes them."""

    entrants: tuple[Any, ...]

    def labels(self) -> list[str]:
        """Entrant labels in entrant order (duplicates repeated)."""
        return [entrant_label(e) for e in self.entrants]

    def seat_labels(self) -> dict[str, tuple[str, ...]]:
        """Rotation variant name -> labels of seats 0-3 (see :mod:`daqing_sim.analysis.duplicate`)."""
        return _seat_labels(self.entrants)

    def resolved(self) -> dict[str, Any]:
        return {"entrants": [e if isinstance(e, str) else [e[0], dict(e[1])] for e in self.entrants]}


@dataclass(frozen=True)
class Experiment:
    """A validated experiment; build it with :func:`load_experiment` or :func:`experiment_from_dict`."""

    name: str
    n_deals: int
    seed: int
    chunk_size: int
    variants: tuple[Variant, ...]
    description: str = ""
    dealer: int = 0
    record_hands: bool = False
    baseline: str = ""
    source: str | None = None
    tournament: Tournament | None = None
    #: the keys among n_deals, seed and chunk_size that the file leaves out (their defaults apply)
    defaults: tuple[str, ...] = field(default=(), compare=False)

    @property
    def n_chunks(self) -> int:
        """Chunks per variant."""
        return -(-self.n_deals // self.chunk_size)

    def with_n_deals(self, n_deals: int) -> Experiment:
        """The same experiment with another size (``--n-deals``)."""
        n_deals = _positive_int(n_deals, "n_deals", "--n-deals")
        _check_n_chunks(n_deals, self.chunk_size, "--n-deals")
        defaults = tuple(k for k in self.defaults if k != "n_deals")
        return dataclasses.replace(self, n_deals=n_deals, defaults=defaults)

    def default_note(self) -> str:
        """Which settings the file leaves to their defaults, in words (empty when none).

        >>> e = experiment_from_dict({"name": "x"})
        >>> e.default_note()
        'the file sets no n_deals, seed or chunk_size: defaults 10,000 deals, seed 0, chunks of 4,096'
        """
        said = {"n_deals": f"{self.n_deals:,} deals", "seed": f"seed {self.seed}"}
        said["chunk_size"] = f"chunks of {self.chunk_size:,}"
        if not self.defaults:
            return ""
        keys = list(self.defaults)
        names = keys[0] if len(keys) == 1 else f"{', '.join(keys[:-1])} or {keys[-1]}"
        return f"the file sets no {names}: default{'s' if len(keys) > 1 else ''} " + ", ".join(
            said[k] for k in keys
        )

    def resolved(self) -> dict[str, Any]:
        """Everything that determines the results, as JSON-able data."""
        return {
            "name": self.name,
            "description": self.description,
            "n_deals": self.n_deals,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "dealer": self.dealer,
            "record_hands": self.record_hands,
            "baseline": self.baseline,
            "variants": [v.resolved() for v in self.variants],
            **({"tournament": self.tournament.resolved()} if self.tournament else {}),
        }

    def config_hash(self) -> str:
        """Hash of the resolved configuration (descriptions and source path excluded)."""
        data = self.resolved()
        data.pop("description")
        for v in data["variants"]:
            v.pop("description")
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def families(self) -> list[str]:
        """The rule families of the variants, in the order they first appear."""
        return list(dict.fromkeys(v.rules.family for v in self.variants))

    def family_baseline(self, family: str) -> str:
        """The variant the paired differences of ``family``'s variants are taken against: the
        experiment's baseline when it is of that family, else the family's first variant (walls,
        and so pairs, are shared only within a family)."""
        names = [v.name for v in self.variants if v.rules.family == family]
        if not names:
            raise ValueError(f"no variant of family {family!r} in experiment {self.name}")
        return self.baseline if self.baseline in names else names[0]

    def chunk_range(self, index: int) -> tuple[int, int]:
        """``(start, n)``: chunk ``index`` holds deals ``start .. start + n - 1``."""
        start = index * self.chunk_size
        return start, min(self.chunk_size, self.n_deals - start)

    def chunk_identity(self, variant: Variant) -> dict[str, Any]:
        """What decides the deals of every chunk of ``variant``, ``n_deals`` excluded.

        Chunk ``k`` of a variant is the same under any ``n_deals`` (deal ``i`` of a seed is
        the same wall whatever the size), so a run that grows reuses it when this is unchanged.
        The rules hold the family (a Beijing ``RuleSet.to_dict()`` has ``family``, a Daqing one
        keeps the dict it had before families), so chunks never serve another family's variant.
        """
        resolved = variant.resolved()
        resolved.pop("description")
        resolved.pop("name")
        return {
            **resolved,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "dealer": self.dealer,
            "record_hands": self.record_hands,
        }


# ---------------------------------------------------------------- validation


def _positive_int(value: Any, key: str, where: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} = {value!r} in {where} must be a whole number")
    if value < minimum:
        raise ValueError(f"{key} = {value} in {where} is impossible: it must be at least {minimum}")
    return value


def _check_n_chunks(n_deals: int, chunk_size: int, where: str) -> None:
    n_chunks = -(-n_deals // chunk_size)
    if n_chunks > MAX_CHUNKS:
        raise ValueError(
            f"n_deals = {n_deals:,} in {where} needs {n_chunks:,} chunks of {chunk_size:,} deals per "
            f"variant, more than the {MAX_CHUNKS:,} a run can hold; lower n_deals or raise chunk_size"
        )


def _check_keys(data: Mapping[str, Any], valid: Mapping[str, str], where: str) -> None:
    unknown = sorted(set(data) - set(valid))
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)} in {where}; valid keys: {', '.join(valid)}")


def _string(value: Any, key: str, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{key} = {value!r} in {where} must be a string")
    return value


def _strategies(value: Any, where: str, family: str = "daqing") -> tuple[str, ...]:
    n = family_seats(family)
    names = isinstance(value, list) and all(isinstance(s, str) for s in value)
    if isinstance(value, str):
        seats = [value] * n
    elif names and len(value) == n:
        seats = list(value)
    elif names and len(value) in _WORDS:
        raise ValueError(
            f"strategies = {value!r} in {where} has {len(value)} seats, but {_TITLES[family]} games seat "
            f"{_WORDS[n]} ({_seat_count_hint(family)}); give one name or a list of {_WORDS[n]}"
        )
    else:
        seats_text = "seats 0-3" if n == 4 else "seats 0 and 1"
        raise ValueError(
            f"strategies = {value!r} in {where} must be one strategy name or a list of {_WORDS[n]} "
            f"({seats_text})"
        )
    valid = known_strategies()
    bad = [s for s in seats if s not in valid and not is_player_spec(s)]
    if bad:
        raise ValueError(
            f"unknown strategy {bad[0]!r} in strategies of {where}; valid strategies: {', '.join(valid)}, "
            "or a Python player as 'module:Class'"
        )
    for spec in seats:
        if is_player_spec(spec):
            try:
                load_player(spec, _folder(where))
            except ValueError as e:
                raise ValueError(f"{e} (in strategies of {where})") from None
    return tuple(seats)  # type: ignore[return-value]


def _family_seats(seats: tuple[str, ...], family: str, source: str) -> None:
    """One-line error when a seat's player does not play ``family`` yet (``source``: where the
    seats were given)."""
    players = FAMILY_PLAYERS.get(family)
    bad = next((s for s in seats if s not in players and s not in PYTHON_BUILTINS), None) if players else None
    if bad is None:
        return
    name = _TITLES.get(family, family)
    what = f"a Python player ({bad})" if is_player_spec(bad) else repr(bad)
    raise ValueError(
        f"{what} does not play {name} yet ({source}): {name} variants are played by "
        f'{" or ".join(players)}; give the variant strategies = "{players[0]}" '
        f"(or {_WORDS[family_seats(family)]} of {', '.join(players)})"
    )


def _folder(where: str) -> Path | None:
    """The folder of the experiment file named at the start of ``where``."""
    path = Path(where.split(" ")[0])
    return path.parent if path.suffix == ".toml" else None


def _knobs(value: Any, where: str, family: str = "daqing") -> dict[str, dict[str, Any]]:
    example = "e.g. knobs = { jia_hunter = { min_outs_fraction = 0.3 } }"
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ValueError(f"knobs = {value!r} in {where} must be a table of tables by strategy, {example}")
    valid = known_strategies()
    for name, table in value.items():
        if name not in valid:
            raise ValueError(
                f"unknown strategy {name!r} in knobs of {where}; valid strategies: {', '.join(valid)}"
            )
        n = family_seats(family)
        _check_seat_knobs((name,) * n, [table] * n, where, family)
    return {name: dict(table) for name, table in value.items()}


def _check_seat_knobs(
    strategies: tuple[str, ...], seat_knobs: list[Any] | None, where: str, family: str = "daqing"
) -> None:
    """Validate knob names and ranges with the strategies module (a player's knobs under
    ``family``, e.g. the Beijing expert's), naming ``where``."""
    python_seats = [i for i, name in enumerate(strategies) if name in PYTHON_BUILTINS]
    if python_seats:  # search: its own knobs; the registry checks the other seats
        from daqing_sim.search.player import check_knobs

        for i in python_seats:
            try:
                check_knobs(dict((seat_knobs[i] if seat_knobs else None) or {}))
            except ValueError as e:
                raise ValueError(f"{e} (in knobs of {where})") from None
        strategies = tuple("expert" if i in python_seats else x for i, x in enumerate(strategies))
        seat_knobs = [
            None if i in python_seats else k for i, k in enumerate(seat_knobs or [None] * len(strategies))
        ]
    try:
        strategies_module.encode_strategies(strategies, seat_knobs, family)
    except ValueError as e:
        raise ValueError(f"{e} (in knobs of {where})") from None


def _merge_knobs(
    base: dict[str, dict[str, Any]], over: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    return {name: {**base.get(name, {}), **over.get(name, {})} for name in {**base, **over}}


def experiment_from_dict(
    data: Mapping[str, Any], *, where: str = "experiment", name: str | None = None
) -> Experiment:
    """Validate a parsed experiment table (the contents of a TOML file).

    Parameters
    ----------
    data : mapping
        Keys as in :data:`EXPERIMENT_KEYS`.
    where : str
        Source named in error messages (the file path).
    name : str, optional
        Default name when ``data`` has none.

    Raises
    ------
    ValueError
        On an unknown key, rule flag or strategy, or an impossible value; the message
        names the key and ``where``.
    """
    _check_keys(data, EXPERIMENT_KEYS, where)
    if "name" not in data and not name:
        raise ValueError(f"missing key name in {where}: every experiment needs a name")
    exp_name = _string(data.get("name", name), "name", where)
    if not _NAME_RE.match(exp_name):
        raise ValueError(
            f"name = {exp_name!r} in {where} is not a valid results directory name; "
            "use letters, digits, '_', '.' and '-'"
        )
    description = _string(data.get("description", ""), "description", where)
    n_deals = _positive_int(data.get("n_deals", DEFAULT_N_DEALS), "n_deals", where)
    seed = _positive_int(data.get("seed", DEFAULT_SEED), "seed", where, minimum=0)
    chunk_size = _positive_int(data.get("chunk_size", DEFAULT_CHUNK_SIZE), "chunk_size", where)
    _check_n_chunks(n_deals, chunk_size, where)
    dealer = _positive_int(data.get("dealer", 0), "dealer", where, minimum=0)
    if dealer > 3:
        raise ValueError(f"dealer = {dealer} in {where} is impossible: seats are 0-3")
    record_hands = data.get("record_hands", False)
    if not isinstance(record_hands, bool):
        raise ValueError(f"record_hands = {record_hands!r} in {where} must be true or false")
    if "tournament" in data:
        common = dict(name=exp_name, description=description, chunk_size=chunk_size, dealer=dealer)
        return _tournament_experiment(data, where, record_hands=record_hands, **common)
    base_flags = data.get("rules", {})
    if not isinstance(base_flags, dict):
        raise ValueError(f"rules in {where} must be a table of rule flags, e.g. [rules]")
    base_family = RuleSet.from_dict(base_flags, where=f"{where} [rules]").family
    raw_base = data.get("strategies")
    base_strategies = _strategies(raw_base, where, base_family) if "strategies" in data else None
    base_knobs = _knobs(data.get("knobs", {}), where, base_family)

    raw_variants = data.get("variants", [{"name": DEFAULT_VARIANT}])
    if not isinstance(raw_variants, list) or not raw_variants:
        raise ValueError(f"variants in {where} must be a non-empty list of [[variants]] tables")
    variants, seen = [], set()
    for i, raw in enumerate(raw_variants):
        if not isinstance(raw, dict):
            raise ValueError(f"variant #{i + 1} in {where} must be a table ([[variants]])")
        label = repr(raw["name"]) if isinstance(raw.get("name"), str) else f"#{i + 1}"
        vwhere = f"{where} [[variants]] {label}"
        _check_keys(raw, VARIANT_KEYS, vwhere)
        if "name" not in raw:
            raise ValueError(f"missing key name in {vwhere}: every variant needs a name")
        vname = _string(raw["name"], "name", vwhere)
        vwhere = f"{where} [[variants]] {vname!r}"
        if not _NAME_RE.match(vname):
            raise ValueError(
                f"name = {vname!r} in {vwhere} is not a valid variant name; "
                "use letters, digits, '_', '.' and '-'"
            )
        if vname in seen:
            raise ValueError(f"duplicate variant name {vname!r} in {where}; variant names must be unique")
        seen.add(vname)
        flags = raw.get("rules", {})
        if not isinstance(flags, dict):
            raise ValueError(f"rules in {vwhere} must be a table, e.g. rules = {{ kong_fan = true }}")
        family = flags.get("family", base_family)
        # the experiment's [rules] are flags of its family: a variant of another starts from its defaults
        merged = {**base_flags, **flags} if family == base_family else dict(flags)
        rules = RuleSet.from_dict(merged, where=f"{vwhere} rules")
        _check_dealer(dealer, rules.family, where)
        if "strategies" in raw:
            strategies = _strategies(raw["strategies"], vwhere, rules.family)
        elif base_strategies is not None and len(base_strategies) != family_seats(rules.family):
            # the experiment's list seats another family's table: only one name carries over
            what = f"{where}, which the {_TITLES[rules.family]} variant {vname!r} plays"
            strategies = _strategies(raw_base, what, rules.family)
        else:
            strategies = base_strategies or strategies_module.default_field(rules.family)
        source = (
            f"strategies of {vwhere}"
            if "strategies" in raw
            else f"strategies of {where}, which the {rules.family} variant {vname!r} plays"
        )
        _family_seats(strategies, rules.family, source)
        # like the rules: the experiment's knobs are its family's; another family's variant has its own
        own_knobs = _knobs(raw.get("knobs", {}), vwhere, rules.family)
        knobs = _merge_knobs(base_knobs, own_knobs) if rules.family == base_family else own_knobs
        variants.append(
            Variant(
                name=vname,
                rules=rules,
                strategies=strategies,
                knobs=knobs,
                description=_string(raw.get("description", ""), "description", vwhere),
            )
        )
    baseline = _string(data.get("baseline", variants[0].name), "baseline", where)
    if baseline not in seen:
        raise ValueError(
            f"baseline = {baseline!r} in {where} is not a variant; "
            f"variants: {', '.join(v.name for v in variants)}"
        )
    return Experiment(
        name=exp_name,
        description=description,
        n_deals=n_deals,
        seed=seed,
        chunk_size=chunk_size,
        dealer=dealer,
        record_hands=record_hands,
        variants=tuple(variants),
        baseline=baseline,
        source=where,
        defaults=tuple(k for k in ("n_deals", "seed", "chunk_size") if k not in data),
    )


def _check_dealer(dealer: int, family: str, where: str) -> None:
    n = family_seats(family)
    if dealer >= n:
        raise ValueError(
            f"dealer = {dealer} in {where} is impossible under {_TITLES[family]} rules: its seats are "
            f"0-{n - 1}"
        )


def _entrant(raw: Any, i: int, where: str, family: str = "daqing") -> tuple[str, dict[str, Any]]:
    """One ``[tournament]`` entrant: ``(strategy, its own knobs)``, knobs checked under ``family``."""
    ewhere = f"{where} [tournament] entrants #{i + 1}"
    if isinstance(raw, str):
        name, knobs = raw, {}
    elif isinstance(raw, dict):
        _check_keys(raw, ENTRANT_KEYS, ewhere)
        if "strategy" not in raw:
            raise ValueError(f'missing key strategy in {ewhere}: e.g. {{ strategy = "defensive" }}')
        name = _string(raw["strategy"], "strategy", ewhere)
        knobs = raw.get("knobs", {})
        if not isinstance(knobs, dict):
            raise ValueError(f"knobs = {knobs!r} in {ewhere} must be a table, e.g. {{ fold_shanten = 3 }}")
    else:
        raise ValueError(
            f"entrant {raw!r} in {ewhere} must be a strategy name or a table "
            '{ strategy = "...", knobs = { ... } }'
        )
    valid = known_strategies()
    if is_player_spec(name):
        try:
            load_player(name, _folder(where))
        except ValueError as e:
            raise ValueError(f"{e} (in {ewhere})") from None
        if knobs:
            raise ValueError(f"knobs in {ewhere}: a Python player ({name}) takes no knobs")
        return name, {}
    if name not in valid:
        raise ValueError(
            f"unknown strategy {name!r} in {ewhere}; valid strategies: {', '.join(valid)}, "
            "or a Python player as 'module:Class'"
        )
    n = family_seats(family)
    _check_seat_knobs((name,) * n, [knobs] * n, ewhere, family)
    return name, dict(knobs)


def _tournament_experiment(
    data: Mapping[str, Any], where: str, *, record_hands: bool, **common: Any
) -> Experiment:
    """An experiment whose variants are the seat rotations of a ``[tournament]`` (four, two-player two)."""
    conflict = [k for k in _NOT_WITH_TOURNAMENT if k in data]
    if conflict:
        raise ValueError(
            f"{_NOT_WITH_TOURNAMENT[conflict[0]]} and [tournament] in {where}: a tournament's seat "
            "rotations are its variants, so the file holds one or the other; remove one"
        )
    raw = data["tournament"]
    twhere = f"{where} [tournament]"
    if not isinstance(raw, dict):
        raise ValueError(f"tournament in {where} must be a table, e.g. [tournament] entrants = [...]")
    _check_keys(raw, TOURNAMENT_KEYS, twhere)
    for key in ("entrants", "n_walls"):
        if key not in raw:
            raise ValueError(f"missing key {key} in {twhere}: {TOURNAMENT_KEYS[key]}")
    flags = raw.get("rules", {})
    if not isinstance(flags, dict):
        raise ValueError(f"rules in {twhere} must be a table, e.g. rules = {{ kong_fan = true }}")
    rules = RuleSet.from_dict(flags, where=f"{twhere} rules")
    n_seats = family_seats(rules.family)
    entrants = raw["entrants"]
    if not isinstance(entrants, list) or len(entrants) != n_seats:
        count = f"{len(entrants)} entrant(s)" if isinstance(entrants, list) else repr(entrants)
        other = isinstance(entrants, list) and len(entrants) in _WORDS
        under = f" under {_TITLES[rules.family]} rules ({_seat_count_hint(rules.family)})" if other else ""
        raise ValueError(
            f"entrants in {twhere} has {count}: a tournament seats exactly {_WORDS[n_seats]}{under} "
            "(repeat one to play it against copies of itself)"
        )
    _check_dealer(common["dealer"], rules.family, where)
    parsed = [_entrant(e, i, where, rules.family) for i, e in enumerate(entrants)]
    n_walls = _positive_int(raw["n_walls"], "n_walls", twhere)
    _check_n_chunks(n_walls, common["chunk_size"], twhere)
    seed = _positive_int(raw.get("seed", DEFAULT_SEED), "seed", twhere, minimum=0)
    _family_seats(tuple(name for name, _ in parsed), rules.family, f"entrants of {twhere}")
    knobs = _knobs(raw.get("knobs", {}), twhere, rules.family)
    own = [k for _, k in parsed]
    entries = tuple(name if not k else (name, k) for name, k in parsed)
    variants = []
    for r in range(n_seats):
        names = tuple(name for name, _ in rotate(parsed, r))
        over = tuple(dict(k) for k in rotate(own, r)) if any(own) else None
        desc = "seats " + ", ".join(entrant_label(e) for e in rotate(entries, r))
        variants.append(Variant(rotation_name(r), rules, names, knobs, desc, over))  # type: ignore[arg-type]
    return Experiment(
        n_deals=n_walls,
        seed=seed,
        variants=tuple(variants),
        record_hands=record_hands,
        baseline=variants[0].name,
        source=where,
        tournament=Tournament(entries),
        defaults=tuple(k for k, d in (("seed", raw), ("chunk_size", data)) if k not in d),
        **common,
    )


def load_experiment(path: str | os.PathLike[str]) -> Experiment:
    """Read and validate an experiment TOML file.

    Parameters
    ----------
    path : path-like
        The ``.toml`` file; its stem is the default experiment name.

    Returns
    -------
    Experiment

    Raises
    ------
    FileNotFoundError
        When the file does not exist.
    ValueError
        On invalid TOML or configuration; the message names the file and the key.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> toml = Path(tmp.name) / "demo.toml"
    >>> _ = toml.write_text(
    ...     'name = "demo"\\nn_deals = 16\\nchunk_size = 8\\nstrategies = "greedy"\\n'
    ...     '[[variants]]\\nname = "classic"\\n'
    ...     '[[variants]]\\nname = "no_replacement"\\nrules = { bao_replacement = false }\\n'
    ... )
    >>> exp = load_experiment(toml)  # the shipped files are in experiments/
    >>> [v.name for v in exp.variants], exp.n_deals
    (['classic', 'no_replacement'], 16)
    >>> tmp.cleanup()
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; give an experiment .toml file")
    if not path.exists():
        raise FileNotFoundError(f"experiment file {path} not found")
    if not path.is_file():
        raise ValueError(f"{path} is not a regular file; give an experiment .toml file")
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark, as some editors write
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(
            f"{path} is not UTF-8 text (byte {data[e.start]:#04x} at offset {e.start}); "
            "save it as UTF-8 (TOML files must be UTF-8)"
        ) from None
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path} is not valid TOML: {e}; see experiments/*.toml for examples") from None
    return experiment_from_dict(parsed, where=str(path), name=path.stem)
