"""The family registry and specs (issue 35): each family is a package, its spec is what the rest
of the package reads, and what is derived from a spec agrees with what the family plays."""

from __future__ import annotations

import pytest

import daqing_sim as ds
from daqing_sim import rules as R
from daqing_sim.families import FAMILY_PACKAGES, family_module, family_spec
from daqing_sim.families.beijing import hand as bj_hand
from daqing_sim.families.two_player import hand as tp_hand
from daqing_sim.hand import fan_names

FAMILIES = tuple(FAMILY_PACKAGES)


def test_unknown_family_is_a_one_line_error():
    with pytest.raises(
        ValueError, match="unknown rule family 'riichi': use one of daqing, beijing, two_player"
    ):
        family_spec("riichi")
    with pytest.raises(ValueError, match="not a Beijing flag; Beijing flags: multiple_winners"):
        family_spec("beijing").flag("kong_fan")
    with pytest.raises(ValueError, match="not a two-player fan"):
        family_spec("two_player").fan("dragon")


@pytest.mark.parametrize("family", FAMILIES)
def test_flags_are_the_rule_sets(family):
    """The spec's flags are RuleSet's fields of the family, in encoding order, with its
    defaults, and each ``R_*`` index is the flag's place in ``encode()``."""
    spec = family_spec(family)
    rules = ds.RuleSet(family=family)
    assert spec.flag_names == ds.RuleSet.flag_names(family)
    for flag in spec.flags:
        assert getattr(rules, flag.name) == flag.default, flag.name
        assert type(flag.default) is type(getattr(rules, flag.name))
        assert flag.domain and flag.doc and "\n" not in flag.doc
        offset = getattr(R, f"R_{flag.name.upper()}")
        assert R.ENCODING[offset] == flag.name
    encoded = ds.RuleSet(family=family).encode()
    assert encoded[R.R_FAMILY] == FAMILIES.index(family)


@pytest.mark.parametrize("family", FAMILIES)
def test_seats_kinds_players_and_field(family):
    from daqing_sim.codes import FAMILIES as CODE_FAMILIES
    from daqing_sim.codes import FAMILY_KINDS, FAMILY_SEATS
    from daqing_sim.players.registry import default_field

    spec = family_spec(family)
    assert spec.seats == FAMILY_SEATS[family]
    assert spec.kinds == FAMILY_KINDS[CODE_FAMILIES.index(family)] == ds.RuleSet(family=family).n_kinds
    assert spec.default_field == default_field(family)
    assert set(spec.default_field) <= set(spec.players)
    # every player the spec names plays a deal of the family
    df = ds.simulate(4, rules=ds.RuleSet(family=family), strategies=spec.players[:1] * spec.seats, seed=2)
    assert len(df) == 4


def test_fan_tables_come_from_the_specs():
    bj, tp = family_spec("beijing"), family_spec("two_player")
    assert bj_hand.FAN_NAMES == tuple(f.code for f in bj.fans)
    # Beijing's fan values are the classic fans_<code> flags
    for fan in bj.fans:
        assert bj.flag(f"fans_{fan.code}").default == fan.value
    assert tp_hand.FAN_NAMES == tuple(f.code for f in tp.fans)
    assert tp_hand.FAN_VALUES.tolist() == [f.value for f in tp.fans]
    assert tp_hand.N_PATTERNS == sum(f.value > 0 for f in tp.fans)  # the limit hands come last
    assert fan_names.BEIJING == {f.code: f.zh for f in bj.fans if f.zh}
    assert len(fan_names.TWO_PLAYER) == len(tp.fans)
    for spec in (bj, tp, family_spec("daqing")):
        assert len({f.code for f in spec.fans}) == len(spec.fans)
        assert all(f.en for f in spec.fans)


@pytest.mark.parametrize("family", FAMILIES)
def test_frame_columns_are_the_specs(family):
    """A run's frame has the spec's columns in its order (the flower columns only as many as the
    run turned up; ``winner_hand`` with ``record_hands``)."""
    spec = family_spec(family)
    df = ds.simulate(30, rules=ds.RuleSet(family=family), strategies=("random",) * spec.seats, seed=4)
    declared = spec.frame_columns()
    assert [c for c in declared if c in df.columns] == list(df.columns)
    missing = [c for c in declared if c not in df.columns]
    assert all(c.startswith("flower_") for c in missing), missing
    frame = family_module(family, "frame")
    assert frame.__name__ == f"daqing_sim.families.{family}.frame"


def test_headlines_are_the_specs():
    from daqing_sim.analysis import summary

    assert summary.HEADLINE == family_spec("daqing").headline
    assert summary.BEIJING_HEADLINE == family_spec("beijing").headline
    assert summary.TWO_PLAYER_HEADLINE == family_spec("two_player").headline


def test_layout_constants_are_the_layouts_offsets():
    from daqing_sim import layout as L

    assert L.O_PAY == L.RESULT_ROW.offset("pay") and L.C_LEGAL == L.CONTROL.offset("legal")
    for layout, prefix in ((L.RESULT_ROW, "O_"), (L.CONTROL, "C_"), (L.PUBLIC_VIEW, "P_")):
        for name, _ in layout.fields:
            assert getattr(L, prefix + name.upper()) == layout.offset(name)


def test_design_tables_are_current():
    """docs/DESIGN.md's family tables are the specs' (rewrite them with tools/family_tables.py)."""
    from pathlib import Path

    from daqing_sim.families.docs import END, START, tables_markdown

    text = (Path(__file__).parent.parent / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    i, j = text.index(START), text.index(END) + len(END)
    assert text[i:j] == tables_markdown()
    assert "| 一条龙 | `dragon` | pure straight | 3 |" in text


def test_summaries_reach_each_family_through_its_metrics_module():
    """``summarize`` calls the family's ``metrics`` module; the registries keep their old names."""
    from daqing_sim.analysis import summary

    assert summary.SUMMARY_METRICS is family_module("daqing", "metrics").SUMMARY_METRICS
    assert summary.BEIJING_SUMMARY_METRICS is family_module("beijing", "metrics").BEIJING_SUMMARY_METRICS
    tp = family_module("two_player", "metrics")
    assert summary.TWO_PLAYER_SUMMARY_METRICS is tp.TWO_PLAYER_SUMMARY_METRICS
    df = ds.simulate(40, rules=ds.RuleSet(family="two_player"), strategies=("random",) * 2, seed=6)
    rows = summary.summarize(df)
    assert rows["metric"].iloc[0] == "family_two_player"
    assert rows.iloc[1:].reset_index(drop=True).equals(tp.summarize(df, None))
    assert set(tp.plots(df)) == {"two_player_patterns.png", "two_player_deal_length.png"}


def test_the_players_modules_list_the_specs_players():
    for family in ("beijing", "two_player"):
        assert family_module(family, "players").PLAYERS == family_spec(family).players
