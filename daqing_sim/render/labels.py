"""Labels drawn with the project's own glyphs: CJK text as inline SVG, so a page needs no CJK font.

Every CJK character of a replay page (庄, 上听, 宝, fan names, ...) is drawn as a ``<use>`` of a
``<symbol id="cjk-XXXX">`` holding its path from :mod:`.glyphs` (Noto Serif CJK SC Bold, the
tiles' glyphs); :func:`glyph_symbols` defines the characters a page uses, :func:`label_html`
draws a text with its CJK runs as ``<svg class="cjk">`` (the viewer's script has the same
function, ``cjk``). Latin text stays text.
"""

from __future__ import annotations

import html
import re

from daqing_sim.render.glyphs import GLYPHS, UNITS

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# a run, with an opening bracket before it and a closing mark after it kept on its line
_RUN = re.compile(r"([(\[]?)([\u3400-\u9fff\uf900-\ufaff]+)([)\]:;,.]?)")
ASCENT = 880  # Noto CJK's ascender, in font units: the top of the em box
CSS = ".cjk{display:inline-block;vertical-align:-0.14em;height:1em;overflow:visible}.nw{white-space:nowrap}"


def symbol_id(ch: str) -> str:
    """The id of a character's ``<symbol>`` (``cjk-`` and its code point in hex)."""
    return f"cjk-{ord(ch):x}"


def missing_glyphs(text: str) -> list[str]:
    """The CJK characters of ``text`` that have no glyph in :mod:`.glyphs`, in order of appearance."""
    return [ch for ch in dict.fromkeys(CJK.findall(text)) if ch not in GLYPHS]


def glyph_symbols(text: str) -> str:
    """A hidden ``<svg>`` defining one ``<symbol>`` per CJK character of ``text``.

    Raises
    ------
    ValueError
        When a character has no glyph (add it to a label source of tools/extract_glyphs.py and
        run the tool).
    """
    missing = missing_glyphs(text)
    if missing:
        raise ValueError(
            f"no glyph for {''.join(missing)!r}: run tools/extract_glyphs.py --glyphs-only to extract it"
        )
    chars = sorted(set(CJK.findall(text)))
    body = "".join(
        f'<symbol id="{symbol_id(ch)}" viewBox="0 {-ASCENT} {UNITS} {UNITS}">'
        f'<path transform="scale(1 -1)" d="{GLYPHS[ch]["d"]}"/></symbol>'
        for ch in chars
    )
    return f'<svg width="0" height="0" style="position:absolute" aria-hidden="true">{body}</svg>'


def run_svg(run: str) -> str:
    """One run of CJK characters as an inline ``<svg class="cjk">``, 1em per character."""
    uses = "".join(
        f'<use href="#{symbol_id(ch)}" x="{i * UNITS}" width="{UNITS}" height="{UNITS}"/>'
        for i, ch in enumerate(run)
    )
    return (
        f'<svg class="cjk" role="img" aria-label="{run}" style="width:{len(run)}em" '
        f'viewBox="0 0 {len(run) * UNITS} {UNITS}" fill="currentColor">{uses}</svg>'
    )


def label_html(text: str) -> str:
    """``text`` as HTML (escaped) with each CJK run drawn by :func:`run_svg`."""
    out = []
    pos = 0
    for m in _RUN.finditer(text):
        out.append(html.escape(text[pos : m.start()]))
        run = run_svg(m.group(2))
        if m.group(1) or m.group(3):
            run = f'<span class="nw">{html.escape(m.group(1))}{run}{html.escape(m.group(3))}</span>'
        out.append(run)
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


__all__ = ["CJK", "CSS", "glyph_symbols", "label_html", "missing_glyphs", "run_svg", "symbol_id"]
