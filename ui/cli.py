"""`remsa ui`: start the Gradio app."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `ui` command."""
    ui = subparsers.add_parser("ui", help="Start the web app (chat, explore, compare, capabilities map).")
    ui.add_argument("--host", default=None, help="Bind address (default: REMSA_UI__HOST or 127.0.0.1).")
    ui.add_argument("--port", type=int, default=None, help="Port (default: REMSA_UI__PORT or 7860).")
    ui.add_argument(
        "--share",
        action="store_true",
        default=None,
        help="Create a public Gradio share link (off unless given or REMSA_UI__SHARE=true).",
    )
    ui.set_defaults(handler=_ui)


def _ui(args: argparse.Namespace) -> int:
    from agent.settings import Settings
    from ui.app import build_app, launch_app, login

    settings = Settings()
    demo = build_app(settings)
    host = args.host or settings.ui.host
    port = args.port if args.port is not None else settings.ui.port
    print(f"remsa ui on http://{host}:{port}" + (" (login required)" if login(settings) else ""))
    launch_app(demo, settings, host=host, port=port, share=args.share)
    return 0
