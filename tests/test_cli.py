"""The command line's wiring: every error one line with exit status 2, in the words of the
command line, and each sub-command's parser built without importing a feature."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from daqing_sim.cli import _COMMANDS, main
from daqing_sim.families import FAMILY_PACKAGES

ROOT = Path(__file__).resolve().parent.parent


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The error ``argv`` gets: exit status 2 (argparse exits; a handler's error returns it) and
    exactly one line on standard error, nothing on standard output."""
    try:
        status = main(argv)
    except SystemExit as e:
        status = e.code
    out, err = capsys.readouterr()
    assert status == 2, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "usage:" not in err and "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    "argv, line",
    [
        (
            ["run", "experiments/baseline.toml", "--n-deals", "1e6"],
            "daqing-sim run: error: --n-deals 1e6 is not a whole number: write it in digits, "
            "--n-deals 1000000 (see daqing-sim run --help)",
        ),
        (
            ["run", "experiments/baseline.toml", "--n-deals", "many"],
            "daqing-sim run: error: --n-deals 'many' is not a whole number, e.g. --n-deals 100 "
            "(see daqing-sim run --help)",
        ),
        (
            ["advise", "134m456p789s中中 [345m]", "--method", "simulat"],
            "daqing-sim advise: error: --method simulat is not one of exact, simulate: did you mean "
            "--method simulate? (see daqing-sim advise --help)",
        ),
        (
            ["replay", "--deal", "1"],
            "daqing-sim replay: error: --seed is required (see daqing-sim replay --help)",
        ),
        (
            ["replay"],
            "daqing-sim replay: error: --seed and --deal are required (see daqing-sim replay --help)",
        ),
        (
            ["replay", "--deal", "1", "--seed"],
            "daqing-sim replay: error: --seed needs a value, e.g. --seed VALUE "
            "(see daqing-sim replay --help)",
        ),
        (
            ["replya", "--seed", "0"],
            "daqing-sim: error: 'replya' is not a command: one of hand, bench, replay, run, tournament, "
            "advise, play, review; did you mean replay? (see daqing-sim --help)",
        ),
        (
            [],
            "daqing-sim: error: give a command: one of hand, bench, replay, run, tournament, advise, "
            "play, review (see daqing-sim --help)",
        ),
        (
            ["hand", "123m", "--jsn"],
            "daqing-sim hand: error: --jsn: no such option or argument (see daqing-sim hand --help)",
        ),
        (
            ["tournament", "greedy", "random", "random", "random"],
            "daqing-sim tournament: error: --walls is required (see daqing-sim tournament --help)",
        ),
    ],
)
def test_argparse_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], line: str) -> None:
    assert one_line_error(capsys, argv) == line


def test_replay_wrong_number_of_strategies_in_cli_words(capsys: pytest.CaptureFixture[str]) -> None:
    line = one_line_error(capsys, ["replay", "--seed", "0", "--deal", "1", "--strategies", "greedy,random"])
    assert line == (
        "daqing-sim replay: error: --strategies greedy,random names 2 players: give 4 comma-separated "
        "names, one per seat, or one for every seat, e.g. --strategies greedy,random,random,random or "
        "--strategies greedy"
    )
    line = one_line_error(
        capsys,
        ["replay", "--seed", "0", "--deal", "1", "--strategies", "greedy,,random,random"],
    )
    assert "names 4 players: give 4 comma-separated names" in line


@pytest.mark.parametrize(
    "argv, line",
    [
        (
            ["replay", "--seed", "-1", "--deal", "1"],
            "daqing-sim replay: error: --seed -1 is too small: use a whole number >= 0",
        ),
        (
            ["replay", "--seed", "0", "--deal", "1", "--dealer", "7"],
            "daqing-sim replay: error: --dealer 7 is out of range: seats are 0, 1, 2, 3",
        ),
        (
            ["tournament", "greedy", "random", "random", "random", "--walls", "5", "--seed", "-1"],
            "daqing-sim tournament: error: --seed -1 is too small: use a whole number >= 0",
        ),
    ],
)
def test_api_errors_name_the_option(capsys: pytest.CaptureFixture[str], argv: list[str], line: str) -> None:
    """An error of the function a command calls names the option, not the parameter."""
    assert one_line_error(capsys, argv) == line


def test_exit_status_2_from_the_console() -> None:
    """As the shell sees it: status 2 and one line, for a parse error and a handler's error."""
    for argv in (["run", "x.toml", "--n-deals", "1e6"], ["hand", "123m", "--win-tile", "5m"]):
        out = subprocess.run(
            [sys.executable, "-m", "daqing_sim.cli", *argv],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=300,
        )
        assert out.returncode == 2, out.stderr
        assert out.stdout == "" and len(out.stderr.splitlines()) == 1, out.stderr


def test_building_the_parsers_imports_no_feature() -> None:
    """``daqing-sim COMMAND`` imports that command's module alone before it runs it; every
    parser (``--help``, the reference) is built without numba, pandas or a feature module (the
    ``--rules`` help reads the family registry and specs, which are data)."""
    code = (
        "import sys\n"
        "from daqing_sim.cli import build_parser\n"
        "build_parser('hand')\n"
        "print(sorted(m for m in sys.modules if m.startswith('daqing_sim')))\n"
        "build_parser()\n"
        "print(sorted(m for m in sys.modules if m.startswith('daqing_sim')))\n"
        "print('numba' in sys.modules, 'pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    hand, every, heavy = out.stdout.splitlines()
    base = ["daqing_sim", "daqing_sim.cli", "daqing_sim.commands", "daqing_sim.commands.options"]
    base += ["daqing_sim.families", "daqing_sim.families.spec"]
    base += [f"daqing_sim.families.{f}{part}" for f in FAMILY_PACKAGES for part in ("", ".spec")]
    assert ast.literal_eval(hand) == sorted([*base, "daqing_sim.commands.hand"])
    assert ast.literal_eval(every) == sorted({*base, *_COMMANDS.values()})
    assert heavy == "False False"


def test_run_backends_are_the_runners() -> None:
    from daqing_sim.commands.run import BACKENDS
    from daqing_sim.experiments.runner import BACKENDS as RUNNER_BACKENDS

    assert BACKENDS == RUNNER_BACKENDS
