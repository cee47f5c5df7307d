"""The compute the task allows: the device class (phrasings in ``cues.csv``, field ``device``), and
parameter limits and floors from numbers ('under 100M parameters'), a standard backbone's size
('ViT-L or larger') or GPU memory ('a 24 GB GPU', 'one A100': memory in ``gpu_memory.csv``).
"""

from __future__ import annotations

import re
from functools import cache

from agent.query import ComputeBudget
from agent.reading.context import sentence_spans
from agent.reading.probes import Probed, required_literal
from agent.reading.tables import cue_pattern, cues, table_rows
from rsfmd.backbones import get_backbone_table, spelling_pattern
from rsfmd.vocab import application_domain, application_task_type

# Data-centre and workstation GPUs named by model ('one A100', 'a T4').
_GPU_MODELS = r"a100|h100|h200|v100|a6000|a40|l40s?|t4"


# A size: '100M parameters', '1.5 billion params' (number, unit when written, the word).
_SIZE_NUMBER = r"(?:~\s*|about\s+|around\s+|roughly\s+)?(\d+(?:\.\d+)?)\s*(k|m|million|b|billion)?"
_PARAM_WORD = r"(?:param|parameters|params|(?:int8|int4|fp16|fp32|8-bit|16-bit)\s+weights)"
_PARAMS = re.compile(
    r"(?:under|below|less than|fewer than|at most|max(?:imum)?|<=?|up to|no more than|smaller than|within)\s*"
    rf"{_SIZE_NUMBER}\s*{_PARAM_WORD}"
)
_PARAMS_UNIT_FIRST = re.compile(
    # ('under 100M', written together: 'under 1 m' is a ground resolution)
    r"(?:under|below|less than|at most|<=?|up to)\s*(\d+(?:\.\d+)?)(m|b)\b(?!\s*(?:gsd|res))"
)
# '20 million parameters at most', '50M params max', '100M parameters or less'.
_PARAMS_BOUND_AFTER = re.compile(
    rf"\b{_SIZE_NUMBER}\s*{_PARAM_WORD}\s*(?:at most|max(?:imum)?\b|or (?:less|fewer|smaller|below)|tops\b"
    r"|(?:is|are) (?:our|the) (?:ceiling|limit|cap|maximum|budget)\b)"
)
# 'the budget is 30M parameters', 'a ceiling of 20M params'.
_PARAMS_BUDGET = re.compile(
    rf"\b(?:budget|ceiling|cap|limit)\s+(?:is\s+|of\s+)?(?:about\s+|around\s+)?{_SIZE_NUMBER}\s*{_PARAM_WORD}"
)
# 'over 1B parameters', 'at least 300M params', 'billion-parameter models', '1B+ models'.
_PARAMS_FLOOR = re.compile(
    r"(?:(?<!no )(?<!not )(?:over|above|more than|larger than|bigger than|greater than|exceeding)|at least|"
    r"no (?:fewer|less|smaller) than|min(?:imum)?(?: of)?|>=?)\s*"
    rf"{_SIZE_NUMBER}\+?[\s-]*{_PARAM_WORD}\b"
)
# The words that negate a size said after them ('no', "can't be bigger than").
_NEGATION = r"no|nothing|not|can'?t|cannot|mustn'?t|shouldn'?t|won'?t"
# 'no model over 100M parameters', 'anything much over ~30M parameters' (or a ruled-out 'anything
# over ~100M parameters is off the table', restated as a negation by the reading): a floor ruled
# out is a limit.
_PARAMS_NEGATED_FLOOR = re.compile(
    rf"\b(?:{_NEGATION}|anything)\b[^.;,]{{0,40}}?"
    r"(?:over|above|beyond|past|more than|larger than|bigger than|exceeding)\s*"
    rf"{_SIZE_NUMBER}\s*{_PARAM_WORD}"
)
_PARAMS_FLOOR_PLUS = re.compile(rf"\b(\d+(?:\.\d+)?)\s*(m|b)\+[\s-]*(?:{_PARAM_WORD}|models?)\b")
_PARAMS_BILLION_SCALE = re.compile(r"\bbillion[\s-](?:param|parameters?|params|scale)\b")
# 'anything in the billion-parameter range is out' (restated 'no anything in the billion-parameter
# range'): the scale ruled out is a limit.
_PARAMS_NEGATED_BILLION = re.compile(rf"\b(?:no|nothing|not)\b[^.;,]{{0,40}}?{_PARAMS_BILLION_SCALE.pattern}")
_PARAMS_BETWEEN = re.compile(rf"between\s*{_SIZE_NUMBER}\s*(?:and|to|-)\s*{_SIZE_NUMBER}\s*{_PARAM_WORD}\b")


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
# Tasks whose answer is text a language model writes: on a board, memory bounds the model.
_TEXT_ANSWERS = frozenset({"captioning", "vqa"})
# The memory of an edge board: 'a Jetson Orin Nano with 8 GB of shared memory', '8 GB RAM'.
_BOARD_MEMORY = re.compile(
    r"(\d+(?:\.\d+)?)\s*gb\b(?:\s+of)?\s*(?:shared\s+|unified\s+|lpddr\d*x?\s+)?(?:memory|ram)\b"
)
_INFERENCE_TASKS = frozenset(
    {"captioning", "vqa", "visual grounding", "retrieval", "zero-shot classification"}
)


_PARAMETER_UNITS = {"k": 0.001, "m": 1.0, "million": 1.0, "b": 1000.0, "billion": 1000.0}


def _millions(value: str, unit: str | None) -> float:
    return float(value) * _PARAMETER_UNITS[(unit or "m").lower()]


def _parameter_limit(text: str) -> float | None:
    if between := _PARAMS_BETWEEN.search(text):
        # 'between 100M and 1B parameters': an unstated first unit is the second one's.
        return _millions(between.group(3), between.group(4))
    match = (
        _PARAMS.search(text)
        or _PARAMS_UNIT_FIRST.search(text)
        or _PARAMS_BOUND_AFTER.search(text)
        or _PARAMS_BUDGET.search(text)
        or _PARAMS_NEGATED_FLOOR.search(text)
    )
    if not match:
        if _PARAMS_NEGATED_BILLION.search(text):
            return 1000.0
        return _limit_said_in_sentence(text)
    return _millions(match.group(1), match.group(2))


_PARAMETER_COUNT = re.compile(rf"\b{_SIZE_NUMBER}\s*{_PARAM_WORD}\b")


def _limit_said_in_sentence(text: str) -> float | None:
    """'10M parameters is the hard ceiling', '40M parameters is the most I can afford': the one
    parameter count of a sentence that says a limit (``cues.csv``, field ``size_limit``) and asks
    for no floor."""
    limit_words = cue_pattern("size_limit", "limit")
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        counts = list(_PARAMETER_COUNT.finditer(sentence))
        if len(counts) == 1 and limit_words.search(sentence) and not _PARAMS_FLOOR.search(sentence):
            return _millions(counts[0].group(1), counts[0].group(2))
    return None


# 'we can fine-tune billion-parameter backbones': a size the user can afford, not one asked for.
_CAPACITY = re.compile(r"\b(?:can|could|able to)\s+(?:[\w-]+\s+){0,3}$")
# 'the encoder can't be bigger than 100M parameters': a floor said not to be crossed is a limit.
_NEGATED_BEFORE = re.compile(rf"\b(?:{_NEGATION})\b[^.;,]{{0,25}}$")


def _asked(text: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The first match of ``pattern`` that is not said as what the user can afford, nor negated."""
    return next(
        (
            m
            for m in pattern.finditer(text)
            if not _CAPACITY.search(before := text[max(0, m.start() - 40) : m.start()])
            and not _NEGATED_BEFORE.search(before)
        ),
        None,
    )


def _parameter_floor(text: str) -> float | None:
    """The smallest size asked for ('over 1B parameters', 'billion-parameter models'), in millions."""
    if between := _PARAMS_BETWEEN.search(text):
        return _millions(between.group(1), between.group(2) or between.group(4))
    if match := _asked(text, _PARAMS_FLOOR) or _asked(text, _PARAMS_FLOOR_PLUS):
        return _millions(match.group(1), match.group(2))
    return 1000.0 if _asked(text, _PARAMS_BILLION_SCALE) else None


# 'a ViT-L or larger', 'at most Swin-B': a size bound given as a standard backbone's size. The
# bound is loose by a tenth, as the same backbone is counted a little differently across records.
_BACKBONE_BOUND_SLACK = 0.1
BOUND_AFTER = re.compile(
    r"\s*(?:-?sized?\s+|size\s+|class\s+)?(?:models?\s+)?(?:or|and)\s+"
    r"(?:(larger|bigger|above|more|heavier)|(smaller|below|less|lighter))\b"
)
BOUND_BEFORE = re.compile(
    r"(?:(at least|no smaller than|not smaller than|minimum of)|"
    r"(at most|no (?:larger|bigger|heavier) than|nothing (?:larger|bigger|heavier) than|"
    r"not (?:larger|bigger|heavier) than|up to|"
    # 'I'd rather not go beyond a ViT-Base', 'nothing beyond a ResNet-50'
    r"not (?:to )?go (?:beyond|above|past|over|bigger than|larger than)|nothing (?:beyond|above|past)|"
    # 'anything much bigger than ViT-Base is ruled out'
    r"anything (?:much )?(?:(?:larger|bigger|heavier) than|beyond|above|past)))"
    r"\s+(?:an?\s+|the\s+)?$"
)
_SIZED_AS = re.compile(r"[\s-]*(?:sized|size|scale|class)\b(?!\s+(?:or|and)\b)")
_BOUND_FAMILIES = ("ViT-", "Swin", "ResNet-", "WRN-", "ConvNeXt-")


@cache
def _bound_backbones() -> Probed[tuple[re.Pattern[str], str, float]]:
    """(pattern, name, size in millions) of the generic backbones a size can be given as."""
    out = []
    for backbone in get_backbone_table().values():
        if backbone.name.startswith(_BOUND_FAMILIES):
            for spelling in (backbone.name, *backbone.synonyms):
                # Not inside a longer spelling: 'ViT-L' is not the start of 'ViT-L/16'.
                pattern = re.compile(spelling_pattern(spelling) + r"(?!/)", re.IGNORECASE)
                out.append((pattern, backbone.name, backbone.params_m))
    return Probed(out, lambda row: required_literal(row[0]))


def _backbone_bound(lowered: str, written: str) -> tuple[float | None, float | None, str] | None:
    """(limit, floor, note) from a size given as a standard backbone's ('ViT-L or larger')."""
    for pattern, name, size in _bound_backbones().candidates(lowered):
        for match in pattern.finditer(lowered):
            after = BOUND_AFTER.match(lowered, match.end())
            before = BOUND_BEFORE.search(lowered, max(0, match.start() - 32), match.start())
            bound = after or before
            if bound is None:
                if sized := _SIZED_AS.match(lowered, match.end()):
                    # 'a ViT-B sized model': about that size, read as no larger.
                    said = written[match.start() : sized.end()]
                    value = size * (1 + _BACKBONE_BOUND_SLACK)
                    value = round(value) if value >= 10 else round(value, 1)
                    return (
                        value,
                        None,
                        f"'{said}' read as at most about {value:g}M parameters ({name}: {size:g}M)",
                    )
                continue
            said = written[
                (before.start() if before else match.start()) : (after.end() if after else match.end())
            ]
            larger = bool(bound.group(1))
            value = size * (1 - _BACKBONE_BOUND_SLACK if larger else 1 + _BACKBONE_BOUND_SLACK)
            value = round(value) if value >= 10 else round(value, 1)
            side = "least" if larger else "most"
            note = f"'{said}' read as at {side} about {value:g}M parameters ({name}: {size:g}M)"
            return (None, value, note) if larger else (value, None, note)
    return None


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
    inference = regime == "zero-shot" or task_type in _INFERENCE_TASKS
    device = _device(lowered)
    limit = _parameter_limit(lowered)
    floor = _parameter_floor(lowered)
    if floor is not None and limit is not None and floor >= limit:
        # 'fewer than 1B parameters, not over 1B', 'anything in the billion-parameter range is out':
        # the limit alone
        floor = None
    bound = _backbone_bound(lowered, written)
    if bound and ((limit is None and bound[0]) or (floor is None and bound[1])):
        # 'a ViT-L or larger, under 500M parameters': the backbone gives the side the numbers do not.
        limit, floor = limit or bound[0], floor or bound[1]
        notes.append(bound[2])
        if floor is not None and limit is not None and floor >= limit:
            floor = None
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
    answers_in_text = {task_type, application_task_type(application) if application else None} & _TEXT_ANSWERS
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
        device_class=device, max_parameters_m=limit, min_parameters_m=floor, size_waived=waived
    )
