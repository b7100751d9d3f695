/**
 * The Python extension's active interpreter, when that extension is installed.
 *
 * It is an optional source (never in `extensionDependencies`): without it, or when its API does
 * not answer, Oracular falls back to `python3`. Only the few API members used here are typed, so
 * the extension does not depend on the Python extension's npm package either.
 */

import * as vscode from 'vscode';

const PYTHON_EXTENSION_ID = 'ms-python.python';
const ACTIVATION_TIMEOUT_MS = 15_000;

interface EnvironmentPath {
  readonly path: string;
}

interface PythonApi {
  readonly environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(environment: EnvironmentPath): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    readonly onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
  /** The older API, still exported next to `environments`. */
  readonly settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

export class PythonInterpreters implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the user picks another interpreter in the Python extension. */
  readonly onDidChange = this.changed.event;
  private subscription?: vscode.Disposable;

  constructor(private readonly log: (message: string) => void) {}

  /** The active interpreter's executable for `resource`, or `undefined` (no extension, none picked). */
  async active(resource: vscode.Uri | undefined): Promise<string | undefined> {
    const api = await this.api();
    if (api === undefined) {
      return undefined;
    }
    try {
      if (api.environments !== undefined) {
        this.subscription ??= api.environments.onDidChangeActiveEnvironmentPath(() => this.changed.fire());
        const active = api.environments.getActiveEnvironmentPath(resource);
        const resolved = await api.environments.resolveEnvironment(active);
        return resolved?.executable.uri?.fsPath ?? active.path;
      }
      return api.settings?.getExecutionDetails(resource).execCommand?.[0];
    } catch (error) {
      this.log(`The Python extension did not tell its interpreter (${String(error)}); using the default.`);
      return undefined;
    }
  }

  private async api(): Promise<PythonApi | undefined> {
    const extension = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION_ID);
    if (extension === undefined) {
      return undefined;
    }
    try {
      if (extension.isActive) {
        return extension.exports;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ACTIVATION_TIMEOUT_MS);
      });
      const api = await Promise.race([extension.activate(), timeout]);
      clearTimeout(timer);
      if (api === undefined) {
        this.log(
          `The Python extension did not activate within ${ACTIVATION_TIMEOUT_MS / 1000} s; using the default interpreter.`,
        );
      }
      return api;
    } catch (error) {
      this.log(`The Python extension failed to activate (${String(error)}); using the default interpreter.`);
      return undefined;
    }
  }

  dispose(): void {
    this.subscription?.dispose();
    this.changed.dispose();
  }
}
