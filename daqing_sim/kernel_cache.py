"""Keep numba's on-disk cache of the package's kernels honest: :func:`drop_stale`.

numba checks a cached kernel only against the file that defines it, but a compiled kernel holds
the code of every kernel it calls (linked in) or inlines, from other files too: a cached advisor
kernel holds ``hand/kernels.py``'s wait sets, a cached player holds ``players/common.py``'s
helpers. :func:`drop_stale` removes every cached kernel of the package that is older than the
newest source file with jitted code, so an edit of any kernel recompiles whatever may hold it
instead of loading stale code. (``game/engine.py`` has done this for ``game/`` and ``players/``
since the engine's first cache; this covers ``hand/``, ``advisor/``, ``search/`` and ``families/`` as well.)
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_PACKAGE = Path(os.path.dirname(os.path.abspath(__file__)))  # as numba names source directories
#: the subpackages whose modules hold kernels (their caches are checked, their sources counted)
_KERNEL_DIRS = ("hand", "game", "players", "advisor", "search", "families") + tuple(
    f"families/{p.name}" for p in sorted((_PACKAGE / "families").iterdir()) if (p / "__init__.py").is_file()
)
_done = False


def _sources() -> list[Path]:
    files = [_PACKAGE / name for name in ("rules.py", "codes.py", "layout.py", "jit.py")]
    # the registry and the specs: RuleSet's fields, and so the R_* offsets kernels are compiled
    # with, and the family codes come from them
    files += [_PACKAGE / "families" / "__init__.py", *sorted(_PACKAGE.glob("families/*/spec.py"))]
    for sub in _KERNEL_DIRS:
        files += [f for f in sorted((_PACKAGE / sub).glob("*.py")) if b"njit" in f.read_bytes()]
    return files


def _cache_dirs() -> list[Path]:
    """Where numba caches the kernels of each kernel directory (its ``__pycache__``, or its
    subdirectory of ``NUMBA_CACHE_DIR``, named as numba names it)."""
    out = []
    for sub in _KERNEL_DIRS:
        here = _PACKAGE / sub
        if numba.config.CACHE_DIR:
            digest = hashlib.sha1(str(here).encode()).hexdigest()  # numba's _CacheLocator naming
            out.append(Path(numba.config.CACHE_DIR) / f"{here.name}_{digest}")
        else:
            out.append(here / "__pycache__")
    return out


def drop_stale() -> None:
    """Delete the package's cached kernels older than its newest jitted source (once per process;
    a read-only or concurrently cleaned cache only costs a recompile)."""
    global _done
    if _done:
        return
    _done = True
    try:
        newest = max(f.stat().st_mtime for f in _sources())
        for root in _cache_dirs():
            if not root.is_dir():
                continue
            for index in root.glob("*.nbi"):
                if index.stat().st_mtime < newest:
                    for f in index.parent.glob(index.name[: -len(".nbi")] + ".*nb*"):
                        f.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass
