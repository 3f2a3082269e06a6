"""The witnessed log over the API, and the processes that sequence and cosign it."""
