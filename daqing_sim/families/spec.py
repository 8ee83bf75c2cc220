"""What a rule family declares (numba-free): :class:`FamilySpec`, with its :class:`Flag` and
:class:`Fan` entries. Each family's package has a ``spec`` module holding one ``SPEC``; the rest
of the package reads a family from it (``daqing_sim.families.family_spec``).

>>> from daqing_sim.families import family_spec
>>> spec = family_spec("beijing")
>>> spec.fan("dragon").zh, spec.fan("dragon").value, spec.flag("burn_dealer").default
('一条龙', 3, True)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Flag:
    """One rule flag: its name, classic default, allowed values (``domain``, as a player would
    write them) and what it does (one line)."""

    name: str
    default: bool | int | float | str
    domain: str
    doc: str


@dataclass(frozen=True)
class Fan:
    """One fan (or pattern) of the family: code name, Chinese and English names, and its value
    (fans under the classic rules; 0 for a two-player limit hand, worth ``limit_fans``)."""

    code: str
    zh: str
    en: str
    value: int


@dataclass(frozen=True)
class FamilySpec:
    """A rule family as the rest of the package sees it.

    Attributes
    ----------
    name, title : str
        Code name (``"two_player"``) and the name in prose (``"two-player"``).
    rules_page : str
        The family's rules page in docs/.
    seats : int
        Players at the table.
    kinds : int
        Tile kinds in play (28: no winds or 白/发; 34: all).
    wall : int
        Tiles in the wall.
    flags : tuple of Flag
        The rule flags, in encoding order.
    fans : tuple of Fan
        The fans or patterns a win can hold, in the frame's ``fan_<code>`` order.
    columns : tuple of str
        The results frame's columns (``<seat>`` stands for each seat's number).
    players : tuple of str
        The built-in players that play the family; ``default_field`` the seats of a run that
        names none.
    headline : tuple of tuple of str
        The metrics printed after a run, each the first of its names present in the summary.
    """

    name: str
    title: str
    rules_page: str
    seats: int
    kinds: int
    wall: int
    flags: tuple[Flag, ...]
    fans: tuple[Fan, ...]
    columns: tuple[str, ...]
    players: tuple[str, ...]
    default_field: tuple[str, ...]
    headline: tuple[tuple[str, ...], ...]

    def flag(self, name: str) -> Flag:
        """The flag called ``name`` (one-line error naming the family's flags otherwise)."""
        for f in self.flags:
            if f.name == name:
                return f
        raise ValueError(
            f"{name} is not a {self.title} flag; {self.title} flags: {', '.join(self.flag_names)}"
        )

    def fan(self, code: str) -> Fan:
        """The fan whose code name is ``code``."""
        for f in self.fans:
            if f.code == code:
                return f
        raise ValueError(
            f"{code} is not a {self.title} fan; its fans: {', '.join(f.code for f in self.fans)}"
        )

    @property
    def flag_names(self) -> tuple[str, ...]:
        """The flags' names, in encoding order."""
        return tuple(f.name for f in self.flags)

    def frame_columns(self) -> tuple[str, ...]:
        """:attr:`columns` with each ``<seat>`` written out for every seat."""
        out: list[str] = []
        for c in self.columns:
            out += [c.replace("<seat>", str(s)) for s in range(self.seats)] if "<seat>" in c else [c]
        return tuple(out)


__all__ = ["Flag", "Fan", "FamilySpec"]
