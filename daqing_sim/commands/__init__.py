"""The sub-commands of ``daqing-sim``, one module each: its parser (``register(subparsers)``)
and its handler, in the words of the command line.

These modules sit at the edge of the package (docs/DESIGN.md, "Modules"): they import the
features they drive, inside their handlers, so that building a parser imports no feature and
``daqing-sim COMMAND`` imports that command's module alone (:mod:`daqing_sim.cli`). No module
below the edge imports them.
"""
