"""DataFrames that draw themselves in notebooks: the deal log and the advisor's table.

Why a subclass: Jupyter asks the object itself for ``_repr_html_``, so a picture needs a type
of its own; an accessor (``df.x.show()``) would need a call, and a module function
(``ds.show_deal(df)``) too. The subclass changes nothing else: ``repr``/``str``, every method
and the data are the DataFrame's, and ``_constructor`` is :class:`pandas.DataFrame`, so any
derived frame (a slice, ``head``, a filter, a copy) is a plain DataFrame again and is shown as
pandas shows it (its columns may no longer make a deal or an advice). Only the frame exactly
as :func:`daqing_sim.deal_log` or :func:`daqing_sim.advise` returned it is drawn.
"""

from __future__ import annotations

import pandas as pd

from daqing_sim.render.table import advice_html, deal_end_html


class _PicturedFrame(pd.DataFrame):
    @property
    def _constructor(self):
        return pd.DataFrame

    def _picture(self) -> str:  # pragma: no cover - each subclass draws itself
        raise NotImplementedError

    def _repr_html_(self) -> str | None:
        try:
            picture = self._picture()
        except ValueError as e:  # not what it claims to be any more: say so, show the data
            picture = f'<div class="note">(no picture: {e})</div>'
        return picture + (super()._repr_html_() or "")


class DealLogFrame(_PicturedFrame):
    """A :func:`daqing_sim.deal_log` frame: in Jupyter, the table at the end of the deal (hands,
    melds, ponds, the win) above the event rows."""

    def _picture(self) -> str:
        return deal_end_html(self)


class AdviceFrame(_PicturedFrame):
    """A :func:`daqing_sim.advise` table: in Jupyter, each discard drawn as its tile and the
    recommended row marked (★), instead of pandas' table."""

    def _picture(self) -> str:
        return advice_html(self)

    def _repr_html_(self) -> str | None:
        try:
            return self._picture()
        except ValueError:
            return pd.DataFrame._repr_html_(self)


__all__ = ["DealLogFrame", "AdviceFrame"]
