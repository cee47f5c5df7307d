"""Derive missing ``num_parameters`` and ``supported_sensors`` from documented facts.

Two rules, each applied only to a record that lacks the field:

* parameters: the record's ``backbone`` names exactly one row of ``rsfmd/vocab/backbones.csv``
  (see ``rsfmd.backbones.match_backbone``); the row's documented count is used.
* sensors: the sensors of its pretraining phases and of the datasets it was pretrained or
  evaluated on (``rsfmd/vocab/datasets.csv``). A derived sensor whose modality, and the
  modalities of the datasets it came from, are all missing from the record's curated
  ``modalities`` contradicts them: it is reported and, unless asked, not written.

Every derived value is marked: a ``confidence`` below 0.7, a ``Source`` saying it was derived
and a sentence in ``notes``. Records that already have the field are never touched, so running
twice changes nothing the second time.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from rsfmd.backbones import Backbone, BackboneMatch, MatchStatus, match_backbone
from rsfmd.datasets import dataset_info, get_dataset_table
from rsfmd.loader import atomic_write_text, data_files
from rsfmd.schema import ModelRecord
from rsfmd.vocab import sensor_modality

PARAMETERS_CONFIDENCE = 0.5
SENSORS_CONFIDENCE = 0.55


@dataclass(frozen=True)
class ParameterDerivation:
    """A parameter count taken from the standard size of the record's backbone."""

    backbone: Backbone

    @property
    def note(self) -> str:
        """The Source note written with the value."""
        return f"standard size of the {self.backbone.name} backbone; derived, not stated by the model authors"

    @property
    def sentence(self) -> str:
        """The sentence appended to the record's notes."""
        return (
            f"num_parameters ({self.backbone.params_m:g}M) is the standard size of its "
            f"{self.backbone.name} backbone, derived by `infer-fields` and not stated by the model "
            f"authors (confidence {PARAMETERS_CONFIDENCE})."
        )


@dataclass(frozen=True)
class SensorEvidence:
    """One derived sensor and where it came from."""

    sensor: str
    origins: tuple[str, ...]
    """Datasets (canonical names) or pretraining phases that contributed the sensor."""
    modalities: frozenset[str]
    """The sensor's modality plus the modalities of the datasets that contributed it."""


@dataclass(frozen=True)
class SensorDerivation:
    """Sensors derived for a record: those to write and those held back as contradictions."""

    kept: tuple[SensorEvidence, ...]
    contradicting: tuple[SensorEvidence, ...]

    @property
    def sensors(self) -> list[str]:
        """The sensor names to write."""
        return [e.sensor for e in self.kept]

    @property
    def origins(self) -> list[str]:
        """Origins of the written sensors, in first-seen order."""
        return list(dict.fromkeys(o for e in self.kept for o in e.origins))

    @property
    def note(self) -> str:
        """The Source note written with the value."""
        return f"derived from the sensors of its pretraining/evaluation datasets ({', '.join(self.origins)})"

    @property
    def sentence(self) -> str:
        """The sentence appended to the record's notes."""
        text = (
            f"supported_sensors derived by `infer-fields` from the sensors of its pretraining/evaluation "
            f"datasets ({', '.join(self.origins)}); not stated by the model authors "
            f"(confidence {SENSORS_CONFIDENCE})."
        )
        if self.contradicting:
            held = "; ".join(f"{e.sensor} ({', '.join(e.origins)})" for e in self.contradicting)
            text += f" Held back as contradicting the curated modalities: {held}."
        return text


@dataclass(frozen=True)
class Proposal:
    """What ``infer-fields`` would change in one record."""

    model_id: str
    line: int
    parameters: ParameterDerivation | None = None
    sensors: SensorDerivation | None = None
    backbone_match: BackboneMatch | None = None
    """Set when the record lacks parameters and has a backbone, whatever the outcome."""

    @property
    def changes(self) -> bool:
        """Whether applying the proposal edits the record."""
        return self.parameters is not None or bool(self.sensors and self.sensors.kept)


@dataclass
class FilePlan:
    """Proposals for one JSONL file and the text it would have after applying them."""

    path: str
    original: str
    proposals: list[Proposal] = field(default_factory=list)
    new_text: str = ""
    errors: list[str] = field(default_factory=list)


def dataset_name_candidates(text: str) -> list[str]:
    """Dataset names in a free-text dataset field: parentheticals dropped, split on ' + '.

    ``"MillionAID (MAE, ViT variants)"`` gives ``["MillionAID"]``;
    ``"NWPU-RESISC45 + DOTA"`` gives ``["NWPU-RESISC45", "DOTA"]``.
    """
    without = re.sub(r"\s*\([^()]*\)", "", text)
    return [part.strip() for part in re.split(r"\s+\+\s+", without) if part.strip()]


def _origin_label(text: str) -> str:
    """The canonical dataset name of ``text`` when known, else ``text`` without parentheticals."""
    names = dataset_name_candidates(text)
    known = get_dataset_table().get(names[0]) if len(names) == 1 else None
    return known or " + ".join(names) or text


def _known_datasets(text: str) -> list[str]:
    table = get_dataset_table()
    found = (table.get(name) for name in dataset_name_candidates(text))
    return [name for name in found if name is not None]


def has_parameters(record: ModelRecord) -> bool:
    """Whether the record or any variant states a parameter count."""
    return record.smallest_parameters is not None


def derive_parameters(record: ModelRecord) -> tuple[ParameterDerivation | None, BackboneMatch | None]:
    """The parameter derivation for a record lacking counts, with the backbone match behind it."""
    if has_parameters(record) or not record.backbone:
        return None, None
    found = match_backbone(record.backbone)
    if found.status is MatchStatus.matched and found.backbone is not None:
        return ParameterDerivation(found.backbone), found
    return None, found


def sensor_evidence(record: ModelRecord) -> list[SensorEvidence]:
    """Sensors of the record's pretraining phases and pretraining/evaluation datasets, in order."""
    origins: dict[str, list[str]] = {}
    modalities: dict[str, set[str]] = {}

    def add(sensor: str, origin: str, dataset_modalities: tuple[str, ...] = ()) -> None:
        origins.setdefault(sensor, [])
        if origin not in origins[sensor]:
            origins[sensor].append(origin)
        modalities.setdefault(sensor, {sensor_modality(sensor)}).update(dataset_modalities)

    for phase in record.pretraining_phases:
        label = phase.dataset or "a pretraining phase"
        for sensor in phase.sensors:
            add(sensor, _origin_label(label))
        for name in _known_datasets(phase.dataset or ""):
            info = dataset_info(name)
            for sensor in info.sensors:
                add(sensor, info.name, info.modalities)
    for bench in record.benchmarks:
        for sensor in bench.sensor:
            add(sensor, _origin_label(bench.dataset))
        for name in _known_datasets(bench.dataset):
            info = dataset_info(name)
            for sensor in info.sensors:
                add(sensor, info.name, info.modalities)
    return [SensorEvidence(s, tuple(origins[s]), frozenset(modalities[s])) for s in origins]


def derive_sensors(record: ModelRecord, *, keep_contradicting: bool = False) -> SensorDerivation | None:
    """The sensor derivation for a record with no supported_sensors (None when nothing is known)."""
    if record.supported_sensors:
        return None
    evidence = sensor_evidence(record)
    if not evidence:
        return None
    curated = set(record.modalities)
    contradicting = [e for e in evidence if curated and not (e.modalities & curated)]
    kept = [e for e in evidence if keep_contradicting or e not in contradicting]
    return SensorDerivation(tuple(kept), tuple(contradicting))


def propose(record: ModelRecord, line: int, *, keep_contradicting: bool = False) -> Proposal:
    """Every derivation for one record."""
    parameters, backbone_match = derive_parameters(record)
    return Proposal(
        model_id=record.model_id,
        line=line,
        parameters=parameters,
        sensors=derive_sensors(record, keep_contradicting=keep_contradicting),
        backbone_match=backbone_match,
    )


_FIELD_ORDER = list(ModelRecord.model_fields)


def _set_field(data: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``data`` with ``key`` set; a new key goes after the closest earlier schema field present."""
    if key in data:
        return {**data, key: value}
    rank = _FIELD_ORDER.index(key)
    earlier = [k for k in data if k in _FIELD_ORDER and _FIELD_ORDER.index(k) < rank]
    anchor = max(earlier, key=_FIELD_ORDER.index) if earlier else None
    out: dict[str, Any] = {} if anchor else {key: value}
    for existing, existing_value in data.items():
        out[existing] = existing_value
        if existing == anchor:
            out[key] = value
    return out


def _mark(
    data: dict[str, Any], field_name: str, confidence: float, url: str, note: str, sentence: str
) -> dict[str, Any]:
    data = _set_field(data, "confidence", {**data.get("confidence", {}), field_name: confidence})
    source = {"url": url, "fields": [field_name], "note": note}
    data = _set_field(data, "sources", [*data.get("sources", []), source])
    notes = str(data.get("notes") or "").strip()
    return _set_field(data, "notes", f"{notes} {sentence}".strip())


def apply_proposal(data: dict[str, Any], record: ModelRecord, proposal: Proposal) -> dict[str, Any]:
    """The raw record ``data`` with the proposal's derived fields, confidences, sources and notes."""
    if proposal.parameters is not None:
        backbone = proposal.parameters.backbone
        count = int(backbone.params_m) if backbone.params_m.is_integer() else backbone.params_m
        data = _set_field(data, "num_parameters", count)
        data = _mark(
            data,
            "num_parameters",
            PARAMETERS_CONFIDENCE,
            backbone.source_url,
            proposal.parameters.note,
            proposal.parameters.sentence,
        )
    if proposal.sensors is not None and proposal.sensors.kept:
        url = record.paper_link or record.sources[0].url
        data = _set_field(data, "supported_sensors", proposal.sensors.sensors)
        data = _mark(
            data,
            "supported_sensors",
            SENSORS_CONFIDENCE,
            url,
            proposal.sensors.note,
            proposal.sensors.sentence,
        )
    return data


def plan_file(path: str, text: str, *, keep_contradicting: bool = False) -> FilePlan:
    """Proposals for every record of one JSONL text, and the text after applying them.

    Every line must hold a valid record, and so must every edited one; otherwise ``errors``
    says which and ``new_text`` is left empty.
    """
    plan = FilePlan(path=path, original=text)
    out_lines: list[str] = []
    for line_no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            out_lines.append(raw)
            continue
        try:
            data = json.loads(raw)
            record = ModelRecord.model_validate(data)
        except ValueError as exc:  # JSONDecodeError and ValidationError are both ValueErrors
            plan.errors.append(f"{path}:{line_no}: {exc}")
            continue
        proposal = propose(record, line_no, keep_contradicting=keep_contradicting)
        plan.proposals.append(proposal)
        if not proposal.changes:
            out_lines.append(raw)
            continue
        edited = apply_proposal(data, record, proposal)
        try:
            ModelRecord.model_validate(edited)
        except ValueError as exc:
            plan.errors.append(f"{path}:{line_no}: edited record does not validate: {exc}")
            continue
        out_lines.append(json.dumps(edited, ensure_ascii=False))
    if not plan.errors:
        plan.new_text = "\n".join(out_lines) + ("\n" if text.endswith("\n") else "")
    return plan


def format_plan(plans: list[FilePlan]) -> str:
    """A table of proposed changes, then contradictions, refused backbones and counts."""
    rows: list[str] = [f"{'record':<36} {'field':<18} {'value':<40} evidence"]
    contradictions: list[str] = []
    refused: list[str] = []
    counts = {"num_parameters": 0, "supported_sensors": 0}
    for plan in plans:
        name = plan.path.rsplit("/", 1)[-1]
        for p in plan.proposals:
            where = f"{name}:{p.line} {p.model_id}"
            if p.parameters is not None:
                counts["num_parameters"] += 1
                b = p.parameters.backbone
                rows.append(f"{where:<36} {'num_parameters':<18} {b.params_m:<40g} backbone {b.name}")
            if p.sensors is not None and p.sensors.kept:
                counts["supported_sensors"] += 1
                value = "|".join(p.sensors.sensors)
                rows.append(
                    f"{where:<36} {'supported_sensors':<18} {value:<40} {', '.join(p.sensors.origins)}"
                )
            for e in p.sensors.contradicting if p.sensors else ():
                contradictions.append(
                    f"  {where}: {e.sensor} (from {', '.join(e.origins)}; modality "
                    f"{'/'.join(sorted(e.modalities))}) is not among its modalities"
                )
            m = p.backbone_match
            if m is not None and m.status in (MatchStatus.ambiguous, MatchStatus.composite):
                refused.append(f"  {where}: {m.status.value} ({', '.join(m.names)})")
    out = rows if len(rows) > 1 else [*rows, "(no changes)"]
    if contradictions:
        out += ["", "sensors contradicting curated modalities (held back unless --keep-contradicting):"]
        out += contradictions
    if refused:
        out += ["", "backbones not used for num_parameters:", *refused]
    out += [
        "",
        f"derived: num_parameters {counts['num_parameters']}, "
        f"supported_sensors {counts['supported_sensors']}",
    ]
    return "\n".join(out)


def run(path: str | None, *, apply: bool, keep_contradicting: bool = False) -> int:
    """Plan (and with ``apply`` write) the derivations for the JSONL files at ``path``."""
    try:
        files = data_files(path)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    plans = [
        plan_file(str(f), f.read_text(encoding="utf-8"), keep_contradicting=keep_contradicting) for f in files
    ]
    print(format_plan(plans))
    errors = [e for plan in plans for e in plan.errors]
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if errors:
        print("error: nothing written; fix the lines above first", file=sys.stderr)
        return 1
    if not apply:
        print("dry run: nothing written (add --apply to write)")
        return 0
    written = 0
    for plan, file in zip(plans, files, strict=True):
        if plan.new_text == plan.original:
            continue
        # Someone may be editing the same file: write only over the text that was planned on.
        if file.read_text(encoding="utf-8") != plan.original:
            print(f"error: {file} changed while planning; rerun", file=sys.stderr)
            return 1
        atomic_write_text(file, plan.new_text)
        written += 1
    print(f"wrote {written} file(s)")
    return 0


def _handle(args: argparse.Namespace) -> int:
    return run(args.path, apply=args.apply, keep_contradicting=args.keep_contradicting)


def register(subparsers: Any) -> None:
    """Add the `infer-fields` command to a subparsers group (e.g. that of `remsa db`)."""
    parser = subparsers.add_parser(
        "infer-fields",
        help="Derive missing num_parameters and supported_sensors from documented facts (low confidence).",
    )
    parser.add_argument("--apply", action="store_true", help="Write the changes (default: dry run).")
    parser.add_argument("--path", help="JSONL file or folder (default: shipped database).")
    parser.add_argument(
        "--keep-contradicting",
        action="store_true",
        help="Also write derived sensors whose modality the record's curated modalities do not list.",
    )
    parser.set_defaults(handler=_handle)


def main(argv: list[str] | None = None) -> int:
    """``python -m rsfmd.inference infer-fields [--apply] [--path P]``."""
    parser = argparse.ArgumentParser(prog="python -m rsfmd.inference")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    result: int = args.handler(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
