"""Queue of submissions from model authors, waiting for a maintainer to accept or reject them.

One JSON file per submission in ``Settings().data_dir / "pending"``; a status changes by an atomic
rewrite. Nothing enters RS-FMD from here except through ``accept``.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import uuid
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from agent.settings import Settings
from rsfmd.extraction.draft import Draft, DraftError, add_record, final_record, model_id_from_name
from rsfmd.loader import atomic_write_text

SubmissionStatus = Literal["pending", "accepted", "rejected"]
_ID = re.compile(r"^\d{8}T\d{6}-[a-z0-9.+-]{1,60}-[0-9a-f]{6}$")


class Submission(BaseModel):
    """One submitted draft and what became of it."""

    model_config = ConfigDict(extra="forbid")

    id: str
    status: SubmissionStatus = "pending"
    submitted_at: str
    submitter: str | None = None
    draft: Draft
    decided_at: str | None = None
    reason: str | None = None
    added_to: str | None = None


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class PendingQueue:
    """Submissions on disk, one file each."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> PendingQueue:
        """The queue in the configured data directory."""
        return cls((settings or Settings()).data_dir / "pending")

    def _path(self, submission_id: str) -> Path:
        if not _ID.match(submission_id):
            raise DraftError(f"{submission_id!r} is not a submission id; see `remsa db pending list`")
        return self.root / f"{submission_id}.json"

    def submit(self, draft: Draft, submitter: str | None = None) -> Submission:
        """Queue a draft (it must already make a valid record); returns the submission."""
        record = final_record(draft, require_review=False)
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
        slug = model_id_from_name(record.model_name)[:60] or "model"
        submission = Submission(
            id=f"{stamp}-{slug}-{uuid.uuid4().hex[:6]}", submitted_at=_now(), submitter=submitter, draft=draft
        )
        self._write(submission)
        return submission

    def _write(self, submission: Submission) -> None:
        atomic_write_text(self._path(submission.id), submission.model_dump_json(indent=2) + "\n")

    def get(self, submission_id: str) -> Submission:
        """One submission by id."""
        path = self._path(submission_id)
        if not path.is_file():
            raise DraftError(f"no submission {submission_id!r}; see `remsa db pending list`")
        try:
            return Submission.model_validate_json(path.read_text(encoding="utf-8"))
        except ValidationError as exc:
            raise DraftError(f"{path} is not a valid submission: {str(exc)[:300]}") from exc

    def submissions(self, status: SubmissionStatus | None = None) -> list[Submission]:
        """Submissions, oldest first, optionally of one status."""
        if not self.root.is_dir():
            return []
        found = [self.get(p.stem) for p in sorted(self.root.glob("*.json")) if _ID.match(p.stem)]
        return [s for s in found if status is None or s.status == status]

    def _decide(self, submission_id: str) -> Submission:
        submission = self.get(submission_id)
        if submission.status != "pending":
            raise DraftError(f"submission {submission_id} was already {submission.status}")
        return submission

    def accept(self, submission_id: str, database: str | os.PathLike[str] | None = None) -> Path:
        """Validate the submission, add it to RS-FMD (refusing duplicates), mark it accepted."""
        submission = self._decide(submission_id)
        record = final_record(submission.draft, require_review=False)
        who = f" from {submission.submitter}" if submission.submitter else ""
        note = f"Submitted{who} through the app on {submission.submitted_at[:10]}; accepted by a maintainer."
        record = record.model_copy(update={"notes": f"{record.notes} {note}" if record.notes else note})
        target = add_record(record, database)
        submission.status, submission.decided_at, submission.added_to = "accepted", _now(), str(target)
        self._write(submission)
        return target

    def reject(self, submission_id: str, reason: str | None = None) -> Submission:
        """Mark a submission rejected (it stays on disk for the record)."""
        submission = self._decide(submission_id)
        submission.status, submission.decided_at, submission.reason = "rejected", _now(), reason
        self._write(submission)
        return submission
