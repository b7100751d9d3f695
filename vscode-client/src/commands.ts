/**
 * The palette commands. Each checks that there is something to act on (a running server, a Java
 * editor) and turns a failure into a message instead of a silent no-op.
 */

import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';

import { addTopOracles } from './addTopOraclesCommand';
import { findPseudoTested } from './pseudoTestedCommand';
import { OracularServer } from './server';
import { SHOW_OUTPUT_COMMAND } from './statusBar';
import { suggestForTest } from './suggestCommand';

const COMMANDS = {
  suggest: 'oracular.suggestForTest',
  addAll: 'oracular.addTopOracles',
  pseudoTested: 'oracular.findPseudoTested',
  restart: 'oracular.restartServer',
  showOutput: SHOW_OUTPUT_COMMAND,
} as const;

export function registerCommands(server: OracularServer, output: vscode.OutputChannel): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.suggest, () => inJavaEditor(server, output, suggestForTest)),
    vscode.commands.registerCommand(COMMANDS.addAll, () =>
      inJavaEditor(server, output, (client, editor) => addTopOracles(client, editor.document)),
    ),
    vscode.commands.registerCommand(COMMANDS.pseudoTested, () => inJavaEditor(server, output, findPseudoTested)),
    vscode.commands.registerCommand(COMMANDS.restart, () => server.restart()),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => output.show(true)),
  ];
}

async function inJavaEditor(
  server: OracularServer,
  output: vscode.OutputChannel,
  run: (client: LanguageClient, editor: vscode.TextEditor) => Promise<void>,
): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'java') {
    void vscode.window.showInformationMessage('Oracular: open a Java test file first.');
    return;
  }
  const client = server.running;
  if (client === undefined) {
    void vscode.window.showWarningMessage(
      'Oracular is not running (see the status bar); run "Oracular: Restart server".',
    );
    return;
  }
  try {
    await run(client, editor);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.appendLine(`Error: ${message}`);
    void vscode.window.showErrorMessage(`Oracular: ${message}`);
  }
}
