"""`tui-assistant fetch`: packages' documentation from their registries, as libraries.

`fetch SPEC...` or `fetch --from FILE` (a project's pinned dependencies). One line per
SPEC on standard output (`--json`: one object per line); progress on standard error
when it is a terminal. Exit status 0 when every SPEC is fetched or present (a release
with no docs included), 1 when one failed, 2 for a usage error before any network.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from tui_assistant.commands.common import add_command
from tui_assistant.core.display_text import clean_display_text, one_line
from tui_assistant.errors import LockfileError, UsageError, unreadable_file_words
from tui_assistant.output import ProgressLine, counted
from tui_assistant.registry import site_limits
from tui_assistant.registry.libraries import libraries_dir, read_metadata
from tui_assistant.registry.lockfiles import Dependencies, read_dependencies
from tui_assistant.registry.specs import PackageSpec, parse_site_spec, parse_spec
from tui_assistant.settings import Settings, load_settings

if TYPE_CHECKING:
    from tui_assistant.commands.common import Subcommands
    from tui_assistant.registry.fetcher import FetchResult, Registries
    from tui_assistant.registry.git_spec import GitSpec
    from tui_assistant.registry.site_urls import SiteSpec

# Packages fetched at once: the work is mostly waiting on the network.
PARALLEL_FETCHES = 4


def register(subparsers: Subcommands) -> None:
    # Reads no library: no --library or --retrieval.
    command = add_command(
        subparsers,
        "fetch",
        run,
        "one JSON object per SPEC",
        common=False,
        help="get packages' documentation from PyPI or npm as libraries",
        description="Download each release's source archive from its registry, check its "
        "digest, and keep its documentation folder, README, changelog and (Python) source "
        "files in the data folder as the library NAME@VERSION. Nothing in it is run.",
    )
    command.add_argument(
        "specs",
        nargs="*",
        metavar="SPEC",
        help="pypi:NAME[==VERSION] or npm:NAME[@VERSION]; a range too (pypi:'NAME>=2,<3', "
        "pypi:NAME@1.2, npm:NAME@^5.1): the newest release in it; one ref of a git "
        "repository, git+https://HOST/ORG/REPO@REF[#subdirectory=DIR]; or a documentation "
        "website, https://HOST/PATH/",
    )
    command.add_argument(
        "--from",
        dest="from_file",
        type=Path,
        metavar="FILE",
        help="fetch the pinned dependencies of requirements*.txt, uv.lock, poetry.lock, "
        "pyproject.toml, Pipfile.lock, package-lock.json, pnpm-lock.yaml, yarn.lock or "
        "package.json",
    )
    site_limits.add_options(command)


def run(args: argparse.Namespace) -> int:
    # The HTTP client loads only for the command that goes to the network.
    from tui_assistant.registry.fetcher import Fetcher
    from tui_assistant.registry.readers import usable_cores

    specs, not_fetched = _specs(args)
    settings = load_settings()
    fetcher = Fetcher(
        settings.data_dir,
        registries(settings),
        site_limits=site_limits.limits_of(args),
        refresh=args.refresh,
        # Archives are read in processes, one per core, when there are several to read.
        workers=min(usable_cores(), len(specs)),
    )
    failed = False
    # What no registry has is said once, and does not fail the command: it was never asked.
    for result in not_fetched:
        _show(result, args.json)
    pool = ThreadPoolExecutor(PARALLEL_FETCHES)
    try:
        with ProgressLine("fetching", "package") as progress:
            for done, result in enumerate(pool.map(fetcher.fetch, specs), start=1):
                failed = failed or result.status == "failed"
                _show(result, args.json)
                if progress is not None:
                    progress(done, len(specs))
    except KeyboardInterrupt:
        # Downloads stop at their next chunk and archives being read at once; staging
        # folders are removed on the way out.
        fetcher.stop()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        fetcher.close()
    return 1 if failed else 0


def registries(settings: Settings) -> Registries:
    """The settings' registries, else the ones pip and npm are configured with."""
    # These load the HTTP client, which no other command needs.
    from tui_assistant.registry.fetcher import Registries
    from tui_assistant.registry.npm import npm_registry
    from tui_assistant.registry.pypi import pip_index_url

    return Registries(
        settings.pypi_index_url or pip_index_url(), settings.npm_registry or npm_registry()
    )


def _specs(
    args: argparse.Namespace,
) -> tuple[list[PackageSpec | GitSpec | SiteSpec], list[FetchResult]]:
    """The SPECs to fetch, and `--from`'s dependencies no registry has, as `failed`
    results saying why."""
    # As in `run`: the fetcher's module loads the HTTP client.
    from tui_assistant.registry.fetcher import FetchResult

    if bool(args.specs) == (args.from_file is not None):
        raise UsageError("give SPECs (pypi:NAME[==VERSION], npm:NAME[@VERSION]) or --from FILE")
    if args.from_file is not None:
        found = read_project_file(args.from_file)
        for unpinned in found.unpinned:
            print(
                f"not pinned, not fetched: {clean_display_text(one_line(unpinned))}",
                file=sys.stderr,
            )
        if not found.pinned:
            raise UsageError(f"{args.from_file} pins no dependency to one version")
        skipped = [
            FetchResult(
                item.text, None, item.text, None, "failed", 0, 0, f"not fetched: {item.why}"
            )
            for item in found.local
        ]
        return list(found.pinned), skipped
    specs: list[PackageSpec | GitSpec | SiteSpec] = []
    for text in args.specs:
        try:
            specs.append(parse_site_spec(text) or parse_spec(text))
        except ValueError as error:
            raise UsageError(f"SPEC {error}") from None
    return list(dict.fromkeys(specs)), []


def read_project_file(path: Path) -> Dependencies:
    """The dependencies `path` pins; UsageError with one line when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"--from: {path} {unreadable_file_words(error)}") from None
    try:
        return read_dependencies(path.name, text)
    except LockfileError as error:
        raise UsageError(f"--from: {error}") from None


def _show(result: FetchResult, as_json: bool) -> None:
    for note in result.notes:
        # What a fetch left out (a link, a submodule, a big file): one line each, aside.
        line = f"left out {result.library or result.spec}: {note}"
        print(clean_display_text(one_line(line)), file=sys.stderr)
    if as_json:
        # As in `run`: the fetcher's module loads the HTTP client.
        from tui_assistant.registry.fetcher import FetchRecord

        print(
            json.dumps(FetchRecord.of(result).model_dump(mode="json"), ensure_ascii=True),
            flush=True,
        )
        return
    what = result.library or result.spec
    if result.status == "failed":
        line = f"failed   {what}: {result.detail}"
    else:
        counts = f"{counted(result.documents, 'document')}, {counted(result.passages, 'passage')}"
        word = {"fetched": "fetched", "present": "present", "no_docs": "no docs"}[result.status]
        line = f"{word:<8} {what}: {counts}" + (f" ({result.detail})" if result.detail else "")
    print(clean_display_text(one_line(line)), flush=True)


def project_libraries(path: Path, entries: list[str]) -> list[str]:
    """`--library` `entries` and the fetched libraries of `path`'s pinned dependencies
    (`mcp --library-from`); a dependency not fetched yet is a warning on stderr."""
    found = read_project_file(path)
    folder = libraries_dir(load_settings().data_dir)
    names: list[str] = []
    for spec in found.pinned:
        name = f"{spec.library_base}@{spec.version}"
        if read_metadata(folder / name) is None:
            print(
                f"warning: {spec} is not fetched (tui-assistant fetch --from {path})",
                file=sys.stderr,
            )
        else:
            names.append(name)
    if not names:
        raise UsageError(
            f"--library-from: none of {path}'s pinned dependencies is fetched"
            f" (tui-assistant fetch --from {path})"
        )
    return [*entries, *names]
