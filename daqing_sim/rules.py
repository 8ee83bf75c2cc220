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

from daqing_sim.codes import FAMILIES, FAMILY_TITLES
from daqing_sim.families import FAMILY_PACKAGES, family_spec


@dataclass(frozen=True, repr=False)
class RuleSet:
    """Rule flags of one family; the defaults reproduce that family's classic rules.

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

    bao_replacement: bool = True  # 换宝
    bao_kan_instant: bool = False  # 宝卡
    kong_fan: bool = False  # 杠 as a ninth fan type
    chi_any_seat_for_ready: bool = False  # 上听吃三家
    jia_includes_edge: bool = False  # 边张 counts as 夹
    jia_includes_single: bool = False  # 单钓 counts as 夹
    require_open: bool = True  # 开门
    require_two_suits: bool = True  # no 清一色
    require_terminal: bool = True  # 幺九
    require_triplet: bool = True  # 刻 (with the 对倒 exception)
    require_sequence: bool = True  # 顺
    dragon_waives_sequence: bool = False
    min_concealed_at_ready: int = 4  # 不能手把一
    last_tiles_no_claim: int = 4  # 荒庄前最后四张
    lock_after_ready: bool = True
    _: KW_ONLY
    family: str = "daqing"
    # Beijing (docs/RULES.md, "Beijing"): claims, robbing kongs, settlement, each fan type's fans.
    multiple_winners: bool = False
    rob_added_kong: bool = True  # 抢杠
    rob_concealed_kong_with_dragon: bool = True  # 一条龙的龙身可以抢暗杠
    fan_combine: str = "add"  # F = sum of fans ("add") or each fan doubling ("double")
    base_points: int = 1000
    open_hand_factor: float = 0.5  # 破了门清: half the base
    mutual_bao: bool = True  # 互包
    burn_dealer: bool = True  # 烧庄
    burn_points: int = 1000
    dead_wall_tiles: int = 14  # 荒牌: 7 stacks left undrawn (+2 per kong after the first)
    fans_all_triplets: int = 2  # 对对和
    fans_big_single_wait: int = 2  # 大钓
    fans_catch_five: int = 2  # 捉五魁
    fans_last_tile: int = 2  # 海底捞月
    fans_dragon: int = 3  # 一条龙
    fans_seven_pairs: int = 4  # 七对
    fans_kong_bloom: int = 5  # 杠上开花
    fans_one_suit: int = 6  # 清一色
    fans_luxury_seven_pairs: int = 8  # 豪华七对
    fans_plain_win: int = 1
    fans_last_discard: int = 1
    # Two-player (docs/RULES_TWO_PLAYER.md): the flower tile, the cap, extra draws, settlement.
    flower_tiles: int = 1  # 花牌: tiles of the 65 unused ones turned face up
    limit_fans: int = 13  # 役满 / 封顶: F of a limit hand, and the most F of any win
    multiplier: int = 1  # 倍数: the room's 1, 2, 5 or 10
    points_per_fan: int = 1  # 1番N威望: what one fan is worth
    match_doubling: bool = True  # 进阶倍数: each game of a match doubles the one before
    open_pinfu: bool = True  # 平和 counts in open hands too
    extra_draws: int = 3  # 海底捞月: draws from the unused tiles for the ready player

    def __new__(cls, *args: Any, **flags: Any) -> RuleSet:
        # Before the dataclass __init__, whose TypeError would not list the valid flags.
        message = _flag_error(flags)
        if message:
            raise ValueError(message)
        family = flags.get("family", "daqing")
        if len(args) > len(FAMILY_FLAGS["daqing"]):
            raise ValueError(
                f"RuleSet takes at most {len(FAMILY_FLAGS['daqing'])} flags by position; "
                "name them, e.g. kong_fan=True"
            )
        if args and family != "daqing":
            raise ValueError("name the flags of a non-Daqing RuleSet, e.g. RuleSet(family='beijing', ...)")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "family":
                continue
            if f.type in ("bool", bool):
                if not isinstance(value, bool | np.bool_):
                    raise ValueError(f"rule flag {f.name} must be true or false, not {value!r}")
            elif f.type in ("float", float):
                if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
                    raise ValueError(f"rule flag {f.name} must be a number, not {value!r}")
            elif f.type in ("str", str):
                if value not in FAN_COMBINE:
                    raise ValueError(f"rule flag {f.name} must be {' or '.join(FAN_COMBINE)}, not {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"rule flag {f.name} must be a whole number, not {value!r}")
        if self.family == "beijing":
            self._check_beijing()
            return
        if self.family == "two_player":
            self._check_two_player()
            return
        if not 1 <= self.min_concealed_at_ready <= 13:
            raise ValueError(
                f"min_concealed_at_ready={self.min_concealed_at_ready} is impossible: "
                "a ready hand keeps 1 to 13 concealed tiles (classic: 4)"
            )
        if not 0 <= self.last_tiles_no_claim <= 58:
            raise ValueError(
                f"last_tiles_no_claim={self.last_tiles_no_claim} is impossible: "
                "use 0 (claims until the end) to 58 (the live wall; classic: 4)"
            )

    def __repr__(self) -> str:
        items = ([f"family={self.family!r}"] if self.family != "daqing" else []) + [
            f"{k}={v!r}" for k, v in self.changed().items()
        ]
        return f"RuleSet({', '.join(items)})"

    def _check_beijing(self) -> None:
        if self.multiple_winners:
            raise ValueError(
                "multiple_winners=true is not played yet: one winner per discard (截和), first in turn order"
            )
        if not 0 < self.open_hand_factor <= 1:
            raise ValueError(f"open_hand_factor={self.open_hand_factor} must be in (0, 1] (Beijing: 0.5)")
        for name in ("base_points", "burn_points"):
            if not 0 <= getattr(self, name) <= 10**9:
                raise ValueError(f"{name}={getattr(self, name)} must be 0 to 10^9 points (Beijing: 1000)")
        if self.open_hand_factor * self.base_points != int(self.open_hand_factor * self.base_points):
            raise ValueError("open_hand_factor x base_points must be whole points (Beijing: 0.5 x 1000)")
        if not 0 <= self.dead_wall_tiles <= 80:
            raise ValueError(f"dead_wall_tiles={self.dead_wall_tiles} must be 0 to 80 (Beijing: 14)")
        for name in FAMILY_FLAGS["beijing"]:
            if name.startswith("fans_") and not 0 <= getattr(self, name) <= 64:
                raise ValueError(f"{name}={getattr(self, name)} must be 0 to 64 fans")

    def _check_two_player(self) -> None:
        if not 0 <= self.flower_tiles <= 4:
            raise ValueError(
                f"flower_tiles={self.flower_tiles} must be 0 to 4 tiles turned face up (two-player: 1)"
            )
        if not 1 <= self.limit_fans <= 64:
            raise ValueError(f"limit_fans={self.limit_fans} must be 1 to 64 fans (two-player: 13)")
        if self.multiplier not in MULTIPLIERS:
            raise ValueError(
                f"multiplier={self.multiplier} is not a room's: use {', '.join(map(str, MULTIPLIERS))}"
            )
        if not 1 <= self.points_per_fan <= 10**6:
            raise ValueError(f"points_per_fan={self.points_per_fan} must be 1 to 10^6 points (two-player: 1)")
        if not 0 <= self.extra_draws <= 3:
            raise ValueError(f"extra_draws={self.extra_draws} must be 0 to 3 draws (海底捞月; two-player: 3)")

    @classmethod
    def flag_names(cls, family: str = "daqing") -> tuple[str, ...]:
        """The flags of one rule family, in encoding order (``family`` itself not included)."""
        if family not in FAMILY_FLAGS:
            raise ValueError(f"unknown rule family {family!r}: use one of {', '.join(FAMILY_FLAGS)}")
        return FAMILY_FLAGS[family]

    @property
    def n_kinds(self) -> int:
        """Tile kinds the family plays: 28 (Daqing) or 34 (Beijing, two-player)."""
        return 28 if self.family == "daqing" else 34

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
        numeric = {f.name for f in fields(cls) if f.type in ("int", int, "float", float)}
        text = {f.name for f in fields(cls) if f.type in ("str", str)}
        flags: dict[str, Any] = {}
        for item in items or []:
            if "=" not in item:
                raise ValueError(f"{where} takes flag=value pairs, e.g. kong_fan=true; got {item!r}")
            key, value = (x.strip() for x in item.split("=", 1))
            v = value.lower()
            if key in text:
                flags[key] = v
            elif key in {f.name for f in fields(cls) if f.type in ("float", float)}:
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
        """The family's flags; ``family`` too unless it is Daqing (so that a Daqing rule set keeps
        the dict, and the chunk identity, it had before families existed)."""
        flags = {name: getattr(self, name) for name in self.flag_names(self.family)}
        return flags if self.family == "daqing" else {"family": self.family, **flags}

    def encode(self) -> np.ndarray:
        """The numeric encoding kernels take: ``int64`` array indexed by ``R_*``.

        Every family has the same layout; the flags of other families hold their defaults.
        ``open_hand_factor`` is encoded in thousandths, ``fan_combine`` as its index.
        """
        cached = self.__dict__.get("_encoded")
        if cached is None:  # a frozen rule set encodes the same every time: once per object
            cached = np.empty(N_RULE_FIELDS, dtype=np.int64)
            for i, name in enumerate(ENCODING):
                value = getattr(self, name)
                if name == "family":
                    value = tuple(FAMILY_FLAGS).index(value)
                elif name == "fan_combine":
                    value = FAN_COMBINE.index(value)
                elif name == "open_hand_factor":
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
    family = flags.get("family", "daqing")
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
    return FAMILY_TITLES[FAMILIES.index(family)] if family in FAMILIES else family


FAN_COMBINE = ("add", "double")
MULTIPLIERS = (1, 2, 5, 10)  # 倍数协商: the rooms' multipliers
_ALL = tuple(f.name for f in fields(RuleSet))
#: family -> its flags in encoding order, from the family specs (RuleSet's fields must match)
FAMILY_FLAGS = {family: family_spec(family).flag_names for family in FAMILY_PACKAGES}
assert tuple(FAMILY_FLAGS) == FAMILIES
ENCODING = (*FAMILY_FLAGS["daqing"], "family", *FAMILY_FLAGS["beijing"], *FAMILY_FLAGS["two_player"])
assert ENCODING == _ALL, "RuleSet's fields differ from the family specs' flags"
#: ``R_<FLAG>``: each flag's index in :meth:`RuleSet.encode` (R_BAO_REPLACEMENT = 0, R_FAMILY, ...)
OFFSETS = {f"R_{name.upper()}": i for i, name in enumerate(ENCODING)}
globals().update(OFFSETS)
N_RULE_FIELDS = len(ENCODING)


ENGINE_FAMILIES = ("daqing",)  # the families every deal feature plays so far
BATCH_FAMILIES = ("daqing", "beijing", "two_player")  # the families ds.simulate plays


def require_engine_family(rules: RuleSet, what: str, families: tuple[str, ...] = ENGINE_FAMILIES) -> None:
    """One-line error when ``what`` needs deals of a family the engine does not play yet.

    >>> require_engine_family(RuleSet(family="beijing"), "DealEnv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: DealEnv plays Daqing deals only so far: it does not deal Beijing yet (...)
    """
    if rules.family not in families:
        name = _title(rules.family)
        plays = " and ".join(_title(f) for f in families)
        more = "" if "beijing" in families or name != "Beijing" else "; Beijing deals: ds.simulate"
        if rules.family == "two_player" and "two_player" in BATCH_FAMILIES:
            more = "; two-player games: ds.simulate, ds.tournament"
        raise ValueError(
            f"{what} plays {plays} deals only so far: it does not deal {name} yet "
            f"({name} hands and wins: ds.analyze_hand, ds.score_win{more})"
        )


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
