"""A rule family outside the package, for tests/test_protocol.py: Daqing without claims of pengs,
kongs or chis (a discard is still won on). Only its ``deal`` module exists: it proves that a
family's deal steps reach the deal loop through the registry, with no edit to the engine."""
