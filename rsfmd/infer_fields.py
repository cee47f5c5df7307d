"""`remsa db infer-fields`: plan, show and write the derivations of ``rsfmd.inference``.

A dry run prints what would change; ``--apply`` rewrites each JSONL file atomically. Every edited
record is validated before anything is written, so a run never leaves a half-edited file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rsfmd.backbones import MatchStatus
from rsfmd.inference import PARAMETERS_CONFIDENCE, SENSORS_CONFIDENCE, Proposal, propose
from rsfmd.loader import RecordError, atomic_write_text, attachment_files, data_files, iter_attachments
from rsfmd.schema import Benchmark, ModelRecord


@dataclass
class FilePlan:
    """Proposals for one JSONL file and the text it would have after applying them."""

    path: str
    original: str
    proposals: list[Proposal] = field(default_factory=list)
    new_text: str = ""
    errors: list[str] = field(default_factory=list)


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


def _count(params_m: float) -> float | int:
    """A count as written in the database: whole millions without a decimal point."""
    return int(params_m) if params_m.is_integer() else params_m


def apply_proposal(data: dict[str, Any], record: ModelRecord, proposal: Proposal) -> dict[str, Any]:
    """The raw record ``data`` with the proposal's derived fields, confidences, sources and notes."""
    if proposal.parameters is not None:
        backbone = proposal.parameters.backbone
        data = _set_field(data, "num_parameters", _count(backbone.params_m))
        data = _mark(
            data,
            "num_parameters",
            PARAMETERS_CONFIDENCE,
            backbone.source_url,
            proposal.parameters.note,
            proposal.parameters.sentence,
        )
    if proposal.variant_sizes is not None:
        sized = dict(proposal.variant_sizes.sizes)
        variants = [
            {**v, "num_parameters": _count(sized[v["name"]].params_m)} if v.get("name") in sized else v
            for v in data.get("variants", [])
        ]
        data = _set_field(data, "variants", variants)
        for n, (url, note) in enumerate(proposal.variant_sizes.notes().items()):
            sentence = proposal.variant_sizes.sentence if n == 0 else ""
            data = _mark(data, "variants", PARAMETERS_CONFIDENCE, url, note, sentence)
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


def read_attachments(files: Sequence[Path]) -> tuple[dict[str, list[Benchmark]], list[str]]:
    """Results kept in attachment files, by model id, and a message per unreadable line."""
    by_id: dict[str, list[Benchmark]] = {}
    errors: list[str] = []
    for file in files:
        for item in iter_attachments(file):
            if isinstance(item, RecordError):
                errors.append(str(item))
            else:
                by_id.setdefault(item[1], []).append(item[2])
    return by_id, errors


def plan_file(
    path: str,
    text: str,
    *,
    keep_contradicting: bool = False,
    attached: Mapping[str, Sequence[Benchmark]] | None = None,
) -> FilePlan:
    """Proposals for every record of one JSONL text, and the text after applying them.

    ``attached`` maps model ids to their results kept in attachment files, whose datasets count
    as evaluation datasets for the sensor rule.

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
        proposal = propose(
            record,
            line_no,
            keep_contradicting=keep_contradicting,
            attached=(attached or {}).get(record.model_id, ()),
        )
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
    counts = {"num_parameters": 0, "variant sizes": 0, "supported_sensors": 0}
    for plan in plans:
        name = plan.path.rsplit("/", 1)[-1]
        for p in plan.proposals:
            where = f"{name}:{p.line} {p.model_id}"
            if p.parameters is not None:
                counts["num_parameters"] += 1
                b = p.parameters.backbone
                rows.append(f"{where:<36} {'num_parameters':<18} {b.params_m:<40g} backbone {b.name}")
            for variant, b in p.variant_sizes.sizes if p.variant_sizes else ():
                counts["variant sizes"] += 1
                rows.append(
                    f"{where:<36} {'variant size':<18} {b.params_m:<40g} {variant}: backbone {b.name}"
                )
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
        f"variant sizes {counts['variant sizes']}, supported_sensors {counts['supported_sensors']}",
    ]
    return "\n".join(out)


def run(path: str | None, *, apply: bool, keep_contradicting: bool = False) -> int:
    """Plan (and with ``apply`` write) the derivations for the JSONL files at ``path``."""
    try:
        files = data_files(path)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    attached, attachment_errors = read_attachments(attachment_files(path))
    for error in attachment_errors:
        print(f"error: {error}", file=sys.stderr)
    if attachment_errors:
        print("error: nothing planned; fix the attachment lines above first", file=sys.stderr)
        return 1
    plans = [
        plan_file(
            str(f), f.read_text(encoding="utf-8"), keep_contradicting=keep_contradicting, attached=attached
        )
        for f in files
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
