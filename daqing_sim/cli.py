"""The ``daqing-sim`` command line.

Each sub-command lives in the module that owns its feature and exposes
``register(subparsers)``; this file only wires them and turns expected errors into a
one-line message with exit status 2 (never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys


def add_rules_option(parser: argparse.ArgumentParser, example: str = "kong_fan=true") -> None:
    """The ``--rules FLAG=VALUE`` option every sub-command shares.

    One flag per use (repeat it, or separate flags with commas): a list-valued option would take
    the positional argument after it as one more flag.
    """
    parser.add_argument(
        "--rules",
        action="append",
        metavar="FLAG=VALUE",
        help=f"a rule flag override, e.g. {example}; repeat it (or separate with commas) for more",
    )


def rules_from_args(args: argparse.Namespace):  # -> RuleSet (imported late: keep the CLI light)
    """The :class:`~daqing_sim.rules.RuleSet` of the ``--rules`` options of ``args``."""
    from daqing_sim.rules import RuleSet

    flags = [item for group in args.rules or [] for item in group.split(",") if item.strip()]
    return RuleSet.from_flag_strings(flags)


# sub-command -> module defining register(subparsers)
_COMMANDS = {
    "hand": "daqing_sim.hand.evaluator",
    "bench": "daqing_sim.bench",
    "replay": "daqing_sim.game.replay",
    "run": "daqing_sim.experiments.cli",
    "tournament": "daqing_sim.experiments.tournament",
    "advise": "daqing_sim.advisor.cli",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every sub-command, or of ``command`` alone (its module is the only one
    imported: ``daqing-sim hand`` does not wait for the experiment runner, pandas and scipy)."""
    parser = argparse.ArgumentParser(
        prog="daqing-sim",
        description="Monte-Carlo statistics and strategy analysis for Daqing mahjong (大庆麻将).",
    )
    from daqing_sim import __version__

    parser.add_argument("--version", action="version", version=f"daqing-sim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module in _COMMANDS.items():
        if command is None or name == command:
            importlib.import_module(module).register(sub)
    return parser


def reference_markdown() -> str:
    """The CLI reference (docs/CLI.md): every sub-command and flag, generated from the parser so
    that it cannot drift from it (``python -m daqing_sim.cli --reference > docs/CLI.md``)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    lines = [
        "# daqing-sim command-line reference",
        "",
        "Generated from the argument parser by `python -m daqing_sim.cli --reference`; a test checks",
        "that this file is current. `daqing-sim COMMAND --help` prints the same.",
        "",
    ]
    helps = {a.dest: a.help for a in sub._choices_actions}
    for name, p in sub.choices.items():
        lines += [f"## `daqing-sim {name}`", "", helps.get(name) or "", ""]
        if p.description:
            lines += [" ".join(p.description.split()), ""]
        lines += ["| argument | what it is |", "| --- | --- |"]
        for a in p._actions:
            if isinstance(a, argparse._HelpAction):
                continue
            flag = ", ".join(a.option_strings) or a.metavar or a.dest
            if a.option_strings and a.nargs != 0:
                flag += f" {a.metavar or a.dest.upper()}"
            what = (a.help or "").replace("|", "\\|").replace("\n", " ")
            if a.default not in (None, False, argparse.SUPPRESS) and "default" not in what:
                what += f" (default: {a.default})"
            lines.append(f"| `{flag}` | {what % vars(a) if '%(' in what else what} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:] == ["--reference"]:
        print(reference_markdown())
        return 0
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words and words[0] in _COMMANDS else None)
    args = parser.parse_args(argv)
    try:
        result = args.func(args)
    except BrokenPipeError:  # e.g. `daqing-sim run ... --dry-run | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM during a run (runner.Interrupted)
        print(getattr(e, "line", "daqing-sim: interrupted; finished results are kept"), file=sys.stderr)
        return 128 + getattr(e, "signum", 2)
    except (ValueError, FileNotFoundError, IsADirectoryError, PermissionError) as e:
        print(f"daqing-sim {args.command}: error: {e}", file=sys.stderr)
        return 2
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
