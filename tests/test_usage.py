"""RS-FMD usage rows: every identifier is one its source lists, snippets come from one template per
library, and answers (cards, JSON, Markdown, the CLI) carry them."""

from __future__ import annotations

import csv
import json
import re
from functools import cache
from importlib import resources
from pathlib import Path

import pytest

from agent.ask_cli import render_text
from agent.query import StructuredQuery
from agent.selection import Links, RankedModel, Selection, Status
from rsfmd.catalog import database_stats
from rsfmd.loader import default_data_dir, load_database, load_records
from rsfmd.schema import ModelRecord
from rsfmd.usage import USAGE_COLUMNS, Usage, UsageSnippet, library_templates, snippet
from ui.cards import model_card_html

SOURCES = Path(str(resources.files("rsfmd").joinpath("data", "usage_sources")))


@cache
def _records() -> dict[str, ModelRecord]:
    return {r.model_id: r for r in load_records()}


def _source_list(name: str) -> tuple[set[str], str]:
    """The names a committed source list records, and its header."""
    lines = (SOURCES / name).read_text(encoding="utf-8").splitlines()
    header = "\n".join(line for line in lines if line.startswith("#"))
    names = {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}
    return names, header


def _rows(library: str) -> list[tuple[str, Usage]]:
    return [(r.model_id, u) for r in _records().values() for u in r.usage if u.library == library]


def _record_urls(record: ModelRecord) -> list[str]:
    urls = [record.weights, *(v.weights for v in record.variants), *(s.url for s in record.sources)]
    return [u for u in urls if u]


def _names_hf_repo(url: str, repo: str) -> bool:
    return re.match(rf"^https://huggingface\.co/{re.escape(repo)}(?:$|[/?#])", url) is not None


def test_usage_table_has_its_columns_and_every_row_names_a_record() -> None:
    with (default_data_dir() / "usage.csv").open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames or ()) == USAGE_COLUMNS
        rows = list(reader)
    assert rows
    assert {row["model_id"] for row in rows} <= set(_records())
    assert load_database().errors == []
    assert sum(len(r.usage) for r in _records().values()) == len(rows)


def test_every_row_has_a_source_url_and_a_known_library() -> None:
    for record in _records().values():
        for usage in record.usage:
            assert usage.source_url.startswith(("https://", "http://")), (record.model_id, usage)
            assert usage.library in library_templates()


def test_torchgeo_identifiers_are_in_the_recorded_weight_tables() -> None:
    names, header = _source_list("torchgeo_weights.txt")
    assert "github.com/torchgeo/torchgeo" in header and re.search(r"[0-9a-f]{40}", header)
    rows = _rows("torchgeo")
    assert rows, "no TorchGeo rows"
    for model_id, usage in rows:
        assert usage.identifier in names, f"{model_id}: {usage.identifier} is not a TorchGeo weight"
        assert "github.com/torchgeo/torchgeo/blob/" in usage.source_url


def test_terratorch_identifiers_are_in_the_recorded_registry() -> None:
    names, header = _source_list("terratorch_backbones.txt")
    commit = re.search(r"[0-9a-f]{40}", header)
    assert "github.com/IBM/terratorch" in header and commit
    rows = _rows("terratorch")
    assert rows, "no TerraTorch rows"
    for model_id, usage in rows:
        assert usage.identifier in names, f"{model_id}: {usage.identifier} is not a registered backbone"
        assert commit.group(0) in usage.source_url, "the row must cite the registry commit the list records"


@pytest.mark.parametrize("library", ["huggingface", "transformers", "open_clip"])
def test_hub_identifiers_are_the_records_own_or_a_cited_model_card(library: str) -> None:
    for model_id, usage in _rows(library):
        repo = usage.identifier.removeprefix("hf-hub:") if library == "open_clip" else usage.identifier
        if library == "open_clip":
            assert usage.identifier.startswith("hf-hub:"), usage.identifier
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", repo), usage.identifier
        urls = _record_urls(_records()[model_id])
        assert any(_names_hf_repo(u, repo) for u in urls), f"{model_id}: {repo} is not among its URLs"
        cited = usage.source_url in urls or _names_hf_repo(usage.source_url, repo)
        assert cited, (model_id, usage.source_url)


def test_timm_names_come_from_their_model_card() -> None:
    for model_id, usage in _rows("timm"):
        assert usage.source_url.startswith(f"https://huggingface.co/timm/{usage.identifier}"), model_id


def test_repository_rows_clone_the_records_repository_and_point_at_its_weights() -> None:
    for model_id, usage in _rows("repository"):
        record = _records()[model_id]
        assert record.repository is not None and record.repository.startswith(usage.identifier), model_id
        assert usage.source_url == record.repository
        known = [record.weights, *(v.weights for v in record.variants)]
        assert usage.weights is None or usage.weights in known, model_id


def test_most_records_releasing_weights_say_how_to_load_them() -> None:
    records = list(_records().values())
    releasing = [r for r in records if r.weights_released]
    covered = [r for r in releasing if r.usage]
    assert len(covered) >= 0.7 * len(releasing)
    stats = database_stats(records)["usage"]
    assert stats["records_releasing_weights"] == len(releasing)
    assert stats["records_with_usage"] == len(covered)
    assert stats["records_by_library"]["torchgeo"] == len({m for m, _ in _rows("torchgeo")})


@pytest.mark.parametrize("library", sorted(library_templates()))
def test_each_library_template_renders(library: str) -> None:
    identifier = {
        "repository": "https://github.com/example/model",
        "open_clip": "hf-hub:example/model",
        "torchgeo": "ResNet50_Weights.SENTINEL2_ALL_MOCO",
    }.get(library, "example/model")
    usage = Usage(
        library=library,
        identifier=identifier,
        variant="ViT-B",
        inputs="13 Sentinel-2 bands",
        source_url="https://example.org/card",
        weights="https://example.org/weights.pth",
    )
    code = snippet(usage)
    assert identifier in code and "{" not in code and "}" not in code
    assert code.startswith("# ViT-B - 13 Sentinel-2 bands\n")
    if library_templates()[library].language == "python":
        compile(code, f"<{library} snippet>", "exec")
    else:
        assert f"git clone {identifier}" in code and "https://example.org/weights.pth" in code


def test_unknown_library_and_bad_rows_are_errors_with_their_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown library"):
        Usage(library="keras", identifier="x", source_url="https://example.org")
    record = next(iter(_records().values()))
    (tmp_path / "models.jsonl").write_text(record.to_json_line() + "\n", encoding="utf-8")
    rows = [
        [record.model_id, "huggingface", "a/b", "", "", "https://huggingface.co/a/b", "", ""],
        ["no-such-model", "huggingface", "a/b", "", "", "https://huggingface.co/a/b", "", ""],
        [record.model_id, "keras", "a/b", "", "", "https://huggingface.co/a/b", "", ""],
    ]
    with (tmp_path / "usage.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([list(USAGE_COLUMNS), *rows])
    result = load_database(tmp_path, strict=False)
    assert [(e.line, e.field) for e in result.errors] == [(3, "model_id"), (4, "library")]
    assert [u.identifier for u in result.records[0].usage] == ["a/b"]


def test_usage_stays_out_of_the_jsonl_lines() -> None:
    record = next(r for r in _records().values() if r.usage)
    assert "usage" not in json.loads(record.to_json_line())


def _ranked(model_id: str) -> RankedModel:
    record = _records()[model_id]
    return RankedModel(
        rank=1,
        model_id=model_id,
        name=record.model_name,
        score=80.0,
        confidence=0.5,
        reasons=["fits"],
        links=Links(code=record.repository),
        usage=[UsageSnippet.of(u) for u in record.usage],
    )


def test_card_json_markdown_and_cli_show_how_to_load() -> None:
    model = _ranked("ssl4eo-s12")
    first = model.usage[0]
    html = model_card_html(model)
    assert '<details class="remsa-usage">' in html and "<pre><code" in html
    assert first.identifier in html and f'href="{first.source_url}"' in html
    selection = Selection(status=Status.ok, query=StructuredQuery(), query_text="t", models=[model])
    entry = json.loads(selection.model_dump_json())["models"][0]["usage"][0]
    assert entry["library"] == first.library and entry["snippet"] == snippet(first)
    markdown = selection.to_markdown()
    assert "Load with:" in markdown and f"```{library_templates()[first.library].language}" in markdown
    assert snippet(first) in render_text(selection, show_code=True)
    assert snippet(first) not in render_text(selection) and "Load with:" in render_text(selection)


def test_card_shows_nothing_when_no_way_to_load_is_known() -> None:
    model = _ranked("ssl4eo-s12").model_copy(update={"usage": []})
    assert "remsa-usage" not in model_card_html(model)
