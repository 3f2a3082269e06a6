"""Hosts on this machine (service/tools/hosts.py): a host's address answers from the root
namespace, stops answering when its network is cut, answers again when restored, and nothing of
it is left afterwards. Network namespaces need root.

A check of `make torture`, not a test of `make test`: making a bridge and namespaces changes the
machine's network, and a browser test running beside it then sees ERR_NETWORK_CHANGED."""

from __future__ import annotations

import socket
import subprocess
import sys

from service.tools.hosts import Hosts, ip
from tests.support.threads import wait_until

PORT = 8765  # inside a namespace of its own: nothing else listens there


def answers(address: str) -> bool:
    try:
        with socket.create_connection((address, PORT), timeout=1):
            return True
    except OSError:
        return False


def a_cut_host_keeps_running_unreachable_until_restored() -> None:
    with Hosts() as hosts:
        address = hosts.add("node")
        listener = subprocess.Popen(
            [*hosts.inside("node"), sys.executable, "-m", "http.server", "-b", address, str(PORT)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_until(lambda: answers(address), "the host answered")
            hosts.cut("node")
            assert not answers(address)
            assert listener.poll() is None  # cut off, not dead
            hosts.restore("node")
            wait_until(lambda: answers(address), "the host answered again")
        finally:
            listener.kill()
            listener.wait()
        namespace = hosts.namespace("node")
    assert namespace not in ip("netns", "list")
    assert hosts.bridge not in ip("link")
