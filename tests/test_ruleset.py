"""RuleSet (daqing_sim/rules.py): defaults, validation, TOML loading, numeric encoding."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import daqing_sim.rules as rules_module
from daqing_sim.rules import N_RULE_FIELDS, RuleSet, unrestricted

# The rule-flag table of the rules specification, written out: flag -> classic default.
FLAG_TABLE = {
    "bao_replacement": True,
    "bao_kan_instant": False,
    "kong_fan": False,
    "chi_any_seat_for_ready": False,
    "jia_includes_edge": False,
    "jia_includes_single": False,
    "require_open": True,
    "require_two_suits": True,
    "require_terminal": True,
    "require_triplet": True,
    "require_sequence": True,
    "dragon_waives_sequence": False,
    "min_concealed_at_ready": 4,
    "last_tiles_no_claim": 4,
    "lock_after_ready": True,
}
BOOL_FLAGS = [k for k, v in FLAG_TABLE.items() if isinstance(v, bool)]
INT_FLAGS = [k for k, v in FLAG_TABLE.items() if not isinstance(v, bool)]


def _non_default(name):
    default = FLAG_TABLE[name]
    return (not default) if isinstance(default, bool) else default + 1


def test_defaults_equal_flag_table():
    rules = RuleSet()
    assert set(RuleSet.flag_names()) == set(FLAG_TABLE)
    for name, default in FLAG_TABLE.items():
        value = getattr(rules, name)
        assert value == default and type(value) is type(default), name
    assert rules.to_dict() == FLAG_TABLE
    assert rules.changed() == {}


def test_encode_order_matches_r_constants():
    # Daqing's flags come first, in their old order (then the family, Beijing's and two-player's)
    assert RuleSet.flag_names() == tuple(FLAG_TABLE)
    others = len(RuleSet.flag_names("beijing")) + len(RuleSet.flag_names("two_player"))
    assert N_RULE_FIELDS == len(FLAG_TABLE) + 1 + others
    base = RuleSet().encode()
    assert base.dtype == np.int64 and base.shape == (N_RULE_FIELDS,)
    seen = set()
    for name in FLAG_TABLE:
        index = getattr(rules_module, "R_" + name.upper())
        seen.add(index)
        assert base[index] == int(FLAG_TABLE[name]), name
        changed = RuleSet(**{name: _non_default(name)}).encode()
        assert changed[index] == int(_non_default(name)), name
        # nothing else moves
        assert np.flatnonzero(changed != base).tolist() == [index], name
    assert seen == set(range(len(FLAG_TABLE)))


def test_encode_of_integer_flags():
    enc = RuleSet(min_concealed_at_ready=7, last_tiles_no_claim=0).encode()
    assert enc[rules_module.R_MIN_CONCEALED_AT_READY] == 7
    assert enc[rules_module.R_LAST_TILES_NO_CLAIM] == 0


def test_from_dict_overrides_and_none():
    rules = RuleSet.from_dict({"kong_fan": True, "min_concealed_at_ready": 1})
    assert rules.kong_fan and rules.min_concealed_at_ready == 1
    assert rules.changed() == {"kong_fan": True, "min_concealed_at_ready": 1}
    assert RuleSet.from_dict(None) == RuleSet() == RuleSet.from_dict({})


def test_from_dict_rejects_unknown_flags_listing_valid_ones():
    with pytest.raises(ValueError, match="unknown rule flag") as info:
        RuleSet.from_dict({"kong_fans": True, "bao": 1}, where="exp.toml [rules]")
    message = str(info.value)
    assert "bao, kong_fans" in message
    assert "exp.toml [rules]" in message
    for name in FLAG_TABLE:
        assert name in message.split("valid flags:")[1]


@pytest.mark.parametrize("name", BOOL_FLAGS)
@pytest.mark.parametrize("bad", [1, 0, "true", None, 1.0])
def test_bool_flags_reject_other_types(name, bad):
    with pytest.raises(ValueError, match=f"rule flag {name} must be true or false"):
        RuleSet(**{name: bad})
    with pytest.raises(ValueError, match=r"must be true or false.*\(in somewhere\)"):
        RuleSet.from_dict({name: bad}, where="somewhere")


@pytest.mark.parametrize("name", INT_FLAGS)
@pytest.mark.parametrize("bad", [True, 4.0, "4", None])
def test_int_flags_reject_other_types(name, bad):
    with pytest.raises(ValueError, match=f"rule flag {name} must be a whole number"):
        RuleSet(**{name: bad})


def test_numpy_scalars_accepted():
    rules = RuleSet(kong_fan=np.bool_(True), min_concealed_at_ready=np.int64(5))
    assert rules.encode()[rules_module.R_KONG_FAN] == 1
    assert rules.encode()[rules_module.R_MIN_CONCEALED_AT_READY] == 5


@pytest.mark.parametrize(
    "flags, match",
    [
        ({"min_concealed_at_ready": 0}, r"min_concealed_at_ready=0 is impossible.*1 to 13"),
        ({"min_concealed_at_ready": 14}, r"min_concealed_at_ready=14 is impossible"),
        ({"min_concealed_at_ready": -4}, r"min_concealed_at_ready=-4 is impossible"),
        ({"last_tiles_no_claim": -1}, r"last_tiles_no_claim=-1 is impossible.*0 .* to 58"),
        ({"last_tiles_no_claim": 59}, r"last_tiles_no_claim=59 is impossible"),
    ],
)
def test_impossible_values(flags, match):
    with pytest.raises(ValueError, match=match):
        RuleSet(**flags)


@pytest.mark.parametrize(
    "flags",
    [
        {"min_concealed_at_ready": 1},
        {"min_concealed_at_ready": 13},
        {"last_tiles_no_claim": 0},
        {"last_tiles_no_claim": 58},
    ],
)
def test_extreme_valid_values(flags):
    assert RuleSet(**flags).changed() == flags


def test_frozen_and_replace():
    rules = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.kong_fan = True
    other = rules.replace(kong_fan=True, bao_replacement=False)
    assert other.changed() == {"kong_fan": True, "bao_replacement": False}
    assert rules.kong_fan is False
    with pytest.raises(ValueError, match="unknown rule flag.*kongfan"):
        rules.replace(kongfan=True)
    with pytest.raises(ValueError, match="min_concealed_at_ready=0 is impossible"):
        rules.replace(min_concealed_at_ready=0)


def test_equal_rulesets_hash_equal():
    assert RuleSet(kong_fan=True) == RuleSet.from_dict({"kong_fan": True})
    assert hash(RuleSet(kong_fan=True)) == hash(RuleSet.from_dict({"kong_fan": True}))
    assert RuleSet(kong_fan=True) != RuleSet()


def test_from_toml_rules_table(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(
        '[experiment]\nname = "x"\n\n[rules]\nbao_replacement = false\nmin_concealed_at_ready = 3\n',
        encoding="utf-8",
    )
    rules = RuleSet.from_toml(path)
    assert rules.changed() == {"bao_replacement": False, "min_concealed_at_ready": 3}
    assert RuleSet.from_toml(str(path)) == rules


def test_from_toml_top_level_and_missing_table(tmp_path):
    path = tmp_path / "flags.toml"
    path.write_text("kong_fan = true\njia_includes_edge = true\n", encoding="utf-8")
    assert RuleSet.from_toml(path, table=None).changed() == {"kong_fan": True, "jia_includes_edge": True}
    # no [rules] table: the classic defaults
    assert RuleSet.from_toml(path) == RuleSet()


def test_from_toml_errors_name_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[rules]\nkong_fan = 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"kong_fan must be true or false.*bad\.toml \[rules\]"):
        RuleSet.from_toml(path)
    path.write_text("[rules]\nkong_fans = true\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"unknown rule flag\(s\) kong_fans in .*bad\.toml \[rules\]; valid"):
        RuleSet.from_toml(path)
    path.write_text("[rules\nkong_fan = true\n", encoding="utf-8")
    with pytest.raises(ValueError):  # tomllib.TOMLDecodeError is a ValueError
        RuleSet.from_toml(path)
    with pytest.raises(FileNotFoundError):
        RuleSet.from_toml(tmp_path / "missing.toml")


def test_from_toml_rules_not_a_table(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("rules = 3\n", encoding="utf-8")
    with pytest.raises(ValueError, match="bad.toml"):
        RuleSet.from_toml(path)


def test_unrestricted_turns_restrictions_off():
    rules = unrestricted()
    for name in (
        "require_open",
        "require_two_suits",
        "require_terminal",
        "require_triplet",
        "require_sequence",
    ):
        assert getattr(rules, name) is False
    assert rules.min_concealed_at_ready == 1
    # scoring and bao options stay classic
    for name in ("bao_replacement", "bao_kan_instant", "kong_fan", "jia_includes_edge"):
        assert getattr(rules, name) == FLAG_TABLE[name]


def test_misspelt_flag_in_the_constructor_lists_the_valid_flags() -> None:
    with pytest.raises(
        ValueError, match="unknown rule flag.*kong_fun; valid flags: bao_replacement.*kong_fan"
    ):
        RuleSet(kong_fun=True)
    with pytest.raises(ValueError, match="name them"):
        RuleSet(*([True] * 16))
    assert RuleSet(kong_fan=True).kong_fan  # the right spelling still works


def test_encode_is_cached_but_callers_get_their_own_copy():
    rules = RuleSet(kong_fan=True)
    first = rules.encode()
    first[rules_module.R_KONG_FAN] = 0  # a caller scribbling on its array
    again = rules.encode()
    assert again[rules_module.R_KONG_FAN] == 1 and again is not first
    assert RuleSet(kong_fan=True) == rules and hash(RuleSet(kong_fan=True)) == hash(rules)
