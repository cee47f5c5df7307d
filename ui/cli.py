"""`remsa ui`: start the Gradio app."""

from __future__ import annotations

import argparse
import socket
import sys
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
    from agent.extras import require

    require("gradio", "app", "The web app")
    from agent.settings import Settings
    from ui.app import build_app, launch_app, login

    settings = Settings()
    host = args.host or settings.ui.host
    port = args.port if args.port is not None else settings.ui.port
    problem = port_problem(host, port)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    demo = build_app(settings)
    print(f"remsa ui on http://{host}:{port}" + (" (login required)" if login(settings) else ""))
    try:
        launch_app(demo, settings, host=host, port=port, share=args.share)
    except OSError as exc:  # taken between the check and the start
        print(f"error: {port_problem(host, port) or exc}", file=sys.stderr)
        return 2
    return 0


def port_problem(host: str, port: int) -> str | None:
    """Why the app cannot listen on host:port, in one line naming the fix; None when it can."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return (
                f"cannot listen on {host}:{port} ({exc.strerror or exc}); another program may be using "
                f"it: choose another port with 'remsa ui --port {port + 1}' or REMSA_UI__PORT={port + 1}"
            )
    return None
