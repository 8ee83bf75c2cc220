"""Hand evaluation: shanten, Daqing wait sets, readiness and win checks.

Thin, validated Python around the jitted kernels of :mod:`daqing_sim.hand.kernels`.

Examples
--------
>>> import daqing_sim as ds
>>> a = ds.analyze_hand("23m456p789s中中 [345m]")
>>> a.ready, [str(w) for w in a.waits]
(True, ['1m:two_sided', '4m:two_sided'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from daqing_sim.codes import BAO_KINDS, N_KINDS, N_KINDS_ALL, WAIT_KINDS
from daqing_sim.compile_notice import announce
from daqing_sim.hand import kernels as K
from daqing_sim.hand.notation import Hand, parse_hand
from daqing_sim.hand.tables import get_tables
from daqing_sim.hand.tiles import family_title, tile_name
from daqing_sim.rules import RuleSet


@dataclass(frozen=True)
class Wait:
    """One winning tile of a ready hand."""

    tile: str
    kind: str
    big: bool
    tile_kind: int = field(repr=False, default=-1)

    def __str__(self) -> str:
        return f"{self.tile}:{self.kind}" + (" (big)" if self.big else "")


@dataclass(frozen=True)
class HandAnalysis:
    """What :func:`analyze_hand` finds.

    ``shanten`` is the Daqing-constrained shanten (0 = a non-empty wait set, -1 = a winning
    14-tile hand), ``standard_shanten`` the unrestricted one. ``ready`` also needs the right to
    declare (open door, enough concealed tiles). For a 14-tile hand, ``is_win`` tells whether
    ``win_tile`` is in the wait set of the other 13 tiles, and ``win`` gives its :class:`Wait`;
    like the wait set it does not check open door and 手把一 (``may_declare`` does: a player
    can only have declared ready, and so win, when that is true as well).
    """

    hand: Hand
    rules: RuleSet
    shanten: int
    standard_shanten: int
    may_declare: bool
    waits: tuple[Wait, ...]
    win_tile: str | None = None
    win: Wait | None = None
    bao_kind: str = "none"
    no_win_reason: str | None = None  # a 14-tile hand that does not win: why

    @property
    def ready(self) -> bool:
        return bool(self.waits) and self.may_declare and self.hand.size == 13

    @property
    def is_win(self) -> bool:
        return self.win is not None

    def to_dict(self) -> dict:
        d = {
            "hand": str(self.hand),
            "tiles": self.hand.size,
            "shanten": self.shanten,
            "standard_shanten": self.standard_shanten,
            "may_declare": self.may_declare,
            "ready": self.ready,
            "waits": [{"tile": w.tile, "kind": w.kind, "big": w.big} for w in self.waits],
        }
        if self.hand.size == 14:
            d["win_tile"] = self.win_tile
            d["is_win"] = self.is_win
            d["win"] = (
                None
                if self.win is None
                else {"tile": self.win.tile, "kind": self.win.kind, "big": self.win.big, "bao": self.bao_kind}
            )
            if self.no_win_reason is not None:
                d["no_win_reason"] = self.no_win_reason
        return d

    def __str__(self) -> str:
        lines = [
            f"hand:             {self.hand}",
            f"shanten:          {self.shanten} ({_capital(family_title(self.rules.family))}), "
            f"{self.standard_shanten} (standard)",
        ]
        daqing = self.rules.family == "daqing"
        if self.hand.size == 13:
            if daqing:
                lines.append(f"may declare:      {'yes' if self.may_declare else 'no'}")
            lines.append(f"ready:            {'yes' if self.ready else 'no'}" + ("" if daqing else " (听牌)"))
            waits = ", ".join(str(w) for w in self.waits) or "none"
            lines.append(f"waits:            {waits}")
        else:
            if self.win is None:
                lines.append(f"win on {self.win_tile}:        no, {self.no_win_reason}")
            elif not daqing:
                lines.append(f"win on {self.win_tile}:        yes, {self.win.kind}")
            else:
                size = "big (夹)" if self.win.big else "small"
                bao = "" if self.bao_kind == "none" else f", {self.bao_kind} (bao as {self.win.tile})"
                shape = f"{self.win.kind}, {size}{bao}"
                if self.may_declare:
                    lines.append(f"win on {self.win_tile}:        yes, {shape}")
                else:  # a winning shape the holder may not declare is no win
                    held = f"no: it cannot be won as held (the shape would be {shape})"
                    lines.append(f"win on {self.win_tile}:        {held}")
                    lines.append(f"may declare:      no, {self._why_not_declare()}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from daqing_sim.render.table import analysis_html  # drawing stays out of this module's import

        return analysis_html(self)

    def _why_not_declare(self) -> str:
        opened = any(m.exposed for m in self.hand.melds)
        if opened or not self.rules.require_open:
            return f"fewer than {self.rules.min_concealed_at_ready} concealed tiles would stay (手把一)"
        return "the door is closed: open it (开门) with a chi, peng or exposed kong first"  # RULES: 开门


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _tables():
    """The lookup tables, the first time with a word when the hand kernels will compile."""
    announce("hand")
    return get_tables()


def _as_hand(hand: Hand | str, rules: RuleSet | None = None) -> Hand:
    """The hand with counts of the rules' family (a Daqing hand is a Beijing hand too)."""
    n_kinds = N_KINDS if rules is None else rules.n_kinds
    if isinstance(hand, Hand):
        return hand.with_kinds(n_kinds)
    return parse_hand(hand, family="daqing" if rules is None else rules.family)


def _check_full(hand: Hand, what: str) -> None:
    # a Hand parsed with require_full=False reaches here with any size
    if hand.size not in (13, 14):
        raise ValueError(f"{what} needs a 13- or 14-tile hand; {hand} has {hand.size} tiles")


_CLASSIC = RuleSet()


def _rules(rules: RuleSet | None) -> RuleSet:
    if rules is None:
        return _CLASSIC
    if not isinstance(rules, RuleSet):
        raise ValueError(f"rules must be a RuleSet, not {type(rules).__name__}")
    return rules


def _check_counts(counts: np.ndarray) -> np.ndarray:
    arr = np.asarray(counts)
    if arr.ndim not in (1, 2) or arr.shape[-1] != N_KINDS:
        raise ValueError(f"counts must have shape (28,) or (n, 28), not {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 4):
        raise ValueError(_RANGE_ERROR)
    sums = arr.sum(axis=-1)
    if np.any(sums % 3 == 0) or np.any(sums > 14):
        raise _size_error(sums)
    return arr.astype(np.uint8, copy=False)


_RANGE_ERROR = "counts must be between 0 and 4 (four copies of each tile)"


def _size_error(sums: np.ndarray) -> ValueError:
    return ValueError(
        "each hand needs 3k+1 or 3k+2 tiles (at most 14), e.g. 13 or 14; "
        f"got tile counts {sorted(set(np.atleast_1d(sums).tolist()))}"
    )


def _std_shanten_uint8_batch(arr: np.ndarray) -> np.ndarray:
    """A ``(n, 28)`` uint8 batch at kernel speed: counts and sizes are checked inside the
    kernel's own pass, four tiles at a time (a numpy ``max`` first would cost about 8 %)."""
    arr = np.ascontiguousarray(arr)
    if arr.ctypes.data % 4:  # the kernel reads rows as uint32 words
        arr = arr.copy()
    out = np.empty(arr.shape[0], dtype=np.int8)
    if K.std_shanten_checked_batch_k(arr, arr.view(np.uint32), _tables(), out):
        if arr.max() > 4:
            raise ValueError(_RANGE_ERROR)
        raise _size_error(arr.sum(axis=-1, dtype=np.int64))
    return out


def standard_shanten(counts) -> int | np.ndarray:
    """Unrestricted four-melds-plus-pair shanten (0 = ready, -1 = complete).

    Parameters
    ----------
    counts : array_like
        A ``(28,)`` count vector, or a batch ``(n, 28)``, of 3k+1 or 3k+2 tiles each.

    Returns
    -------
    int or numpy.ndarray
        An ``int`` for one hand, an ``int8`` array for a batch.

    Examples
    --------
    >>> import daqing_sim as ds
    >>> ds.standard_shanten(ds.parse_hand("123m456p789s11m中中中").counts)
    -1
    """
    if (
        isinstance(counts, np.ndarray)
        and counts.dtype == np.uint8
        and counts.ndim == 2
        and counts.shape[1] == N_KINDS
    ):
        return _std_shanten_uint8_batch(counts)
    arr = _check_counts(counts)
    tabs = _tables()
    if arr.ndim == 1:
        return int(K.std_shanten_k(arr, tabs))
    out = np.empty(arr.shape[0], dtype=np.int8)
    K.std_shanten_batch_k(np.ascontiguousarray(arr), tabs, out)
    return out


def _kernel_wait_set(hand: Hand, rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    kinds, tiles, n = hand.meld_arrays()
    out_kind = np.empty(N_KINDS, dtype=np.int8)
    out_big = np.empty(N_KINDS, dtype=np.uint8)
    K.wait_set_k(hand.counts, kinds, tiles, n, rules.encode(), _tables(), out_kind, out_big)
    return out_kind, out_big


def _waits(out_kind: np.ndarray, out_big: np.ndarray | None = None) -> tuple[Wait, ...]:
    """The waits of a kernel's wait-kind array (28 or 34 kinds); no big wins without ``out_big``."""
    return tuple(
        Wait(tile_name(t), WAIT_KINDS[out_kind[t]], out_big is not None and bool(out_big[t]), t)
        for t in range(out_kind.shape[0])
        if out_kind[t] >= 0
    )


def wait_set(hand: Hand | str, rules: RuleSet | None = None) -> list[Wait]:
    """Winning tiles of a 13-tile hand under the Daqing conditions 3-8.

    Open door and 手把一 are not checked here (see :func:`analyze_hand` ``.ready``).

    Examples
    --------
    >>> import daqing_sim as ds
    >>> [str(w) for w in ds.wait_set("13m456p789s中中 [345m]")]
    ['2m:kanchan (big)']
    """
    rules = _rules(rules)
    hand = _as_hand(hand, rules)
    if hand.size != 13:
        raise ValueError(f"a wait set needs a 13-tile hand; {hand} has {hand.size} tiles")
    if rules.family != "daqing":
        return list(_analyze_34(hand, rules, None).waits)
    return list(_waits(*_kernel_wait_set(hand, rules)))


def daqing_shanten(hand: Hand | str, rules: RuleSet | None = None) -> int:
    """Daqing-constrained shanten of a 13- or 14-tile hand.

    The fewest draw-and-discard exchanges to a 13-tile hand with a non-empty wait set (0 =
    ready shape, -1 = a 14-tile winning hand), ignoring open door and 手把一. Exact for the
    values -1, 0 and 1; a deeper value is a lower bound of the true one, never below the
    standard shanten (see :mod:`daqing_sim.hand.kernels`).

    Examples
    --------
    >>> import daqing_sim as ds
    >>> ds.daqing_shanten("123456789m1234p")  # standard shanten 0, but no triplet (刻)
    1
    """
    rules = _rules(rules)
    if rules.family != "daqing":
        raise ValueError(
            f"daqing_shanten is the Daqing-constrained shanten; for {rules.family} use "
            "analyze_hand(hand, rules).shanten"
        )
    hand = _as_hand(hand, rules)
    _check_full(hand, "daqing_shanten")
    kinds, tiles, n = hand.meld_arrays()
    return int(K.daqing_shanten_k(hand.counts, kinds, tiles, n, rules.encode(), _tables()))


def _tile_kind(tile: str | int, what: str, family: str = "daqing") -> int:
    from daqing_sim.hand.tiles import check_family_tile, family_kinds, tile_from_name

    if isinstance(tile, str):
        return tile_from_name(tile, family)
    if isinstance(tile, bool) or not isinstance(tile, int | np.integer):
        raise ValueError(f"{what} must be a tile name such as '4m' or a tile kind, not {tile!r}")
    t = int(tile)
    if not 0 <= t < family_kinds(family):
        raise ValueError(f"{what} {tile!r} is not a tile kind 0-{family_kinds(family) - 1}")
    check_family_tile(t, family)
    return t


def analyze_hand(
    hand: Hand | str,
    rules: RuleSet | None = None,
    win_tile: str | int | None = None,
    bao: str | int | None = None,
) -> HandAnalysis:
    """Analyse a 13- or 14-tile hand.

    Parameters
    ----------
    hand : Hand or str
        Hand notation, e.g. ``"23m456p789s中中 [345m]"``.
    rules : RuleSet, optional
        Rule flags (classic rules by default).
    win_tile : str or int, optional
        For a 14-tile hand, the tile to win on; by default the tile written last in the
        concealed part (the drawn tile).
    bao : str or int, optional
        For a 14-tile hand: the bao as seen by the (ready) player. When the winning tile is
        the bao, it is a self-drawn bao: taken at face value when it is itself a winning tile
        (宝边 small, 宝中宝 big), else wild for the best-scoring tile of the wait set (摸宝).

    Returns
    -------
    HandAnalysis

    Examples
    --------
    >>> import daqing_sim as ds
    >>> a = ds.analyze_hand("13m456p789s中中 [345m]")
    >>> a.shanten, a.ready, a.waits[0].kind, a.waits[0].big
    (0, True, 'kanchan', True)
    >>> ds.analyze_hand("13m456p789s中中 [345m] 2m").is_win
    True
    >>> w = ds.analyze_hand("13m456p789s中中 [345m] 7s", bao="7s")  # the bao drawn: wild
    >>> w.is_win, w.win.tile, w.win.big, w.bao_kind
    (True, '2m', True, 'bao')

    Under Beijing (no conditions; seven pairs and luxury seven pairs win too):

    >>> b = ds.analyze_hand("1133m2255p7799s东", rules=ds.RuleSet(family="beijing"))
    >>> b.shanten, [str(w) for w in b.waits]
    (0, ['东:single'])

    Under two-player thirteen orphans wins too:

    >>> k = ds.analyze_hand("19m19p19s1234566z", rules=ds.RuleSet(family="two_player"))
    >>> k.shanten, [str(w) for w in k.waits]
    (0, ['中:single'])
    """
    rules = _rules(rules)
    hand = _as_hand(hand, rules)
    _check_full(hand, "analyze_hand")
    # Checked whatever the hand size, so that a typo is never silently ignored.
    win_kind = None if win_tile is None else _tile_kind(win_tile, "win_tile", rules.family)
    if rules.family != "daqing":
        if bao is not None:
            raise ValueError(f"{_capital(family_title(rules.family))} has no bao: drop bao=")
        return _analyze_34(hand, rules, win_kind)
    bao_kind = None if bao is None else _tile_kind(bao, "bao")
    if hand.size == 13 and (win_kind is not None or bao_kind is not None):
        what = "win_tile" if win_kind is not None else "bao"
        raise ValueError(
            f"{what} is for a 14-tile hand, and {hand} has 13: add the drawn tile to the hand "
            "(written last, it is the winning tile)"
        )
    enc = rules.encode()
    tabs = _tables()
    kinds, tiles, n = hand.meld_arrays()
    sh = int(K.daqing_shanten_k(hand.counts, kinds, tiles, n, enc, tabs))
    std = int(K.std_shanten_k(hand.counts, tabs))
    if hand.size == 13:
        may = bool(K.may_declare_k(hand.counts, kinds, tiles, n, enc))
        return HandAnalysis(hand, rules, sh, std, may, _waits(*_kernel_wait_set(hand, rules)))
    t = hand.last_tile if win_kind is None else win_kind
    if t is None or hand.counts[t] == 0:
        raise ValueError(
            f"the winning tile must be one of the concealed tiles of {hand}; write it last or pass win_tile="
        )
    before = hand.counts.copy()
    before[t] -= 1
    out_kind = np.empty(N_KINDS, dtype=np.int8)
    out_big = np.empty(N_KINDS, dtype=np.uint8)
    K.wait_set_k(before, kinds, tiles, n, enc, tabs, out_kind, out_big)
    may = bool(K.may_declare_k(before, kinds, tiles, n, enc))
    waits = _waits(out_kind, out_big)
    if bao_kind == t:
        wt, kind, big, bao_code = K.bao_win_k(out_kind, out_big, t, enc)
        if wt < 0:
            why = _why_no_win(hand, before, t, waits, rules, tabs, bao=True)
            return HandAnalysis(hand, rules, sh, std, may, waits, tile_name(t), None, no_win_reason=why)
        win = Wait(tile_name(wt), WAIT_KINDS[kind], bool(big), int(wt))
        return HandAnalysis(hand, rules, sh, std, may, waits, tile_name(t), win, BAO_KINDS[bao_code])
    win = next((w for w in waits if w.tile_kind == t), None)
    why = None if win is not None else _why_no_win(hand, before, t, waits, rules, tabs)
    return HandAnalysis(hand, rules, sh, std, may, waits, tile_name(t), win, no_win_reason=why)


def _why_no_win(
    hand: Hand, before: np.ndarray, t: int, waits, rules: RuleSet, tabs, bao: bool = False
) -> str:
    """Why the 14-tile ``hand`` does not win on ``t`` (``before``: its concealed tiles without it)."""
    if waits:
        on = ", ".join(w.tile for w in waits)
        if bao:
            return f"the bao {tile_name(t)} is wild for the waits of the other 13 tiles ({on}), and none wins"
        return f"{tile_name(t)} is not a winning tile: the other 13 tiles wait on {on}"
    if bao:
        return f"the other 13 tiles are not ready, so the bao {tile_name(t)} has no wait to stand for"
    # completions of the standard (unrestricted) shape: each breaks some Daqing condition
    after = before.copy()
    std_waits = []
    for x in range(N_KINDS):
        if before[x] < 4:
            after[x] += 1
            if K.std_shanten_k(after, tabs) == -1:
                std_waits.append(x)
            after[x] -= 1
    if not std_waits:
        return "the other 13 tiles are not ready (their Daqing wait set is empty), so nothing wins"
    # the conditions every standard completion breaks (the simple ones only)
    missing = set.intersection(*(set(_daqing_misses(hand, before, x, rules)) for x in std_waits))
    shape = "completes" if t in std_waits else "does not complete"
    std = ", ".join(tile_name(x) for x in std_waits)
    why = (
        f"their standard waits ({std}) would lack {' and '.join(sorted(missing))}"
        if missing
        else f"their standard waits ({std}) miss a sequence, a triplet, a terminal or two suits"
    )
    return (
        f"{tile_name(t)} {shape} four sets and a pair, and the other 13 tiles are not ready under "
        f"the Daqing rules: {why}"
    )


def _daqing_misses(hand: Hand, before: np.ndarray, x: int, rules: RuleSet) -> list[str]:
    """The simple Daqing conditions (two suits, a terminal) the hand completed by ``x`` breaks."""
    total = before.copy()
    total[x] += 1
    for m in hand.melds:
        for tile in m.tiles:
            total[tile] += 1
    out = []
    if rules.require_two_suits and sum(bool(total[9 * g : 9 * g + 9].any()) for g in range(3)) < 2:
        out.append("a second suit (清一色 is no win)")
    ends = [9 * g + r for g in range(3) for r in (0, 8)] + [N_KINDS - 1]
    if rules.require_terminal and not total[ends].any():
        out.append("a terminal or 中 (幺九)")
    return out


def _analyze_34(hand: Hand, rules: RuleSet, win_kind: int | None) -> HandAnalysis:
    """A hand of a 34-kind family: Beijing's kernels, or the two-player ones (thirteen orphans)."""
    from daqing_sim.hand import kinds34 as B

    if rules.family == "two_player":
        from daqing_sim.families.two_player import hand as T

        announce("hand_two_player")
        shanten_k, wait_set_k = T.tp_hand_shanten_k, T.tp_wait_set_k
    else:
        announce("hand_beijing")
        shanten_k, wait_set_k = B.bj_hand_shanten_k, B.bj_wait_set_k
    tabs = get_tables()
    kinds, tiles, n = hand.meld_arrays()
    # uint8 counts, as the engine's: a kernel then has one signature (compiled once)
    counts = hand.counts.astype(np.uint8)
    out_kind = np.empty(N_KINDS_ALL, dtype=np.int8)
    sh = int(shanten_k(counts, kinds, tiles, n, tabs, out_kind))
    std = int(B.bj_std_distance_k(counts.astype(np.uint8), tabs, int(counts.sum()) // 3)) - 1
    if hand.size == 13:
        wait_set_k(counts.copy(), kinds, tiles, n, tabs, out_kind)
        return HandAnalysis(hand, rules, sh, std, True, _waits(out_kind))
    t = hand.last_tile if win_kind is None else win_kind
    if t is None or hand.counts[t] == 0:
        raise ValueError(
            f"the winning tile must be one of the concealed tiles of {hand}; write it last or pass win_tile="
        )
    before = counts.copy()
    before[t] -= 1
    wait_set_k(before, kinds, tiles, n, tabs, out_kind)
    waits = _waits(out_kind)
    win = next((w for w in waits if w.tile_kind == t), None)
    return HandAnalysis(hand, rules, sh, std, True, waits, tile_name(t), win)
