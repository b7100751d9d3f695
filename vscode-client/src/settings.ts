/**
 * The `oracular.*` settings: which ones belong to the server, and what the extension itself reads.
 *
 * The extension contributes more settings than the server knows (how to launch it, the LSP trace).
 * The server reports every key it does not know as a problem, so only its own keys may ever be
 * sent to it. This module is free of `vscode` imports so that it can be unit-tested in Node.
 */

import schema from '../settings.schema.json';

export const SECTION = 'oracular';

/**
 * Every key of the server's `oracular` section, from the schema of its settings that
 * `python -m oracular.lsp.settings_schema --write vscode-client` exports (see the schema's
 * `$comment`): server/oracular/lsp/settings.py defines each setting once.
 */
export const SERVER_KEYS: ReadonlySet<string> = new Set(Object.keys(schema.properties));

/** Settings only the extension reads: changing one restarts the server with the new command line. */
export const LAUNCH_SETTINGS = ['server.path', 'python'] as const;

/**
 * The server's part of the `oracular` section as VS Code returns it.
 *
 * VS Code nests dotted keys (`oracular.server.path` arrives as `server: {path}`), and those, like
 * `trace`, are the extension's own: they are dropped here. `null` values are dropped too, as the
 * server would treat them as "unset" anyway.
 */
export function serverSection(section: unknown): Record<string, unknown> | null {
  if (section === null || typeof section !== 'object' || Array.isArray(section)) {
    return null;
  }
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section)) {
    if (SERVER_KEYS.has(key) && value !== null && value !== undefined) {
      result[key] = value;
    }
  }
  return result;
}

/** How the user asked for the server to be launched; empty strings mean "not set". */
export interface LaunchSettings {
  readonly serverPath?: string;
  readonly python?: string;
}

/** Raised for a launch setting that cannot be used; the message names the setting. */
export class SettingError extends Error {}

/**
 * The launch settings from raw configuration values (what `getConfiguration().get()` returns).
 *
 * A value of the wrong type is an error rather than "unset": silently falling back to another
 * interpreter would start a different Oracular than the one the user configured.
 */
export function launchSettings(serverPath: unknown, python: unknown): LaunchSettings {
  return {
    serverPath: optionalPath('oracular.server.path', serverPath),
    python: optionalPath('oracular.python', python),
  };
}

function optionalPath(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new SettingError(`${name} must be a path (a string), got ${JSON.stringify(value)}`);
  }
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
