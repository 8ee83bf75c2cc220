"""Python players named ``"module:Class"`` in experiment files and seat lists."""

from __future__ import annotations

import textwrap

import pytest

import daqing_sim as ds
from daqing_sim.experiments.config import load_experiment

PLAYER_SOURCE = '''
import daqing_sim as ds


class Cautious(ds.Player):
    """Throws the tile it holds most of; claims and kongs as greedy (the defaults)."""

    name = "cautious"

    def discard(self, obs):
        return max(obs.legal_discards, key=lambda o: (o.declare, obs.hand[o.tile]))
'''


def _files(tmp_path, strategies, module="plug_players_a"):
    (tmp_path / f"{module}.py").write_text(PLAYER_SOURCE)
    toml = tmp_path / "exp.toml"
    toml.write_text(
        textwrap.dedent(
            f"""
            name = "plug"
            n_deals = 40
            seed = 3
            chunk_size = 20
            [[variants]]
            name = "mix"
            strategies = {strategies}
            """
        )
    )
    return toml


def test_module_class_players_run_from_toml(tmp_path):
    toml = _files(tmp_path, '["plug_players_a:Cautious", "greedy", "greedy", "greedy"]')
    exp = load_experiment(toml)
    ds.run_experiment(exp, out=tmp_path / "res", n_jobs=1, summary=False, progress=False)
    df = ds.load_results(tmp_path / "res" / "plug")
    assert len(df) == 40 and (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()
    assert set(df["strategy_0"].astype(str)) == {"cautious"}
    direct = ds.simulate(40, strategies=("plug_players_a:Cautious", "greedy", "greedy", "greedy"), seed=3)
    assert (direct["pay_0"].to_numpy() == df.sort_values("deal")["pay_0"].to_numpy()).all()


def test_a_changed_player_changes_the_chunk_identity(tmp_path):
    toml = _files(tmp_path, '["plug_players_b:Cautious", "greedy", "greedy", "greedy"]', "plug_players_b")
    exp = load_experiment(toml)
    before = exp.chunk_identity(exp.variants[0])
    (tmp_path / "plug_players_b.py").write_text(PLAYER_SOURCE + "\n# tuned\n")
    after = exp.chunk_identity(exp.variants[0])
    assert before["player_sources"] != after["player_sources"]


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("no_such_module_zz:Cautious", "no module 'no_such_module_zz'"),
        ("plug_players_c:Nope", "has no ds.Player subclass or JittedPlayer named 'Nope'"),
        ("plug_players_c:", "must be written 'module:Class'"),
    ],
)
def test_unknown_module_or_class_is_a_config_error(tmp_path, entry, words):
    toml = _files(tmp_path, f'["{entry}", "greedy", "greedy", "greedy"]', "plug_players_c")
    with pytest.raises(ValueError) as err:
        load_experiment(toml)
    msg = str(err.value)
    assert words in msg and "exp.toml" in msg and "strategies" in msg and "\n" not in msg
