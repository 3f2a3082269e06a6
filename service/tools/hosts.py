"""Separate hosts on this one machine: each a network namespace with an address of its own on a
bridge in the root namespace (10.77.N.0/24, the bridge at .1), so a host's network can be cut
(its link brought down: it keeps running, unreachable) and restored. Needs root.

Names carry a tag unique to the run, so parallel runs do not collide; leaving the context
deletes every namespace, link and the bridge it made, however the run ends.
"""

from __future__ import annotations

import contextlib
import ipaddress
import random
import subprocess
import uuid
from types import TracebackType


def ip(*arguments: str) -> str:
    done = subprocess.run(
        ["ip", *arguments], capture_output=True, text=True, timeout=30, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(arguments)}: {done.stderr.strip()}")
    return done.stdout


class Hosts:
    def __init__(self) -> None:
        self.tag = uuid.uuid4().hex[:6]
        self.bridge = f"clb{self.tag}"
        self.network = free_network()
        self.gateway = str(self.network.network_address + 1)  # the root namespace's address
        self.addresses: dict[str, str] = {}

    def __enter__(self) -> Hosts:
        ip("link", "add", self.bridge, "type", "bridge")
        try:
            ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
            ip("link", "set", self.bridge, "up")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def add(self, name: str) -> str:
        """A host named `name`: its namespace, its link to the bridge, its address."""
        index = len(self.addresses) + 1
        address = str(self.network.network_address + 10 + index)
        self.addresses[name] = address
        namespace, outside, inside = self.namespace(name), self.link(name), f"cp{self.tag}h{index}"
        ip("netns", "add", namespace)
        ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        ip("link", "set", inside, "netns", namespace)
        ip("link", "set", outside, "master", self.bridge)
        ip("link", "set", outside, "up")
        inner = ("-n", namespace)
        ip(*inner, "addr", "add", f"{address}/24", "dev", inside)
        ip(*inner, "link", "set", inside, "up")
        ip(*inner, "link", "set", "lo", "up")
        ip(*inner, "route", "add", "default", "via", self.gateway)
        return address

    def namespace(self, name: str) -> str:
        return f"cl{self.tag}-{name}"

    def link(self, name: str) -> str:
        """The root namespace's end of the host's link (on the bridge)."""
        return f"cv{self.tag}h{list(self.addresses).index(name) + 1}"

    def inside(self, name: str) -> list[str]:
        """The prefix that runs a command on the host."""
        return ["ip", "netns", "exec", self.namespace(name)]

    def cut(self, name: str) -> None:
        """Cut the host's network: its processes run on and reach nothing, nothing reaches them."""
        ip("link", "set", self.link(name), "down")

    def restore(self, name: str) -> None:
        ip("link", "set", self.link(name), "up")

    def close(self) -> None:
        for name in list(self.addresses):
            with contextlib.suppress(RuntimeError):
                ip("link", "delete", self.link(name))  # its peer goes with it
            with contextlib.suppress(RuntimeError):
                ip("netns", "delete", self.namespace(name))
        self.addresses.clear()
        with contextlib.suppress(RuntimeError):
            ip("link", "delete", self.bridge)


def free_network() -> ipaddress.IPv4Network:
    """A /24 in 10.77.0.0/16 that no address on this machine is in yet."""
    taken = {
        ipaddress.ip_interface(word).network
        for line in ip("-o", "-4", "addr").splitlines()
        for word in line.split()
        if "/" in word and word[0].isdigit()
    }
    candidates = [ipaddress.IPv4Network(f"10.77.{third}.0/24") for third in range(1, 255)]
    free = [network for network in candidates if not any(network.overlaps(t) for t in taken)]
    if not free:
        raise RuntimeError("no free /24 in 10.77.0.0/16")
    return random.choice(free)  # parallel runs rarely pick alike
