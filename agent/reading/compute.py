"""The compute the task allows: the device class (phrasings in ``cues.csv``, field ``device``), and
parameter limits and floors said in words (``agent.reading.sizes``) or read from GPU memory ('a 24 GB
GPU', 'one A100': memory in ``gpu_memory.csv``) or from the device.
"""

from __future__ import annotations

import re
from functools import cache

from agent.query import ComputeBudget
from agent.reading.sizes import backbone_bound, parameter_floor, parameter_limit
from agent.reading.tables import cue_pattern, cues, table_rows
from rsfmd.vocab import PROMPTED_TASKS, TEXT_ANSWER_TASKS, application_domain, application_task_type

# Data-centre and workstation GPUs named by model ('one A100', 'a T4').
_GPU_MODELS = r"a100|h100|h200|v100|a6000|a40|l40s?|t4"


# GPU memory ("a 24GB GPU", "16 GB of VRAM"): weights take 2 bytes a parameter in 16-bit, with a
# fifth kept for activations (400M parameters a GB); fine-tuning with Adam takes about 16 bytes a
# parameter for weights, gradients and optimiser states, and the activations of a usual batch take
# about three times that, so a quarter of the memory bounds the size (15.6M a GB: a ViT-B on 8 GB,
# a ViT-L on 24 GB). Vision-language tasks and zero-shot use are read as inference.
_RUN_M_PER_GB, _TRAIN_M_PER_GB = 400.0, 15.625
_GPU_MEMORY = re.compile(
    r"(\d+(?:\.\d+)?)\s*gb\b(?:\s+of)?\s*"
    r"(?:vram|gpu|graphics|video memory|memory|ram|card|gtx|rtx|quadro|titan)\b"
)
_GPU_MEMORY_AFTER = re.compile(
    # 'a GPU with 24 GB', 'an A100 80GB', 'RTX 4090 (24 GB)', '(RTX 3050, 4 GB)'
    rf"(?:gpu|vram|\b(?:{_GPU_MODELS})|[rg]tx\s?\w+(?:\s+ti)?)(?:\s*,)?\s+(?:with\s+)?\(?(\d+(?:\.\d+)?)\s*gb\b"
)
# Google Colab's free tier: one T4 with 16 GB.
_COLAB_FREE = re.compile(
    r"\bcolab(?:'s)?\s+(?:\(\s*)?free\b|\bfree\s+(?:tier\s+(?:of|on)\s+|version\s+of\s+)?(?:google\s+)?colab\b"
)
# The memory of an edge board: 'a Jetson Orin Nano with 8 GB of shared memory', '8 GB RAM'.
_BOARD_MEMORY = re.compile(
    r"(\d+(?:\.\d+)?)\s*gb\b(?:\s+of)?\s*(?:shared\s+|unified\s+|lpddr\d*x?\s+)?(?:memory|ram)\b"
)


@cache
def _devices() -> tuple[tuple[str, str], ...]:
    """(device class, pattern) from ``cues.csv``, GPU models written in."""
    return tuple((device, p.replace("{gpu_models}", _gpu_forms())) for device, p in cues("device"))


# 'no multi-GPU node', 'without a cluster': a device said not to be had is not the user's.
_DEVICE_NEGATED = re.compile(r"(?:\b(?:no|not|without|never|nor)\b|n't\b)[^.;,]{0,20}$")


def _device(lowered: str) -> str | None:
    """The device class of the first ``cues.csv`` row with a mention not negated."""
    for device, pattern in _devices():
        for m in re.finditer(pattern, lowered):
            if not _DEVICE_NEGATED.search(lowered, max(0, m.start() - 40), m.start()):
                return device
    return None


# An edge board with at least this much memory (``edge_boards.csv``) runs models a laptop CPU runs.
LARGE_EDGE_MEMORY_GB = 16.0


@cache
def _large_edge_boards() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The boards of ``edge_boards.csv`` with at least ``LARGE_EDGE_MEMORY_GB``, and their patterns."""
    return tuple(
        (row["board"], re.compile(rf"\b(?:{row['pattern']})\b"))
        for row in table_rows("edge_boards.csv")
        if float(row["memory_gb"]) >= LARGE_EDGE_MEMORY_GB
    )


def _large_edge_board(lowered: str) -> str | None:
    """The name of a large edge board the text names ('a Jetson AGX Orin'), if any."""
    return next((board for board, pattern in _large_edge_boards() if pattern.search(lowered)), None)


@cache
def _gpu_card_memory() -> dict[str, float]:
    """GPUs named by model, and the memory of their smallest configuration (GB), from the makers'
    sheets."""
    return {row["card"]: float(row["memory_gb"]) for row in table_rows("gpu_memory.csv")}


@cache
def _gpu_forms() -> str:
    """The GPUs of ``gpu_memory.csv`` as a pattern: 'rtx4090' is also written 'RTX 4090' or
    'rtx-4090'."""
    return "|".join(
        r"[\s-]?".join(re.findall(r"[a-z]+|\d+", card)) if card.startswith("rtx") else card
        for card in sorted(_gpu_card_memory(), key=len, reverse=True)
    )


@cache
def _gpu_card() -> re.Pattern[str]:
    """A GPU of ``gpu_memory.csv`` named by model ('an RTX 4090', 'one RTX A4000'), not several of them."""
    # ('a4000' is also written 'RTX A4000')
    return re.compile(rf"\b(?:rtx[\s-]?)?({_gpu_forms()})\b(?!\s*(?:s\b|gpus))")


def device_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names the hardware the model will run on ('a laptop', 'one A100')."""
    lowered = text.lower()
    return [m.span() for _, pattern in _devices() for m in re.finditer(pattern, lowered)]


# Parameters a laptop CPU runs, without training, at a tolerable pace (a ViT-L and its head).
CPU_INFERENCE_BUDGET_M = 350.0
# The memory of one GPU whose memory the user does not state, when a model is only run on it.
GPU_INFERENCE_MEMORY_GB = 24.0


def read_compute(
    lowered: str,
    written: str,
    regime: str | None,
    task: tuple[str | None, str | None],
    notes: list[str],
    frozen: bool = False,
) -> ComputeBudget:
    """The device class and parameter bounds the task allows (``task``: its application and type),
    saying in ``notes`` what was inferred."""
    application, task_type = task
    # A model only run, not trained: zero-shot use, or a task answered by a model as it is.
    inference = regime == "zero-shot" or task_type in PROMPTED_TASKS
    device = _device(lowered)
    limit = parameter_limit(lowered)
    floor = parameter_floor(lowered)
    if floor is not None and limit is not None and floor >= limit:
        # 'fewer than 1B parameters, not over 1B', 'anything in the billion-parameter range is out':
        # the limit alone
        floor = None
    bound = backbone_bound(lowered, written)
    if bound and ((limit is None and bound[0]) or (floor is None and bound[1])):
        # 'a ViT-L or larger, under 500M parameters': the backbone gives the side the numbers do not.
        limit, floor = limit or bound[0], floor or bound[1]
        notes.append(bound[2])
        if floor is not None and limit is not None and floor >= limit:
            floor = None
    said = limit is not None
    # 'model size is no concern', with no limit stated in parameters (memory still bounds it)
    waived = limit is None and bool(cue_pattern("size_waived", "said").search(lowered))
    # ('a laptop with 16 GB RAM': on a CPU or an edge device, compute binds before memory does;
    # across several GPUs a model's weights and optimiser states are sharded, so one card's memory
    # does not bound it)
    memory = (
        None
        if device in {"cpu", "edge", "multi-gpu"}
        else _GPU_MEMORY.search(lowered) or _GPU_MEMORY_AFTER.search(lowered)
    )
    colab = memory is None and _COLAB_FREE.search(lowered)
    # 'one A100', 'an RTX 4090': a GPU named without its memory has the memory of its smallest model.
    card = _gpu_card().search(lowered) if memory is None and not colab and device == "single-gpu" else None
    if limit is None and (memory or colab or card):
        if memory:
            gigabytes = float(memory.group(1))
        elif card:
            gigabytes = _gpu_card_memory()[re.sub(r"\W", "", card.group(1))]
            notes.append(
                f"'{written[card.start() : card.end()]}' read as one GPU with {gigabytes:g} GB "
                "(its smallest memory)"
            )
        else:
            gigabytes = 16.0
            notes.append("Google Colab's free tier read as one T4 GPU with 16 GB")
        # Vision-language models are adapted with low-rank adapters on frozen 16-bit weights.
        adapters = not inference and application_domain(application) == "vision-language"
        # A frozen encoder is only run: a head on its features trains without its gradients.
        limit = gigabytes * (_RUN_M_PER_GB if inference or frozen or adapters else _TRAIN_M_PER_GB)
        device = device or "single-gpu"
        use = (
            "running it in 16-bit"
            if inference
            else "running it frozen in 16-bit, a head trained on its features"
            if frozen
            else "fine-tuning it with low-rank adapters on its 16-bit weights, as vision-language "
            "models are tuned"
            if adapters
            else "fine-tuning it (16 bytes a parameter, three quarters of the memory left for activations)"
        )
        notes.append(
            f"{gigabytes:g} GB of GPU memory read as room for about {limit:,.0f}M parameters when {use}"
        )
    answers_in_text = {
        task_type,
        application_task_type(application) if application else None,
    } & TEXT_ANSWER_TASKS
    if device == "edge" and limit is None and answers_in_text and (on_board := _BOARD_MEMORY.search(lowered)):
        # A captioner or chat model on a board is bound by the board's memory (its 16-bit weights),
        # not by the encoder budget of Nano-class boards: 'a Jetson Orin Nano with 8 GB of memory'.
        limit = float(on_board.group(1)) * _RUN_M_PER_GB
        notes.append(
            f"{on_board.group(1)} GB on the board read as room to run up to about {limit:,.0f}M "
            "parameters in 16-bit"
        )
    if device == "edge" and limit is None and (board := _large_edge_board(lowered)):
        # A Jetson AGX Orin is no small board: a ViT-L runs on it, as on a laptop CPU with nothing
        # to train (the default edge budget is for Nano-class boards).
        limit = CPU_INFERENCE_BUDGET_M
        notes.append(f"a {board} read as room to run up to about {limit:g}M parameters")
    if device == "cpu" and limit is None and inference:
        # Nothing trained on the CPU: a model is only run, and a ViT-L runs, if slowly.
        limit = CPU_INFERENCE_BUDGET_M
        notes.append(f"a CPU with nothing to train read as room to run up to about {limit:g}M parameters")
    elif device == "single-gpu" and limit is None and inference:
        # A model only run (a captioner, a chat model) needs its 16-bit weights in memory, not
        # training state: a 7B vision-language model answers on one common 24 GB card.
        limit = GPU_INFERENCE_MEMORY_GB * _RUN_M_PER_GB
        notes.append(
            f"one GPU of unstated memory read as {GPU_INFERENCE_MEMORY_GB:g} GB, room to run up to about "
            f"{limit:,.0f}M parameters in 16-bit"
        )
    if waived:
        notes.append("model size said not to matter: the size of a model is not weighed")
    return ComputeBudget(
        device_class=device,
        max_parameters_m=limit,
        limit_said=said,
        min_parameters_m=floor,
        size_waived=waived,
    )
