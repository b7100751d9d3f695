/**
 * "Oracular: Add top oracles to all tests in file": the server's source action
 * (`source.oracular.addTopOracles`), asked for and applied directly, without a menu.
 *
 * The same action is in the Source Action menu and can run on save through
 * `editor.codeActionsOnSave`; this command is for a key binding or the palette.
 */

import * as vscode from 'vscode';
import { CodeAction, CodeActionRequest, CodeActionResolveRequest, LanguageClient } from 'vscode-languageclient/node';

/** The server's source action kind (server/oracular/lsp/code_actions.py). */
const ADD_ALL_KIND = 'source.oracular.addTopOracles';

export async function addTopOracles(client: LanguageClient, document: vscode.TextDocument): Promise<void> {
  const version = document.version;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions = await client.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
    range: client.code2ProtocolConverter.asRange(whole),
    context: { diagnostics: [], only: [ADD_ALL_KIND] },
  });
  const action = (actions ?? []).find((a): a is CodeAction => 'kind' in a && a.kind === ADD_ALL_KIND);
  if (action === undefined) {
    void vscode.window.showInformationMessage('Oracular: no test in this file needs an oracle it can suggest.');
    return;
  }
  const resolved = action.edit !== undefined ? action : await client.sendRequest(CodeActionResolveRequest.type, action);
  if (resolved.edit === undefined) {
    throw new Error('the server resolved the action without an edit');
  }
  if (document.version !== version) {
    void vscode.window.showWarningMessage(
      'Oracular: the file changed while the oracles were computed; run the command again.',
    );
    return;
  }
  const edit = await client.protocol2CodeConverter.asWorkspaceEdit(resolved.edit);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage('Oracular: VS Code refused the edit.');
  }
}
