"""A person plays one seat of a deal against the bots, in the terminal (``daqing-sim play``).

Built on :class:`~daqing_sim.game.env.DealEnv`, so the engine decides what is legal. The
suggested move at each decision is the move the family's ``expert`` would make in that seat
(:func:`suggested_move`: the built-in player's own compiled decision function, asked on the
engine's observation of the seat, i.e. on what the seat sees), so answering every question
with the suggestion plays the same deal as :func:`daqing_sim.deal_log` with an ``expert`` in
that seat.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np

from daqing_sim.codes import (
    DECISION_CLAIM,
    DECISION_DISCARD,
    FAMILY_SEATS,
    MELD_KINDS,
    PASS,
)
from daqing_sim.game.env import DealEnv
from daqing_sim.hand.notation import format_hand, hand_from_arrays
from daqing_sim.hand.tiles import counts_to_string, tile_from_name, tile_name
from daqing_sim.players.interface import Claim, Discard, Kong, Observation
from daqing_sim.rules import RuleSet

#: the built-in player whose move is suggested (and taken on an empty line)
SUGGESTING = "expert"
FAMILY_WORDS = {"daqing": "Daqing", "beijing": "Beijing", "two_player": "two-player"}
NO_REVIEW = "review: none asked for (daqing-sim play reviews your decisions at the end)"
#: ``review(game) -> (lines, extend)``: the review's lines, and what adds it to the viewer's payload
Reviewer = Callable[["PlayedGame"], tuple[list[str], Callable[[dict], dict] | None]]


def suggested_move(env: DealEnv, strategy: str = SUGGESTING) -> Discard | Claim | Kong | None:
    """The option the built-in ``strategy`` would choose at ``env``'s pending decision.

    The player's compiled decision function is called on the engine's own observation of the
    seat to act (filled by the engine for this decision: what that seat sees, nothing more),
    with the player's default knobs, exactly as the engine calls it for a seat it plays. Ask
    once per decision, before :meth:`DealEnv.observe` of another seat (which refills that
    observation): the player's own memory and random stream advance as they would at its seat.

    Returns
    -------
    Discard, Claim, Kong or None
        One of ``env.legal_actions()``; ``None`` passes a claim or declares no kong.
    """
    from daqing_sim.game.engine import C_DECISION, C_OPTS, C_TILE
    from daqing_sim.hand.tables import get_tables
    from daqing_sim.players.registry import encode_strategies, strategy_code
    from daqing_sim.players.seats import TABLE_FREE_CODES, builtin_functions

    if env.agent_selection is None:
        raise ValueError("no decision is pending: the deal is over (or reset() was not called)")
    code = strategy_code(strategy)
    if code in TABLE_FREE_CODES:
        raise ValueError(f"{strategy} plays on the engine's fast path: suggest with expert or greedy")
    family = env.rules.family
    n = FAMILY_SEATS[family]
    _, _, knobs = encode_strategies((strategy,) * n, None, family)
    kn = np.ascontiguousarray(knobs[env.agent_selection], dtype=np.float64)
    discard, claim, kong = builtin_functions(code, family)
    eng = env._engine
    tabs = get_tables()
    kind = int(eng.ctl[C_DECISION])
    options = env.legal_actions()
    if kind == DECISION_DISCARD:
        t, declare = discard(kn, eng.obs, eng.rules, tabs)
        move: Any = Discard(int(t), bool(declare))
    elif kind == DECISION_CLAIM:
        tile = int(eng.ctl[C_TILE])
        a = int(claim(kn, eng.obs, eng.rules, tabs, tile, int(eng.ctl[C_OPTS])))
        move = None if a == PASS else Claim(a, tile)
    else:
        t = int(kong(kn, eng.obs, eng.rules, tabs, eng.st.kong_opts))
        move = None if t < 0 else next((o for o in options if o.tile == t), Kong(t, False))
    if move is not None and move not in options:  # pragma: no cover - the engine would reject it too
        raise AssertionError(f"{strategy} chose {move}, not a legal option ({options}): please report it")
    return move


def option_text(option: Discard | Claim | Kong | None, decision: str, family: str) -> str:
    """An option as the question lists it (``5m``, ``5m, declaring ready``, ``peng 555m``, ``pass``)."""
    if option is None:
        return "pass" if decision == "claim" else "no kong"
    if isinstance(option, Discard):
        ready = "报听" if family == "two_player" else "ready (上听)"
        return tile_name(option.tile) + (f", declaring {ready}" if option.declare else "")
    if isinstance(option, Claim):
        if option.kind == "win":
            return f"win on {tile_name(option.tile)}"
        counts = np.zeros(34, dtype=np.uint8)
        for t in option.meld:
            counts[t] += 1
        return f"{option.kind} {counts_to_string(counts)}"
    return str(option)


@dataclass
class Question:
    """One decision of the person's seat: the options listed (``None`` last for pass / no kong)
    and the suggested one."""

    decision: str
    options: list[Any]
    suggestion: Any
    family: str

    def texts(self) -> list[str]:
        return [option_text(o, self.decision, self.family) for o in self.options]

    def read(self, text: str) -> tuple[Any, str | None]:
        """``(option, None)`` for an answer, ``(None, reason)`` for an input that is not one.

        An answer is the option's number, a tile name (a discard, or the claim/kong on that
        tile) or a word (``pass``, ``peng``, ``chi``, ``kong``, ``win``) when it names one
        option only.
        """
        text = text.strip()
        n = len(self.options)
        if text.isdigit():
            k = int(text)
            if 1 <= k <= n:
                return self.options[k - 1], None
            return None, f"{text} is not an option: choose 1-{n}"
        word = text.lower()
        if word in ("pass", "no", "none"):
            if None in self.options:
                return None, None
            return None, "you cannot pass: a discard is due; choose a tile to throw"
        texts = self.texts()
        matches = [
            i
            for i, o in enumerate(self.options)
            if o is not None and word in texts[i].split(",")[0].split(" ")
        ]
        if not matches:
            try:
                tile = tile_from_name(text, None if self.family == "daqing" else "beijing")
            except ValueError:
                return None, (
                    f"{text!r} is not an option: give a number 1-{n}, a tile name such as 5m, "
                    "? for the advisor, or an empty line for the suggested move"
                )
            matches = [i for i, o in enumerate(self.options) if o is not None and o.tile == tile]
            if self.decision == "claim":  # a tile names the claims whose meld holds it
                matches = [i for i, o in enumerate(self.options) if o is not None and tile in o.meld]
            if not matches:
                where = "in your hand to throw" if self.decision == "discard" else "among the options"
                return None, f"{tile_name(tile)} is not {where}: choose 1-{n}"
        if len(matches) > 1:
            listed = ", ".join(f"{i + 1}: {self.texts()[i]}" for i in matches)
            return None, f"{text} names {len(matches)} options ({listed}): give its number"
        return self.options[matches[0]], None


def _seat_line(obs: Observation, s: int, names: Sequence[str], you: int) -> str:
    who = "you" if s == you else names[s]
    bits = [f"seat {s} ({who}{', dealer' if s == obs.dealer else ''}{', ready' if obs.ready[s] else ''})"]
    melds = obs.melds[s]
    if melds:
        shown = []
        for m in melds:
            if m.tile < 0:
                shown.append("(concealed kong)")
            else:
                shown.append(
                    format_hand(hand_from_arrays(np.zeros(obs.n_kinds), [meld_code[m.kind]], [m.tile], 1))
                )
        bits.append("melds " + " ".join(shown))
    pond = []
    for p in obs.ponds[s]:
        name = tile_name(p.tile)
        if p.claimed_by >= 0:
            name = f"({name})"  # claimed: now in that seat's meld
        if p.declared:
            name += "*"
        pond.append(name)
    bits.append("pond " + (" ".join(pond) if pond else "-"))
    return "  ".join(bits)


meld_code = {k: i for i, k in enumerate(MELD_KINDS)}  # meld kind name -> code


def position_text(obs: Observation, names: Sequence[str], you: int) -> list[str]:
    """The table as the seat sees it, in hand notation: wall, every seat's melds and pond
    (claimed discards in brackets, the ready-declaring one starred) and the own hand."""
    lines = [
        f"wall: {obs.wall_left} tiles left" + (f"; bao {tile_name(obs.bao)}" if obs.bao is not None else "")
    ]
    for k in range(1, obs.n_seats + 1):
        lines.append("  " + _seat_line(obs, (you + k) % obs.n_seats, names, you))
    hand = obs.hand.copy()
    drawn = obs.drawn
    if obs.decision == "discard" and drawn is not None:
        hand[drawn] -= 1
    text = format_hand(hand_from_arrays(hand, [meld_code[m.kind] for m in obs.melds[you]],
                                        [m.tile for m in obs.melds[you]], len(obs.melds[you])))  # fmt: skip
    if obs.decision == "discard" and drawn is not None:
        text += f"  drew {tile_name(drawn)}"
    if obs.decision == "claim":
        text += f"  on the table: {tile_name(obs.claim_tile)}"
    lines.append(f"your hand: {text}")
    return lines


@dataclass
class PlayedGame:
    """What :func:`play_terminal` played: the env, the person's seat and every answer given
    (in order, as ``(decision, option)``)."""

    env: DealEnv
    seat: int
    names: tuple[str, ...]
    answers: list[tuple[str, Any]] = field(default_factory=list)
    suggested: int = 0  # answers that were the suggestion

    def log_frame(self):
        """The deal's event frame so far (:func:`daqing_sim.deal_log`'s schema; the end rows
        once the deal is over), from the engine's own event log."""
        from daqing_sim.game.deal_log import events_frame
        from daqing_sim.game.engine import C_N_LOG

        eng = self.env._engine
        n = int(eng.ctl[C_N_LOG])
        df = events_frame(
            eng.wall, self.env.dealer, self.env.rules.family, eng.log[:n], eng.orow,
            eng.frow if self.env.done else None,
        )  # fmt: skip
        df.attrs.update(
            seed=self.env.seed, deal=self.env.deal, dealer=self.env.dealer, strategies=list(self.names),
            family=self.env.rules.family,
        )  # fmt: skip
        return df


class _LogWriter:
    """Appends the deal's new event rows as JSON lines after every move (flushed)."""

    def __init__(self, path: str | None) -> None:
        self.file = open(path, "w", encoding="utf-8") if path else None  # noqa: SIM115 - closed in close()
        self.written = 0

    def update(self, game: PlayedGame) -> None:
        if self.file is None:
            return
        from daqing_sim.game.deal_log import to_json_lines

        lines = to_json_lines(game.log_frame())
        for line in lines[self.written :]:
            self.file.write(line + "\n")
        self.written = len(lines)
        self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def result_lines(game: PlayedGame) -> list[str]:
    """The deal's result and payments, as the text replay ends it."""
    from daqing_sim.game.replay import render

    env = game.env
    lines = render(game.log_frame(), env._engine.orow, env.rules, game.names, env.dealer, "")
    # the end of the text replay: a win (Daqing's 宝卡 says why first) or a drawn deal
    end = next(
        i
        for i, line in enumerate(lines)
        if line.startswith("WIN (") or "宝卡" in line or "nobody pays" in line
    )
    pays = ", ".join(f"seat {s} ({'you' if s == game.seat else game.names[s]}) {p:+d}"
                     for s, p in enumerate(env.payments))  # fmt: skip
    return [*lines[end:], f"result by seat: {pays}"]


class EndOfInput(Exception):
    """Input ended (EOF) before the deal did; ``game`` is what was played."""

    def __init__(self, game: PlayedGame) -> None:
        super().__init__("input ended before the deal")
        self.game = game


def play_terminal(
    seed: int,
    deal: int,
    *,
    seat: int = 0,
    rules: RuleSet = RuleSet(),
    others: Sequence[Any] | None = None,
    dealer: int = 0,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    log_path: str | None = None,
    html_path: str | None = None,
    advice: Callable[[Observation, RuleSet], list[str]] | None = None,
    review: Reviewer | None = None,
) -> PlayedGame:
    """Play seat ``seat`` of deal ``deal`` of ``seed`` from ``stdin``, writing to ``stdout``.

    Parameters
    ----------
    seed, deal, rules, dealer
        As for :class:`~daqing_sim.game.env.DealEnv`.
    seat : int
        The person's seat.
    others : sequence, optional
        The players of the other seats in seat order (default: the family's default field).
    stdin, stdout : text streams
        Default ``sys.stdin`` and ``sys.stdout``.
    log_path : str, optional
        Write the deal's event log as JSON lines (``replay --json``'s form) there, flushed after
        every move.
    html_path : str, optional
        Write the replay viewer of the deal played there at its end.
    advice : callable, optional
        ``advice(obs, rules)``: the lines ``?`` prints for the position
        (:func:`daqing_sim.advisor.position.advice_lines`, as ``daqing-sim play`` passes it).
    review : callable, optional
        ``review(game)`` at the deal's end: the lines of the review of the person's decisions
        and a function adding it to the replay page (:func:`daqing_sim.reviews.play.review_played`,
        as ``daqing-sim play`` passes it).

    Returns
    -------
    PlayedGame

    Raises
    ------
    EndOfInput
        When ``stdin`` ends before the deal (its ``game`` attribute: what was played; the log
        so far is written).
    """
    from daqing_sim.players.registry import default_field

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    n = FAMILY_SEATS[rules.family]
    if not 0 <= seat < n:
        raise ValueError(f"seat={seat} is not a seat of the {rules.family} family: use 0-{n - 1}")
    field_ = list(default_field(rules.family))
    if others is not None:
        others = list(others)
        if len(others) != n - 1:
            raise ValueError(f"others names {len(others)} players: give {n - 1}, one per other seat")
        field_ = others[:seat] + [None] + others[seat:]
    field_[seat] = None
    env = DealEnv(seed, deal, rules=rules, players=field_, dealer=dealer)
    names = tuple("you" if s == seat else env.names[s] for s in range(n))
    game = PlayedGame(env, seat, names)
    out = stdout

    def say(line: str = "") -> None:
        out.write(line + "\n")
        out.flush()

    say(f"{FAMILY_WORDS[rules.family]} deal {deal} of seed {seed}: you are seat {seat}; "
        f"the others {', '.join(f'{s} {names[s]}' for s in range(n) if s != seat)}")  # fmt: skip
    say(f"play it again: {command_line(seed, deal, seat, rules, others, dealer)}")
    say("ponds in order: (3m) a discard another seat claimed, 5p* the discard that declared ready")
    log = _LogWriter(log_path)
    obs = env.reset()
    log.update(game)
    try:
        while obs is not None:
            suggestion = suggested_move(env)
            options = list(env.legal_actions())
            if obs.decision != "discard":
                options.append(None)
            q = Question(obs.decision, options, suggestion, rules.family)
            say()
            for line in position_text(obs, names, seat):
                say(line)
            texts = q.texts()
            say(f"{obs.decision}: " + "  ".join(f"{i + 1}) {t}" for i, t in enumerate(texts)))
            shown = option_text(suggestion, obs.decision, rules.family)
            while True:
                out.write(f"your move [1-{len(options)}, a tile, ? advice, Enter = {shown}]: ")
                out.flush()
                text = stdin.readline()
                if text == "":
                    say()
                    raise EndOfInput(game)
                text = text.strip()
                if text == "":
                    move = suggestion
                    break
                if text == "?":
                    for line in advice(obs, rules) if advice else ["no advisor is connected here"]:
                        say(line)
                    continue
                move, reason = q.read(text)
                if reason is None:
                    break
                say(reason)
            game.answers.append((obs.decision, move))
            game.suggested += move == suggestion
            obs = env.step(move)
            log.update(game)
    finally:
        log.close()
    say()
    for line in result_lines(game):
        say(line)
    say(f"you took the suggested move at {game.suggested} of {len(game.answers)} decisions")
    lines, extend = review(game) if review is not None else ([NO_REVIEW], None)
    for line in lines:
        say(line)
    if html_path:
        write_html(game, html_path, extend)
        say(f"wrote {html_path} (the replay of this deal; open it in a browser)")
    return game


def command_line(
    seed: int, deal: int, seat: int, rules: RuleSet, others: Sequence[Any] | None, dealer: int
) -> str:
    """The ``daqing-sim play`` command that plays this deal again."""
    flags = {"family": rules.family} if rules.family != "daqing" else {}
    flags.update(rules.changed())
    words = [f"daqing-sim play --seed {seed} --deal {deal} --seat {seat}"]
    words += [f"--rules {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in flags.items()]
    if others is not None and all(isinstance(o, str) for o in others):
        words.append(f"--strategies {','.join(others)}")
    if dealer:
        words.append(f"--dealer {dealer}")
    return " ".join(words)


def write_html(game: PlayedGame, path: str, extend: Callable[[dict], dict] | None = None) -> str:
    """Write the replay viewer of the deal played (``ds.replay_html``'s page) to ``path``;
    ``extend(payload)`` adds to the page (the review of the person's decisions)."""
    from daqing_sim.game.replay_html import payload_of_log, write_page

    payload = payload_of_log(game.log_frame(), game.env._engine.orow, game.env.rules)
    payload["subtitle"] += f"; played by a person at seat {game.seat}"
    return write_page(extend(payload) if extend is not None else payload, path)


def json_log_lines(game: PlayedGame) -> list[str]:
    """The deal's event log so far as JSON lines (``replay --json``'s form)."""
    from daqing_sim.game.deal_log import to_json_lines

    return to_json_lines(game.log_frame())


__all__ = [
    "suggested_move",
    "play_terminal",
    "PlayedGame",
    "Question",
    "EndOfInput",
    "option_text",
    "position_text",
    "command_line",
    "json_log_lines",
    "NO_REVIEW",
]
