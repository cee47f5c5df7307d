"""Task memory: privacy per user, persistence, feedback and assumptions, broken stores, CLI, server."""

from __future__ import annotations

import argparse
import gc
import hashlib
import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from agent.memory import (
    Feedback,
    InMemoryTaskMemory,
    Interaction,
    InteractionNotFoundError,
    MemoryAssumption,
    MemoryUnavailableError,
    PastTask,
    TaskMemory,
    TaskMemoryError,
    close_stores,
    collection_name,
    memory_dir,
    open_memory,
    open_store,
)
from agent.memory_cli import register
from agent.memory_rules import (
    FEEDBACK_CAP,
    FEEDBACK_STEP,
    apply_to_query,
    feedback_adjustments,
    suggest_assumptions,
)
from agent.query import ComputeBudget, StructuredQuery
from agent.settings import MemorySettings, Settings

TESTS_DIR = Path(__file__).parent
REPO_ROOT = TESTS_DIR.parent


class HashEmbedder:
    """Deterministic bag-of-words embedder: shared words give high cosine similarity, no model needed."""

    def __init__(self, dimensions: int = 64, name: str = "hash-bow-64") -> None:
        self.dimensions = dimensions
        self.name = name
        self.calls = 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One normalised vector per text."""
        self.calls += 1
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z0-9-]+", text.lower()):
                digest = hashlib.sha256(word.encode()).digest()
                out[row, digest[0] % self.dimensions] += 1.0 if digest[1] % 2 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


def interaction(
    user: str, text: str, *, recommended: Sequence[str] = ("satmae", "prithvi-eo-2"), **fields: object
) -> Interaction:
    """An interaction with sensible defaults."""
    return Interaction.model_validate(
        {
            "user_id": user,
            "query_text": text,
            "structured_query": {"application": text, "modality": ["multispectral"]},
            "recommended": list(recommended),
            "database_version": "test-db-1",
            **fields,
        }
    )


def settings(**memory: object) -> Settings:
    """Settings on the test's own data dir (conftest sets REMSA_DATA_DIR) with memory overrides."""
    return Settings(memory=MemorySettings.model_validate(memory))


StoreFactory = Callable[[], TaskMemory]


@pytest.fixture(autouse=True)
def _close_stores() -> Iterator[None]:
    """Stores are cached per process; each test starts and ends without open ones."""
    close_stores()
    yield
    close_stores()


@pytest.fixture(params=["in-memory", "chroma"])
def make_store(request: pytest.FixtureRequest) -> StoreFactory:
    """Builds a store of each implementation on the test's data dir (same encoder each call)."""
    encoder = HashEmbedder()

    def build() -> TaskMemory:
        if request.param == "in-memory":
            return InMemoryTaskMemory(encoder)
        return open_store(settings(backend="chroma"), encoder)

    return build


# --------------------------------------------------------------------------------------- stores


def test_two_users_never_see_each_others_memories(make_store: StoreFactory) -> None:
    store = make_store()
    alice = store.add(interaction("alice", "flood mapping with Sentinel-1 SAR in Bangladesh"))
    bob = store.add(interaction("bob", "flood mapping with Sentinel-1 SAR in Bangladesh"))

    for user, own, other in (("alice", alice, bob), ("bob", bob, alice)):
        found = store.similar(user, "flood mapping with Sentinel-1 SAR in Bangladesh", k=10)
        assert [t.interaction.interaction_id for t in found] == [own]
        assert {i.interaction_id for i in store.export(user)} == {own}
        assert store.count(user) == 1
        with pytest.raises(InteractionNotFoundError):
            store.record_feedback(user, other, "satmae", "up")

    assert store.similar("carol", "flood mapping", k=10) == []
    assert store.clear("alice") == 1
    assert store.count("alice") == 0
    assert store.count("bob") == 1


def test_similar_orders_by_cosine_and_applies_k_and_threshold(make_store: StoreFactory) -> None:
    store = make_store()
    near = store.add(interaction("u", "crop type classification sentinel-2 france"))
    mid = store.add(interaction("u", "crop type classification landsat"))
    far = store.add(interaction("u", "ship detection harbour radar"))

    found = store.similar("u", "crop type classification sentinel-2 france", k=3)
    assert [t.interaction.interaction_id for t in found][:2] == [near, mid]
    assert found[0].similarity == pytest.approx(1.0, abs=1e-5)
    assert all(a.similarity >= b.similarity for a, b in itertools.pairwise(found))

    assert len(store.similar("u", "crop type classification sentinel-2 france", k=1)) == 1
    above = store.similar("u", "crop type classification sentinel-2 france", k=3, min_similarity=0.5)
    assert far not in {t.interaction.interaction_id for t in above}
    assert store.similar("u", "   ", k=3) == []


def test_stored_interaction_round_trips_every_field(make_store: StoreFactory) -> None:
    store = make_store()
    original = interaction(
        "u",
        "burned area mapping",
        questions=[{"id": "q1", "field": "compute", "text": "What hardware?"}],
        answers={"q1": "a laptop"},
        feedback={"satmae": Feedback(vote="up", comment="worked well")},
        created_at=datetime(2025, 3, 1, 12, 0, tzinfo=UTC),
    )
    store.add(original)
    assert store.export("u") == [original]


def test_feedback_is_recorded_replaced_and_checked(make_store: StoreFactory) -> None:
    store = make_store()
    stored = store.add(interaction("u", "water body segmentation"))
    store.record_feedback("u", stored, "satmae", "down", "too slow on my laptop")
    store.record_feedback("u", stored, "prithvi-eo-2", "up")
    store.record_feedback("u", stored, "prithvi-eo-2", "down")  # a later vote replaces the earlier one

    feedback = store.export("u")[0].feedback
    assert feedback == {
        "satmae": Feedback(vote="down", comment="too slow on my laptop"),
        "prithvi-eo-2": Feedback(vote="down"),
    }
    with pytest.raises(ValueError, match="not recommended"):
        store.record_feedback("u", stored, "not-shown-model", "up")
    with pytest.raises(InteractionNotFoundError):
        store.record_feedback("u", "no-such-id", "satmae", "up")


def test_adding_the_same_interaction_twice_keeps_one(make_store: StoreFactory) -> None:
    store = make_store()
    item = interaction("u", "cloud masking")
    store.add(item)
    store.add(item)
    assert store.count("u") == 1


def test_export_is_oldest_first(make_store: StoreFactory) -> None:
    store = make_store()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for day in (3, 1, 2):
        store.add(interaction("u", f"task on day {day}", created_at=start + timedelta(days=day)))
    assert [i.query_text for i in store.export("u")] == ["task on day 1", "task on day 2", "task on day 3"]


def test_collection_names_are_valid_distinct_and_stable() -> None:
    users = ["a", "alice", "Alice", "ålice@example.org", "x" * 1000, "../../etc"]
    names = [collection_name(u) for u in users]
    assert len(set(names)) == len(users)
    assert names[1] == collection_name("alice")
    for name in names:
        assert 3 <= len(name) <= 512
        assert re.fullmatch(r"u-[0-9a-f]{32}", name)
    with pytest.raises(ValueError):
        collection_name("")


def test_memories_persist_across_a_process_restart(tmp_path: Path) -> None:
    current = settings(backend="chroma")
    store = open_store(current, HashEmbedder())
    kept = store.add(interaction("alice", "landslide detection in nepal", database_version="v7"))
    store.record_feedback("alice", kept, "satmae", "up")
    store.add(interaction("bob", "landslide detection in nepal"))

    script = (
        "import json, sys\n"
        f"sys.path[:0] = [{str(REPO_ROOT)!r}, {str(TESTS_DIR)!r}]\n"
        "from test_memory import HashEmbedder, settings\n"
        "from agent.memory import open_store\n"
        "store = open_store(settings(backend='chroma'), HashEmbedder())\n"
        "found = store.similar('alice', 'landslide detection in nepal', k=5)\n"
        "print(json.dumps([[t.interaction.interaction_id, t.interaction.database_version,\n"
        "                   t.interaction.feedback['satmae'].vote] for t in found]))\n"
    )
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [[kept, "v7", "up"]]
    assert (memory_dir(current) / "chroma.sqlite3").is_file()


# ------------------------------------------------------------------------------ opening and errors


def test_switching_memory_off_stores_nothing() -> None:
    off = settings(enabled=False)
    assert open_memory(off) is None
    assert not memory_dir(off).exists()


def test_default_backend_is_persistent_chroma_in_data_dir() -> None:
    current = settings()
    store = open_memory(current, HashEmbedder())
    assert store is not None
    assert store.location == str(current.data_dir / "memory")
    assert current.data_dir == Path(os.environ["REMSA_DATA_DIR"])


def test_in_memory_backend_is_one_store_per_process() -> None:
    current = settings(backend="in-memory")
    first = open_memory(current, HashEmbedder(name="hash-process"))
    assert first is not None
    first.add(interaction("u", "oil spill detection"))
    second = open_memory(current, HashEmbedder(name="hash-process"))
    assert second is first


def test_corrupted_store_raises_a_typed_error_naming_path_and_fix() -> None:
    current = settings()
    folder = memory_dir(current)
    folder.mkdir(parents=True)
    (folder / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)

    with pytest.raises(MemoryUnavailableError) as caught:
        open_memory(current, HashEmbedder())
    error = caught.value
    assert isinstance(error, TaskMemoryError)
    assert error.location == str(folder)
    assert str(folder) in str(error)
    assert "REMSA_MEMORY__ENABLED=false" in str(error)
    assert "delete it" in error.fix


def test_memory_path_that_is_a_file_raises_a_typed_error() -> None:
    current = settings()
    current.data_dir.mkdir(parents=True)
    memory_dir(current).write_text("not a folder")
    with pytest.raises(MemoryUnavailableError, match=re.escape(str(memory_dir(current)))):
        open_memory(current, HashEmbedder())


def test_agent_answers_without_memory_when_the_store_is_broken() -> None:
    """The orchestrator's pattern: a broken store means an answer without personalisation."""
    current = settings()
    memory_dir(current).mkdir(parents=True)
    (memory_dir(current) / "chroma.sqlite3").write_bytes(b"\x00garbage" * 64)

    def recall(text: str) -> list[PastTask]:
        try:
            store = open_memory(current, HashEmbedder())
        except MemoryUnavailableError:
            return []
        return store.similar("alice", text) if store is not None else []

    assert recall("flood mapping") == []


@pytest.mark.slow
def test_damaged_vector_index_raises_a_typed_error_on_use() -> None:
    current = settings()
    encoder = HashEmbedder()
    store = open_store(current, encoder)
    # Above chromadb's sync threshold (1000) the HNSW index is written to disk as segment files.
    items = [interaction("u", f"task number {n}") for n in range(1100)]
    vectors = np.random.default_rng(0).normal(size=(len(items), encoder.dimensions)).astype(np.float32)
    store.add_many(items, vectors)  # type: ignore[attr-defined]
    del store
    segments = list(memory_dir(current).glob("*/data_level0.bin"))
    assert segments, "expected an on-disk HNSW segment"
    for segment_file in memory_dir(current).glob("*/*.bin"):
        segment_file.write_bytes(b"\x01" * 37)

    script = (
        "import sys\n"
        f"sys.path[:0] = [{str(REPO_ROOT)!r}, {str(TESTS_DIR)!r}]\n"
        "from test_memory import HashEmbedder, settings\n"
        "from agent.memory import MemoryUnavailableError, open_store\n"
        "try:\n"
        "    open_store(settings(), HashEmbedder()).similar('u', 'task number 5')\n"
        "except MemoryUnavailableError as exc:\n"
        "    print('UNAVAILABLE', exc.location)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert f"UNAVAILABLE {memory_dir(current)}" in done.stdout


def test_store_embedded_with_another_encoder_is_reported() -> None:
    current = settings()
    open_store(current, HashEmbedder(name="encoder-a")).add(interaction("u", "road extraction"))
    other = open_store(current, HashEmbedder(name="encoder-b"))
    with pytest.raises(MemoryUnavailableError, match="encoder-a"):
        other.similar("u", "road extraction")
    assert other.count("u") == 1  # reading payloads does not need the same encoder
    assert [i.query_text for i in other.export("u")] == ["road extraction"]


def test_unreachable_chroma_server_raises_a_typed_error() -> None:
    port = _free_port()
    current = settings(backend="chroma-server", port=port)
    with pytest.raises(MemoryUnavailableError) as caught:
        open_memory(current, HashEmbedder())
    assert caught.value.location == f"chroma server http://127.0.0.1:{port}"
    assert "chroma run" in caught.value.fix


# --------------------------------------------------------------------------------- pure rules


def _past(similarity: float, feedback: dict[str, str], **query: object) -> PastTask:
    structured = {"application": "flood mapping", "modality": ["SAR"], **query}
    item = interaction(
        "u",
        "flood mapping",
        recommended=list(feedback) or ["satmae"],
        structured_query=structured,
        feedback={m: {"vote": v} for m, v in feedback.items()},
    )
    return PastTask(interaction=item, similarity=similarity)


def test_feedback_adjustment_signs_and_similarity_scaling() -> None:
    deltas = feedback_adjustments([_past(0.9, {"good": "up", "bad": "down"})])
    assert deltas["good"] == pytest.approx(FEEDBACK_STEP * 0.9)
    assert deltas["bad"] == pytest.approx(-FEEDBACK_STEP * 0.9)

    weaker = feedback_adjustments([_past(0.45, {"good": "up"})])
    assert weaker["good"] == pytest.approx(deltas["good"] / 2)


def test_feedback_adjustments_add_up_cap_and_cancel() -> None:
    many_ups = [_past(1.0, {"m": "up"}) for _ in range(5)]
    assert feedback_adjustments(many_ups) == {"m": pytest.approx(FEEDBACK_CAP)}
    many_downs = [_past(1.0, {"m": "down"}) for _ in range(5)]
    assert feedback_adjustments(many_downs) == {"m": pytest.approx(-FEEDBACK_CAP)}
    assert feedback_adjustments([_past(0.8, {"m": "up"}), _past(0.8, {"m": "down"})]) == {}
    assert feedback_adjustments([_past(-0.3, {"m": "up"})]) == {}
    assert feedback_adjustments([]) == {}


def test_feedback_changes_a_later_ranking_in_the_expected_direction() -> None:
    store = InMemoryTaskMemory(HashEmbedder())
    earlier = store.add(interaction("u", "flood mapping sentinel-1 bangladesh", recommended=["a", "b"]))
    store.record_feedback("u", earlier, "a", "down")
    store.record_feedback("u", earlier, "b", "up")

    scores = {"a": 0.80, "b": 0.72, "c": 0.60}
    past = store.similar("u", "flood mapping sentinel-1 bangladesh", k=3)
    deltas = feedback_adjustments(past)
    adjusted = {m: s + deltas.get(m, 0.0) for m, s in scores.items()}
    assert sorted(scores, key=scores.__getitem__, reverse=True) == ["a", "b", "c"]
    assert sorted(adjusted, key=adjusted.__getitem__, reverse=True) == ["b", "a", "c"]
    assert adjusted["c"] == scores["c"]


def test_assumption_when_a_device_recurs_in_most_similar_tasks() -> None:
    past = [
        _past(0.9, {}, compute={"device_class": "cpu"}),
        _past(0.8, {}, compute={"device_class": "cpu"}),
        _past(0.7, {}, compute={"device_class": "single-gpu"}),
        _past(0.6, {}, compute={"device_class": "cpu"}),
    ]
    query = StructuredQuery(application="flood mapping", modality=["SAR"])
    [assumption] = suggest_assumptions(query, past)
    assert (assumption.field, assumption.value, assumption.support, assumption.total) == (
        "compute.device_class",
        "cpu",
        3,
        4,
    )
    assert "3 of your last 4" in assumption.reason
    assert apply_to_query(query, [assumption]).compute.device_class == "cpu"


def test_no_assumption_for_a_field_the_user_filled_or_a_value_without_majority() -> None:
    past = [_past(0.9, {}, compute={"device_class": "cpu"}) for _ in range(3)]
    stated = StructuredQuery(application="x", modality=["SAR"], compute=ComputeBudget(device_class="edge"))
    assert suggest_assumptions(stated, past) == []
    stated_text = StructuredQuery(application="x", modality=["SAR"], deployment_device="jetson nano")
    assert suggest_assumptions(stated_text, past) == []

    mixed = [
        _past(0.9, {}, compute={"device_class": "cpu"}),
        _past(0.9, {}, compute={"device_class": "edge"}),
        _past(0.9, {}, compute={"device_class": "multi-gpu"}),
        _past(0.9, {}, compute={"device_class": "single-gpu"}),
    ]
    empty = StructuredQuery(application="x", modality=["SAR"])
    assert suggest_assumptions(empty, mixed) == []
    tie = [_past(0.9, {}, data_regime="few-shot")] * 2 + [_past(0.9, {}, data_regime="full-labels")] * 2
    assert suggest_assumptions(empty, tie) == []
    assert suggest_assumptions(empty, [_past(0.9, {}, data_regime="few-shot")]) == []  # needs two


def test_list_and_regime_assumptions_and_overrides() -> None:
    past = [
        _past(0.9, {}, region=["Europe"], sensor=["Sentinel-2"], data_regime="few-shot"),
        _past(0.8, {}, region=["Europe"], sensor=["Sentinel-2", "Sentinel-1"], data_regime="few-shot"),
        _past(0.7, {}, region=["Africa"], sensor=["Sentinel-1"]),
    ]
    query = StructuredQuery(application="flood mapping", modality=["SAR"])
    by_field = {a.field: a for a in suggest_assumptions(query, past)}
    assert set(by_field) == {"region", "sensor", "data_regime"}
    assert by_field["region"].value == ["Europe"]
    assert set(by_field["sensor"].value) == {"Sentinel-2", "Sentinel-1"}
    assert by_field["data_regime"].value == "few-shot"

    filled = apply_to_query(query, list(by_field.values()))
    assert filled.region == ["Europe"]
    assert filled.data_regime == "few-shot"

    # What the user states wins over any assumption.
    stated = StructuredQuery(application="flood mapping", modality=["SAR"], region=["Asia"])
    assert apply_to_query(stated, [by_field["region"]]).region == ["Asia"]
    with pytest.raises(ValueError, match="unknown assumption field"):
        apply_to_query(query, [MemoryAssumption(field="bands", value="B4", reason="r", support=2, total=2)])


def test_deployment_text_assumption_and_unreadable_past_queries() -> None:
    past = [_past(0.9, {}, deployment_device="Jetson Orin") for _ in range(2)]
    broken = _past(0.9, {})
    broken.interaction.structured_query = {"no_such_field": 1}
    query = StructuredQuery(application="flood mapping", modality=["SAR"])
    [assumption] = suggest_assumptions(query, [*past, broken])
    assert assumption.field == "deployment_device"
    assert assumption.total == 2  # the unreadable past query does not count
    assert apply_to_query(query, [assumption]).deployment_device == "Jetson Orin"


def test_earlier_tasks_shown_mention_similarity_and_votes() -> None:
    from agent.memory_offers import MemoryOffers, similar_tasks, suggestions, update_offers

    past = [_past(0.83, {"good": "up", "bad": "down"})]
    [shown] = similar_tasks(past)
    assert shown.similarity == 0.83 and shown.feedback == {"good": "up", "bad": "down"}
    offers = MemoryOffers()
    update_offers(offers, StructuredQuery(), past)
    [ratings] = suggestions(offers, {})
    assert "you liked good" in ratings.reason
    assert "you disliked bad" in ratings.reason


# ------------------------------------------------------------------------------ real encoder


@pytest.mark.slow
def test_real_encoder_finds_the_semantically_similar_task_in_chroma() -> None:
    store = open_memory(settings())
    assert store is not None
    flood = store.add(interaction("u", "Map flooded areas from Sentinel-1 radar images after monsoon rains"))
    store.add(interaction("u", "Classify crop types in France with Sentinel-2 time series"))
    store.add(interaction("u", "Detect ships in harbour aerial photographs"))

    found = store.similar("u", "inundation extent mapping with SAR during floods", k=3)
    assert found[0].interaction.interaction_id == flood
    assert found[0].similarity > found[1].similarity
    assert -1.0 <= found[-1].similarity <= 1.0
    assert store.similar("someone-else", "inundation extent mapping with SAR during floods") == []


# ---------------------------------------------------------------------------------------- CLI


def _run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="remsa")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_cli_exports_and_clears_one_user(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = open_store(settings(), HashEmbedder())
    store.add(interaction("alice", "glacier monitoring"))
    store.add(interaction("bob", "urban heat islands"))

    out = tmp_path / "alice.json"
    assert _run_cli(["memory", "export", "--user", "alice", "--out", str(out)]) == 0
    exported = json.loads(out.read_text())
    assert exported["user_id"] == "alice"
    assert exported["count"] == 1
    assert [Interaction.model_validate(i).query_text for i in exported["interactions"]] == [
        "glacier monitoring"
    ]

    capsys.readouterr()
    assert _run_cli(["memory", "export", "--user", "bob"]) == 0
    assert json.loads(capsys.readouterr().out)["interactions"][0]["user_id"] == "bob"

    assert _run_cli(["memory", "clear", "--user", "alice", "--yes"]) == 0
    assert "cleared 1 interaction(s)" in capsys.readouterr().out
    assert store.count("alice") == 0
    assert store.count("bob") == 1


def test_cli_clear_needs_yes_when_not_interactive(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store(settings(), HashEmbedder())
    store.add(interaction("alice", "glacier monitoring"))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    assert _run_cli(["memory", "clear", "--user", "alice"]) == 2
    assert "--yes" in capsys.readouterr().err
    assert store.count("alice") == 1


def test_cli_with_nothing_stored_creates_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run_cli(["memory", "export", "--user", "nobody"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 0
    assert _run_cli(["memory", "clear", "--user", "nobody", "--yes"]) == 0
    assert not memory_dir(settings()).exists()


def test_cli_reports_a_broken_store(capsys: pytest.CaptureFixture[str]) -> None:
    folder = memory_dir(settings())
    folder.mkdir(parents=True)
    (folder / "chroma.sqlite3").write_bytes(b"broken" * 50)
    assert _run_cli(["memory", "export", "--user", "alice"]) == 1
    assert str(folder) in capsys.readouterr().err


# ------------------------------------------------------------------------------ chroma server


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _chroma_cli() -> str | None:
    beside_python = Path(sys.executable).with_name("chroma")
    return str(beside_python) if beside_python.is_file() else shutil.which("chroma")


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[int]:
    """A real `chroma run` on loopback, on a free port, storing under tmp_path; yields the port."""
    cli = _chroma_cli()
    if cli is None:
        pytest.skip("the `chroma` command (installed with chromadb) is not on PATH or beside python")
    port = _free_port()
    log = (tmp_path / "chroma-server.log").open("wb")
    server = subprocess.Popen(
        [cli, "run", "--path", str(tmp_path / "server-data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1):
                    break
            except (urllib.error.URLError, ConnectionError):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    output = (tmp_path / "chroma-server.log").read_text(errors="replace")[-2000:]
                    pytest.fail(f"chroma server did not come up on port {port}:\n{output}")
                time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=15)
        log.close()


def _count_in_another_process(current: Settings, user: str) -> int:
    script = (
        "import sys\n"
        f"sys.path[:0] = [{str(REPO_ROOT)!r}, {str(TESTS_DIR)!r}]\n"
        "from test_memory import HashEmbedder, settings\n"
        "from agent.memory import open_store\n"
        f"print(open_store(settings(backend='chroma-server', port={current.memory.port}), HashEmbedder())"
        f".count({user!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
# chromadb's HttpClient leaks one socket per client from a failed request inside its constructor
# (get_user_identity); collect it inside this test so the warning is attributed and filtered here.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_replicas_share_one_chroma_server_and_users_stay_apart(chroma_server: int) -> None:
    from agent.memory_store import ChromaTaskMemory

    current = settings(backend="chroma-server", port=chroma_server)
    replica_a = open_memory(current, HashEmbedder())
    assert replica_a is not None
    assert replica_a.location == f"chroma server http://127.0.0.1:{chroma_server}"
    replica_b = ChromaTaskMemory.server("127.0.0.1", chroma_server, HashEmbedder())  # its own client

    written = replica_a.add(interaction("alice", "wildfire burned area mapping"))
    replica_a.add(interaction("bob", "wildfire burned area mapping"))
    replica_b.record_feedback("alice", written, "satmae", "up")

    found = replica_b.similar("alice", "wildfire burned area mapping", k=5)
    assert [t.interaction.interaction_id for t in found] == [written]
    assert found[0].interaction.feedback["satmae"].vote == "up"
    assert replica_a.export("alice")[0].feedback["satmae"].vote == "up"
    assert _count_in_another_process(current, "alice") == 1
    assert replica_b.clear("alice") == 1
    assert replica_a.count("alice") == 0
    assert replica_a.count("bob") == 1
    assert not memory_dir(current).exists()  # nothing was written locally

    replica_b.close()
    close_stores()
    del replica_a, replica_b
    gc.collect()
