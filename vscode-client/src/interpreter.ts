/**
 * Which Oracular to run: an `oracular` executable, or a Python interpreter that has the package.
 *
 * The order is the one the README documents: an explicit setting wins (`oracular.server.path`,
 * then `oracular.python`), then the Python extension's active interpreter (when that extension is
 * installed: it is never required), then `python3` from the PATH. Pure: no `vscode`, no I/O.
 */

import * as path from 'node:path';

import { LaunchSettings, SettingError } from './settings';

/** Where the choice came from, as shown to the user in messages and the status tooltip. */
export type LaunchSource = 'oracular.server.path' | 'oracular.python' | 'Python extension' | 'default';

export interface Launch {
  /** `server`: an `oracular` executable (run as `<it> serve`); `python`: run as `<it> -m oracular serve`. */
  readonly kind: 'server' | 'python';
  readonly executable: string;
  readonly source: LaunchSource;
}

export interface ResolveInputs {
  readonly settings: LaunchSettings;
  /** The Python extension's active interpreter for this workspace, when it has one. */
  readonly pythonExtension?: string;
  /** The first workspace folder's path, for `${workspaceFolder}` and relative paths. */
  readonly workspaceFolder?: string;
  readonly home: string;
}

export const DEFAULT_PYTHON = 'python3';

export function resolveLaunch(inputs: ResolveInputs): Launch {
  const { settings } = inputs;
  if (settings.serverPath !== undefined) {
    return {
      kind: 'server',
      executable: expandPath(settings.serverPath, 'oracular.server.path', inputs),
      source: 'oracular.server.path',
    };
  }
  if (settings.python !== undefined) {
    return {
      kind: 'python',
      executable: expandPath(settings.python, 'oracular.python', inputs),
      source: 'oracular.python',
    };
  }
  if (inputs.pythonExtension !== undefined && inputs.pythonExtension.trim() !== '') {
    return { kind: 'python', executable: inputs.pythonExtension, source: 'Python extension' };
  }
  return { kind: 'python', executable: DEFAULT_PYTHON, source: 'default' };
}

/**
 * A path from a setting, made absolute where it is a path at all.
 *
 * `${workspaceFolder}`, `${userHome}` and a leading `~` are expanded. A relative path with a
 * directory part (`.venv/bin/python`) is taken relative to the workspace folder, as the settings'
 * descriptions say; a bare name (`python3.12`) is left for the PATH to find.
 */
export function expandPath(
  value: string,
  setting: string,
  inputs: Pick<ResolveInputs, 'workspaceFolder' | 'home'>,
): string {
  let expanded = value.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name === 'userHome') {
      return inputs.home;
    }
    if (name === 'workspaceFolder') {
      if (inputs.workspaceFolder === undefined) {
        throw new SettingError(`${setting} uses \${workspaceFolder} but no folder is open`);
      }
      return inputs.workspaceFolder;
    }
    throw new SettingError(`${setting}: unknown variable ${whole} (known: \${workspaceFolder}, \${userHome})`);
  });
  if (expanded === '~' || expanded.startsWith('~/')) {
    expanded = path.join(inputs.home, expanded.slice(1));
  }
  if (path.isAbsolute(expanded) || !/[\\/]/.test(expanded)) {
    return expanded;
  }
  if (inputs.workspaceFolder === undefined) {
    throw new SettingError(`${setting} is a relative path (${value}) but no folder is open to resolve it against`);
  }
  return path.resolve(inputs.workspaceFolder, expanded);
}
