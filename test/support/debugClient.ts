// A DebugClient (@vscode/debugadapter-testsupport) on the real `narratoria debug-adapter` process, with helpers to launch and wait for stops.
import * as path from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { DebugHost } from '../../src/runtime/debug/dap/debugHost.js';
import { NarratoriaDebugSession } from '../../src/runtime/debug/dap/narratoriaDebugSession.js';

const adapterScript = path.resolve(import.meta.dirname, 'debugAdapterProcess.cjs');
/** Margin: how long a request or event may take on a loaded 2-core machine; a wait only fails past it when the adapter is broken. */
const WAIT_MS = 60_000;

export interface Launch {
  readonly lineBreakpoints?: readonly DebugProtocol.SourceBreakpoint[];
  readonly planFile?: string;
  readonly functionBreakpoints?: readonly DebugProtocol.FunctionBreakpoint[];
  readonly exceptionFilters?: readonly string[];
}

/** Starts the adapter process and connects. */
export async function startClient(cwd: string): Promise<DebugClient> {
  const client = new DebugClient(process.execPath, adapterScript, 'narratoria', { cwd, env: { ...process.env, NO_COLOR: '1' } }, false);
  client.defaultTimeout = WAIT_MS;
  await client.start();
  return client;
}

export interface Launched {
  readonly lines?: DebugProtocol.SetBreakpointsResponse;
  readonly functions?: DebugProtocol.SetFunctionBreakpointsResponse;
  /** The first stop, and the end of the session: both waits are registered before the launch request goes out. */
  readonly firstStop: Promise<DebugProtocol.StoppedEvent>;
  readonly terminated: Promise<unknown>;
}

/** A DAP client over streams (DebugClient connects only to a process or a port by itself). */
class StreamClient extends DebugClient {
  attach(readable: Readable, writable: Writable): void {
    this.connect(readable, writable);
  }
}

/**
 * An adapter in this process with a client over a pair of streams: for a host the standalone adapter does not
 * have (an untrusted workspace), and for measuring the adapter without a process boundary.
 */
export function connectInProcess(host: DebugHost): { client: DebugClient; close: () => Promise<void> } {
  const toAdapter = new PassThrough();
  const fromAdapter = new PassThrough();
  const session = new NarratoriaDebugSession(host);
  session.setRunAsServer(true);
  session.start(toAdapter, fromAdapter);
  const client = new StreamClient('node', 'unused', 'narratoria');
  client.defaultTimeout = WAIT_MS;
  client.attach(fromAdapter, toAdapter);
  return {
    client,
    close: async () => {
      await client.disconnectRequest({}).catch(() => undefined);
      await session.close();
    },
  };
}

/** initialize → launch → (initialized) breakpoints → configurationDone; returns the breakpoints' responses. */
export async function launch(client: DebugClient, args: Record<string, unknown>, setup: Launch = {}): Promise<Launched> {
  const initialized = await client.initializeRequest({ adapterID: 'narratoria', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  if (!initialized.success) throw new Error(initialized.message);
  const configured = client.waitForEvent('initialized').then(async () => {
    const lines =
      setup.lineBreakpoints && setup.planFile
        ? await client.setBreakpointsRequest({ source: { path: setup.planFile }, breakpoints: [...setup.lineBreakpoints] })
        : undefined;
    const functions = setup.functionBreakpoints ? await client.setFunctionBreakpointsRequest({ breakpoints: [...setup.functionBreakpoints] }) : undefined;
    await client.setExceptionBreakpointsRequest({ filters: [...(setup.exceptionFilters ?? [])] });
    await client.configurationDoneRequest();
    return { ...(lines ? { lines } : {}), ...(functions ? { functions } : {}) };
  });
  // Plain listeners, not waitForEvent: an unused wait must not hold a timer that keeps the test process alive
  // (each test's own timeout is the safety net).
  const firstStop = new Promise<DebugProtocol.StoppedEvent>((resolve) => client.once('stopped', resolve));
  const terminated = new Promise<unknown>((resolve) => client.once('terminated', resolve));
  const [result] = await Promise.all([configured, client.launchRequest(args as DebugProtocol.LaunchRequestArguments)]);
  return { ...result, firstStop, terminated };
}

/**
 * Sends a request and waits for the stop it leads to. The wait is registered first: a stopped event can arrive in
 * the same chunk as the response, before an `await` on the request would resume.
 */
export async function stopAfter(client: DebugClient, request: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const [stop] = await Promise.all([nextStop(client), request()]);
  return stop;
}

/** Waits for the next stopped event (register it before sending what causes the stop). */
export async function nextStop(client: DebugClient): Promise<DebugProtocol.StoppedEvent> {
  return (await client.waitForEvent('stopped')) as DebugProtocol.StoppedEvent;
}

/** The top frame of a thread. */
export async function topFrame(client: DebugClient, threadId: number): Promise<DebugProtocol.StackFrame> {
  const trace = await client.stackTraceRequest({ threadId });
  const frame = trace.body.stackFrames[0];
  if (!frame) throw new Error(`thread ${threadId} has no frames`);
  return frame;
}

/** A scope of a frame, as plain JSON (objects expanded recursively). */
export async function scopeValue(client: DebugClient, frameId: number, name: string): Promise<unknown> {
  const scopes = await client.scopesRequest({ frameId });
  const scope = scopes.body.scopes.find((candidate) => candidate.name === name);
  if (!scope) return undefined;
  return expand(client, scope.variablesReference, false);
}

async function expand(client: DebugClient, reference: number, array: boolean): Promise<unknown> {
  const variables = (await client.variablesRequest({ variablesReference: reference })).body.variables;
  const entries = await Promise.all(
    variables.map(
      async (variable) =>
        [
          variable.name,
          variable.variablesReference > 0
            ? await expand(client, variable.variablesReference, variable.type === 'array')
            : (JSON.parse(variable.value) as unknown),
        ] as const,
    ),
  );
  return array ? entries.map(([, value]) => value) : Object.fromEntries(entries);
}

export type SessionEvent = DebugProtocol.StoppedEvent | DebugProtocol.TerminatedEvent;

/**
 * Every stopped and terminated event since the client started, in order. DebugClient.waitForEvent listens only from
 * the moment it is called, so an event that arrives in the same chunk as the previous response (a replay stops in the
 * same tick as it answers launch) would be lost.
 */
export class SessionEvents {
  /** Every output event's category and text. */
  readonly outputs: { category: string; output: string }[] = [];
  /** Every thread event. */
  readonly threads: DebugProtocol.ThreadEvent['body'][] = [];
  private readonly received: SessionEvent[] = [];
  private wake: (() => void) | undefined;

  constructor(session: DebugClient) {
    const record = (event: SessionEvent) => {
      this.received.push(event);
      this.wake?.();
    };
    session.on('output', (event: DebugProtocol.OutputEvent) => this.outputs.push({ category: event.body.category ?? 'console', output: event.body.output }));
    session.on('thread', (event: DebugProtocol.ThreadEvent) => this.threads.push(event.body));
    session.on('stopped', record);
    session.on('terminated', record);
  }

  /** The next stopped or terminated event. */
  async next(): Promise<SessionEvent> {
    while (this.received.length === 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        this.wake = resolve;
        timer = setTimeout(() => reject(new Error(`no stopped or terminated event after ${WAIT_MS} ms`)), WAIT_MS);
      }).finally(() => {
        clearTimeout(timer);
        this.wake = undefined;
      });
    }
    return this.received.shift()!;
  }

  /** The next stop; fails when the session ends instead. */
  async stop(): Promise<DebugProtocol.StoppedEvent> {
    const event = await this.next();
    if (event.event !== 'stopped') throw new Error('the session ended where it should have stopped');
    return event as DebugProtocol.StoppedEvent;
  }

  /** Waits for the end of the session; fails when it stops instead. */
  async end(): Promise<void> {
    const event = await this.next();
    if (event.event !== 'terminated')
      throw new Error(
        `the session stopped (${(event as DebugProtocol.StoppedEvent).body.reason}: ${(event as DebugProtocol.StoppedEvent).body.description ?? ''}) where it should have ended`,
      );
  }
}
