// NDJSON protocol event types, mirroring contracts/tool-event.schema.json. Pure data.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

interface EventEnvelope {
  readonly version: '0';
  readonly requestId?: string;
  readonly timestamp?: string;
}

export interface LogEvent extends EventEnvelope {
  readonly type: 'log';
  readonly level: LogLevel;
  readonly message: string;
  readonly fields?: Record<string, unknown>;
}
export interface StatePatchEvent extends EventEnvelope {
  readonly type: 'state_patch';
  readonly patch: Record<string, unknown>;
}
export interface AssetEvent extends EventEnvelope {
  readonly type: 'asset';
  readonly assetId: string;
  readonly kind: string;
  readonly mediaType: string;
  readonly path: string;
  readonly metadata?: Record<string, unknown>;
}
export interface UiEvent extends EventEnvelope {
  readonly type: 'ui_event';
  readonly event: string;
  readonly payload?: Record<string, unknown>;
}
export interface ErrorEvent extends EventEnvelope {
  readonly type: 'error';
  readonly errorCode: string;
  readonly errorMessage: string;
  readonly details?: Record<string, unknown>;
}
export interface DoneEvent extends EventEnvelope {
  readonly type: 'done';
  readonly ok: boolean;
  readonly summary?: string;
  readonly output?: Record<string, unknown>;
  readonly needsMoreContext?: boolean;
  readonly contextSuggestion?: string;
}

/** Any event a skill script may emit (mirrors contracts/tool-event.schema.json). */
export type ToolEvent = LogEvent | StatePatchEvent | AssetEvent | UiEvent | ErrorEvent | DoneEvent;
export type ToolEventType = ToolEvent['type'];
export const TOOL_EVENT_TYPES: readonly ToolEventType[] = ['log', 'state_patch', 'asset', 'ui_event', 'error', 'done'];
export const PROTOCOL_VERSION = '0';
