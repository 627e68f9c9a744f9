"""Which address a page is counted as: the one the operator's front saw, never one the page chose.

A front (Caddy, nginx, Compose's Caddy) adds the address it saw to the end of ``X-Forwarded-For``;
whatever the page itself sent stands to its left. So the list is read from the right, skipping only the
proxies the operator declared (``ACTIVITY_TRUSTED_PROXIES``; loopback and private networks by default):
the first address that is not one of them is the page's. A peer that is not a declared proxy is the page.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from aiohttp import web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

LOCAL_NETWORKS: tuple[Network, ...] = tuple(
    ipaddress.ip_network(network)
    for network in ("127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
"""The proxies trusted unless the operator says otherwise: this machine and private networks (Compose's)."""
UNREADABLE = "unreadable"
"""What a forwarded entry that is no address is counted as (they share their limits)."""


def parse_networks(text: str) -> tuple[Network, ...]:
    """Networks from ``10.0.0.0/8, 127.0.0.1, ::1`` (an address alone is a network of one).

    >>> [str(network) for network in parse_networks("127.0.0.1, 172.16.0.0/12")]
    ['127.0.0.1/32', '172.16.0.0/12']
    >>> parse_networks("front")
    Traceback (most recent call last):
    ...
    ValueError: 'front' is not an address or a network (e.g. 10.0.0.0/8)
    """
    networks = []
    for part in (part.strip() for part in text.split(",")):
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is not an address or a network (e.g. 10.0.0.0/8)") from None
    return tuple(networks)


def client_address(request: web.Request, trusted: Sequence[Network] = LOCAL_NETWORKS) -> str:
    """The page's address: the right-most ``X-Forwarded-For`` entry that is not a ``trusted`` proxy.

    With ``X-Forwarded-For: 6.6.6.6, 203.0.113.7`` from a front on this machine, the page is 203.0.113.7:
    it wrote 6.6.6.6 itself, and the front added the address it saw.
    """
    peer = request.remote or "?"
    if not _is_trusted(peer, trusted):
        return peer
    hops = [hop.strip() for header in request.headers.getall("X-Forwarded-For", []) for hop in header.split(",")]
    return _first_untrusted(reversed([hop for hop in hops if hop]), trusted) or peer


def _first_untrusted(hops: Iterable[str], trusted: Sequence[Network]) -> str | None:
    """The first of ``hops`` (nearest first) that is not a trusted proxy; else the farthest one (all trusted).

    A hop that is no address is counted as :data:`UNREADABLE` (its text, the page's own, goes nowhere).
    """
    last = None
    for hop in hops:
        try:
            last = str(ipaddress.ip_address(hop))
        except ValueError:
            return UNREADABLE
        if not _is_trusted(last, trusted):
            return last
    return last


def _is_trusted(address: str, trusted: Sequence[Network]) -> bool:
    """Whether ``address`` is one of the declared proxies."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)
