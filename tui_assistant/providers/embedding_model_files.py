"""A Sentence-Transformers model folder checked before it is loaded: its config, its
modules and pooling (only what `LocalSentenceEmbedder` computes), its sequence length,
and the id its vectors are stored under (name and the start of the weights' hash).
Every problem is a `ModelError` naming the file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tui_assistant.errors import ModelError, os_error_words

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
DEFAULT_MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
# The sentence-transformers modules this runtime computes; a model folder whose
# modules.json lists another (a Dense layer, say) would give other vectors.
SUPPORTED_MODULES = ("Transformer", "Pooling", "Normalize")
DEFAULT_MAX_SEQ_LENGTH = 256


def model_id_of(folder: Path, sha256: str) -> str:
    """The id stored with a model's vectors: its name and the start of its weights' hash."""
    name = DEFAULT_MODEL_NAME if sha256 == DEFAULT_MODEL_SHA256 else folder.name
    return f"{name}@{sha256[:16]}"


def model_dimensions(folder: Path) -> int:
    """The vector size of a model folder, from its config (the weights are not read)."""
    config = read_json(folder / "config.json")
    check_config(config, folder / "config.json")
    return int(config["hidden_size"])


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def read_json(path: Path) -> dict[str, Any]:
    value = read_json_value(path)
    if not isinstance(value, dict):
        raise ModelError(f"{path} is not a JSON object")
    return value


def read_json_value(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ModelError(f"cannot read {path}: {os_error_words(error)}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ModelError(f"{path} is not valid JSON") from None


def check_modules(folder: Path) -> None:
    """Refuse a model whose modules.json lists a module this runtime does not compute."""
    path = folder / "modules.json"
    modules = read_json_value(path)
    if not isinstance(modules, list) or not all(
        isinstance(module, dict) and isinstance(module.get("type"), str) for module in modules
    ):
        raise ModelError(f"{path} is not a list of modules with a type")
    for module in modules:
        kind = module["type"]
        if kind.removeprefix("sentence_transformers.models.") not in SUPPORTED_MODULES:
            raise ModelError(
                f"model folder {folder}: module {kind!r} in modules.json is not supported"
                f" (only {', '.join(SUPPORTED_MODULES)})"
            )


def check_config(config: dict[str, Any], path: Path) -> None:
    for key, supported in (
        ("model_type", "bert"),
        ("hidden_act", "gelu"),
        ("position_embedding_type", "absolute"),
    ):
        if config.get(key, supported) != supported:
            raise ModelError(f"{path}: {key} {config[key]!r} is not supported ({supported})")
    for key in (
        "hidden_size",
        "num_attention_heads",
        "num_hidden_layers",
        "intermediate_size",
        "max_position_embeddings",
    ):
        value = config.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ModelError(f"{path}: {key} is missing or not a positive integer")
    if config["hidden_size"] % config["num_attention_heads"]:
        raise ModelError(f"{path}: hidden_size is not a multiple of num_attention_heads")


def check_pooling(pooling: dict[str, Any], path: Path) -> None:
    modes = sorted(
        key for key, value in pooling.items() if key.startswith("pooling_mode") and value
    )
    if modes != ["pooling_mode_mean_tokens"]:
        shown = ", ".join(mode.removeprefix("pooling_mode_") for mode in modes) or "none"
        raise ModelError(f"{path}: pooling {shown} is not supported (mean_tokens)")


def max_seq_length(path: Path) -> int:
    if not path.is_file():
        return DEFAULT_MAX_SEQ_LENGTH
    value = read_json(path).get("max_seq_length")
    if value is None:
        return DEFAULT_MAX_SEQ_LENGTH
    if not isinstance(value, int) or isinstance(value, bool) or value < 2:
        raise ModelError(f"{path}: max_seq_length is not an integer of at least 2")
    return value
