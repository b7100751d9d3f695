/**
 * The lifecycle of the language server: choose the launch, check Oracular is installed there,
 * start the client, restart it when the launch changes, and keep the status bar truthful.
 *
 * Start, stop and restart are queued one after another: a settings change arriving while the
 * server is still starting must not leave two servers running, or none.
 */

import * as os from 'node:os';
import * as vscode from 'vscode';
import { LanguageClient, State } from 'vscode-languageclient/node';

import { Launch, resolveLaunch } from './interpreter';
import { createLanguageClient } from './languageClient';
import { launchProblemMessage } from './messages';
import { showError, showLaunchProblem } from './notifications';
import { probe } from './probe';
import { PythonInterpreters } from './pythonExtension';
import { display, serverCommand } from './serverCommand';
import { SECTION, SettingError, launchSettings } from './settings';
import { StatusModel } from './status';
import { TRUST_NOTIFICATION, trustParams } from './trust';

const STOP_TIMEOUT_MS = 5_000;

export class OracularServer {
  private client?: LanguageClient;
  private launch?: Launch;
  private queue: Promise<void> = Promise.resolve();
  private stopping = false;

  constructor(
    private readonly output: vscode.OutputChannel,
    private readonly status: StatusModel,
    private readonly interpreters: PythonInterpreters,
  ) {}

  /** The running client, for commands; `undefined` while the server is not ready. */
  get running(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  /** Whether the current server was chosen through the Python extension (so follows its changes). */
  get followsPythonExtension(): boolean {
    return this.launch?.source === 'Python extension';
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  /** The user trusted the workspace: the server may now run the oracle checks (`checkOracles: auto`). */
  trustGranted(): Promise<void> {
    return this.enqueue(async () => {
      const client = this.running;
      if (client !== undefined) {
        this.output.appendLine('The workspace is now trusted: telling the server.');
        await client.sendNotification(TRUST_NOTIFICATION, trustParams(true));
      }
    });
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  private enqueue(operation: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(operation, operation);
    return this.queue;
  }

  private async doStart(): Promise<void> {
    let launch: Launch;
    try {
      launch = await this.resolve();
    } catch (error) {
      const message =
        error instanceof SettingError ? error.message : `cannot choose how to start Oracular: ${String(error)}`;
      this.fail(message);
      void showError(`Oracular: ${message}`, this.output);
      return;
    }
    this.launch = launch;
    const line = serverCommand(launch);
    const described = `${display(line)} (${launch.source})`;
    this.status.starting(described);
    this.output.appendLine(`Starting ${display(line)} (chosen by ${launch.source})`);
    const checked = await probe(launch);
    if (!checked.ok) {
      const message = launchProblemMessage(launch, checked);
      this.fail(message);
      void showLaunchProblem(launch, message, this.output);
      return;
    }
    const client = createLanguageClient(line, this.output, this.status);
    client.onDidChangeState(({ newState }) => this.stateChanged(client, newState, described, checked.version));
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      const message = `the server did not start: ${error instanceof Error ? error.message : String(error)}`;
      this.fail(message);
      void showError(`Oracular: ${message}`, this.output);
    }
  }

  /** `described`: the launch as the status tooltip shows it; `version`: what the probe found. */
  private stateChanged(client: LanguageClient, state: State, described: string, version: string): void {
    if (client !== this.client) {
      return; // a client being replaced
    }
    if (state === State.Starting) {
      this.status.starting(described); // also when the client restarts a crashed server
    } else if (state === State.Running) {
      this.status.running(version);
    } else if (this.stopping) {
      this.status.stopped();
    } else {
      this.fail('the server stopped; see the output for why, then run "Oracular: Restart server"');
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    if (client === undefined) {
      return;
    }
    this.stopping = true;
    try {
      await client.dispose(STOP_TIMEOUT_MS); // stops the server first (shutdown, exit, then kill)
    } catch (error) {
      this.output.appendLine(`Stopping the server failed: ${String(error)}`);
    } finally {
      this.stopping = false;
      this.client = undefined;
    }
  }

  private async resolve(): Promise<Launch> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const settings = launchSettings(config.get('server.path'), config.get('python'));
    const folder = vscode.workspace.workspaceFolders?.[0];
    const needsInterpreter = settings.serverPath === undefined && settings.python === undefined;
    const pythonExtension = needsInterpreter ? await this.interpreters.active(folder?.uri) : undefined;
    return resolveLaunch({ settings, pythonExtension, workspaceFolder: folder?.uri.fsPath, home: os.homedir() });
  }

  private fail(message: string): void {
    this.output.appendLine(`Error: ${message}`);
    this.status.failed(message);
  }
}
