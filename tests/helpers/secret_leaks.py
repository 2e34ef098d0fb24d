"""Searching for a leaked API key, and a server that quotes the key back.

`assert_key_absent` takes any mix of paths and captured text, so the CLI's outputs and
files and the full-screen app's history, exports and screenshots are checked the same way.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.fake_openai_server import Behaviour, _Exchange


def _base64_forms(secret: bytes) -> dict[bytes, str]:
    """The key as it appears inside any base64 text, whatever its offset.

    base64 encodes three bytes as four characters, so the key's encoding depends on
    where it starts modulo 3; for each offset, keep only the characters that come from
    the key's bytes alone (not from its neighbours).
    """
    forms: dict[bytes, str] = {}
    for offset in range(3):
        for name, encode in (
            ("base64", base64.b64encode),
            ("url-safe base64", base64.urlsafe_b64encode),
        ):
            encoded = encode(b"\0" * offset + secret + b"\0\0")
            first = -(-offset * 8 // 6)  # first character made only of the key's bits
            last = ((offset + len(secret)) * 8) // 6  # one past the last such character
            forms[encoded[first:last]] = f"{name} (offset {offset})"
    return forms


def key_forms(key: str) -> dict[bytes, str]:
    """Every form of `key` a leak could take, named: raw, as a header value, in base64."""
    raw = key.encode()
    return {raw: "the raw key", b"Bearer " + raw: "a Bearer header value"} | _base64_forms(raw)


def _files_under(path: Path) -> Iterator[Path]:
    if path.is_file():
        yield path
    elif path.is_dir():
        yield from (child for child in sorted(path.rglob("*")) if child.is_file())


def assert_key_absent(key: str, places: Iterable[Path | str | bytes]) -> int:
    """Fail if `key` (raw, `Bearer <key>` or base64) is in any of `places`.

    A place is captured output (str or bytes) or a path: a file, or a folder searched
    recursively (every file in it, whatever its type: history, exports, screenshots).
    Returns how many texts and files were searched, so callers can check that the
    search covered what they meant it to.
    """
    forms = key_forms(key)
    searched = 0
    for place in places:
        if isinstance(place, Path):
            sources = [(str(file), file.read_bytes()) for file in _files_under(place)]
        else:
            data = place.encode() if isinstance(place, str) else place
            sources = [("captured output", data)]
        for name, data in sources:
            searched += 1
            for form, kind in forms.items():
                # The message names the form, not the key, so a failure log holds no key.
                assert form not in data, f"the API key leaked into {name} as {kind}"
    return searched


@dataclass(frozen=True)
class QuotingStatus(Behaviour):
    """A server that answers `code` and quotes the credential it received."""

    code: int

    async def respond(self, exchange: _Exchange) -> None:
        quoted = exchange.request.headers.get("authorization", "")
        error = {"error": {"message": f"invalid credential: {quoted}", "code": self.code}}
        await exchange.whole(self.code, json.dumps(error).encode())
