"""Schema round trip and vocabulary normalisation."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from rsfmd.datasets import dataset_family, dataset_info, find_dataset, get_dataset_table
from rsfmd.loader import load_records
from rsfmd.regions import Coverage, coverage, region_ancestors, region_coverage, region_kind
from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.vocab import (
    UnknownTermError,
    get_vocabulary,
    list_vocabularies,
    metric_info,
    normalise_modality,
    normalise_sensor,
    normalise_task_type,
    sensor_modality,
)
from tests.records import make_record


def _minimal(**extra: object) -> dict[str, object]:
    data: dict[str, object] = {
        "model_id": "demo",
        "model_name": "Demo",
        "short_description": "A demonstration record for tests.",
        "category": "vision",
        "sources": [{"url": "https://example.org/paper", "fields": ["model_name"]}],
    }
    data.update(extra)
    return data


@pytest.mark.parametrize("spelling", ["S1", "Sentinel-1 GRD", "sentinel 1", "SENTINEL1", "s1_grd"])
def test_sentinel_1_spellings_are_one_sensor(spelling: str) -> None:
    assert normalise_sensor(spelling) == "Sentinel-1"


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("multi-spectral", "Multispectral"),
        ("HSI", "Hyperspectral"),
        ("radar", "SAR"),
        ("time series", "Multi-temporal"),
    ],
)
def test_modality_synonyms(spelling: str, canonical: str) -> None:
    assert normalise_modality(spelling) == canonical


def test_task_type_synonyms() -> None:
    assert normalise_task_type("semantic segmentation") == "segmentation"
    assert normalise_task_type("Visual Question Answering") == "vqa"


def test_unknown_term_names_the_table_and_suggests() -> None:
    with pytest.raises(UnknownTermError) as err:
        normalise_sensor("Sentinel-22")
    assert "rsfmd/vocab/sensors.csv" in str(err.value)
    assert "Sentinel-2" in str(err.value)


def test_sensor_implies_modality() -> None:
    assert sensor_modality("S1") == "SAR"
    assert sensor_modality("EnMAP") == "Hyperspectral"
    assert sensor_modality("Sentinel-2") == "Multispectral"


def test_every_sensor_modality_is_a_known_modality() -> None:
    modalities = set(get_vocabulary("modalities").names)
    sensors = get_vocabulary("sensors")
    for name in sensors.names:
        assert sensors.column(name, "modality") in modalities, name


def test_applications_map_to_known_task_types() -> None:
    task_types = set(get_vocabulary("task_types").names)
    apps = get_vocabulary("applications")
    for name in apps.names:
        assert apps.column(name, "task_type") in task_types, name


def test_typical_modalities_are_known_modalities() -> None:
    modalities = set(get_vocabulary("modalities").names)
    apps = get_vocabulary("applications")
    for name in apps.names:
        typical = apps.column(name, "typical_modalities").split("|")
        assert typical and set(typical) <= modalities, name


def test_registry_is_complete() -> None:
    for name in list_vocabularies():
        assert get_vocabulary(name).names


def test_metric_direction() -> None:
    assert metric_info("rmse").higher_is_better is False
    assert metric_info("mean IoU").higher_is_better is True


def test_round_trip_load_dump_load_is_equal() -> None:
    record = ModelRecord.model_validate(
        _minimal(
            release_date="2023-05-01",
            modalities=["ms"],
            supported_sensors=["s2"],
            variants=[{"name": "ViT-B", "num_parameters": 86.0}],
            pretraining_phases=[{"dataset": "SSL4EO-S12", "masking_ratio": 0.75, "sensors": ["S2"]}],
            spectral_alignment="partial",
            benchmarks=[
                {
                    "task_type": "scene classification",
                    "dataset": "EuroSAT",
                    "metrics": ["accuracy"],
                    "metrics_value": [98.5],
                    "sampling_percentage": 10,
                    "source_url": "https://example.org/paper",
                }
            ],
            confidence={"supported_sensors": 0.6},
        )
    )
    again = ModelRecord.model_validate_json(record.to_json_line())
    assert again == record
    assert again.release_date == dt.date(2023, 5, 1)
    assert again.supported_sensors == ["Sentinel-2"]
    assert again.benchmarks[0].metrics == ["OA"]


def test_shipped_database_round_trips() -> None:
    for record in load_records():
        # the usage rows live in usage.csv, joined on loading, so a JSONL line leaves them out
        line = record.to_json_line()
        assert ModelRecord.model_validate_json(line) == record.model_copy(update={"usage": []})


def test_confidence_must_name_a_field_and_be_in_range() -> None:
    with pytest.raises(ValidationError, match="not a ModelRecord field"):
        ModelRecord.model_validate(_minimal(confidence={"colour": 0.5}))
    with pytest.raises(ValidationError, match=r"must be in \[0, 1\]"):
        ModelRecord.model_validate(_minimal(confidence={"modalities": 1.5}))


def test_source_fields_must_be_record_fields() -> None:
    with pytest.raises(ValidationError, match="not a ModelRecord field"):
        ModelRecord.model_validate(_minimal(sources=[{"url": "https://example.org", "fields": ["flavour"]}]))


def test_smallest_variant_drives_compute_budget() -> None:
    record = ModelRecord.model_validate(
        _minimal(
            num_parameters=300,
            variants=[{"name": "S", "num_parameters": 22}, {"name": "L", "num_parameters": 300}],
        )
    )
    assert record.smallest_parameters == 22
    assert record.largest_parameters == 300


def test_rmse_is_not_range_limited_to_percent() -> None:
    bench = Benchmark.model_validate(
        {
            "task_type": "regression",
            "dataset": "BioMassters",
            "metrics": ["RMSE"],
            "metrics_value": [140.5],
            "source_url": "https://example.org",
        }
    )
    assert bench.values() == {"RMSE": 140.5}


def test_a_bracketed_protocol_qualifier_still_finds_the_dataset() -> None:
    pangaea = find_dataset("HLS Burn Scars (PANGAEA)")
    assert pangaea is not None and pangaea.name == "HLS Burn Scars"
    assert pangaea.application == "burn scar mapping"
    assert find_dataset("Sen1Floods11 (GEO-Bench-2)") == find_dataset("Sen1Floods11")
    # Only a trailing qualifier is dropped, and only when the full name is unknown.
    assert find_dataset("CHOICE (change detection, L-3)") is None
    assert find_dataset("(PANGAEA)") is None


def test_release_year_stands_in_for_an_unknown_date_and_must_agree_with_a_known_one() -> None:
    base = {
        "model_id": "m",
        "model_name": "M",
        "short_description": "A test foundation model.",
        "category": "vision",
        "sources": [{"url": "https://example.org/p"}],
    }
    assert ModelRecord.model_validate({**base, "release_year": 2024}).year == 2024
    assert ModelRecord.model_validate({**base, "release_date": "2023-05-01"}).year == 2023
    both = {**base, "release_date": "2023-05-01", "release_year": 2023}
    assert ModelRecord.model_validate(both).year == 2023
    with pytest.raises(ValidationError, match="release_year disagrees"):
        ModelRecord.model_validate({**base, "release_date": "2023-05-01", "release_year": 2024})


def test_weights_released_reads_the_flag_first_then_a_link() -> None:
    assert make_record(weights_available=False).weights_released is False
    assert make_record(weights_available=True).weights_released is True
    assert make_record(weights="https://example.org/w").weights_released is True
    assert make_record().weights_released is None


def test_a_weights_link_beside_an_unreleased_flag_is_refused() -> None:
    with pytest.raises(ValidationError, match="weights_available is false but a weights link"):
        make_record(weights_available=False, weights="https://example.org/w")


def test_regions_form_a_hierarchy_placed_on_continents() -> None:
    vocab = get_vocabulary("regions")
    for name in vocab.names:
        parents = [p for p in vocab.column(name, "part_of").split("|") if p]
        assert all(p in vocab.rows for p in parents), name
        assert name not in {a for p in parents for a in region_ancestors(p)}, f"{name} is part of itself"
        if region_kind(name) in {"country", "subregion", "city"}:
            places = {region_kind(a) for a in region_ancestors(name)}
            assert places & {"continent", "polar"}, f"{name} is on no continent"
    assert region_ancestors("Kenya") == {"Kenya", "East Africa", "Sub-Saharan Africa", "Africa"}
    assert region_ancestors("Nairobi") == {"Nairobi", "Kenya", "East Africa", "Sub-Saharan Africa", "Africa"}
    assert "Arctic" in region_ancestors("Svalbard") and "Norway" in region_ancestors("Svalbard")
    # Every region the dataset table names is in the vocabulary.
    table = get_dataset_table()
    unknown = {r for n in table.names for r in dataset_info(n).regions if vocab.get(r) is None}
    assert unknown == set()


def test_region_coverage_says_how_data_from_one_region_relates_to_another() -> None:
    assert region_coverage("Global", "Kenya") is Coverage.covers
    assert region_coverage("Africa", "Kenya") is Coverage.covers
    assert region_coverage("Kenya", "Africa") is Coverage.inside
    assert region_coverage("Uganda", "Kenya") is Coverage.near
    assert region_coverage("France", "Kenya") is Coverage.elsewhere
    assert region_coverage("Mars", "Arctic") is Coverage.elsewhere
    assert region_coverage("Canada", "Arctic") is Coverage.unknown  # overlapping, the table cannot say
    assert region_coverage("Tropics", "Kenya") is Coverage.unknown  # a theme says neither way
    assert coverage(["France", "Tropics"], ["Kenya"]) is Coverage.unknown
    assert coverage(["France", "Global"], ["Kenya"]) is Coverage.covers
    assert coverage([], ["Kenya"]) is Coverage.unknown


def test_dataset_variants_name_a_dataset_of_the_table_and_share_its_application() -> None:
    table = get_dataset_table()
    for name in table.names:
        base = table.rows[name].get("variant_of") or ""
        if base:
            assert base in table.names and base != name, name
            assert dataset_info(name).application == dataset_info(base).application, name
    # PASTIS-HD's segmentation and classification tasks are two datasets, both variants of PASTIS.
    assert dataset_info("PASTIS-HD").task_type == "segmentation"
    assert dataset_info("PASTIS-HD classification").name == "PASTIS-HD classif"
    assert dataset_family(["PASTIS"]) >= {"PASTIS", "PASTIS-HD", "PASTIS-HD classif", "PASTIS-R"}
    assert dataset_family(["m-eurosat"]) >= {"EuroSAT", "m-eurosat"}
    assert dataset_family(["Sen1Floods11"]) == {"Sen1Floods11"}


def test_every_sensor_family_member_is_a_sensor_of_the_vocabulary() -> None:
    from rsfmd.vocab import _sensor_families

    names = set(get_vocabulary("sensors").names)
    families = _sensor_families()
    assert families and all(len(f) > 1 for f in families)
    assert not [m for family in families for m in family if m not in names]
