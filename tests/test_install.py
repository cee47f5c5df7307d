"""The lean install: shipped derived artefacts match the database, optional parts name their extra,
and the public import is cheap."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agent.extras import INSTALL, MissingExtraError, require
from agent.settings import Settings
from rsfmd.loader import derived_dir, load_records
from tools.capenc.matrix import prepare
from tools.capenc.predict import N_BOOTSTRAP, CapabilitiesPredictor, fit_config
from tools.retrieval import record_text, text_key


def test_shipped_record_vectors_cover_every_record_of_the_database() -> None:
    [path] = derived_dir().glob("records-*.npz")
    with np.load(path, allow_pickle=False) as data:
        keys = {str(k) for k in data["keys"]}
        assert data["vectors"].shape == (len(keys), 384)
    missing = [r.model_id for r in load_records() if text_key(record_text(r)) not in keys]
    assert missing == [], f"run `remsa index --package` after editing RS-FMD ({len(missing)} stale)"


def test_shipped_capabilities_fit_is_the_fit_of_the_current_database() -> None:
    settings = Settings()
    matrix, _ = prepare(load_records(), settings.capabilities.min_results)
    key = CapabilitiesPredictor.cache_key(matrix, fit_config(settings), N_BOOTSTRAP)
    assert (derived_dir() / f"fit-{key[:20]}.npz").exists(), "run `remsa index --package`"


def test_a_fresh_data_dir_answers_without_encoding_or_fitting(tmp_path: Path) -> None:
    from agent.api import select_models
    from agent.resources import get_resources

    settings = Settings(data_dir=tmp_path / "fresh")
    select_models("flood mapping with Sentinel-1", k=3, clarify=False, settings=settings)
    resources = get_resources(settings)
    assert resources.retrieval.encoded == 0
    assert not (tmp_path / "fresh" / "cache" / "capenc").exists()


def test_a_missing_extra_names_the_install_command() -> None:
    with pytest.raises(MissingExtraError, match=r"pip install 'remsa\[app\]'"):
        require("remsa_module_that_does_not_exist", "app", "The web app")
    assert require("json", "app", "JSON").dumps([]) == "[]"
    assert set(INSTALL) >= {"app", "memory", "llm", "local-llm", "st", "extract", "fit", "bench", "encoder"}


def test_import_remsa_is_cheap_and_exports_the_api() -> None:
    code = "import sys, remsa; print(int('agent.api' in sys.modules), ' '.join(remsa.__all__))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded, names = out.split(maxsplit=1)
    assert loaded == "0"  # nothing heavy until a name is used
    assert {"select_models", "Session", "Selection"} <= set(names.split())
    from remsa import Session, select_models

    assert callable(select_models) and Session.__name__ == "Session"
