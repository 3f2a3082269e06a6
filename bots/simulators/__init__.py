"""Fast simulators of the variants for search: plain ints and lists, no domain objects.

Each is held to its variant's domain by a side-by-side test (``tests/bots/simulators/``): the
same moves from the same deal give the same scores and the same moves on offer.
"""
