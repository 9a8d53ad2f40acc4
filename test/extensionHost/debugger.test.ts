// Extension-host tests of the plan debugger's VS Code glue: Debug Plan stops at a gutter breakpoint and the graph follows, F5 without a launch.json, configurations naming nothing, Replay Run.
import * as assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

const PLAN_ID = '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

const PLAN = `{
  "requestId": "${PLAN_ID}",
  "tools": [
    { "toolId": "roll", "toolPath": "skills/dice-roller/scripts/roll.js", "input": { "formula": "1d20+3", "dc": 15, "reason": "pick the lock" } },
    {
      "toolId": "narrate",
      "toolPath": "skills/storyteller/scripts/narrate.js",
      "input": { "action": "I pick the lock" },
      "dependencies": ["roll"]
    }
  ],
  "parallel": false
}
`;

/** What the adapters of this suite sent to VS Code, by session id. */
const sent = new Map<string, DebugProtocol.ProtocolMessage[]>();

function messagesOf(session: vscode.DebugSession | undefined): DebugProtocol.ProtocolMessage[] {
  return session ? (sent.get(session.id) ?? []) : [];
}

function eventsOf(session: vscode.DebugSession | undefined, event: string): DebugProtocol.Event[] {
  return messagesOf(session).filter((message): message is DebugProtocol.Event => message.type === 'event' && (message as DebugProtocol.Event).event === event);
}

function failedLaunch(session: vscode.DebugSession | undefined): DebugProtocol.Response | undefined {
  return messagesOf(session).find(
    (message): message is DebugProtocol.Response =>
      message.type === 'response' && (message as DebugProtocol.Response).command === 'launch' && !(message as DebugProtocol.Response).success,
  );
}

/** The next `narratoria` session that starts. */
function nextSession(): Promise<vscode.DebugSession> {
  return new Promise((resolve) => {
    const subscription = vscode.debug.onDidStartDebugSession((session) => {
      if (session.type !== 'narratoria') return;
      subscription.dispose();
      resolve(session);
    });
  });
}

suite('Plan debugger', () => {
  let file: vscode.Uri;
  let tracker: vscode.Disposable;
  const ended = new Set<string>();
  let ending: vscode.Disposable;

  suiteSetup(async () => {
    file = vscode.Uri.file(path.join(storyFolder().fsPath, 'debug-test.plan.json'));
    await writeFile(file.fsPath, PLAN);
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('narratoria', {
      createDebugAdapterTracker: (session) => {
        const messages: DebugProtocol.ProtocolMessage[] = [];
        sent.set(session.id, messages);
        return { onDidSendMessage: (message: DebugProtocol.ProtocolMessage) => void messages.push(message) };
      },
    });
    ending = vscode.debug.onDidTerminateDebugSession((session) => ended.add(session.id));
  });

  teardown(async () => {
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    await vscode.debug.stopDebugging();
  });

  suiteTeardown(async () => {
    tracker.dispose();
    ending.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(file.fsPath, { force: true });
    await rm(path.join(storyFolder().fsPath, '.narratoria', 'runs', `${PLAN_ID}.json`), { force: true });
  });

  test('Debug Plan stops at a gutter breakpoint on a tool; the graph shows the run and highlights the paused tool', async () => {
    const api = await narratoriaApi();
    const graphs = api.context.graphs;
    const document = await vscode.window.showTextDocument(file);
    const panel = await graphs.show(file);
    assert.ok(panel);
    await waitFor(() => panel.current?.layout.nodes.length === 2, 'the graph is laid out');
    const highlights: (string | undefined)[] = [];
    const attached: string[] = [];
    const highlight = graphs.highlight.bind(graphs);
    const attachRun = graphs.attachRun.bind(graphs);
    graphs.highlight = (uri, toolId) => {
      if (uri.toString() === file.toString()) highlights.push(toolId);
      highlight(uri, toolId);
    };
    graphs.attachRun = (uri, run, toolIds, label) => {
      attached.push(uri.toString());
      return attachRun(uri, run, toolIds, label);
    };
    try {
      const line = document.document
        .getText()
        .split('\n')
        .findIndex((text) => text.includes('"toolId": "narrate"'));
      vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(file, new vscode.Position(line, 0)))]);
      const starting = nextSession();
      assert.equal(await vscode.commands.executeCommand('narratoria.debugPlan', file), true);
      const session = await starting;
      assert.equal(session.configuration['plan'], file.fsPath);
      await waitFor(() => eventsOf(session, 'stopped').length > 0 || ended.has(session.id), 'the session stops at the breakpoint');
      assert.equal(failedLaunch(session), undefined, JSON.stringify(failedLaunch(session)));
      const stopped = eventsOf(session, 'stopped')[0] as DebugProtocol.StoppedEvent | undefined;
      assert.equal(stopped?.body.reason, 'breakpoint');
      await waitFor(() => highlights.includes('narrate'), 'the graph highlights the paused tool');
      assert.deepEqual(attached, [file.toString()], 'the graph of the plan shows the live run');
      await session.customRequest('continue', { threadId: stopped.body.threadId });
      await waitFor(() => ended.has(session.id), 'the session ends after the last tool');
      assert.equal(highlights.at(-1), undefined, 'the highlight goes back to the cursor once the session runs on');
    } finally {
      graphs.highlight = highlight;
      graphs.attachRun = attachRun;
    }
  });

  test('F5 without a launch.json debugs the plan in the active editor', async () => {
    await vscode.window.showTextDocument(file);
    const starting = nextSession();
    // An empty configuration is what F5 starts when there is no launch.json: VS Code picks the debugger by the editor's language.
    assert.equal(await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(file), {} as vscode.DebugConfiguration), true);
    const session = await starting;
    assert.equal(session.configuration['plan'], file.fsPath);
    assert.equal(session.configuration['request'], 'launch');
    await waitFor(() => ended.has(session.id), 'the run ends (no breakpoints)');
    assert.equal(failedLaunch(session), undefined, JSON.stringify(failedLaunch(session)));
  });

  test('a configuration naming nothing to debug does not start', async () => {
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'narratoria', request: 'launch', name: 'Nothing' });
    assert.equal(started, false);
  });

  test('Replay Run replays a run record without starting a process', async () => {
    const api = await narratoriaApi();
    const result = (await vscode.commands.executeCommand('narratoria.runPlan', file)) as { success: boolean } | undefined;
    assert.equal(result?.success, true, 'Run Plan records a run to replay');
    const record = vscode.Uri.file(path.join(storyFolder().fsPath, '.narratoria', 'runs', `${PLAN_ID}.json`));
    assert.ok(JSON.parse(await readFile(record.fsPath, 'utf8')), 'the run record exists');
    const starting = nextSession();
    assert.equal(await vscode.commands.executeCommand('narratoria.replayRun', record), true);
    const session = await starting;
    assert.equal(session.configuration['replay'], record.fsPath);
    assert.equal(session.configuration['plan'], undefined);
    await waitFor(() => ended.has(session.id), 'the replay runs to its end');
    assert.equal(failedLaunch(session), undefined, JSON.stringify(failedLaunch(session)));
    assert.ok(api.context.debugging, 'the debugger is wired in the context');
  });
});
