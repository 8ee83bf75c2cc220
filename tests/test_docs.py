"""The documentation runs as written: the code blocks of docs/PLAYERS.md, the README and the guides
(docs/GUIDE.md), with smaller sizes; the front page names every notebook, experiment file and
sub-command and carries the headline answers exactly as tools/results_section.py writes them."""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "PLAYERS.md"
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "GUIDE.md"

# Smaller sizes for the README's and the guide's examples: each must occur in its file, so a
# renamed size is noticed instead of run at full size. A block opened as ```python no-run is skipped.
SMALL = {
    README: {"ds.simulate(2_000,": "ds.simulate(60,"},
    GUIDE: {
        "    10_000,": "    60,",
        "n_deals=2_000": "n_deals=40",
        "n_walls=2_000": "n_walls=6",
        "n_sims=2000": "n_sims=12",
        "ds.simulate(200,": "ds.simulate(30,",
    },
}


def _blocks(text: str, lang: str = "python") -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def _results_section():
    spec = importlib.util.spec_from_file_location("results_section", ROOT / "tools" / "results_section.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_players_guide_examples_run():
    blocks = _blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) == 3
    # a script's own namespace: classes defined there go to workers by value, as in a user's script
    ns: dict = {"__name__": "__main__"}
    small = {"ds.simulate(1_000,": "ds.simulate(40,", "ds.simulate(10_000,": "ds.simulate(200,"}
    labels = []
    for code in blocks:
        for big, few in small.items():
            code = code.replace(big, few)
        exec(compile(code, str(DOC), "exec"), ns)
        labels.append(tuple(ns["df"]["strategy_0"].astype(str).unique()))
    assert labels[:2] == [("cautious",), ("folder",)]  # the Python player ran with n_jobs=2
    assert ns["env"].done and sum(ns["env"].payments) == 0


@pytest.mark.parametrize("path", [README, GUIDE], ids=["README", "GUIDE"])
def test_examples_run_as_written(path, tmp_path, monkeypatch):
    """Each python block runs in a fresh namespace, in a temporary directory holding a copy of
    experiments/ (so quick runs write there, never into the repository's results/)."""
    text = path.read_text(encoding="utf-8")
    blocks = _blocks(text)
    assert blocks, f"{path.name} has no python example"
    for big in SMALL[path]:
        assert big in text, f"{path.name} no longer holds {big!r}: update SMALL in this test"
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    monkeypatch.chdir(tmp_path)
    spaces = []
    for code in blocks:
        for big, few in SMALL[path].items():
            code = code.replace(big, few)
        ns: dict = {"__name__": "__main__"}
        exec(compile(code, str(path), "exec"), ns)
        spaces.append(ns)
    if path == README:
        assert spaces[0]["a"].ready and len(spaces[0]["df"]) == 60
    else:
        names = [set(ns) for ns in spaces]
        assert any("t" in n and "entrants" in n for n in names)  # the tournament ran
        w = next(ns["w"] for ns in spaces if "beijing" in ns)
        assert w.total_fans > 0  # a Beijing win was scored
        df = next(ns["df"] for ns in spaces if "an" in ns)
        assert df["variant"].nunique() > 1  # the quick experiment ran every variant
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
