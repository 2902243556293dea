"""The addresses a listening socket really answers on, as URLs to print.

``--host 0.0.0.0`` (or ``::``) listens on every interface: the URLs are then each
local interface address, loopback first, read from the kernel without external
tools (``SIOCGIFADDR`` per interface for IPv4, ``/proc/net/if_inet6`` for IPv6).
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import socket
import struct

_SIOCGIFADDR = 0x8915  # Linux: the IPv4 address of an interface
_LINK_SCOPE = 0x20  # /proc/net/if_inet6: fe80::/10, not usable in a plain URL


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name) reaches this machine only."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    if host.lower() == "localhost":
        return True
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    found = {str(info[4][0]).split("%")[0] for info in infos}
    return bool(found) and all(ipaddress.ip_address(a).is_loopback for a in found)


def is_wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def ipv4_addresses() -> list[str]:
    """The IPv4 address of every interface that has one."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):  # an interface without an IPv4 address
                answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, request)
                found.append(socket.inet_ntoa(answer[20:24]))
    return found


def ipv6_addresses() -> list[str]:
    """Every IPv6 address of this machine but link-local ones."""
    found: list[str] = []
    try:
        with open("/proc/net/if_inet6", encoding="ascii") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return found
    for line in lines:
        fields = line.split()
        if len(fields) < 6 or int(fields[3], 16) & 0xF0 == _LINK_SCOPE:
            continue
        found.append(str(ipaddress.IPv6Address(bytes.fromhex(fields[0]))))
    return found


def _url(address: str, port: int) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


def _loopback_first(addresses: list[str]) -> list[str]:
    unique = list(dict.fromkeys(addresses))
    return sorted(unique, key=lambda a: not ipaddress.ip_address(a).is_loopback)


def listening_urls(sock: socket.socket, host: str) -> list[str]:
    """The URLs ``sock`` (bound to ``host``) answers on; the first is loopback when
    the socket listens on every interface, so it is usable on this machine."""
    port = int(sock.getsockname()[1])
    if not is_wildcard(host):
        return [_url(host, port)]
    if sock.family == socket.AF_INET6:
        dual = not sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)
        addresses = ipv6_addresses() + (ipv4_addresses() if dual else [])
        addresses = _loopback_first(addresses or ["::1"])
    else:
        addresses = _loopback_first(ipv4_addresses() or ["127.0.0.1"])
    return [_url(a, port) for a in addresses]
