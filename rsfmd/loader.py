"""Load and validate RS-FMD JSONL files; write them atomically."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import tempfile
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from rsfmd.schema import Benchmark, ModelRecord
from rsfmd.usage import USAGE_COLUMNS, Usage


@dataclass(frozen=True)
class RecordError:
    """One problem found in a JSONL file, located by file, line and field."""

    path: str
    line: int
    field: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        return f"{where}: {self.field}: {self.reason}" if self.field else f"{where}: {self.reason}"


class DatabaseError(ValueError):
    """The database files contain invalid records; ``errors`` lists every problem."""

    def __init__(self, errors: Sequence[RecordError]) -> None:
        self.errors = list(errors)
        shown = "\n".join(f"  {e}" for e in self.errors[:20])
        more = f"\n  ... and {len(self.errors) - 20} more" if len(self.errors) > 20 else ""
        super().__init__(
            f"{len(self.errors)} invalid record(s) in RS-FMD:\n{shown}{more}\n"
            "Fix the named lines (run `remsa db validate` to re-check)."
        )


@dataclass
class LoadResult:
    """Records that validated, and errors for the lines that did not."""

    records: list[ModelRecord] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    locations: list[tuple[str, int]] = field(default_factory=list, repr=False)
    """(file, line) of each record, parallel to ``records``."""


def default_data_dir() -> Path:
    """The folder of the shipped JSONL files."""
    return Path(str(resources.files("rsfmd").joinpath("data")))


def derived_dir() -> Path:
    """Artefacts derived from the shipped records (record vectors, capabilities fit), shipped beside them."""
    return default_data_dir() / "derived"


def data_files(path: str | os.PathLike[str] | None = None) -> list[Path]:
    """The JSONL files at ``path`` (a file or a folder); the shipped data when None."""
    target = Path(path) if path is not None else default_data_dir()
    if target.is_dir():
        return sorted(target.glob("*.jsonl"))
    if target.is_file():
        return [target]
    raise FileNotFoundError(f"no RS-FMD data at {target}: give a .jsonl file or a folder of them")


def _location(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def parse_lines(lines: Iterable[str], path: str) -> LoadResult:
    """Validate JSONL lines; every bad line becomes a RecordError, nothing is skipped silently."""
    result = LoadResult(files=[path])
    for line_no, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            result.errors.append(
                RecordError(path, line_no, "", f"invalid JSON: {exc.msg} (column {exc.colno})")
            )
            continue
        if not isinstance(data, dict):
            result.errors.append(RecordError(path, line_no, "", "a line must be one JSON object"))
            continue
        try:
            result.records.append(ModelRecord.model_validate(data))
            result.locations.append((path, line_no))
        except ValidationError as exc:
            for err in exc.errors():
                reason = err["msg"].removeprefix("Value error, ")
                result.errors.append(RecordError(path, line_no, _location(err["loc"]) or "record", reason))
    return result


def find_duplicates(
    records: Sequence[ModelRecord], locations: Sequence[tuple[str, int]] | None = None
) -> list[RecordError]:
    """Errors for ids, names or aliases used by more than one record (reported at the later one)."""
    errors: list[RecordError] = []
    seen_ids: dict[str, str] = {}
    seen_names: dict[str, str] = {}
    for index, record in enumerate(records):
        path, line = locations[index] if locations else ("records", index + 1)
        if record.model_id in seen_ids:
            errors.append(RecordError(path, line, "model_id", f"duplicate id {record.model_id!r}"))
            continue
        seen_ids[record.model_id] = record.model_id
        for name in {record.model_name, *record.aliases}:
            key = "".join(ch for ch in name.lower() if ch.isalnum() or ch == "+")
            other = seen_names.get(key)
            if other is not None and other != record.model_id:
                errors.append(
                    RecordError(path, line, "model_name", f"name {name!r} is already used by {other!r}")
                )
            seen_names[key] = record.model_id
    return errors


def attachment_files(path: str | os.PathLike[str] | None = None) -> list[Path]:
    """Benchmark attachment files (``benchmarks/*.jsonl`` beside the records of a data folder)."""
    target = Path(path) if path is not None else default_data_dir()
    folder = target / "benchmarks" if target.is_dir() else None
    return sorted(folder.glob("*.jsonl")) if folder is not None and folder.is_dir() else []


def iter_attachments(
    file: Path, known_ids: Container[str] | None = None
) -> Iterator[tuple[int, str, Benchmark] | RecordError]:
    """Each line of one attachment file as (line, model id, benchmark), or the error it holds.

    With ``known_ids``, a line naming any other model is an error (its benchmark is not checked).
    """
    for line_no, raw in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            yield RecordError(str(file), line_no, "", f"invalid JSON: {exc.msg}")
            continue
        if not isinstance(data, dict):
            yield RecordError(str(file), line_no, "", "a line must be one JSON object")
            continue
        model_id = data.get("model_id")
        if not isinstance(model_id, str) or (known_ids is not None and model_id not in known_ids):
            yield RecordError(str(file), line_no, "model_id", f"no record with id {model_id!r}")
            continue
        try:
            yield line_no, model_id, Benchmark.model_validate(data.get("benchmark"))
        except ValidationError as exc:
            for err in exc.errors():
                reason = err["msg"].removeprefix("Value error, ")
                loc = _location(("benchmark", *err["loc"]))
                yield RecordError(str(file), line_no, loc, reason)


def _attach_benchmarks(result: LoadResult, files: list[Path]) -> None:
    """Append benchmarks kept in attachment files to the records they name."""
    by_id = {record.model_id: record for record in result.records}
    for file in files:
        result.files.append(str(file))
        for item in iter_attachments(file, by_id):
            if isinstance(item, RecordError):
                result.errors.append(item)
            else:
                by_id[item[1]].benchmarks.append(item[2])


def usage_file(path: str | os.PathLike[str] | None = None) -> Path | None:
    """The usage table (``usage.csv`` beside the records of a data folder), if there is one."""
    target = Path(path) if path is not None else default_data_dir()
    file = target / "usage.csv" if target.is_dir() else None
    return file if file is not None and file.is_file() else None


def _attach_usage(result: LoadResult, file: Path | None) -> None:
    """Append the rows of the usage table to the records they name; a bad row is an error."""
    if file is None:
        return
    result.files.append(str(file))
    by_id = {record.model_id: record for record in result.records}
    with file.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != USAGE_COLUMNS:
            result.errors.append(
                RecordError(str(file), 1, "", f"the header must be {','.join(USAGE_COLUMNS)}")
            )
            return
        for line_no, row in enumerate(reader, start=2):
            record = by_id.get(row["model_id"])
            if record is None:
                result.errors.append(
                    RecordError(str(file), line_no, "model_id", f"no record with id {row['model_id']!r}")
                )
                continue
            try:
                record.usage.append(Usage.from_row(row))
            except ValidationError as exc:
                for err in exc.errors():
                    reason = err["msg"].removeprefix("Value error, ")
                    result.errors.append(RecordError(str(file), line_no, _location(err["loc"]), reason))


def load_database(path: str | os.PathLike[str] | None = None, *, strict: bool = True) -> LoadResult:
    """Load every record at ``path`` (shipped data by default) with its attached benchmarks and the
    ways to load it (``usage.csv``).

    Raises DatabaseError listing every problem when ``strict``.
    """
    result = LoadResult()
    for file in data_files(path):
        part = parse_lines(file.read_text(encoding="utf-8").splitlines(), str(file))
        result.records.extend(part.records)
        result.locations.extend(part.locations)
        result.errors.extend(part.errors)
        result.files.append(str(file))
    result.errors.extend(find_duplicates(result.records, result.locations))
    _attach_benchmarks(result, attachment_files(path))
    _attach_usage(result, usage_file(path))
    if strict and result.errors:
        raise DatabaseError(result.errors)
    return result


def load_records(path: str | os.PathLike[str] | None = None) -> list[ModelRecord]:
    """All records, validated; raises DatabaseError listing every bad line."""
    return load_database(path, strict=True).records


def content_hash(path: str | os.PathLike[str] | None = None) -> str:
    """SHA-256 over the JSONL files' names and bytes: the database version."""
    digest = hashlib.sha256()
    for file in [*data_files(path), *attachment_files(path)]:
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and rename, so no reader sees half a file."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_records(path: str | os.PathLike[str], records: Iterable[ModelRecord]) -> None:
    """Validate and atomically write records as JSONL, sorted by id."""
    ordered = sorted(records, key=lambda r: r.model_id)
    errors = find_duplicates(ordered)
    if errors:
        raise DatabaseError(errors)
    atomic_write_text(path, "".join(r.to_json_line() + "\n" for r in ordered))
