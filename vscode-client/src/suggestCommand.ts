/**
 * "Oracular: Suggest oracles for this test": the ranked oracles of the test under the cursor in a
 * quick pick, with their scores, the focal method and the exception probability (more than the
 * quick-fix titles can carry); the chosen one is inserted.
 *
 * It asks the server's `oracular.suggest` command, whose edits are computed for the buffer as the
 * server has it, so an edit is applied only if the document has not changed since it was asked.
 */

import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';

import { nothingToPick, parseSuggestDocument, pickEntries, pickTitle, Suggestion } from './suggestions';

/** The server's command (server/oracular/lsp/commands.py). */
const SERVER_SUGGEST = 'oracular.suggest';

export async function suggestForTest(client: LanguageClient, editor: vscode.TextEditor): Promise<void> {
  const document = editor.document;
  const version = document.version;
  const line = editor.selection.active.line + 1;
  const answer = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Oracular: ranking oracles' },
    () =>
      client.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_SUGGEST,
        arguments: [client.code2ProtocolConverter.asUri(document.uri), line],
      }),
  );
  const suggestions = parseSuggestDocument(answer);
  const nothing = nothingToPick(suggestions, line);
  if (nothing !== undefined) {
    void vscode.window.showInformationMessage(nothing);
    return;
  }
  const test = suggestions.tests[0];
  const picked = await vscode.window.showQuickPick(pickEntries(test), {
    title: pickTitle(test),
    placeHolder: 'Pick the oracle to insert',
  });
  if (picked === undefined) {
    return;
  }
  if (document.version !== version) {
    void vscode.window.showWarningMessage('Oracular: the file changed while you were choosing; run the command again.');
    return;
  }
  await insert(client, document, picked.suggestion);
}

async function insert(client: LanguageClient, document: vscode.TextDocument, suggestion: Suggestion): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.set(document.uri, await client.protocol2CodeConverter.asTextEdits([...suggestion.edits]));
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(`Oracular: VS Code refused the edit for ${suggestion.oracle}.`);
  }
}
