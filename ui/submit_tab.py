"""'Submit a model' tab: model authors paste text or upload a file, check the flagged fields of the
extracted draft, correct them, and submit it to the pending queue that maintainers accept or reject.

``build_submit_tab(settings)`` adds the components to the enclosing ``gr.Tab``; the handlers
``extract_submission`` and ``submit_corrections`` are plain functions, testable without a server.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from agent.errors import ConfigurationError, LLMError
from agent.settings import Settings
from rsfmd.extraction.draft import Draft, DraftError, set_field, to_json
from rsfmd.extraction.extract import NEEDS_LLM_MESSAGE, build_extraction_chat, extract_draft
from rsfmd.extraction.pending import PendingQueue
from rsfmd.extraction.review import parse_edit
from rsfmd.extraction.settings import ExtractionSettings
from rsfmd.extraction.sources import SourceError, SourceText, read_source, text_source
from rsfmd.schema import Source

FLAG = "check"
HEADERS = ["field", "value (JSON)", "confidence", "flag"]
Highlight = list[tuple[str, str | None]]
Rows = list[list[Any]]


def draft_view(draft: Draft) -> tuple[Highlight, Rows]:
    """The draft as highlighted text (flagged fields labelled) and as editable table rows."""
    flagged = {item.field for item in draft.review}
    names = [*draft.fields, *(f for f in flagged if f not in draft.fields)]
    highlight: Highlight = []
    rows: Rows = []
    for name in names:
        value = draft.record.get(name)
        score = draft.fields.get(name)
        confidence = score.confidence if score else 0.0
        label = "flagged" if name in flagged else "ok"
        highlight.append((f"{name}: {to_json(value)[:200]}  ({confidence:.2f})\n", label))
        rows.append(
            [name, "" if value is None else to_json(value), confidence, FLAG if name in flagged else ""]
        )
    return highlight, rows


def extract_submission(
    text: str | None,
    file_path: str | None,
    source_url: str | None,
    settings: Settings,
    *,
    chat: Any = None,
    extraction: ExtractionSettings | None = None,
) -> tuple[str, Highlight, Rows, str | None]:
    """Status message, highlighted draft, table rows and the draft JSON (None when nothing was drafted)."""
    if chat is None and settings.llm.provider == "none":
        return NEEDS_LLM_MESSAGE, [], [], None
    extraction = extraction or ExtractionSettings()
    try:
        url = Source(url=(source_url or "").strip()).url
    except ValidationError:
        return "Give the URL of your paper, repository or model card so the record can cite it.", [], [], None
    try:
        if file_path:
            source: SourceText = read_source(
                file_path, max_bytes=extraction.max_source_bytes, max_chars=extraction.max_source_chars
            )
        elif text and text.strip():
            source = text_source(text, "pasted text", max_chars=extraction.max_source_chars)
        else:
            return "Paste the text of your paper or README, or upload a file.", [], [], None
        model = chat if chat is not None else build_extraction_chat(settings, extraction)
        draft = extract_draft(model, [source], [url], extraction)
    except (SourceError, ConfigurationError, LLMError, DraftError) as exc:
        return f"Extraction failed: {exc}", [], [], None
    highlight, rows = draft_view(draft)
    lines = [
        f"Extracted {len(draft.record)} field(s); {len(draft.review)} flagged (highlighted, marked "
        f"'{FLAG}'): check them against your source, correct the value column, then submit.",
        f"Confidence: {draft.confidence_method}.",
        *(f"Note: {n}" for n in draft.notices),
    ]
    return "\n\n".join(lines), highlight, rows, draft.model_dump_json()


def _table_rows(rows: Any) -> Rows:
    if rows is None:
        return []
    if hasattr(rows, "values") and hasattr(rows, "columns"):  # a pandas DataFrame
        return [list(r) for r in rows.values.tolist()]
    return [list(r) for r in rows]


def submit_corrections(rows: Any, draft_json: str | None, submitter: str | None, settings: Settings) -> str:
    """Apply the author's corrections to the draft and queue it for a maintainer; a status message."""
    if not draft_json:
        return "Extract a draft first."
    draft = Draft.model_validate_json(draft_json)
    flagged = {item.field for item in draft.review}
    errors: list[str] = []
    for row in _table_rows(rows):
        if not row or not row[0]:
            continue
        name, text = str(row[0]), "" if row[1] is None else str(row[1])
        value = parse_edit(text)
        try:
            if value != draft.record.get(name):
                set_field(draft, name, value, "edited")
            elif name in flagged:
                set_field(draft, name, value, "accepted")
        except DraftError as exc:
            errors.append(f"{name}: {exc}")
    if errors:
        return "Not submitted; fix these values:\n" + "\n".join(f"- {e}" for e in errors)
    try:
        submission = PendingQueue.from_settings(settings).submit(draft, (submitter or "").strip() or None)
    except DraftError as exc:
        return f"Not submitted: {exc}"
    return (
        f"Submitted as {submission.id}. A maintainer will check it before it enters RS-FMD "
        f"(remsa db pending accept {submission.id})."
    )


def build_submit_tab(settings: Settings | None = None) -> None:
    """Add the 'Submit a model' components to the enclosing ``gr.Tab``."""
    import gradio as gr

    settings = settings or Settings()
    ready = settings.llm.provider != "none"
    gr.Markdown(
        "### Submit a model\nPaste your paper's text or README, or upload it. An LLM drafts the RS-FMD "
        "record; fields it is unsure about are highlighted for you to check. Maintainers review every "
        "submission before it enters the database."
    )
    if not ready:
        gr.Markdown(f"**{NEEDS_LLM_MESSAGE}**")
    with gr.Row():
        text = gr.Textbox(label="Paper, README or model card text", lines=10)
        upload = gr.File(
            label="...or upload a file", file_types=[".txt", ".md", ".html", ".htm", ".pdf"], type="filepath"
        )
    url = gr.Textbox(label="Source URL the record should cite (paper, repository or model card)")
    extract_button = gr.Button("Extract draft", variant="primary", interactive=ready)
    status = gr.Markdown()
    highlighted = gr.HighlightedText(
        label="Draft (red: please check)", color_map={"flagged": "red", "ok": "green"}, show_legend=True
    )
    table = gr.Dataframe(
        headers=HEADERS,
        datatype=["str", "str", "number", "str"],
        column_count=len(HEADERS),
        static_columns=[0, 2, 3],
        interactive=True,
        type="array",
        label="Correct values here (JSON, or plain text for text fields)",
    )
    submitter = gr.Textbox(label="Your name or e-mail (optional, shown to maintainers)")
    submit_button = gr.Button("Submit for review")
    draft_state = gr.State(None)

    def on_extract(t: str | None, f: str | None, u: str | None) -> tuple[str, Highlight, Rows, str | None]:
        return extract_submission(t, f, u, settings)

    def on_submit(rows: Any, draft_json: str | None, who: str | None) -> str:
        return submit_corrections(rows, draft_json, who, settings)

    extract_button.click(
        on_extract, inputs=[text, upload, url], outputs=[status, highlighted, table, draft_state]
    )
    submit_button.click(on_submit, inputs=[table, draft_state, submitter], outputs=[status])
