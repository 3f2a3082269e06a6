"""Pure game rules: immutable data in, events out. No I/O, clock or global randomness."""
