"""How much of a website one fetch reads, and the `fetch` options that say so.

Each cap, when it stops the crawl, is named in one line with the option that sets it.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import Any

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*$", re.I)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


@dataclass(frozen=True, slots=True)
class SiteLimits:
    """The caps on one website's fetch."""

    max_pages: int = 1000
    max_page_bytes: int = 10 << 20
    max_total_bytes: int = 200 << 20
    max_depth: int = 10
    max_seconds: float = 600.0
    page_seconds: float = 30.0
    # Requests a second to one host; a loopback host (the user's own) is not paced.
    rate: float = 4.0
    concurrency: int = 4


def size(text: str) -> int:
    """`10M`, `512K`, `1G`, `65536`: a number of bytes (argparse type)."""
    match = _SIZE.match(text)
    if match is None or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size such as 512K, 10M or 1G")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def _positive(kind: type[int] | type[float]) -> Any:
    def read(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number above 0")
        return value

    return read


def add_options(command: argparse.ArgumentParser) -> None:
    """`fetch`'s options for websites (each a cap, with its default)."""
    default = SiteLimits()
    group = command.add_argument_group("websites (https://HOST/PATH/)")
    group.add_argument(
        "--refresh",
        action="store_true",
        help="read a website again as today's version, re-using the pages that did not "
        "change (ETag, Last-Modified)",
    )
    group.add_argument(
        "--max-pages", type=_positive(int), default=default.max_pages, metavar="N",
        help=f"pages kept at most (default {default.max_pages:,})",
    )  # fmt: skip
    group.add_argument(
        "--max-page-size", type=size, default=default.max_page_bytes, metavar="SIZE",
        help="a page larger than this once decompressed is cut off and skipped (default 10M)",
    )  # fmt: skip
    group.add_argument(
        "--max-total-size", type=size, default=default.max_total_bytes, metavar="SIZE",
        help="the crawl stops when its pages add up to this (default 200M)",
    )  # fmt: skip
    group.add_argument(
        "--max-depth", type=_positive(int), default=default.max_depth, metavar="N",
        help=f"links followed from the first page at most N deep (default {default.max_depth})",
    )  # fmt: skip
    group.add_argument(
        "--max-seconds", type=_positive(float), default=default.max_seconds, metavar="S",
        help=f"the whole crawl's deadline (default {default.max_seconds:.0f})",
    )  # fmt: skip
    group.add_argument(
        "--page-seconds", type=_positive(float), default=default.page_seconds, metavar="S",
        help=f"one page's deadline, however slowly it comes (default {default.page_seconds:.0f})",
    )  # fmt: skip
    group.add_argument(
        "--rate", type=_positive(float), default=default.rate, metavar="N",
        help=f"requests a second to one host (default {default.rate:g}; loopback: unpaced)",
    )  # fmt: skip


def limits_of(args: argparse.Namespace) -> SiteLimits:
    return SiteLimits(
        max_pages=args.max_pages,
        max_page_bytes=args.max_page_size,
        max_total_bytes=args.max_total_size,
        max_depth=args.max_depth,
        max_seconds=args.max_seconds,
        page_seconds=args.page_seconds,
        rate=args.rate,
    )
