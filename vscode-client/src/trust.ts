/**
 * Workspace trust, as the server hears it (server/oracular/lsp/execution_policy.py).
 *
 * With `oracular.checkOracles` at `"auto"` (the default) the server compiles and runs the
 * project's code only in a workspace VS Code trusts. The extension says so at start, in the
 * `initialize` request's `initializationOptions`, and again when the user grants trust later.
 * VS Code reloads the window when trust is withdrawn, which restarts the server untrusted. This
 * module is free of `vscode` imports so that it can be unit-tested in Node.
 */

import schema from '../settings.schema.json';

/** The `initializationOptions` key, beside the settings, that carries the workspace's trust. */
export const TRUSTED_OPTION = schema['x-workspaceTrust'].initializationOption;

/** Client-to-server notification: the workspace's trust changed. */
export const TRUST_NOTIFICATION = schema['x-workspaceTrust'].notification;

/** Settings VS Code keeps at their defaults in an untrusted workspace (restricted mode). */
export const RESTRICTED_SETTINGS = [
  'oracular.checkOracles',
  'oracular.classpath',
  'oracular.outputFolders',
  'oracular.sandbox',
] as const;

export function initializationOptions(isTrusted: boolean): Record<string, boolean> {
  return { [TRUSTED_OPTION]: isTrusted };
}

export interface TrustParams {
  readonly trusted: boolean;
}

export function trustParams(isTrusted: boolean): TrustParams {
  return { trusted: isTrusted };
}
