"""The rule families, one package each: ``daqing_sim.families.<name>`` holds that family's spec
(``spec``: numba-free, what the rest of the package reads), hand kernels (``hand``), deal steps
(``deal``), settlement, players and results frame (``frame``).

:data:`FAMILY_PACKAGES` is the registry: a family's name and the package that plays it. Code
outside a family reaches it through :func:`family_module` (a module of the family's package by
its role) and :func:`family_spec`, never by importing another family's modules by name.

>>> family_spec("two_player").seats
2
>>> family_module("beijing", "frame").__name__
'daqing_sim.families.beijing.frame'
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

#: family name -> its package (the registry: one line adds a family)
FAMILY_PACKAGES: dict[str, str] = {
    "daqing": "daqing_sim.families.daqing",
    "beijing": "daqing_sim.families.beijing",
    "two_player": "daqing_sim.families.two_player",
}
#: the family of a rule set that names none (the first registered)
DEFAULT_FAMILY = next(iter(FAMILY_PACKAGES))


def _package(family: str) -> str:
    if family not in FAMILY_PACKAGES:
        raise ValueError(f"unknown rule family {family!r}: use one of {', '.join(FAMILY_PACKAGES)}")
    return FAMILY_PACKAGES[family]


def family_module(family: str, role: str) -> ModuleType:
    """The module of ``family``'s package that plays ``role`` (``"spec"``, ``"frame"``, ...)."""
    return importlib.import_module(f"{_package(family)}.{role}")


def family_spec(family: str) -> Any:
    """``family``'s spec (:class:`daqing_sim.families.spec.FamilySpec`)."""
    return family_module(family, "spec").SPEC


__all__ = ["DEFAULT_FAMILY", "FAMILY_PACKAGES", "family_module", "family_spec"]
