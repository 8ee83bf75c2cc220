"""Players named in experiment files: ``"module:Class"`` seat entries (a ``ds.Player`` subclass,
made with no arguments, or a ``JittedPlayer`` object).

>>> load_player("daqing_sim.players.examples:RandomLegal").label
'RandomLegal'
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from daqing_sim.players.interface import Player
from daqing_sim.players.user import JittedPlayer


def is_player_spec(name: Any) -> bool:
    """Is ``name`` a ``"module:Class"`` reference to a Python player?"""
    return isinstance(name, str) and ":" in name


def _player_class(spec: str, search: Path | None) -> type:
    module_name, _, cls_name = spec.partition(":")
    if not module_name or not cls_name:
        raise ValueError(f"player {spec!r} must be written 'module:Class', e.g. 'my_players:Cautious'")
    for where in (None, search, Path.cwd()):
        if where is not None and str(where) not in sys.path:
            sys.path.insert(0, str(where))
        try:
            module = importlib.import_module(module_name)
            break
        except ModuleNotFoundError as e:
            if e.name != module_name.split(".")[0] and e.name != module_name:
                raise ValueError(f"player {spec!r}: importing {module_name} failed: {e}") from None
            error = e
    else:
        raise ValueError(
            f"player {spec!r}: no module {module_name!r} ({error}); put {module_name}.py next to the "
            "experiment file or in the current directory, or install it"
        ) from None
    cls = getattr(module, cls_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Player) or isinstance(cls, JittedPlayer)):
        raise ValueError(
            f"player {spec!r}: {module_name} has no ds.Player subclass or JittedPlayer named {cls_name!r}"
        )
    return cls


def load_player(spec: str, search: Path | None = None) -> Player:
    """An instance of the Player class ``spec`` (``"module:Class"``, made with no arguments);
    ``search`` is a folder to look for the module in (the experiment file's)."""
    cls = _player_class(spec, search)
    if isinstance(cls, JittedPlayer):
        return cls
    try:
        return cls()
    except Exception as e:
        raise ValueError(f"player {spec!r}: {cls.__name__}() failed: {type(e).__name__}: {e}") from None


def player_digest(spec: str, search: Path | None = None) -> str:
    """sha256 of the source file defining ``spec``'s class: a changed player changes the
    identity of an experiment's chunks, so old results are not reused for new code."""
    cls = _player_class(spec, search)
    if isinstance(cls, JittedPlayer):
        cls = getattr(cls._fns[0], "py_func", cls._fns[0])
    try:
        source = Path(inspect.getsourcefile(cls) or "").read_bytes()
    except (OSError, TypeError):
        source = spec.encode()
    return hashlib.sha256(source).hexdigest()


def resolve_seats(strategies: Sequence[Any], search: Path | None = None) -> tuple[Any, ...]:
    """The seats with every ``"module:Class"`` entry replaced by a player instance, and every
    ``"search"`` or ``("search", {knob: value})`` by a :class:`~daqing_sim.search.player.SearchPlayer`."""
    return tuple(_resolve(s, search) for s in strategies)


#: built-in players that decide on the Python side, by name -> ``"module:Class"``: loaded as a
#: plugin is, since this layer may not import them (``search`` runs the engine, which runs players)
PYTHON_BUILTINS = {"search": "daqing_sim.search.player:SearchPlayer"}


def _resolve(s: Any, search: Path | None) -> Any:
    if is_player_spec(s):
        return load_player(s, search)
    if isinstance(s, str) and s in PYTHON_BUILTINS:
        return _player_class(PYTHON_BUILTINS[s], None)()
    if (
        isinstance(s, tuple | list)
        and len(s) == 2
        and s[0] in PYTHON_BUILTINS
        and isinstance(s[1], Mapping | None)
    ):
        return _player_class(PYTHON_BUILTINS[s[0]], None)(**dict(s[1] or {}))
    return s
