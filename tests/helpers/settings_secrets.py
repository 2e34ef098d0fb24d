"""A key and URL credentials that must never be printed back, bad base URLs holding
them, and checks that text and files are free of them."""

from __future__ import annotations

from pathlib import Path

KEY = "sk-test-5f3c9a1b7e2d4c6a8b0e"


URL_USER = "alice-user-7731"


URL_PASSWORD = "hunter2-pass-9924"


# Every value that must never be printed back.
SECRETS = (KEY, URL_USER, URL_PASSWORD)


def assert_no_secret(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text


def assert_no_secret_in_files(folder: Path) -> None:
    if not folder.exists():
        return
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for secret in SECRETS:
                assert secret.encode() not in data, path


BAD_URLS = {
    "plain http to a remote host": ("http://example.com/v1", "https is required"),
    "user and password": (
        f"https://{URL_USER}:{URL_PASSWORD}@api.example.com/v1",
        "must not contain a user name or password",
    ),
    "password with a bad port": (
        f"https://{URL_USER}:{URL_PASSWORD}@api.example.com:port/v1",
        "is not a valid URL",
    ),
    "broken IPv6 with password": (
        f"https://{URL_USER}:{URL_PASSWORD}@[::1/v1",
        "is not a valid URL",
    ),
    "key in the query": (f"https://api.example.com/v1?key={KEY}", "query or fragment"),
    "key in the user part": (f"https://{KEY}@api.example.com/v1", "user name or password"),
    "key in an http path": (f"http://example.com/{KEY}", "https is required"),
    "not a URL at all": (f"{URL_USER}:{URL_PASSWORD}", "https:// URL with a host"),
}
