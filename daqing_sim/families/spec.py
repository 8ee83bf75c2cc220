"""What a rule family declares (numba-free): :class:`FamilySpec`, with its :class:`Flag` and
:class:`Fan` entries. Each family's package has a ``spec`` module holding one ``SPEC``; the rest
of the package reads a family from it (``daqing_sim.families.family_spec``).

>>> from daqing_sim.families import family_spec
>>> spec = family_spec("beijing")
>>> spec.fan("dragon").zh, spec.fan("dragon").value, spec.flag("burn_dealer").default
('一条龙', 3, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Flag:
    """One rule flag: its name, classic default, allowed values (``domain``, as a player would
    write them) and what it does (one line). A text flag lists its ``choices`` (encoded as the
    value's index); a flag's type is its default's (a fractional one is encoded in thousandths)."""

    name: str
    default: bool | int | float | str
    domain: str
    doc: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fan:
    """One fan (or pattern) of the family: code name, Chinese and English names, and its value
    (fans under the classic rules; 0 for a two-player limit hand, worth ``limit_fans``)."""

    code: str
    zh: str
    en: str
    value: int


@dataclass(frozen=True)
class Labels:
    """What the text replay and the viewer say that differs by family (prose; the viewer draws
    every CJK character with the project's glyphs). Templates take ``{wall_left}``, and the rule
    flags by name (text replay) or ``{dead_wall}`` (viewer); fields a template does not name are
    left out.

    >>> from daqing_sim.families import family_spec
    >>> labels = family_spec("two_player").labels
    >>> labels.declare, labels.exhaustive_draw.format(wall_left=0)
    ('报听', 'the tiles are used up and nobody wins (流局): nobody pays')
    """

    #: after the replay's first line, e.g. " (Beijing rules)"
    rules_note: str = ""
    #: the declaration's name in the replay, and the viewer's badge of a seat that made it
    declare: str = "上听"
    ready_badge: str = "ready 上听"
    #: the replay's line on the wall after the hands ("" for none)
    wall_line: str = "wall: {wall_left} tiles to draw"
    #: the replay's line when a seat declares (``{seat}``, ``{wait}``, ``{outs}``, ``{bao}``)
    ready_line: str = "     seat {seat} is ready, {wait} wait, {outs} live outs"
    #: the viewer's move text when a seat declares (``{seat}``, ``{wait}``, ``{outs}``), and what
    #: a spectator who does not see the hands reads
    move_ready: str = "seat {seat} declares ready (上听): {wait} wait, {outs} live outs"
    move_ready_public: str = "seat {seat} declares ready (上听)"
    #: the replay's (and the viewer's) line when nobody wins
    exhaustive_draw: str = "the live wall is empty: a drawn deal, nobody pays"
    #: the viewer: the wall box, the family's own boxes ((heading, body) pairs), a seat's extra
    #: badge, the marks' note on the declaring discard, what a spectator toggle hides
    viewer_wall: str = '<h3>live wall</h3><div><span id="wall-left"></span> tiles left</div>'
    viewer_boxes: tuple[tuple[str, str], ...] = ()
    seat_badge: str = ""
    declare_mark: str = "sideways with a red bar: the discard that declared ready (上听); "
    hidden: str = "hands"


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
    check : callable, optional
        ``check(rules)``: the family's own one-line errors for a :class:`~daqing_sim.rules.RuleSet`
        of the family whose flags have the right types (ranges, combinations).
    wall_width, in_play, bao_position : int
        Tiles of a deal's wall as generated (0: all ``wall`` tiles; fewer: the first of a whole
        shuffle), how many of them are played (0: all; the rest are drawn only by the family's
        own rules) and the bao's place (-1: no bao).
    player_modules : tuple of (str, str)
        Players whose knobs and functions are the family's own: (player name, the family
        package's module that plays it). The others are the built-in players' own modules, and
        the family's ``players`` module, when it has one, gives their seat functions.
    hand_kernels, player_seconds : tuple of (str, str, int)
        The compile notice's figures: (module role, kernel, seconds of its first compile) of the
        family's hand kernels (the ``hand_<name>`` feature) and of its players' kernels.
    state_type : str
        The name of the deal state type the engine is compiled for (the compile notice checks
        the cache for it).
    labels : Labels
        The replay's and the viewer's family-specific words.
    ready_records_wait : bool
        Does the engine log a ready declaration's wait kind and live outs (two-player's 报听
        logs neither: the deal log shows none).
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
    check: Callable[[Any], None] | None = None
    wall_width: int = 0
    in_play: int = 0
    bao_position: int = -1
    player_modules: tuple[tuple[str, str], ...] = ()
    hand_kernels: tuple[tuple[str, str, int], ...] = ()
    player_seconds: tuple[tuple[str, str, int], ...] = ()
    state_type: str = ""
    labels: Labels = Labels()
    ready_records_wait: bool = True

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

    @property
    def live(self) -> int:
        """Tiles to draw after the deal: those in play less the hands (14 + 13 per other seat)
        and the bao."""
        dealt = 14 + 13 * (self.seats - 1) + (self.bao_position >= 0)
        return (self.in_play or self.wall_width or self.wall) - dealt

    def frame_columns(self) -> tuple[str, ...]:
        """:attr:`columns` with each ``<seat>`` written out for every seat."""
        out: list[str] = []
        for c in self.columns:
            out += [c.replace("<seat>", str(s)) for s in range(self.seats)] if "<seat>" in c else [c]
        return tuple(out)


__all__ = ["Flag", "Fan", "FamilySpec", "Labels"]
