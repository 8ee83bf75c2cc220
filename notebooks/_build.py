"""Build the notebooks (``NN_name.ipynb``) from their sources, the jupytext percent files ``NN_name.py``.

    python notebooks/_build.py            # write every .ipynb; unchanged cells keep their outputs
    python notebooks/_build.py --execute  # write, then run each one in place (minutes of CPU: nice it)
    python notebooks/_build.py --execute --only 07_advisor  # just one

The ``.py`` files are the notebooks' code under review (ruff checks them); the ``.ipynb``
files are built from them and carry the outputs. Each notebook has a cell tagged
``parameters`` (papermill convention) with small defaults; ``tests/test_notebooks.py``
checks that every ``.ipynb`` has the cells of its ``.py`` and runs them headless. With
jupytext installed (the ``notebooks`` extra) Jupyter opens either file and saves both.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

import jupytext
import nbformat

HERE = Path(__file__).resolve().parent


def sources() -> dict[str, Path]:
    """Notebook name (``01_ready_probability``) -> its ``.py`` source."""
    return {p.stem: p for p in sorted(HERE.glob("[0-9][0-9]_*.py"))}


def keep_outputs(nb: nbformat.NotebookNode, old: nbformat.NotebookNode) -> None:
    """Give the cells of ``nb`` the outputs (and ids) of the cells of ``old`` with the same type and source.

    Cells are matched in order (longest matching runs first); a changed cell has no outputs
    until the notebook is executed again, so no output is shown under code it did not come from.
    Keeping the ids keeps a rebuilt notebook's diff to the cells that changed.
    """
    a = [(c.cell_type, c.source) for c in old.cells]
    b = [(c.cell_type, c.source) for c in nb.cells]
    for block in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_matching_blocks():
        for i in range(block.size):
            was, cell = old.cells[block.a + i], nb.cells[block.b + i]
            if "id" in was:
                cell.id = was.id
            if cell.cell_type == "code":
                cell.outputs = was.get("outputs", [])
                cell.execution_count = was.get("execution_count")


def build(source: Path, execute: bool = False, timeout: int = 3600) -> nbformat.NotebookNode:
    """The notebook of ``source``: its cells, with the outputs of the existing ``.ipynb`` where a
    cell is unchanged, or with fresh outputs when ``execute``."""
    nb = jupytext.read(source)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    target = source.with_suffix(".ipynb")
    if target.exists():
        keep_outputs(nb, nbformat.read(target, as_version=4))
    if execute:
        from nbclient import NotebookClient

        resources = {"metadata": {"path": str(HERE)}}
        NotebookClient(nb, timeout=timeout, kernel_name="python3", resources=resources).execute()
    nbformat.validate(nb)
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--execute", action="store_true", help="run each notebook in place after building it")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per cell when executing")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these notebooks, e.g. 07_advisor")
    args = parser.parse_args(argv)
    found = sources()
    only = {Path(n).stem for n in args.only or ()}
    if only - set(found):
        parser.error(f"unknown notebooks {sorted(only - set(found))}; choose from {', '.join(found)}")
    for name, source in found.items():
        if only and name not in only:
            continue
        target = source.with_suffix(".ipynb")
        nbformat.write(build(source, args.execute, args.timeout), target)
        print(f"wrote {target.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
