"""A test-only rule family (issue 35, item 4): two seats on Daqing's 28 kinds, no bao.
Registered with one line at test time (``tests/test_family_registry.py``); so far it is its spec
alone, which is what the package reads outside the deal loop."""
