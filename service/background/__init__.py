"""What runs beside the requests in each process: the log follower, the deadline watcher and the
read-model projector, each a Worker."""
