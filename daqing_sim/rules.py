"""The rule flags of every rule family (docs/RULES.md) as a frozen dataclass.

A :class:`RuleSet` is one family (``family="daqing"``, the default, ``"beijing"`` or
``"two_player"``) and that family's flags; the defaults are the family's classic rules, and a flag
of another family is an error. Kernels never see the dataclass: they take :meth:`RuleSet.encode`,
an ``int64`` array indexed by the ``R_*`` constants below (one layout for all families, so one
compiled kernel serves every rule set of a family).
"""

from __future__ import annotations

import tomllib
from dataclasses import KW_ONLY, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from daqing_sim.codes import family_title
from daqing_sim.families import DEFAULT_FAMILY, FAMILY_PACKAGES, family_spec


class RuleSet:
    """Rule flags of one family; the defaults reproduce that family's classic rules.

    The flags are the families' specs' (``families.family_spec(name).flags``), in registry
    order: the first family's by position or name, ``family`` and every other flag by name.

    Examples
    --------
    >>> rules = RuleSet(bao_replacement=False)
    >>> rules.kong_fan, rules.min_concealed_at_ready
    (False, 4)
    >>> RuleSet.from_dict({"kong_fan": True}).kong_fan
    True
    >>> beijing = RuleSet(family="beijing", burn_dealer=False)
    >>> beijing.changed(), beijing.base_points
    ({'burn_dealer': False}, 1000)
    >>> RuleSet(family="beijing", kong_fan=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: kong_fan is a Daqing flag, not a Beijing one; Beijing flags: multiple_winners, ...
    """

    family: str  # the rule family (the dataclass fields are set from the specs below the class)

    def __new__(cls, *args: Any, **flags: Any) -> RuleSet:
        # Before the dataclass __init__, whose TypeError would not list the valid flags.
        message = _flag_error(flags)
        if message:
            raise ValueError(message)
        family = flags.get("family", DEFAULT_FAMILY)
        if len(args) > len(FAMILY_FLAGS[DEFAULT_FAMILY]):
            raise ValueError(
                f"RuleSet takes at most {len(FAMILY_FLAGS[DEFAULT_FAMILY])} flags by position; "
                "name them, e.g. kong_fan=True"
            )
        if args and family != DEFAULT_FAMILY:
            raise ValueError(
                f"name the flags of a non-{_title(DEFAULT_FAMILY)} RuleSet, "
                "e.g. RuleSet(family='beijing', ...)"
            )
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "family":
                continue
            if f.type == "bool":
                if not isinstance(value, bool | np.bool_):
                    raise ValueError(f"rule flag {f.name} must be true or false, not {value!r}")
            elif f.type == "float":
                if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
                    raise ValueError(f"rule flag {f.name} must be a number, not {value!r}")
            elif f.type == "str":
                if value not in _CHOICES[f.name]:
                    raise ValueError(
                        f"rule flag {f.name} must be {' or '.join(_CHOICES[f.name])}, not {value!r}"
                    )
            elif isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"rule flag {f.name} must be a whole number, not {value!r}")
        check = family_spec(self.family).check
        if check is not None:
            check(self)

    def __repr__(self) -> str:
        items = ([f"family={self.family!r}"] if self.family != DEFAULT_FAMILY else []) + [
            f"{k}={v!r}" for k, v in self.changed().items()
        ]
        return f"RuleSet({', '.join(items)})"

    @classmethod
    def flag_names(cls, family: str = "daqing") -> tuple[str, ...]:
        """The flags of one rule family, in encoding order (``family`` itself not included)."""
        if family not in FAMILY_FLAGS:
            raise ValueError(f"unknown rule family {family!r}: use one of {', '.join(FAMILY_FLAGS)}")
        return FAMILY_FLAGS[family]

    @property
    def n_kinds(self) -> int:
        """Tile kinds the family plays: 28 (Daqing) or 34 (Beijing, two-player)."""
        return family_spec(self.family).kinds

    @classmethod
    def from_dict(cls, flags: dict[str, Any] | None, *, where: str = "rules") -> RuleSet:
        """Build from a mapping of flag overrides, rejecting unknown flags.

        ``where`` names the source (a file or table) in error messages.
        """
        if flags is not None and not isinstance(flags, dict):
            raise ValueError(
                f"{where} must be a table of flag = value pairs, not {type(flags).__name__} {flags!r}"
            )
        flags = dict(flags or {})
        message = _flag_error(flags, f" in {where}")
        if message:
            raise ValueError(message)
        try:
            return cls(**flags)
        except ValueError as e:
            raise ValueError(f"{e} (in {where})") from None

    @classmethod
    def from_toml(cls, path: str | Path, table: str | None = "rules") -> RuleSet:
        """Load flags from a TOML file (its ``[rules]`` table, or the top level)."""
        path = Path(path)
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        if table is not None:
            data = data.get(table, {})
        return cls.from_dict(data, where=f"{path}" + (f" [{table}]" if table else ""))

    @classmethod
    def from_flag_strings(cls, items: list[str] | None, *, where: str = "--rules") -> RuleSet:
        """Build from command-line ``flag=value`` strings, e.g. ``["kong_fan=true"]``.

        Boolean flags take true/false (yes/no, on/off, 1/0); the whole-number flags take a number.

        >>> RuleSet.from_flag_strings(["bao_replacement=off", "min_concealed_at_ready=1"]).changed()
        {'bao_replacement': False, 'min_concealed_at_ready': 1}
        """
        numeric = {f.name for f in fields(cls) if f.type in ("int", "float")}
        text = {f.name for f in fields(cls) if f.type == "str"}
        flags: dict[str, Any] = {}
        for item in items or []:
            if "=" not in item:
                raise ValueError(f"{where} takes flag=value pairs, e.g. kong_fan=true; got {item!r}")
            key, value = (x.strip() for x in item.split("=", 1))
            v = value.lower()
            if key in text:
                flags[key] = v
            elif key in {f.name for f in fields(cls) if f.type == "float"}:
                try:
                    flags[key] = float(v)
                except ValueError:
                    raise ValueError(f"{where} {item!r}: the value must be a number") from None
            elif key not in numeric and v in ("true", "yes", "on", "1"):
                flags[key] = True
            elif key not in numeric and v in ("false", "no", "off", "0"):
                flags[key] = False
            else:
                try:
                    flags[key] = int(v)
                except ValueError:
                    raise ValueError(f"{where} {item!r}: the value must be true/false or a number") from None
        return cls.from_dict(flags, where=where)

    def replace(self, **changes: Any) -> RuleSet:
        return self.from_dict({**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """The family's flags; ``family`` too unless it is the first (Daqing: so that a Daqing rule
        set keeps the dict, and the chunk identity, it had before families existed)."""
        flags = {name: getattr(self, name) for name in self.flag_names(self.family)}
        return flags if self.family == DEFAULT_FAMILY else {"family": self.family, **flags}

    def encode(self) -> np.ndarray:
        """The numeric encoding kernels take: ``int64`` array indexed by ``R_*``.

        Every family has the same layout; the flags of other families hold their defaults.
        A fractional flag (``open_hand_factor``) is encoded in thousandths, a text flag
        (``fan_combine``) as the index of its value among its choices.
        """
        cached = self.__dict__.get("_encoded")
        if cached is None:  # a frozen rule set encodes the same every time: once per object
            cached = np.empty(N_RULE_FIELDS, dtype=np.int64)
            for i, name in enumerate(ENCODING):
                value = getattr(self, name)
                if name == "family":
                    value = tuple(FAMILY_FLAGS).index(value)
                elif name in _CHOICES:
                    value = _CHOICES[name].index(value)
                elif name in _FRACTIONAL:
                    value = round(value * 1000)
                cached[i] = int(value)
            self.__dict__["_encoded"] = cached
        return cached.copy()  # callers may write to theirs

    def changed(self) -> dict[str, Any]:
        """Flags that differ from the family's classic defaults."""
        base = RuleSet(family=self.family)
        return {k: v for k, v in self.to_dict().items() if k != "family" and getattr(base, k) != v}


def _flag_error(flags: dict[str, Any], where: str = "") -> str | None:
    """The one-line error for an unknown family or flags that are not the family's, else None."""
    family = flags.get("family", DEFAULT_FAMILY)
    if family not in FAMILY_FLAGS:
        return f"unknown rule family {family!r}{where}: use one of {', '.join(FAMILY_FLAGS)}"
    own = FAMILY_FLAGS[family]
    known = {name for names in FAMILY_FLAGS.values() for name in names} | {"family"}
    unknown = sorted(set(flags) - known)
    if unknown:
        return f"unknown rule flag(s) {', '.join(unknown)}{where}; valid flags: {', '.join(own)}"
    for name in flags:
        if name != "family" and name not in own:
            other = next(f for f, names in FAMILY_FLAGS.items() if name in names)
            return (
                f"{name} is a {_title(other)} flag, not a {_title(family)} one{where}; "
                f"{_title(family)} flags: {', '.join(own)}"
            )
    return None


def _title(family: str) -> str:
    return family_title(family)


def _declare_flags(cls: type) -> type:
    """``cls`` as a frozen dataclass whose fields are the specs' flags, in encoding order: the
    first family's (positional), ``family``, then every other family's (keyword-only)."""
    annotations: dict[str, Any] = {}
    for i, family in enumerate(FAMILY_PACKAGES):
        if i == 1:
            annotations.update({"_": KW_ONLY, "family": "str"})
            cls.family = DEFAULT_FAMILY
        for flag in family_spec(family).flags:
            if flag.name in annotations:
                raise ValueError(f"rule flag {flag.name} of {family} is another family's too: rename it")
            annotations[flag.name] = type(flag.default).__name__  # as written in a class body
            setattr(cls, flag.name, flag.default)
    if "family" not in annotations:  # a registry of one family
        annotations.update({"_": KW_ONLY, "family": "str"})
        cls.family = DEFAULT_FAMILY
    cls.__annotations__ = annotations
    return dataclass(frozen=True, repr=False)(cls)


#: family -> its flags in encoding order, from the family specs
FAMILY_FLAGS = {family: family_spec(family).flag_names for family in FAMILY_PACKAGES}
_FLAGS = {flag.name: flag for family in FAMILY_PACKAGES for flag in family_spec(family).flags}
_CHOICES = {name: flag.choices for name, flag in _FLAGS.items() if isinstance(flag.default, str)}
_FRACTIONAL = {name for name, flag in _FLAGS.items() if isinstance(flag.default, float)}
RuleSet = _declare_flags(RuleSet)  # type: ignore[misc]
ENCODING = tuple(f.name for f in fields(RuleSet))
#: ``R_<FLAG>``: each flag's index in :meth:`RuleSet.encode` (R_BAO_REPLACEMENT = 0, R_FAMILY, ...)
OFFSETS = {f"R_{name.upper()}": i for i, name in enumerate(ENCODING)}
globals().update(OFFSETS)
N_RULE_FIELDS = len(ENCODING)


def unrestricted() -> RuleSet:
    """Every Daqing restriction off: the push-down (推倒和) baseline."""
    return RuleSet(
        require_open=False,
        require_two_suits=False,
        require_terminal=False,
        require_triplet=False,
        require_sequence=False,
        min_concealed_at_ready=1,
        lock_after_ready=True,
    )
