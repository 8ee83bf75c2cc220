"""Pictures of the table: tiles as SVG, hands, melds and ponds in HTML, the replay viewer.

Imports nothing of the package but :mod:`daqing_sim.codes`, so that every layer may draw
(docs/DESIGN.md). :func:`daqing_sim.render.tiles.tile_svg` draws any tile code 0-33.
"""
