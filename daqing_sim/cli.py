"""The ``daqing-sim`` command line.

Each sub-command is one module of :mod:`daqing_sim.commands` exposing ``register(subparsers)``
(its parser and handler); this file only wires them, importing the named command's module alone,
and turns every expected error into one line with exit status 2 (never a traceback or a usage
block): argparse's own errors too, in the words of the command line, with a pointer to
``--help``.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import re
import sys
from typing import NoReturn

# sub-command -> module defining register(subparsers)
_COMMANDS = {
    "hand": "daqing_sim.commands.hand",
    "bench": "daqing_sim.commands.bench",
    "replay": "daqing_sim.commands.replay",
    "run": "daqing_sim.commands.run",
    "tournament": "daqing_sim.commands.tournament",
    "advise": "daqing_sim.commands.advise",
    "play": "daqing_sim.commands.play",
    "review": "daqing_sim.commands.review",
}


def _quoted(text: str) -> list[str]:
    return re.findall(r"'([^']*)'", text)


def cli_error(message: str) -> str:
    """An argparse error message in the words of the command line (one line).

    >>> cli_error("argument --n-deals: invalid int value: '1e6'")
    '--n-deals 1e6 is not a whole number: write it in digits, --n-deals 1000000'
    >>> cli_error("argument --method: invalid choice: 'simulat' (choose from 'exact', 'simulate')")
    '--method simulat is not one of exact, simulate: did you mean --method simulate?'
    >>> cli_error("the following arguments are required: --seed, --deal")
    '--seed and --deal are required'
    """
    m = re.fullmatch(r"argument (\S+): invalid (int|float) value: '(.*)'", message)
    if m:
        option, kind, value = m.groups()
        what = "a whole number" if kind == "int" else "a number"
        try:
            number = float(value)
        except ValueError:
            number = None
        if kind == "int" and number is not None and number.is_integer() and abs(number) < 1e18:
            return f"{option} {value} is not {what}: write it in digits, {option} {int(number)}"
        return f"{option} {value!r} is not {what}, e.g. {option} 100"
    m = re.fullmatch(r"argument (\S+): invalid choice: '(.*?)' \(choose from (.*)\)", message)
    if m:
        option, value, choices = m[1], m[2], _quoted(m[3])
        close = difflib.get_close_matches(value, choices, n=1)
        if option == "COMMAND":
            head = f"{value!r} is not a command: one of {', '.join(choices)}"
            return head + (f"; did you mean {close[0]}?" if close else "")
        head = f"{option} {value} is not one of {', '.join(choices)}"
        return head + (f": did you mean {option} {close[0]}?" if close else "")
    m = re.fullmatch(r"the following arguments are required: (.*)", message)
    if m:
        names = [n.strip() for n in m[1].split(",")]
        if names == ["COMMAND"]:
            return f"give a command: one of {', '.join(_COMMANDS)}"
        return f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} required"
    m = re.fullmatch(r"argument (\S+): expected one argument", message)
    if m:
        return f"{m[1]} needs a value, e.g. {m[1]} VALUE"
    m = re.fullmatch(r"unrecognized arguments: (.*)", message)
    if m:
        return f"{m[1]}: no such option or argument"
    return re.sub(r"^argument (\S+): ", r"\1: ", message)


def option_words(message: str, parser: argparse.ArgumentParser) -> str:
    """An error of the API in the words of ``parser``'s command line: a parameter written as
    ``name=value`` (or ``name=``) that one of its options sets becomes ``--name value``.

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--seed", type=int)
    >>> option_words("seed=-1 is too small: use a whole number >= 0", p)
    '--seed -1 is too small: use a whole number >= 0'
    """
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if longs and action.dest != "help":
            message = re.sub(rf"\b{action.dest}=(?=[^\s=])", f"{longs[0]} ", message)
            message = re.sub(rf"\b{action.dest}=", longs[0], message)
    return message


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line with a pointer to ``--help`` (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {cli_error(message)} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every sub-command, or of ``command`` alone (its module is the only one
    imported: ``daqing-sim hand`` does not wait for the experiment runner, pandas and scipy)."""
    parser = _Parser(
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
    """Run ``daqing-sim`` with ``argv`` (default: the process's arguments); the exit status."""
    if argv is None and sys.argv[1:] == ["--reference"]:
        print(reference_markdown())
        return 0
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words and words[0] in _COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = commands.choices[args.command]
    if extra:  # reported by the command's own parser, which knows its options
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        result = args.func(args)
    except BrokenPipeError:  # e.g. `daqing-sim run ... --dry-run | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM during a run (runner.Interrupted)
        print(getattr(e, "line", "daqing-sim: interrupted; finished results are kept"), file=sys.stderr)
        return 128 + getattr(e, "signum", 2)
    except (ValueError, FileNotFoundError, IsADirectoryError, PermissionError) as e:
        print(f"daqing-sim {args.command}: error: {option_words(str(e), command)}", file=sys.stderr)
        return 2
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
