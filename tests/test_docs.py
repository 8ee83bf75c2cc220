"""The documentation runs as written: every python block of the README and docs/*.md, each in a
fresh process (from a file, or pasted at a ``python`` prompt, i.e. fed to ``python -i`` on
standard input, where the page says its examples run there), with smaller sizes; the front page
names every notebook, experiment file and sub-command and carries the headline answers exactly as
tools/results_section.py writes them."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "PLAYERS.md"
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "GUIDE.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

# Smaller sizes for the examples: each must occur in its page, so a renamed size is noticed
# instead of run at full size. A block opened as ```python no-run is skipped.
SMALL = {
    README: {"ds.simulate(2_000,": "ds.simulate(60,"},
    GUIDE: {
        "    10_000,": "    60,",
        "n_deals=2_000": "n_deals=40",
        "n_walls=2_000": "n_walls=6",
        "n_sims=2000": "n_sims=12",
        "ds.simulate(200,": "ds.simulate(30,",
    },
    DOC: {"ds.simulate(1_000,": "ds.simulate(40,", "ds.simulate(10_000,": "ds.simulate(200,"},
    ROOT / "docs" / "EXPERT.md": {
        "n_walls=50_000": "n_walls=4",
        'ds.simulate(20, strategies=("search"': 'ds.simulate(3, strategies=("search"',
        'ds.simulate(10, rules=ds.RuleSet(family="two_player"), strategies=("search"': (
            'ds.simulate(3, rules=ds.RuleSet(family="two_player"), strategies=("search"'
        ),
        "n_walls=5, seed=7": "n_walls=1, seed=7",
    },
}
# What each example must have done, run after it in the same process: (page, a text of the block) ->
# a check. Every check must find its block, so a rewritten example is noticed.
CHECKS = {
    (README, "ds.analyze_hand("): "assert a.ready and len(df) == 60",
    (GUIDE, "t = ds.tournament("): "assert set(t['entrant']) >= {'greedy', 'random'}",
    (GUIDE, "w = ds.score_win("): "assert w.total_fans > 0 and len(deals) == 30",
    (GUIDE, "ds.experiment_results("): "assert df['variant'].nunique() > 1",
    (DOC, "class Cautious("): "assert tuple(df['strategy_0'].astype(str).unique()) == ('cautious',)",
    (DOC, "ds.JittedPlayer("): "assert tuple(df['strategy_0'].astype(str).unique()) == ('folder',)",
    (DOC, "ds.DealEnv("): "assert env.done and sum(env.payments) == 0",
}
# Pages that say their examples run at a ``python`` prompt: each block is fed to ``python -i``
# on standard input, read line by line as a paste is (a blank line ends an indented block; the
# functions have no source file, so numba keeps no disk cache of a jitted player defined there).
REPL_PAGES = (README, DOC)


def _blocks(text: str, lang: str = "python") -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def _examples() -> list[tuple[Path, int, str]]:
    return [
        (page, i, code) for page in PAGES for i, code in enumerate(_blocks(page.read_text(encoding="utf-8")))
    ]


EXAMPLES = _examples()


def _results_section():
    spec = importlib.util.spec_from_file_location("results_section", ROOT / "tools" / "results_section.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_size_and_check_finds_its_example():
    for page, sizes in SMALL.items():
        text = page.read_text(encoding="utf-8")
        for big in sizes:
            assert big in text, f"{page.name} no longer holds {big!r}: update SMALL in this test"
    for page, marker in CHECKS:
        assert any(p == page and marker in code for p, _, code in EXAMPLES), (page.name, marker)
    assert {p.name for p, _, _ in EXAMPLES} >= {"README.md", "GUIDE.md", "PLAYERS.md", "EXPERT.md"}


def _program(page: Path, code: str) -> str:
    for big, few in SMALL.get(page, {}).items():
        code = code.replace(big, few)
    checks = [c for (p, marker), c in CHECKS.items() if p == page and marker in code]
    return code + "\n" + "\n".join(checks) + "\n"


def _run(argv: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "NUMBA_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    # hang guard only: an example takes seconds once the kernels are cached
    return subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=900)


def _ways(page: Path) -> list[str]:
    # a prompt run fails on everything a file run fails on (its errors are read from standard
    # error) and on what only breaks when pasted (a blank line inside a block), so it replaces it
    return ["prompt"] if page in REPL_PAGES else ["file"]


@pytest.mark.parametrize(
    ("page", "index", "how"),
    [(p, i, how) for p, i, _ in EXAMPLES for how in _ways(p)],
    ids=[f"{p.stem}-{i + 1}-{how}" for p, i, _ in EXAMPLES for how in _ways(p)],
)
def test_example_runs_as_written(page: Path, index: int, how: str, tmp_path: Path) -> None:
    """One python block in a fresh process, in a temporary directory holding a copy of
    experiments/ (quick runs write there, never into the repository's results/)."""
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    program = _program(page, _blocks(page.read_text(encoding="utf-8"))[index])
    if how == "file":
        script = tmp_path / f"{page.stem}_{index + 1}.py"
        script.write_text(program, encoding="utf-8")
        proc = _run([sys.executable, str(script)], tmp_path)
    else:  # the prompt exits 0 whatever failed: its errors are read from standard error
        proc = _run([sys.executable, "-q", "-i"], tmp_path, stdin=program)
        failed = [x for x in proc.stderr.splitlines() if re.search(r"Traceback|^\w*Error\b", x.lstrip(">. "))]
        assert not failed, f"{page.name} example {index + 1} at a prompt:\n{proc.stderr[-3000:]}"
    assert proc.returncode == 0, f"{page.name} example {index + 1} ({how}):\n{proc.stderr[-3000:]}"
    assert not (ROOT / "results" / ".quick" / "bao_replacement-n40").exists()


@pytest.mark.parametrize("path", [README, GUIDE], ids=["README", "GUIDE"])
def test_command_lines_parse(path):
    """Every ``daqing-sim ...`` line of a bash block is accepted by the argument parser."""
    from daqing_sim.cli import build_parser

    parser = build_parser()
    n = 0
    for block in _blocks(path.read_text(encoding="utf-8"), "bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            at = [i for i, w in enumerate(words) if w.endswith("daqing-sim")]
            if not at:
                continue
            args = words[at[0] + 1 :]
            try:
                parser.parse_args(args)
            except SystemExit:
                pytest.fail(f"{path.name}: the parser refuses {line.strip()!r}")
            n += 1
    assert n >= 4


def test_front_page_names_everything():
    from daqing_sim.cli import _COMMANDS

    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200, "README.md: under 200 lines, please (detail goes to docs/)"
    missing = [p.stem for p in sorted((ROOT / "notebooks").glob("*.ipynb")) if p.stem not in text]
    missing += [p.name for p in sorted((ROOT / "experiments").glob("*.toml")) if f"`{p.name}`" not in text]
    missing += [f"daqing-sim {c}" for c in _COMMANDS if f"daqing-sim {c}" not in text]
    assert not missing, f"README.md does not name {missing}"
    for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        assert (ROOT / link).exists(), f"README.md links to {link}, which does not exist"


def test_front_page_keeps_the_ci_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    bash = _blocks(README.read_text(encoding="utf-8"), "bash")
    assert ci in [b.strip() for b in bash], "README.md's test command must be .ci/run's, verbatim"


def test_front_page_answers_are_generated():
    """The headline answers are tools/results_section.py's output for the shipped results: rerun
    ``python tools/results_section.py`` after a results file changed."""
    rs = _results_section()
    text = README.read_text(encoding="utf-8")
    i, j = text.index(rs.README_START), text.index(rs.README_END) + len(rs.README_END)
    assert text[i:j] == rs.readme_answers()


def test_cli_reference_is_current():
    """docs/CLI.md is generated from the parser: regenerate it with
    ``python -m daqing_sim.cli --reference > docs/CLI.md`` after changing a flag."""
    from daqing_sim.cli import _COMMANDS, reference_markdown

    text = (Path(__file__).parent.parent / "docs" / "CLI.md").read_text(encoding="utf-8")
    assert text.rstrip("\n") == reference_markdown().rstrip("\n")
    for name in _COMMANDS:
        assert f"## `daqing-sim {name}`" in text
