"""The notebooks: each .ipynb is built from its jupytext .py source, and each executes headless.

The notebooks share one temporary results folder, so each experiment is simulated
once (``DAQING_NB_DEALS`` deals per variant, default 120) and reused by the others.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
jupytext = pytest.importorskip("jupytext")
from nbclient.exceptions import CellExecutionError  # noqa: E402

NB_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("[0-9][0-9]_*.ipynb"))
SOURCES = sorted(NB_DIR.glob("[0-9][0-9]_*.py"))
N_DEALS = int(os.environ.get("DAQING_NB_DEALS", "120"))


def _cells(nb) -> list[tuple[str, str, list[str]]]:
    return [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in nb.cells]


def _inject(nb, **params) -> None:
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, "a notebook needs exactly one cell tagged 'parameters'"
    names = {line.split("=")[0].strip() for line in cells[0].source.splitlines() if "=" in line}
    assert set(params) <= names, f"unknown parameters {set(params) - names}"
    cells[0].source = "\n".join(f"{k} = {v!r}" for k, v in params.items())


@pytest.fixture(scope="session")
def results_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("notebook_results")


def test_every_notebook_is_built_from_its_py_source():
    assert len(SOURCES) == 9 and [p.stem for p in NOTEBOOKS] == [p.stem for p in SOURCES]
    for py in SOURCES:
        source = jupytext.read(py)
        built = nbformat.read(py.with_suffix(".ipynb"), as_version=4)
        assert _cells(built) == _cells(source), (
            f"{py.with_suffix('.ipynb').name} differs from {py.name}; run `python notebooks/_build.py`"
        )
        assert sum("parameters" in tags for _, _, tags in _cells(source)) == 1, py.name


def test_notebooks_import_their_helpers_from_the_package():
    for py in SOURCES:
        text = py.read_text(encoding="utf-8")
        assert "from daqing_sim.analysis.notebook import" in text and "Workspace(" in text, py.name
        assert "sys.path" not in text and "def results(" not in text, py.name


def test_build_keeps_the_outputs_of_unchanged_cells_only(tmp_path: Path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("_nb_build", NB_DIR / "_build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    old = nbformat.v4.new_notebook()
    old.cells = [nbformat.v4.new_code_cell(src) for src in ("a = 1", "b = 2", "c = 3")]
    for i, cell in enumerate(old.cells):
        cell.outputs = [nbformat.v4.new_output("stream", text=f"out {i}")]
    new = nbformat.v4.new_notebook()
    new.cells = [nbformat.v4.new_code_cell(src) for src in ("a = 1", "b = 20", "c = 3", "d = 4")]
    build.keep_outputs(new, old)
    assert [[o.text for o in c.outputs] for c in new.cells] == [["out 0"], [], ["out 2"], []]


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
