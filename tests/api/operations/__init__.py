"""What an operator runs and watches: the serve command, its workers, limits, metrics, errors
and HTTP caching."""
