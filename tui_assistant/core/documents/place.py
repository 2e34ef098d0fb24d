"""Where a passage or a quote stands: a file and its lines, or a PDF's pages.

`location` is how every place is written (`lessons/pasta-water.md:1–11`,
`manuals/boiler.pdf p. 12–13`); `PassageFields` is what a passage and the library's
record of one share, its `location` written once for both (as JSON, `record.PassageRef`).
"""

from __future__ import annotations

import bisect


class PassageFields:
    """What a passage and the library's record of one share: where it stands, written
    once for both (`location`; as JSON, `record.PassageRef`)."""

    __slots__ = ()
    id: str
    title: str
    source_path: str
    line: int
    end_line: int
    library: str
    page: int | None
    end_page: int | None
    # The lines (after its first) where each later page begins: so a quote's page is known.
    page_starts: tuple[int, ...]
    # The URL of the web page it was read from (a fetched website); None otherwise.
    url: str | None

    def page_at(self, line: int) -> int | None:
        """The page a line of the passage stands on (PDF); None for other kinds."""
        if self.page is None:
            return None
        return self.page + bisect.bisect_right(self.page_starts, line)

    @property
    def location(self) -> str:
        """`source_path:line–end_line` (`lessons/pasta-water.md:1–11`), or for a PDF
        its pages (`manuals/guide.pdf p. 12–13`)."""
        return location(self.source_path, self.line, self.end_line, self.page, self.end_page)


def line_range(line: int, end_line: int) -> str:
    """`line–end_line`, with an en dash: how every file line range is written."""
    return f"{line}\N{EN DASH}{end_line}"


def location(
    source_path: str,
    line: int,
    end_line: int,
    page: int | None = None,
    end_page: int | None = None,
) -> str:
    """`source_path:line–end_line`: where a passage or a quote stands in its file; with
    pages (a PDF), `source_path p. 12–13` (`p. 12` for one page), as a reader finds it."""
    return source_path + place_in_file(line, end_line, page, end_page)


def place_in_file(
    line: int, end_line: int, page: int | None = None, end_page: int | None = None
) -> str:
    """What follows the path in `location`: `:line–end_line`, or ` p. 12–13`."""
    if page is not None:
        return f" {page_range(page, end_page)}"
    return f":{line_range(line, end_line)}"


def page_range(page: int, end_page: int | None = None) -> str:
    """`p. 12`, or `p. 12–13` with an en dash."""
    if end_page is None or end_page == page:
        return f"p. {page}"
    return f"p. {page}\N{EN DASH}{end_page}"
