"""The rule every URL the app sends to obeys (a model server, an embedding server, a
package registry): https://, or plain http:// to a loopback host only."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit


def check_base_url(url: str) -> None:
    """https:// anywhere; plain http:// only to a loopback host. Raises ValueError."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        raise ValueError("is not a valid URL") from None
    if not host or parts.scheme not in ("http", "https"):
        raise ValueError("must be an https:// URL with a host")
    if parts.username or parts.password:
        raise ValueError("must not contain a user name or password")
    if parts.query or parts.fragment:
        raise ValueError("must not contain a query or fragment")
    if parts.scheme == "http" and not is_loopback(host):
        raise ValueError("https is required (plain http only to a loopback host)")


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
