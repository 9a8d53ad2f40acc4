// ANSI text styles for terminal output (the CLI and VS Code's pseudo-terminals); plain text when colour is off.

/** Wraps text in one style each; identity functions when colour is off. */
export interface TextStyle {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly blue: (text: string) => string;
  readonly cyan: (text: string) => string;
}

/** ANSI SGR styles when `enabled`, else plain text. */
export function ansiTextStyle(enabled: boolean): TextStyle {
  const wrap = (open: number, close: number) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    blue: wrap(34, 39),
    cyan: wrap(36, 39),
  };
}
