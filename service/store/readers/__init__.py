"""What the log's readers in a process share: the wake-ups that say it may have grown
(``changes``), one read of its newest stretch for all of them (``tail``), and what holds them
back (``holdup``, the oldest writer still in flight)."""
