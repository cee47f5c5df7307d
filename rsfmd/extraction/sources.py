"""Read unstructured sources (text, Markdown, HTML, PDF) into bounded plain text.

Markup is stripped before anything reaches the LLM: tags, comments (a common hiding place for
instructions aimed at LLMs), and the contents of scripts, styles and other non-visible elements.
Files are size-checked before they are read, and the text is cut to a character budget with a
notice, so a huge or hostile file cannot flood the prompt.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from agent.errors import InputError

TEXT_SUFFIXES = frozenset({".txt", ".text", ".rst", ".tex", ""})
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
PDF_SUFFIXES = frozenset({".pdf"})

# Elements whose content is never visible text.
_HIDDEN = frozenset({"script", "style", "noscript", "template", "iframe", "object", "svg", "head", "math"})
_BLOCK = frozenset(
    {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "section", "article"}
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class SourceError(InputError):
    """A source cannot be read (missing, too large, unsupported, or needs a missing library)."""


@dataclass(frozen=True)
class SourceText:
    """The plain text of one source and how it was obtained."""

    label: str
    text: str
    kind: str
    truncated: bool = False
    original_chars: int = 0


class _TextExtractor(HTMLParser):
    """Collects visible text; drops hidden elements and comments."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden_depth += 1
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden_depth = max(0, self.hidden_depth - 1)
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden_depth:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    """Visible text of HTML (or of raw HTML inside Markdown): no tags, comments, scripts or styles."""
    parser = _TextExtractor()
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts)


def clean_text(text: str) -> str:
    """Drop control characters, trailing spaces and runs of blank lines."""
    text = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    lines = [line.rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def pdf_to_text(path: Path, max_chars: int) -> str:
    """Text of a PDF via pypdf, page by page, stopping once ``max_chars`` are collected."""
    try:
        # Imported on use: part of the 'extract' extra.
        pypdf = importlib.import_module("pypdf")
    except ImportError as exc:
        raise SourceError(
            f"{path} is a PDF, and reading PDFs needs the pypdf library: run `pip install 'remsa[extract]'`, "
            "or convert the PDF to text yourself and pass the .txt file."
        ) from exc
    reader = pypdf.PdfReader(str(path))
    pages: list[str] = []
    total = 0
    for page in reader.pages:
        text = page.extract_text() or ""
        pages.append(text)
        total += len(text)
        if total > max_chars:
            break
    return "\n\n".join(pages)


def _read_bounded(path: Path, max_bytes: int) -> bytes:
    if not path.is_file():
        raise SourceError(f"no such file: {path}")
    size = path.stat().st_size
    if size > max_bytes:
        raise SourceError(
            f"{path} is {size / 1e6:.1f} MB; sources are limited to {max_bytes / 1e6:.1f} MB "
            "(REMSA_EXTRACTION__MAX_SOURCE_BYTES). Pass the relevant part (e.g. the paper without "
            "appendices) or raise the limit."
        )
    with path.open("rb") as handle:
        return handle.read(max_bytes + 1)


def source_kind(path: Path) -> str:
    """'text', 'markdown', 'html' or 'pdf', from the suffix; SourceError for anything else."""
    suffix = path.suffix.lower()
    for kind, suffixes in (
        ("text", TEXT_SUFFIXES),
        ("markdown", MARKDOWN_SUFFIXES),
        ("html", HTML_SUFFIXES),
        ("pdf", PDF_SUFFIXES),
    ):
        if suffix in suffixes:
            return kind
    raise SourceError(
        f"{path}: unsupported file type {suffix!r}; give text (.txt), Markdown (.md), HTML (.html) or PDF"
    )


def read_source(path: str | Path, *, max_bytes: int, max_chars: int, label: str | None = None) -> SourceText:
    """Plain text of one local file, markup stripped, cut to ``max_chars`` (``truncated`` says so)."""
    target = Path(path)
    if str(path).startswith(("http://", "https://")):
        raise SourceError(
            f"{path}: sources are read from local files only (no network). Save the page or PDF and "
            "pass the file, with --source-url for the address the record should cite."
        )
    kind = source_kind(target)
    if kind == "pdf":
        _read_bounded(target, max_bytes)  # size check only; pypdf reads the file itself
        raw = pdf_to_text(target, max_chars)
    else:
        raw = _read_bounded(target, max_bytes).decode("utf-8", errors="replace")
        if kind in {"html", "markdown"}:
            raw = html_to_text(raw)
    return bound_text(clean_text(raw), label or str(path), kind, max_chars)


def bound_text(text: str, label: str, kind: str, max_chars: int) -> SourceText:
    """A SourceText cut to ``max_chars`` characters."""
    if len(text) <= max_chars:
        return SourceText(label=label, text=text, kind=kind, original_chars=len(text))
    return SourceText(label=label, text=text[:max_chars], kind=kind, truncated=True, original_chars=len(text))


def text_source(text: str, label: str, *, max_chars: int, markup: bool = True) -> SourceText:
    """Pasted text as a source; HTML inside it is stripped unless ``markup`` is False."""
    return bound_text(clean_text(html_to_text(text) if markup else text), label, "pasted", max_chars)


def truncation_notice(source: SourceText) -> str | None:
    """A sentence for the user when a source was cut, else None."""
    if not source.truncated:
        return None
    return (
        f"{source.label}: only the first {len(source.text):,} of {source.original_chars:,} characters "
        "were read (REMSA_EXTRACTION__MAX_SOURCE_CHARS); fields stated later in it may be missing."
    )


def read_sources(paths: list[str], *, max_bytes: int, max_chars: int) -> list[SourceText]:
    """Read several sources sharing one character budget (earlier sources are read in full first)."""
    out: list[SourceText] = []
    remaining = max_chars
    for path in paths:
        if remaining <= 0:
            out.append(SourceText(label=str(path), text="", kind="skipped", truncated=True, original_chars=1))
            continue
        source = read_source(path, max_bytes=max_bytes, max_chars=remaining)
        out.append(source)
        remaining -= len(source.text)
    return out
