// The runtime layer's error class for cancellation and error helpers. Expected failures are data (results with codes), not exceptions.

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
