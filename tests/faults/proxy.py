"""A TCP proxy between the service and PostgreSQL (or clients and API nodes) that a test can
break on purpose. With several targets it spreads connections over them in turn, passing over a
target that refuses (a node that died), as a load balancer in front of API nodes does.

``refuse`` closes every connection and refuses new ones (the database is down); ``blackhole``
accepts and holds connections but forwards nothing either way (a network that drops packets);
``restore`` passes traffic again (the database is back).
"""

from __future__ import annotations

import contextlib
import socket
import threading


class FaultyProxy:
    def __init__(self, *targets: tuple[str, int]) -> None:
        self.targets = targets
        self._next = 0
        self.port = 0
        self.mode = "pass"
        self._listener: socket.socket | None = None
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listen()

    @property
    def address(self) -> tuple[str, int]:
        return ("127.0.0.1", self.port)

    def _listen(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # closed: refusing
            if self.mode == "refuse":  # accepted in the instant before the listener shut
                client.close()
                return
            if self.mode == "blackhole":
                self._keep(client)  # held open, never answered
                continue
            server = self._connect()
            if server is None:
                client.close()
                continue
            server.settimeout(None)
            for sock in (client, server):
                self._keep(sock)
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _connect(self) -> socket.socket | None:
        """A connection to the next target that takes one, or None if none does."""
        for _ in self.targets:
            target = self.targets[self._next % len(self.targets)]
            self._next += 1
            try:
                return socket.create_connection(target, timeout=5)
            except OSError:
                continue
        return None

    def _keep(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.add(sock)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            if not data:
                break
            if self.mode == "blackhole":
                continue  # dropped on the floor
            try:
                sink.sendall(data)
            except OSError:
                break
        for sock in (source, sink):
            shut(sock)

    def _close_all(self) -> None:
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for sock in sockets:
            shut(sock)

    def refuse(self) -> None:
        self.mode = "refuse"
        if self._listener is not None:
            # close() alone leaves a thread blocked in accept() accepting: shutdown wakes it.
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        self._close_all()

    def blackhole(self) -> None:
        self.mode = "blackhole"

    def restore(self) -> None:
        if self.mode == "blackhole":
            self._close_all()  # held connections are useless now: the client reconnects
        self.mode = "pass"
        if self._listener is None:
            self._listen()

    def close(self) -> None:
        self.refuse()


def shut(sock: socket.socket) -> None:
    """Shut down, then close: close() alone neither wakes the other direction's thread blocked
    in recv() on the same socket nor tells the peer (a node's death behind the balancer left its
    clients waiting for an answer for ever)."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
