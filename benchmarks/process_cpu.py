"""The CPU time of a process and its children, read from /proc (Linux): what a server
spent on its calls, which a busy machine does not stretch as it stretches the wall
clock."""

from __future__ import annotations

import os
from pathlib import Path


def tree_cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system) of process `pid` and its live descendants (a
    server's workers), from /proc; 0.0 where /proc cannot tell."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    tree, grown = {pid}, True
    while grown:
        found = {child for child, parent in parents.items() if parent in tree}
        grown = not found <= tree
        tree |= found
    return sum(times.get(member, 0.0) for member in tree)
