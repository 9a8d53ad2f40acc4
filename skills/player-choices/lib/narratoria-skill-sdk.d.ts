// Type declarations of @narratoria/skill-sdk: the protocol v0 events (mirroring contracts/tool-event.schema.json) and the helpers of index.js; copied beside each copy of it by the build, so edit packages/skill-sdk/index.d.ts.

/** The protocol version every event carries. */
export declare const PROTOCOL_VERSION: '0';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type JsonObject = Record<string, unknown>;

/** Fields every event may carry besides its own (the SDK fills `version` and `requestId`). */
export interface EventEnvelope {
  readonly version: '0';
  readonly requestId?: string;
  readonly timestamp?: string;
}

export interface LogEvent extends EventEnvelope {
  readonly type: 'log';
  readonly level: LogLevel;
  readonly message: string;
  readonly fields?: JsonObject;
}
export interface StatePatchEvent extends EventEnvelope {
  readonly type: 'state_patch';
  /** Deep-merged into the session state: objects merge, arrays replace, null deletes a key. */
  readonly patch: JsonObject;
}
export interface AssetEvent extends EventEnvelope {
  readonly type: 'asset';
  /** Unique within the invocation. */
  readonly assetId: string;
  /** image, audio, video, model, … */
  readonly kind: string;
  /** A MIME type, e.g. image/svg+xml. */
  readonly mediaType: string;
  /** Absolute, or relative to the story root (the runtime's working directory). */
  readonly path: string;
  readonly metadata?: JsonObject;
}
export interface NarrativeChoiceEvent extends EventEnvelope {
  readonly type: 'ui_event';
  readonly event: 'narrative_choice';
  readonly payload: { readonly choices: readonly string[] } & JsonObject;
}
export interface UiEvent extends EventEnvelope {
  readonly type: 'ui_event';
  readonly event: string;
  readonly payload?: JsonObject;
}
export interface ErrorEvent extends EventEnvelope {
  readonly type: 'error';
  readonly errorCode: ErrorCode;
  readonly errorMessage: string;
  readonly details?: JsonObject;
}
export interface DoneEvent extends EventEnvelope {
  readonly type: 'done';
  readonly ok: boolean;
  readonly summary?: string;
  /** Structured result handed to the tools that depend on this one. */
  readonly output?: JsonObject;
  /** Asks the runtime to re-plan with more context. */
  readonly needsMoreContext?: boolean;
  readonly contextSuggestion?: string;
}

/** Any line a skill script writes on stdout. */
export type ToolEvent = LogEvent | StatePatchEvent | AssetEvent | UiEvent | ErrorEvent | DoneEvent;
export type ToolEventType = ToolEvent['type'];
/** An event as given to emit(): without the envelope the SDK adds. */
export type EventBody<E extends ToolEvent = ToolEvent> = E extends ToolEvent ? Omit<E, 'version' | 'requestId'> & { readonly timestamp?: string } : never;

/** Error codes with a shared meaning; any other UPPER_SNAKE string may be used too. */
export type KnownErrorCode = 'INVALID_STDIN' | 'INVALID_INPUT' | 'INTERNAL_ERROR' | 'NETWORK_ERROR' | 'DATA_DIR_UNAVAILABLE' | 'STORE_BUSY' | 'STORE_UNREADABLE';
export type ErrorCode = KnownErrorCode | (string & {});
export declare const ERROR_CODES: { readonly [Code in KnownErrorCode]: Code };

/** A failure reported as `error` + `done ok:false` when thrown inside runTool. */
export declare class ToolError extends Error {
  constructor(code: ErrorCode, message: string, details?: JsonObject);
  readonly code: ErrorCode;
  readonly details?: JsonObject;
}
/** Bad input: a ToolError with the INVALID_INPUT code. */
export declare class InputError extends ToolError {
  constructor(message: string, details?: JsonObject);
}

export declare function isObject(value: unknown): value is JsonObject;
/** Whether `done` has been emitted (every later event is dropped). */
export declare function isDone(): boolean;

/** Writes one event line (version and requestId added); false when dropped because done was already sent. */
export declare function emit(event: EventBody): boolean;
export declare function emitLog(level: LogLevel, message: string, fields?: JsonObject): boolean;
export declare function log(level: LogLevel, message: string, fields?: JsonObject): boolean;
export declare function emitStatePatch(patch: JsonObject): boolean;
export declare function emitAsset(asset: { assetId: string; kind: string; mediaType: string; path: string; metadata?: JsonObject }): boolean;
export declare function emitUiEvent(event: string, payload?: JsonObject): boolean;
/** The narrative_choice ui_event: buttons in the play panel; the chosen text becomes the next prompt. */
export declare function offerChoices(choices: readonly string[], extra?: JsonObject): boolean;
/** An error event; done must still follow (fail sends both). */
export declare function emitError(errorCode: ErrorCode, errorMessage: string, details?: JsonObject): boolean;
/** The done event, once per invocation. */
export declare function emitDone(result: { ok: boolean; summary?: string; output?: JsonObject; needsMoreContext?: boolean; contextSuggestion?: string }): boolean;
/** error + done ok:false; exit code 0. Returns undefined so that `return fail(...)` ends a handler. */
export declare function fail(errorCode: ErrorCode, errorMessage: string, details?: JsonObject, summary?: string): undefined;
/** INTERNAL_ERROR for an unexpected exception (its stack goes to stderr). */
export declare function failUnexpected(error: unknown): undefined;

/** The request the runtime writes on stdin. */
export interface ToolRequest extends JsonObject {
  readonly requestId?: string;
  readonly tool?: string;
  readonly operation?: string;
  readonly input?: JsonObject;
  /** Each dependency's toolId → its done.output (null when it failed and was not required). */
  readonly dependencies?: Record<string, JsonObject | null>;
  /** The session state before this tool. */
  readonly state?: JsonObject;
}
export interface ReceivedRequest {
  readonly request: ToolRequest;
  readonly input: JsonObject;
  readonly dependencies: Record<string, JsonObject | null>;
  readonly state: JsonObject;
}
export interface RequestOptions {
  /** A whole stdin shown in the INVALID_STDIN messages, e.g. '{"input":{"formula":"1d20"}}'. */
  readonly example?: string;
  /** An input shown when `input` is not an object. */
  readonly inputExample?: string;
}
export declare function readStdin(): Promise<string>;
/** Reads and checks stdin; on a bad one it fails the invocation and resolves to undefined. */
export declare function readRequest(options?: RequestOptions): Promise<ReceivedRequest | undefined>;

export interface ToolOptions extends RequestOptions {
  /** The skill's name in messages (default: its folder's name). */
  readonly name?: string;
}
export interface ToolHandlerContext extends ReceivedRequest {
  readonly skillDirectory: string;
  readonly emit: typeof emit;
  readonly log: typeof log;
}
export interface ToolResult {
  readonly summary?: string;
  readonly output?: JsonObject;
}
/** Reads the request, runs the handler, and sends done (ok from its result; ToolError and exceptions as failures). */
export declare function runTool(options: ToolOptions, handler: (context: ToolHandlerContext) => ToolResult | void | Promise<ToolResult | void>): Promise<void>;

export declare function skillDirectory(): string;
export declare function skillName(): string;
/** This session's data: NARRATORIA_SKILL_DATA (.narratoria/sessions/<id>/data/<skill>), else <skill>/data; created when asked (DATA_DIR_UNAVAILABLE on failure). */
export declare function dataDirectory(create?: boolean): string;
/** Data shared by every session (a cache, a picture library): NARRATORIA_SKILL_SHARED, else <skill>/shared; created when asked. */
export declare function sharedDirectory(create?: boolean): string;
/** NARRATORIA_SESSION_ID: the play-through this invocation serves, or undefined outside Narratoria. */
export declare function sessionId(): string | undefined;
/** NARRATORIA_SEED as a number, or undefined. */
export declare function toolSeed(): number | undefined;
export interface SkillContext {
  /** NARRATORIA_ROOT: the story root, the script's working directory. */
  readonly root?: string;
  readonly skillName: string;
  readonly skillDirectory: string;
  readonly dataDirectory: string;
  readonly sharedDirectory: string;
  readonly sessionId?: string;
  /** NARRATORIA_TOOL_ID: the plan's toolId of this invocation. */
  readonly toolId?: string;
  /** NARRATORIA_REQUEST_ID: the plan's requestId. */
  readonly requestId?: string;
  readonly protocolVersion: string;
  readonly seed?: number;
  /** NARRATORIA_MODEL_ENDPOINT: a socket to the narrator's loaded model, in sessions with a local model. */
  readonly modelEndpoint?: string;
}
export declare function skillContext(): SkillContext;

/** User values (NARRATORIA_SKILL_CONFIG, else config.json) over config-schema.json's defaults over `defaults`. */
export declare function readConfig<T extends JsonObject = JsonObject>(defaults?: Partial<T>): T & JsonObject;
export interface ConfigField<V> {
  readonly fallback: V;
  readonly valid: (value: unknown) => boolean;
}
/** Like readConfig, each key checked; an invalid value gives a warn log and its fallback. */
export declare function readCheckedConfig<F extends Record<string, ConfigField<unknown>>>(fields: F): { [K in keyof F]: F[K]['fallback'] };

/** A 32-bit number from a text, the same on every run and machine (FNV-1a over its code points). */
export declare function stableHash(text: string): number;
/** Text fit to show or store: '' for a non-string; control characters become spaces, white space is collapsed and trimmed; at most `max` characters when given. */
export declare function cleanText(value: unknown, max?: number): string;
/** A [0, 1) generator from a seed (mulberry32 over a FNV-1a hash of its text). */
export declare function seededRandom(seed: number | string): () => number;
/** [0, 1), seeded by NARRATORIA_SEED when set, else Math.random. */
export declare function random(): number;
export declare function randomInteger(min: number, max: number): number;
export declare function randomChoice<T>(items: readonly T[]): T;

export declare function sleep(ms: number): void;
export declare function writeFileAtomic(file: string, text: string | Uint8Array): void;
export declare function withLock<T>(file: string, fn: () => T, options?: { timeoutMs?: number; staleMs?: number }): T;
export declare function readJsonFile<T>(file: string, fallback: T): { value: T; corrupt: boolean };
export declare function quarantine(file: string): string | undefined;
