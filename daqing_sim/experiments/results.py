"""Reading experiment results: :func:`load_results`, and :func:`experiment_results` for notebooks.

A chunk is loaded only when its file still has the checksum recorded when it was written
and holds exactly its range of deals, so a damaged or misplaced file is never read as data.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from daqing_sim.experiments import store as _runner


def _resume_command(outdir: Path, plan: dict[str, Any]) -> str:
    """The ``daqing-sim run`` command that wrote ``outdir`` (and finishes it)."""
    source = plan.get("source") or "EXPERIMENT.toml"
    quick = outdir.parent.name == _runner.QUICK
    root = outdir.parent.parent if quick else outdir.parent
    parts = ["daqing-sim run", str(source)]
    if os.path.normpath(root) != "results":
        parts += ["--out", str(root)]
    if quick:
        parts += ["--n-deals", str(plan.get("n_deals"))]
    return " ".join(parts)


def _plan(outdir: Path) -> dict[str, Any]:
    manifest = _runner.read_manifest(outdir)
    if manifest is None:
        if not outdir.exists():
            raise FileNotFoundError(f"results directory {outdir} does not exist")
        raise ValueError(f"{outdir} has no {_runner.MANIFEST}: it is not an experiment results directory")
    plan = manifest.get("config")
    ok = isinstance(plan, dict) and isinstance(plan.get("variants"), list)
    if not ok or not all(k in plan for k in ("n_deals", "chunk_size")):
        raise ValueError(
            f"{outdir / _runner.MANIFEST} has no valid config (variants, n_deals, chunk_size): it was not "
            "written by `daqing-sim run`, or was edited; re-run the experiment with --force"
        )
    return plan


def _read_chunk(path: Path, entry: Any, start: int, n: int, columns: list[str] | None, what: str) -> Any:
    """The first ``n`` rows of a verified chunk as a pyarrow table."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    why = _runner.check_chunk(path, entry, start, n)
    if why is None:
        try:
            table = pq.read_table(path, columns=columns)
            deals = pq.read_table(path, columns=["deal"]).column("deal").to_numpy()
        except (OSError, pa.ArrowException) as e:
            why = f"unreadable ({str(e).splitlines()[0]})"
        else:
            if not np.array_equal(deals, np.arange(start, start + entry["rows"])):
                why = f"its deal ids are not {start}..{start + entry['rows'] - 1}"
            else:
                return table.slice(0, n)
    raise ValueError(
        f"{what} ({path}): {why}; it was damaged or replaced after it was written; a re-run of the "
        "experiment recomputes it"
    )


def load_results(
    path: str | os.PathLike[str],
    *,
    allow_partial: bool = False,
    columns: Sequence[str] | None = None,
    variants: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Load a results directory as one DataFrame.

    Parameters
    ----------
    path : path-like
        ``results/NAME`` as written by :func:`~daqing_sim.experiments.runner.run_experiment`.
    allow_partial : bool
        Load the finished chunks of an interrupted run instead of raising.
    columns : sequence of str, optional
        Read only these columns (``variant`` and ``deal`` are always included).
    variants : sequence of str, optional
        Read only these variants.

    Returns
    -------
    pandas.DataFrame
        The ``simulate`` schema plus a ``variant`` categorical column (in the
        experiment's order), sorted by variant then deal.

    Raises
    ------
    ValueError
        When the directory is incomplete (naming the command that finishes it), or a chunk
        fails its checksum or holds other deals than its own.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> tmp = tempfile.TemporaryDirectory()
    >>> toml = Path(tmp.name) / "demo.toml"
    >>> _ = toml.write_text(
    ...     'name = "demo"\\nn_deals = 16\\nchunk_size = 8\\nstrategies = "greedy"\\n'
    ...     '[[variants]]\\nname = "classic"\\n'
    ...     '[[variants]]\\nname = "no_replacement"\\nrules = { bao_replacement = false }\\n'
    ... )
    >>> from daqing_sim.experiments.runner import run_experiment
    >>> out = Path(tmp.name) / "results"
    >>> _ = run_experiment(toml, n_jobs=1, out=out, progress=False, summary=False)
    >>> df = load_results(out / "demo")
    >>> df.groupby("variant", observed=True).size().to_dict()
    {'classic': 16, 'no_replacement': 16}
    >>> tmp.cleanup()
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    outdir = Path(path)
    plan = _plan(outdir)
    all_variants = [v["name"] for v in plan["variants"]]
    if variants is None:
        variants = all_variants
    else:
        variants = [variants] if isinstance(variants, str) else list(variants)
        bad = [v for v in variants if v not in all_variants]
        if bad:
            raise ValueError(
                f"variant(s) {', '.join(bad)} not in {outdir}; variants: {', '.join(all_variants)}"
            )
    n_deals, chunk_size = int(plan["n_deals"]), int(plan["chunk_size"])
    n_chunks = -(-n_deals // chunk_size)
    columns = [columns] if isinstance(columns, str) else columns
    tables, missing, read_columns, seen = [], 0, None, set()
    families = {v["name"]: (v.get("rules") or {}).get("family", "daqing") for v in plan["variants"]}
    mixed = len({families.get(v, "daqing") for v in variants}) > 1
    for name in variants:
        entries = (_runner.read_index(outdir, name) or {"chunks": {}})["chunks"]
        if mixed:  # the families' columns differ: each variant reads what its family has
            read_columns = None
        for k in range(n_chunks):
            path = _runner.chunk_path(outdir, name, k)
            start = k * chunk_size
            n = min(chunk_size, n_deals - start)
            if str(k) not in entries or not path.is_file():  # a resumed run (re)computes it
                missing += 1
                continue
            what = f"chunk {k} of variant {name}"
            if read_columns is None and columns is not None:
                try:
                    available = pq.read_schema(path).names
                except (OSError, pa.ArrowException):
                    available = list(columns)  # _read_chunk says what is wrong with the file
                if mixed:
                    seen |= set(available)
                    read_columns = ["deal"] + [
                        c for c in dict.fromkeys(columns) if c in available and c != "deal"
                    ]
                else:
                    read_columns = _check_columns(columns, available, outdir)
            table = _read_chunk(path, entries[str(k)], start, n, read_columns, what)
            tables.append(table.append_column("variant", pa.array(np.full(table.num_rows, name))))
    if missing and not allow_partial:
        raise ValueError(
            f"{outdir} is incomplete: {missing} of {n_chunks * len(variants)} chunks missing; "
            f"run `{_resume_command(outdir, plan)}` again to finish it, or pass allow_partial=True"
        )
    if not tables:
        raise ValueError(f"{outdir} holds no finished chunk yet")
    if mixed and columns is not None:  # a column of no family's frame is an error, as in one family
        _check_columns(columns, sorted(seen), outdir)
    df = pa.concat_tables(tables, promote_options="permissive").to_pandas()
    df["variant"] = pd.Categorical(df["variant"], categories=variants)
    order = [c for c in df.columns if c != "variant"]
    if mixed and columns is not None:  # the order asked for, whichever family's chunk came first
        order = ["deal"] + [c for c in dict.fromkeys(columns) if c in order and c != "deal"]
    df = df[["variant"] + order]
    return df.sort_values(["variant", "deal"], kind="stable").reset_index(drop=True)


def _check_columns(columns: Sequence[str], available: list[str], outdir: Path) -> list[str]:
    columns = [columns] if isinstance(columns, str) else list(columns)
    bad = [c for c in columns if c not in available and c != "variant"]
    if bad:
        raise ValueError(f"column(s) {', '.join(bad)} not in {outdir}; columns: {', '.join(available)}")
    # deal is needed to sort; variant is added on loading
    return ["deal"] + [c for c in columns if c not in ("deal", "variant")]
