"""Progress in words, the same on every surface: `embedding 1,946/4,614 passages, 31/s,
about 1 min 26 s left`, and what an answer given by words while the vectors are
computed says, `words only while embedding (1,946/4,614)`."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`1 document`, `2,349 documents`: the count and its noun, agreeing."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def rate_words(rate: float) -> str:
    """`31/s`, `2.5/s`, `0.25/s`: as many figures as say it."""
    if rate >= 10:
        return f"{rate:,.0f}/s"
    if rate >= 1:
        return f"{rate:.1f}/s"
    return f"{rate:.2f}/s"


def time_left(seconds: float) -> str:
    """`about 40 s left`, `about 1 min 26 s left`, `about 2 h 5 min left`: whole
    units, seconds dropped once it is an hour or more."""
    whole = max(1, round(seconds))
    if whole < 60:
        return f"about {whole} s left"
    if whole < 3600:
        minutes, rest = divmod(whole, 60)
        return f"about {minutes} min{f' {rest} s' if rest else ''} left"
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"about {hours} h{f' {minutes} min' if minutes else ''} left"


def progress_words(
    verb: str,
    done: int,
    total: int | None,
    unit: str,
    plural: str | None = None,
    rate: float | None = None,
    eta_seconds: float | None = None,
) -> str:
    """`embedding 1,946/4,614 passages, 31/s, about 1 min 26 s left`; the noun agrees
    with the total (`1/1 file`); the rate and the time left only while they are known."""
    if total is None:
        words = f"{verb} {counted(done, unit, plural)}"
    else:
        words = f"{verb} {done:,}/{counted(total, unit, plural)}"
    if rate and (total is None or done < total):
        words += f", {rate_words(rate)}"
        if eta_seconds is not None:
            words += f", {time_left(eta_seconds)}"
    return words


def words_only(done: int, total: int) -> str:
    """What an answer by words says while the library's vectors are computed."""
    return f"words only while embedding ({done:,}/{total:,})"
