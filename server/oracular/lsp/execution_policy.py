"""May this server run the user's code now? The one rule that every execution check asks.

The ``checkOracles`` checks compile and run the test's code (the class under test, static
initialisers, whatever the test touches) and ``mvn -o`` or ``gradle --offline`` to find the
classpath. Opening a checkout must not do that unless the user trusts it, and a TCP port must
not let whoever connects do it at all:

- On TCP the client is whoever connected, not necessarily the user's editor, so code runs only if
  the server itself was started with ``--allow-code-execution``. No client can change that: not
  its settings, not its claim that the workspace is trusted.
- Then the setting decides: ``checkOracles: true`` runs, ``false`` does not, and ``"auto"`` (the
  default) runs only while the client says the workspace is trusted. Clients say so in
  ``initializationOptions.workspaceTrusted`` and later with the :data:`TRUST_NOTIFICATION`
  notification ``{"trusted": bool}``. Trust is never read from the ``oracular`` settings: a
  checkout's own ``.vscode/settings.json`` could claim it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Transport = Literal["stdio", "tcp"]
CheckOracles = bool | Literal["auto"]
"""The ``checkOracles`` setting: ``True``, ``False`` or ``"auto"`` (on in trusted workspaces)."""

TRUSTED_OPTION = "workspaceTrusted"
"""The ``initializationOptions`` key (beside the ``oracular`` section) saying the client trusts
the workspace."""
TRUST_NOTIFICATION = "oracular/workspaceTrust"
"""Client-to-server notification, params ``{"trusted": bool}``: the workspace's trust changed."""
ALLOW_FLAG = "--allow-code-execution"


@dataclass(frozen=True)
class Launch:
    """How the server was started: what no client can change."""

    transport: Transport = "stdio"
    allow_code_execution: bool = False
    """``--allow-code-execution``: on TCP, let the settings decide as on stdio."""


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    reason: str
    """Why, in a sentence for the user's log."""
    asked: bool = False
    """The user asked for checks (``checkOracles: true``) and is refused: worth a window message."""


def may_run_user_code(launch: Launch, check_oracles: CheckOracles, workspace_trusted: bool) -> Verdict:
    """Whether the execution checks may compile and run the project's code now, and why."""
    if check_oracles is False:
        return Verdict(False, "oracle checks are off (checkOracles: false)")
    if launch.transport == "tcp" and not launch.allow_code_execution:
        return Verdict(
            False,
            f"oracle checks are off: this server listens on TCP and was not started with {ALLOW_FLAG}, "
            "so it runs no code for whoever connects, whatever the client's settings or trust",
            asked=check_oracles is True or workspace_trusted,
        )
    if check_oracles is True:
        return Verdict(True, "oracle checks are on (checkOracles: true)")
    if workspace_trusted:
        return Verdict(True, "oracle checks are on: the workspace is trusted (checkOracles: auto)")
    return Verdict(
        False,
        "oracle checks are off: the client has not said that the workspace is trusted (checkOracles: "
        "auto); trust the workspace, or set checkOracles to true, to run them",
    )


def trusted_option(options: Any) -> tuple[bool, str | None]:
    """``workspaceTrusted`` from ``initializationOptions``, and a problem if it is not a boolean."""
    value = options.get(TRUSTED_OPTION, False) if isinstance(options, Mapping) else False
    if isinstance(value, bool):
        return value, None
    return False, f"initializationOptions.{TRUSTED_OPTION} must be true or false, got {value!r}; untrusted"


def trust_params(params: Any) -> bool | None:
    """The ``trusted`` flag of a :data:`TRUST_NOTIFICATION`, ``None`` if malformed."""
    trusted = params.get("trusted") if isinstance(params, Mapping) else getattr(params, "trusted", None)
    return trusted if isinstance(trusted, bool) else None
