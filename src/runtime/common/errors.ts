// The runtime layer's error classes. Expected failures are data (results with codes); these are for bugs and cancellation.

/** A programming or environment error inside the runtime, with an optional cause. */
export class RuntimeError extends Error {
  override readonly name: string = 'RuntimeError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Thrown when an operation is stopped through its AbortSignal. */
export class CancellationError extends Error {
  override readonly name = 'CancellationError';
  constructor(message = 'Operation cancelled') {
    super(message);
  }
}

/** Throws CancellationError when the signal is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancellationError();
}

/** Human-readable message of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
