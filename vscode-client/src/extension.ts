/**
 * Entry point: wires the output channel, the status bar, the server's lifecycle and the commands,
 * and restarts the server when how it is launched changes. The server's own settings need no
 * restart: the server registers for their changes and pulls them (see languageClient.ts).
 */

import * as vscode from 'vscode';

import { registerCommands } from './commands';
import { PythonInterpreters } from './pythonExtension';
import { OracularServer } from './server';
import { LAUNCH_SETTINGS, SECTION } from './settings';
import { StatusModel } from './status';
import { createStatusBarItem } from './statusBar';

let server: OracularServer | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Oracular');
  const status = new StatusModel();
  const interpreters = new PythonInterpreters((message) => output.appendLine(message));
  server = new OracularServer(output, status, interpreters);
  const current = server;
  context.subscriptions.push(
    output,
    createStatusBarItem(status),
    interpreters,
    ...registerCommands(current, output),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (LAUNCH_SETTINGS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`))) {
        output.appendLine('The launch settings changed: restarting the server.');
        void current.restart();
      }
    }),
    // A server still starting reads the trust in its initializationOptions instead.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void current.trustGranted()),
    interpreters.onDidChange(() => {
      if (current.followsPythonExtension) {
        output.appendLine("The Python extension's interpreter changed: restarting the server.");
        void current.restart();
      }
    }),
  );
  void current.start();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}
