"""CPU seconds of a cold first run of an experiment, for comparing checkouts (issue 35's "the cold
compile of the README main job, of a Beijing run and of a two-player run"; not part of the
package):

    for r in 1 2; do
      python tools/cold_compile.py A baseline; python tools/cold_compile.py B baseline
    done

Runs ``daqing-sim run experiments/<NAME>.toml --n-deals 4096 --jobs 1`` from checkout ``A`` (its
``PYTHONPATH`` and its ``experiments/``) in a subprocess with an empty ``NUMBA_CACHE_DIR`` and a
throw-away results root, and prints the subprocess's user+system CPU seconds and wall seconds.
CPU time, not wall time: on a shared machine the other processes change wall time far more.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

checkout, name = os.path.abspath(sys.argv[1]), sys.argv[2]
code = "import sys; from daqing_sim.cli import main; sys.argv[0] = 'daqing-sim'; sys.exit(main())"
with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": checkout}
    args = ["run", f"experiments/{name}.toml", "--n-deals", "4096", "--jobs", "1", "--out", out]
    args.append("--no-progress")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    cmd = [sys.executable, "-c", code, *args]
    subprocess.run(cmd, cwd=checkout, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(f"{checkout} {name}: {cpu:.1f} CPU s, {wall:.1f} s wall")
