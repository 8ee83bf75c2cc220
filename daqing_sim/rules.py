"""The rule flags of Daqing mahjong (docs/RULES.md) as a frozen dataclass.

Every field is one flag; the defaults are the classic rules. Kernels never see the
dataclass: they take :meth:`RuleSet.encode`, an ``int64`` array indexed by the
``R_*`` constants below.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(frozen=True)
class RuleSet:
    """Rule flags; defaults reproduce classic Daqing rules.

    Examples
    --------
    >>> rules = RuleSet(bao_replacement=False)
    >>> rules.kong_fan, rules.min_concealed_at_ready
    (False, 4)
    >>> RuleSet.from_dict({"kong_fan": True}).kong_fan
    True
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

    def __new__(cls, *args: Any, **flags: Any) -> RuleSet:
        # Before the dataclass __init__, whose TypeError would not list the valid flags.
        unknown = sorted(set(flags) - set(cls.flag_names()))
        if unknown:
            raise ValueError(
                f"unknown rule flag(s) {', '.join(unknown)}; valid flags: {', '.join(cls.flag_names())}"
            )
        if len(args) > len(cls.flag_names()):
            raise ValueError(
                f"RuleSet takes at most {len(cls.flag_names())} flags; name them, e.g. kong_fan=True"
            )
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool | np.bool_):
                    raise ValueError(f"rule flag {f.name} must be true or false, not {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"rule flag {f.name} must be a whole number, not {value!r}")
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

    @classmethod
    def flag_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

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
        unknown = sorted(set(flags) - set(cls.flag_names()))
        if unknown:
            raise ValueError(
                f"unknown rule flag(s) {', '.join(unknown)} in {where}; "
                f"valid flags: {', '.join(cls.flag_names())}"
            )
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
        numeric = {f.name for f in fields(cls) if f.type in ("int", int)}
        flags: dict[str, Any] = {}
        for item in items or []:
            if "=" not in item:
                raise ValueError(f"{where} takes flag=value pairs, e.g. kong_fan=true; got {item!r}")
            key, value = (x.strip() for x in item.split("=", 1))
            v = value.lower()
            if key not in numeric and v in ("true", "yes", "on", "1"):
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
        return dataclasses.asdict(self)

    def encode(self) -> np.ndarray:
        """The numeric encoding kernels take: ``int64`` array indexed by ``R_*``."""
        return np.array([int(getattr(self, name)) for name in self.flag_names()], dtype=np.int64)

    def changed(self) -> dict[str, Any]:
        """Flags that differ from the classic defaults."""
        base = RuleSet()
        return {k: v for k, v in self.to_dict().items() if getattr(base, k) != v}


(
    R_BAO_REPLACEMENT,
    R_BAO_KAN_INSTANT,
    R_KONG_FAN,
    R_CHI_ANY_SEAT_FOR_READY,
    R_JIA_INCLUDES_EDGE,
    R_JIA_INCLUDES_SINGLE,
    R_REQUIRE_OPEN,
    R_REQUIRE_TWO_SUITS,
    R_REQUIRE_TERMINAL,
    R_REQUIRE_TRIPLET,
    R_REQUIRE_SEQUENCE,
    R_DRAGON_WAIVES_SEQUENCE,
    R_MIN_CONCEALED_AT_READY,
    R_LAST_TILES_NO_CLAIM,
    R_LOCK_AFTER_READY,
) = range(15)
N_RULE_FIELDS = 15
assert len(RuleSet.flag_names()) == N_RULE_FIELDS


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
