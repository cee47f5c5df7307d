"""The numpy forward pass of all-MiniLM-L6-v2 gives sentence-transformers' vectors: those stored in
``tests/fixtures/minilm_reference.npy`` (``make_minilm_reference.py`` writes them with the `st`
extra), and, when sentence-transformers is installed, those it computes now."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tools.embedding import MiniLMEncoder

TEXTS = [
    "SAR flood mapping with Sentinel-1 on a CPU",
    "Crop type mapping from Sentinel-2 time series in Kenya with 1% of the labels",
    "",
    "a",
    "Détection de navires, 船舶检测 🚢, GSD 0.5 m",
    "hyperspectral " * 400,  # longer than the 128 tokens the encoder reads
    "Masked autoencoder pretrained on co-registered Sentinel-1 and Sentinel-2 patches.",
]


REFERENCE = Path(__file__).parent / "fixtures" / "minilm_reference.npy"


@pytest.fixture(scope="module")
def both() -> tuple[np.ndarray, np.ndarray]:
    fast = MiniLMEncoder(batch_size=3, backend="numpy").encode(TEXTS)
    return fast, np.load(REFERENCE)


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None,
    reason="sentence-transformers (the st extra) is not installed; the stored vectors are checked instead",
)
def test_stored_reference_is_what_sentence_transformers_computes_now() -> None:
    live = MiniLMEncoder(batch_size=3, backend="sentence-transformers").encode(TEXTS)
    assert np.abs(live - np.load(REFERENCE)).max() < 1e-6


def test_numpy_backend_matches_sentence_transformers(both: tuple[np.ndarray, np.ndarray]) -> None:
    fast, reference = both
    assert fast.shape == reference.shape == (len(TEXTS), 384)
    assert fast.dtype == np.float32
    assert np.abs(fast - reference).max() < 1e-5
    np.testing.assert_allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-5)


def test_rows_follow_input_order_whatever_the_batching(both: tuple[np.ndarray, np.ndarray]) -> None:
    fast, _ = both
    one_by_one = np.vstack([MiniLMEncoder(batch_size=1).encode([t]) for t in TEXTS])
    assert np.abs(fast - one_by_one).max() < 1e-5
    # Different texts give different vectors (a test that could not fail otherwise).
    assert float(fast[0] @ fast[1]) < 0.9


def test_a_long_text_split_over_two_threads_gives_the_reference_vector() -> None:
    model = MiniLMEncoder()._load()
    for i in (1, 5):  # 20 tokens, and the 128 tokens the encoder reads of a long text
        ids, _ = model._tokenize([TEXTS[i]])
        assert np.abs(model._forward_rows(ids)[0] - np.load(REFERENCE)[i]).max() < 1e-5


def test_unknown_backend_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="numpy, sentence-transformers"):
        MiniLMEncoder(backend="onnx")


def test_encoding_with_the_default_backend_never_imports_torch() -> None:
    code = (
        "import sys\n"
        "from tools.embedding import shared_encoder\n"
        "v = shared_encoder().encode(['ship detection in SAR'])\n"
        "assert v.shape == (1, 384)\n"
        "print('torch' in sys.modules, 'sentence_transformers' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
