"""The "How to load it" block of a model card: a copyable snippet per library, with its source.

Everything from the database is escaped; links are only made from http(s) URLs (``link_html``).
"""

from __future__ import annotations

from html import escape

from rsfmd.usage import OTHERS_NAMED, UsageSnippet, leading_usages, library_templates

USAGE_CSS = """
.remsa-usage { margin-top: 6px; }
.remsa-usage summary { font-weight: 600; cursor: pointer; }
.remsa-usage pre { margin: 4px 0; padding: 6px 8px; overflow-x: auto; font-size: 0.82em;
  background: var(--background-fill-secondary); border-radius: 6px; }
.remsa-usage-lib { margin: 6px 0 0 0; font-size: 0.9em; }
"""


def _others(others: list[UsageSnippet]) -> str:
    if not others:
        return ""
    named = ", ".join(f"<code>{escape(u.identifier)}</code>" for u in others[:OTHERS_NAMED])
    more = f" and {len(others) - OTHERS_NAMED} more" if len(others) > OTHERS_NAMED else ""
    return f'<p class="remsa-muted">Also: {named}{more}</p>'


def usage_html(usages: list[UsageSnippet]) -> str:
    """A collapsed block with the code that loads the model in each library (at most three), the
    variant and inputs each expects, and the source it was read from; empty when none is known."""
    from ui.cards import link_html  # cards imports this module for the block

    if not usages:
        return ""
    parts: list[str] = []
    for first, others in leading_usages(usages):
        template = library_templates()[first.library]
        parts.append(
            f'<p class="remsa-usage-lib" data-library="{escape(first.library, quote=True)}">'
            f"<b>{escape(template.label)}</b> {link_html('source', first.source_url)}</p>"
            f'<pre><code class="language-{escape(template.language, quote=True)}">'
            f"{escape(first.snippet)}</code></pre>{_others(others)}"
        )
    return (
        f'<details class="remsa-usage"><summary>How to load it ({len(usages)} '
        f"way{'s' if len(usages) != 1 else ''})</summary>{''.join(parts)}</details>"
    )
