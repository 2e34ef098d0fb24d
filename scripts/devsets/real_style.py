"""Add real-style questions to the development sets: a share of each set's questions
rewritten as people type them (long, chatty, lower case, typos, a pasted error message),
beside the tidy ones.

Each rewritten case is a copy of its tidy case with the question rewritten, `"style":
"real"` and `"tidy"` (the question it rewrites), written on the line after it. The tidy
cases are left as they are; a second run first drops the real-style cases it wrote, so
it gives the same file. Which questions are rewritten, and how, follows from each
question's own text (a hash), so a new question or a new set changes no other rewrite.

    python -m scripts.devsets.real_style            # every set in scripts/devsets/sets.py
    python -m scripts.devsets.real_style --check    # fails when a cases file is not up to date

The rewrites are mechanical: a chatty opening or closing, lower case, dropped question
marks and apostrophes, one or two misspelt words, and for some a pasted error line that
the library does not hold. They keep what the question asks; they do not paraphrase it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys

from scripts.devsets.sets import ROOT, SETS

# The share of each set's questions rewritten.
SHARE = 0.4
OPENINGS = (
    "hey so ",
    "hi, quick question: ",
    "ok so i'm trying to figure this out - ",
    "sorry if this is a dumb question but ",
    "been stuck on this for a while, ",
    "so basically ",
    "newbie here. ",
    "question: ",
    "hello! ",
    "hey there, i was wondering ",
    "i've been reading the docs and still dont get it, ",
    "my coworker asked me and i have no idea - ",
)
CLOSINGS = (
    " thanks!",
    " any ideas?",
    " thx in advance",
    " pls help",
    " i've looked everywhere",
    " this is driving me crazy",
    ", i'm on a mac if that matters",
    " (sorry for my english)",
    " ty",
    " or am i missing something obvious",
)
# Pasted error lines that no development library holds word for word.
ERRORS = (
    "getting this: Error: Command failed with exit code 1",
    "it says TypeError: Cannot read properties of undefined (reading 'map')",
    "the log just shows ERR! code ELIFECYCLE",
    "error: something went wrong, see the output above for details",
    "Traceback (most recent call last): ... KeyError: 'settings'",
    "i keep getting fatal: exit status 128",
    "console shows Uncaught (in promise) Error: request failed with status 500",
)
PHRASES = (
    (r"\bhow do i\b", ("how do i", "how can i", "how to", "how would i")),
    (r"\bwhat is\b", ("whats", "what is", "what's")),
    (r"\bi'm\b", ("im", "i'm")),
    (r"\bdon't\b", ("dont",)),
    (r"\bdoesn't\b", ("doesnt",)),
    (r"\bcan't\b", ("cant",)),
    (r"\byou\b", ("you", "u")),
)
# Libraries about a household, not software: nobody pastes an error line there.
NO_ERRORS = frozenset({"notes-small", "bundled"})
CODE = re.compile(r"[._/()\[\]{}<>=:`$@#-]|\d")


def chosen(question: str) -> bool:
    """Whether this question gets a real-style copy (about `SHARE` of them)."""
    digest = hashlib.sha256(question.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 < SHARE


def misspelt(word: str, rng: random.Random) -> str:
    """One typing slip inside a word: two letters swapped, one dropped or one doubled."""
    place = rng.randrange(1, len(word) - 2)
    slip = rng.choice(("swap", "drop", "double"))
    if slip == "swap":
        return word[:place] + word[place + 1] + word[place] + word[place + 2 :]
    if slip == "drop":
        return word[:place] + word[place + 1 :]
    return word[:place] + word[place] + word[place:]


def rewrite(question: str, answerable: bool, errors: bool = True) -> str:
    """The question as someone might type it."""
    rng = random.Random(hashlib.sha256(question.encode("utf-8")).digest())
    text = question.strip()
    if rng.random() < 0.75:
        text = text[0].lower() + text[1:]
        # Lower case except words that look like code or names with capitals inside.
        text = " ".join(
            word if CODE.search(word) or any(c.isupper() for c in word[1:]) else word.lower()
            for word in text.split(" ")
        )
    for pattern, choices in PHRASES:
        if rng.random() < 0.7:
            text = re.sub(pattern, lambda _m, c=choices: rng.choice(c), text, flags=re.I)
    words = text.split(" ")
    plain = [i for i, word in enumerate(words) if len(word) >= 5 and word.isalpha()]
    for index in rng.sample(plain, k=min(len(plain), rng.choice((0, 1, 1, 2)))):
        words[index] = misspelt(words[index], rng)
    text = " ".join(words)
    if rng.random() < 0.6:
        text = text.rstrip("?")
    if rng.random() < 0.6:
        text = rng.choice(OPENINGS) + text
    if rng.random() < (0.3 if answerable else 0.2) and errors:
        text = text.rstrip("?") + ", " + rng.choice(ERRORS)
    elif rng.random() < 0.5:
        text += rng.choice(CLOSINGS)
    if text == question:  # every rewrite differs from its tidy question
        text = "hey so " + text[0].lower() + text[1:]
    return text


def rewritten(lines: list[str], errors: bool = True) -> list[str]:
    """The cases file's lines with every real-style case written again; a real-style
    case written by hand (no `tidy`) is kept as it is and not rewritten."""
    out: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        case = json.loads(line)
        if case.get("style") == "real" and "tidy" in case:
            continue
        out.append(line.rstrip("\n"))
        if case.get("style") != "real" and chosen(case["question"]):
            real = {
                **case,
                "question": rewrite(
                    case["question"], case.get("expect_passage") is not None, errors
                ),
                "style": "real",
                "tidy": case["question"],
            }
            out.append(json.dumps(real, ensure_ascii=False))
    return [line + "\n" for line in out]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args()
    stale = []
    for name, cases, _folder in SETS:
        path = ROOT / cases
        if not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        new = rewritten(lines, errors=name not in NO_ERRORS)
        if new != lines:
            stale.append(name)
            if not args.check:
                path.write_text("".join(new), encoding="utf-8")
        real = sum('"style": "real"' in line for line in new)
        print(f"{name}: {len(new) - real} tidy, {real} real-style", file=sys.stderr)
    if args.check and stale:
        print(f"not up to date: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
