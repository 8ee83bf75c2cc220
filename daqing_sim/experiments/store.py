"""Results on disk: chunk files and their per-variant index (sha256), the manifest, and where
a run's results go. Shared by the runner (which writes) and the results loader (which reads).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from daqing_sim.experiments.config import Experiment
from daqing_sim.validation import PARTIAL, atomic_write, atomic_write_bytes

MANIFEST = "manifest.json"
TIMINGS = "timings.json"
CHUNKS = "chunks"
INDEX = "index.json"
QUICK = ".quick"  # quick looks (--n-deals) go to OUT/.quick/NAME-nN, ignored by git


def chunk_path(outdir: Path, variant: str, index: int) -> Path:
    return outdir / CHUNKS / variant / f"chunk-{index:06d}.parquet"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_chunk(df: pd.DataFrame, path: Path) -> dict[str, Any]:
    """Write a chunk as Parquet (the final name appears only once complete); its index entry."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, lambda p: df.to_parquet(p, index=False))
    return {"start": int(df["deal"].iloc[0]), "rows": len(df), "sha256": file_sha256(path)}


# ---------------------------------------------------------------- chunk index


def identity_hash(identity: Mapping[str, Any]) -> str:
    text = json.dumps(identity, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def read_index(outdir: Path, variant: str) -> dict[str, Any] | None:
    """``chunks/VARIANT/index.json``, or None when absent or unreadable (nothing is trusted)."""
    path = outdir / CHUNKS / variant / INDEX
    if not path.is_file():
        return None
    try:
        index = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return index if isinstance(index, dict) and isinstance(index.get("chunks"), dict) else None


def write_index(outdir: Path, variant: str, index: dict[str, Any]) -> None:
    path = outdir / CHUNKS / variant / INDEX
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, (json.dumps(index, ensure_ascii=False) + "\n").encode("utf-8"))


def check_chunk(path: Path, entry: Any, start: int, n_deals: int) -> str | None:
    """Why chunk file ``path`` cannot serve deals ``start .. start + n_deals - 1``, or None.

    ``entry`` is its record in the variant's index: the chunk must cover the range from
    its first deal (a longer chunk of a bigger run serves a smaller one) and still have the
    recorded checksum.
    """
    if not isinstance(entry, dict):
        return "no checksum recorded"
    if entry.get("start") != start or not isinstance(entry.get("rows"), int):
        return f"recorded for deals from {entry.get('start')}, not {start}"
    if entry["rows"] < n_deals:
        return f"holds {entry['rows']} of its {n_deals} deals"
    if not path.is_file():
        return "file missing"
    if file_sha256(path) != entry.get("sha256"):
        return "checksum mismatch"
    return None


def clean_partials(outdir: Path) -> int:
    """Remove temporary files left by an interrupted run; returns how many."""
    n = 0
    if outdir.is_dir():
        for tmp in outdir.rglob("*" + PARTIAL):
            tmp.unlink(missing_ok=True)
            n += 1
    return n


def read_manifest(outdir: Path) -> dict[str, Any] | None:
    path = outdir / MANIFEST
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path} is not valid JSON ({e}); delete it or re-run with --force") from None
    if not isinstance(manifest, dict):
        raise ValueError(f"{path} is not a manifest (a JSON object); delete it or re-run with --force")
    return manifest


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"))


def write_manifest(outdir: Path, manifest: dict[str, Any]) -> None:
    write_json(outdir / MANIFEST, manifest)


def clear_chunks(outdir: Path) -> None:
    shutil.rmtree(outdir / CHUNKS, ignore_errors=True)


def has_chunks(outdir: Path) -> bool:
    return any((outdir / CHUNKS).rglob("chunk-*.parquet")) if (outdir / CHUNKS).is_dir() else False


def results_dir(experiment: Experiment, out: str | os.PathLike[str], file_n_deals: int | None = None) -> Path:
    """``out/NAME``, or ``out/.quick/NAME-nN`` when ``--n-deals`` changed the file's size."""
    if file_n_deals is not None and experiment.n_deals != file_n_deals:
        return Path(out) / QUICK / f"{experiment.name}-n{experiment.n_deals}"
    return Path(out) / experiment.name


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
