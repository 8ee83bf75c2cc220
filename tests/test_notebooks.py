"""Execute every notebook headless on small parameters; any failing cell fails the test.

The notebooks share one temporary results folder, so each experiment is simulated
once (``DAQING_NB_DEALS`` deals per variant, default 120) and reused by the others.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
from nbclient.exceptions import CellExecutionError  # noqa: E402

NB_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("[0-9][0-9]_*.ipynb"))
N_DEALS = int(os.environ.get("DAQING_NB_DEALS", "120"))


def _build_module():
    spec = importlib.util.spec_from_file_location("_nb_build", NB_DIR / "_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _inject(nb, **params) -> None:
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, "a notebook needs exactly one cell tagged 'parameters'"
    names = {line.split("=")[0].strip() for line in cells[0].source.splitlines() if "=" in line}
    assert set(params) <= names, f"unknown parameters {set(params) - names}"
    cells[0].source = "\n".join(f"{k} = {v!r}" for k, v in params.items())


@pytest.fixture(scope="session")
def results_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("notebook_results")


def test_notebooks_exist_and_match_the_build_script():
    build = _build_module()
    assert [p.name for p in NOTEBOOKS] == sorted(build.NOTEBOOKS)
    for path in NOTEBOOKS:
        on_disk = nbformat.read(path, as_version=4)
        built = build.NOTEBOOKS[path.name]
        assert [c.source for c in on_disk.cells] == [c.source for c in built.cells], (
            f"{path.name} differs from notebooks/_build.py; run `python notebooks/_build.py`"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path: Path, results_root: Path):
    pytest.importorskip("daqing_sim.game.simulate", reason="the simulator is needed to make results")
    nb = nbformat.read(path, as_version=4)
    _inject(nb, n_deals=N_DEALS, results_root=str(results_root), n_jobs=1)
    client = nbclient.NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NB_DIR)}},
    )
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # inherited by the kernel
    try:
        client.execute()
    except CellExecutionError as e:  # show the failing cell, not the kernel log
        print(str(e)[-4000:], file=sys.stderr)
        raise
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    errors = [o for o in outputs if o.output_type == "error"]
    assert not errors
    answers = [o.data["text/markdown"] for o in outputs if "text/markdown" in o.get("data", {})]
    assert answers and all("Answer" in a for a in answers), "each notebook states its answers in Markdown"
    assert any("image/png" in o.get("data", {}) for o in outputs), "each notebook shows plots"
