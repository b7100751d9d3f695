"""The server's settings as data: a JSON schema of the ``oracular`` section, built from
:data:`oracular.lsp.settings.SETTINGS`.

Editors' clients describe the same settings to their users (VS Code's ``package.json``
``contributes.configuration``). They read this schema rather than the server's Python, so a
setting, its default, its values and its description are written once. The schema is committed
as ``vscode-client/settings.schema.json``; ``tests/lsp/test_settings_schema.py`` fails when it is
stale, and the extension's unit test checks ``package.json`` against it. To regenerate both::

    python -m oracular.lsp.settings_schema --write vscode-client

Without ``--write`` the schema is printed. ``--write`` rewrites the schema file and, in
``package.json``, the server's settings (the extension's own, such as ``oracular.python``, are
left alone; a setting the server dropped must be removed by hand, as the unit test says).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from oracular.lsp.execution_policy import TRUST_NOTIFICATION, TRUSTED_OPTION
from oracular.lsp.settings import SECTION, SETTINGS

SCHEMA_FILE = "settings.schema.json"
"""Its name in the VS Code extension's folder."""


def schema() -> dict[str, Any]:
    """The ``oracular`` section's JSON schema (draft-07, with VS Code's description keywords).

    ``x-workspaceTrust`` names what travels beside the section: the ``initializationOptions`` key
    and the notification by which a client says that the workspace is trusted
    (:mod:`oracular.lsp.execution_policy`).
    """
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$comment": "Generated from server/oracular/lsp/settings.py by "
        "`python -m oracular.lsp.settings_schema --write vscode-client`: do not edit.",
        "title": f"The {SECTION} section of the Oracular language server's settings",
        "type": "object",
        "additionalProperties": False,
        "properties": {key: setting.json_schema() for key, setting in SETTINGS.items()},
        "x-workspaceTrust": {"initializationOption": TRUSTED_OPTION, "notification": TRUST_NOTIFICATION},
    }


def dumps(data: Any) -> str:
    """JSON as ``JSON.stringify(data, null, 2)`` writes it, the form npm keeps ``package.json`` in."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write(client: Path) -> None:
    """Rewrite ``client``'s schema file and the server's settings in its ``package.json``."""
    exported = schema()
    (client / SCHEMA_FILE).write_text(dumps(exported), encoding="utf-8")
    manifest_path = client / "package.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    properties = manifest["contributes"]["configuration"]["properties"]
    for key, setting in exported["properties"].items():
        properties[f"{SECTION}.{key}"] = setting
    manifest_path.write_text(dumps(manifest), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m oracular.lsp.settings_schema", description=__doc__)
    parser.add_argument(
        "--write",
        type=Path,
        metavar="CLIENT_DIR",
        help=f"rewrite CLIENT_DIR/{SCHEMA_FILE} and the server's settings in CLIENT_DIR/package.json",
    )
    args = parser.parse_args(argv)
    if args.write is None:
        sys.stdout.write(dumps(schema()))
    else:
        write(args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
