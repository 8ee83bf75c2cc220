"""The options several sub-commands share, and their reading."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported late at run time: building a parser imports no feature
    from daqing_sim.rules import RuleSet


def add_rules_option(parser: argparse.ArgumentParser, example: str = "kong_fan=true") -> None:
    """The ``--rules FLAG=VALUE`` option every sub-command shares.

    One flag per use (repeat it, or separate flags with commas): a list-valued option would take
    the positional argument after it as one more flag.
    """
    parser.add_argument(
        "--rules",
        action="append",
        metavar="FLAG=VALUE",
        help=f"a rule flag override, e.g. {example}; repeat it (or separate with commas) for more. "
        + rules_help(),
    )


def rules_help() -> str:
    """The families and their flags, from the family specs (what ``--rules`` accepts).

    >>> rules_help()[:56]
    'family=daqing (the default), beijing, two_player. Daqing'
    """
    from daqing_sim.families import FAMILY_PACKAGES, family_spec

    names = list(FAMILY_PACKAGES)
    specs = [family_spec(name) for name in names]
    head = f"family={names[0]} (the default), {', '.join(names[1:])}. "
    return head + "; ".join(f"{s.title} flags: {', '.join(s.flag_names)}" for s in specs)


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The :class:`~daqing_sim.rules.RuleSet` of the ``--rules`` options of ``args``."""
    from daqing_sim.rules import RuleSet

    flags = [item for group in args.rules or [] for item in group.split(",") if item.strip()]
    return RuleSet.from_flag_strings(flags)
