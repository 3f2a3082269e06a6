"""What the tests share: clients and servers under test, databases of their own, threads and
waits that never hang, in-process stand-ins."""
