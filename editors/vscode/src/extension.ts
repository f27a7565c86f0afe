// Starts `ptxguard server` for CUDA, C++ and Python documents; the server does the rest
// (diagnostics, quick fixes, fix-all, hover).
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/// The code action kind the server offers for "fix all safe findings".
const FIX_ALL = vscode.CodeActionKind.SourceFixAll.append("ptxguard");

/// A setting's path, relative ones resolved against the first workspace folder.
function settingPath(config: vscode.WorkspaceConfiguration, key: string): string | undefined {
  const value = (config.get<string>(key) ?? "").trim();
  if (value === "") {
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return path.isAbsolute(value) || folder === undefined ? value : path.join(folder, value);
}

function createClient(): LanguageClient {
  const config = vscode.workspace.getConfiguration("ptxguard");
  const command = (config.get<string>("path") ?? "").trim() || "ptxguard";
  const serverOptions: ServerOptions = {
    command,
    args: ["server"],
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: ["cuda-cpp", "cpp", "python"].map((language) => ({
      scheme: "file",
      language,
    })),
    // What the server cannot find by itself; both optional.
    initializationOptions: {
      configuration: settingPath(config, "configuration"),
      compileCommands: settingPath(config, "compileCommands"),
    },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(
        "**/{ptxguard.toml,.ptxguard.toml,compile_commands.json}",
      ),
    },
  };
  return new LanguageClient("ptxguard", "ptxguard", serverOptions, clientOptions);
}

async function restart(): Promise<void> {
  if (client !== undefined) {
    await client.stop();
  }
  client = createClient();
  await client.start();
}

/// Applies the server's fix-all action to the active document.
async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    return;
  }
  const document = editor.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions =
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      "vscode.executeCodeActionProvider",
      document.uri,
      whole,
      FIX_ALL.value,
    )) ?? [];
  for (const action of actions) {
    if (action.kind === undefined || !FIX_ALL.contains(action.kind)) {
      continue;
    }
    if (action.edit !== undefined) {
      await vscode.workspace.applyEdit(action.edit);
    }
    if (action.command !== undefined) {
      await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
    }
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("ptxguard.fixAll", fixAll),
    vscode.commands.registerCommand("ptxguard.restart", restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("ptxguard")) {
        void restart();
      }
    }),
  );
  client = createClient();
  await client.start();
}

export async function deactivate(): Promise<void> {
  if (client !== undefined) {
    await client.stop();
  }
}
