// Numbers for people, the one version every layer uses (the CLI, hovers, the graph and the panels): durations, counts and plurals. Browser-safe: no Node built-ins.

/** "850 ms", "1.5 s", "2.1 min", "3 h": milliseconds below a second, then seconds, minutes and hours with at most one decimal (at most 8 columns below 100 h). */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds)) return '';
  const ms = Math.max(0, Math.round(milliseconds));
  if (ms < 1000) return `${ms} ms`;
  const seconds = oneDecimal(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = oneDecimal(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  return `${oneDecimal(ms / 3_600_000)} h`;
}

/** 12345 → "12,345". */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** "1 tool", "3 tools", "2 replies" (with the plural form given). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** 512 → "512 B", 2048 → "2.0 KB", 3_500_000 → "3.3 MB" (powers of 1,024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
