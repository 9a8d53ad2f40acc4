// Safe condition expressions for plan tools (docs/plan-json-and-protocol.md#conditions): a small parser and evaluator, never eval.
//
// Grammar:  or := and ('||' and)* ; and := not ('&&' not)* ; not := '!' not | comparison
//           comparison := primary (('==' | '!=' | '<' | '<=' | '>' | '>=') primary)?
//           primary := number | string | true | false | null | path | '(' or ')'
//           path := ('state' | 'dependencies') ('.' name | '[' (number | string) ']')*
// Examples: `state.dice.lastRoll.success == true`, `dependencies.roll.result.total >= 15 && !state.flags.alarm`

/** Where a condition's path reads from. */
export type ConditionRoot = 'state' | 'dependencies';

export type ConditionNode =
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null }
  | { readonly kind: 'path'; readonly root: ConditionRoot; readonly segments: readonly (string | number)[] }
  | { readonly kind: 'not'; readonly operand: ConditionNode }
  | { readonly kind: 'logical'; readonly operator: '&&' | '||'; readonly left: ConditionNode; readonly right: ConditionNode }
  | { readonly kind: 'compare'; readonly operator: ComparisonOperator; readonly left: ConditionNode; readonly right: ConditionNode };

type ComparisonOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type ConditionParseResult =
  | { readonly ok: true; readonly expression: ConditionNode }
  | { readonly ok: false; readonly message: string; readonly offset: number };

/** What a condition can read. */
export interface ConditionScope {
  readonly state: Record<string, unknown>;
  readonly dependencies: Record<string, unknown>;
}

interface Token {
  readonly type: 'number' | 'string' | 'name' | 'operator' | 'end';
  readonly text: string;
  readonly value?: string | number;
  readonly offset: number;
}

const operators = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '(', ')', '[', ']', '.'];
const MAX_LENGTH = 500;
const MAX_DEPTH = 32;

class ConditionSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < text.length) {
    const character = text[position]!;
    if (/\s/.test(character)) {
      position++;
      continue;
    }
    const start = position;
    if (/[0-9]/.test(character) || (character === '-' && /[0-9]/.test(text[position + 1] ?? ''))) {
      const match = /^-?\d+(\.\d+)?/.exec(text.slice(position))!;
      position += match[0].length;
      tokens.push({ type: 'number', text: match[0], value: Number(match[0]), offset: start });
      continue;
    }
    if (character === '"' || character === "'") {
      let value = '';
      position++;
      while (position < text.length && text[position] !== character) {
        if (text[position] === '\\' && position + 1 < text.length) position++;
        value += text[position];
        position++;
      }
      if (position >= text.length) throw new ConditionSyntaxError('unterminated string', start);
      position++;
      tokens.push({ type: 'string', text: text.slice(start, position), value, offset: start });
      continue;
    }
    if (/[A-Za-z_$]/.test(character)) {
      const match = /^[A-Za-z_$][\w$-]*/.exec(text.slice(position))!;
      position += match[0].length;
      tokens.push({ type: 'name', text: match[0], offset: start });
      continue;
    }
    const operator = operators.find((candidate) => text.startsWith(candidate, position));
    if (!operator) throw new ConditionSyntaxError(`unexpected character "${character}"`, start);
    position += operator.length;
    tokens.push({ type: 'operator', text: operator, offset: start });
  }
  tokens.push({ type: 'end', text: '', offset: text.length });
  return tokens;
}

/** Parses a condition; errors carry the character offset where the problem is. */
export function parseCondition(text: string, options: ConditionParseOptions = {}): ConditionParseResult {
  if (text.length > MAX_LENGTH) return { ok: false, message: `a condition may be at most ${MAX_LENGTH} characters`, offset: MAX_LENGTH };
  try {
    const parser = new Parser(tokenize(text), options.bareNamesInState === true);
    const expression = parser.parseOr(0);
    parser.expectEnd();
    return { ok: true, expression };
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    throw error;
  }
}

/** How a condition is read. */
export interface ConditionParseOptions {
  /** A path may leave out `state.` (a playtest's `dice.lastRoll.total >= 1`); `state.` and `dependencies.` still work. */
  readonly bareNamesInState?: boolean;
}

class Parser {
  private index = 0;
  constructor(
    private readonly tokens: readonly Token[],
    private readonly bareNamesInState: boolean,
  ) {}

  private peek(): Token {
    return this.tokens[this.index]!;
  }
  private next(): Token {
    return this.tokens[this.index++]!;
  }
  private accept(text: string): boolean {
    const token = this.peek();
    if (token.type === 'operator' && token.text === text) {
      this.index++;
      return true;
    }
    return false;
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.type !== 'end') throw new ConditionSyntaxError(`unexpected "${token.text}"`, token.offset);
  }

  parseOr(depth: number): ConditionNode {
    if (depth > MAX_DEPTH) throw new ConditionSyntaxError('the condition is nested too deeply', this.peek().offset);
    let left = this.parseAnd(depth);
    while (this.accept('||')) left = { kind: 'logical', operator: '||', left, right: this.parseAnd(depth) };
    return left;
  }

  private parseAnd(depth: number): ConditionNode {
    let left = this.parseNot(depth);
    while (this.accept('&&')) left = { kind: 'logical', operator: '&&', left, right: this.parseNot(depth) };
    return left;
  }

  private parseNot(depth: number): ConditionNode {
    if (depth > MAX_DEPTH) throw new ConditionSyntaxError('the condition is nested too deeply', this.peek().offset);
    if (this.accept('!')) return { kind: 'not', operand: this.parseNot(depth + 1) };
    const left = this.parsePrimary(depth);
    const token = this.peek();
    if (token.type === 'operator' && ['==', '!=', '<', '<=', '>', '>='].includes(token.text)) {
      this.index++;
      return { kind: 'compare', operator: token.text as ComparisonOperator, left, right: this.parsePrimary(depth) };
    }
    return left;
  }

  private parsePrimary(depth: number): ConditionNode {
    const token = this.next();
    if (token.type === 'number' || token.type === 'string') return { kind: 'literal', value: token.value! };
    if (token.type === 'operator' && token.text === '(') {
      const inner = this.parseOr(depth + 1);
      if (!this.accept(')')) throw new ConditionSyntaxError('missing ")"', this.peek().offset);
      return inner;
    }
    if (token.type === 'name') {
      if (token.text === 'true') return { kind: 'literal', value: true };
      if (token.text === 'false') return { kind: 'literal', value: false };
      if (token.text === 'null') return { kind: 'literal', value: null };
      if (token.text !== 'state' && token.text !== 'dependencies') {
        if (this.bareNamesInState) return { kind: 'path', root: 'state', segments: [token.text, ...this.parseSegments()] };
        throw new ConditionSyntaxError(`unknown name "${token.text}": paths start with "state" or "dependencies"`, token.offset);
      }
      return { kind: 'path', root: token.text, segments: this.parseSegments() };
    }
    throw new ConditionSyntaxError(token.type === 'end' ? 'the condition ends too early' : `unexpected "${token.text}"`, token.offset);
  }

  private parseSegments(): (string | number)[] {
    const segments: (string | number)[] = [];
    for (;;) {
      if (this.accept('.')) {
        const name = this.next();
        if (name.type !== 'name') throw new ConditionSyntaxError('expected a property name after "."', name.offset);
        segments.push(name.text);
      } else if (this.accept('[')) {
        const key = this.next();
        if (key.type !== 'number' && key.type !== 'string') throw new ConditionSyntaxError('expected a number or a string inside [ ]', key.offset);
        if (!this.accept(']')) throw new ConditionSyntaxError('missing "]"', this.peek().offset);
        segments.push(key.value!);
      } else {
        return segments;
      }
    }
  }
}

/** Evaluates a parsed condition. Missing paths are undefined; only own properties are read. */
export function evaluateCondition(expression: ConditionNode, scope: ConditionScope): boolean {
  return truthy(evaluate(expression, scope));
}

function evaluate(node: ConditionNode, scope: ConditionScope): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'path': {
      let value: unknown = node.root === 'state' ? scope.state : scope.dependencies;
      for (const segment of node.segments) {
        if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, segment)) return undefined;
        value = (value as Record<string | number, unknown>)[segment];
      }
      return value;
    }
    case 'not':
      return !truthy(evaluate(node.operand, scope));
    case 'logical': {
      const left = truthy(evaluate(node.left, scope));
      if (node.operator === '&&') return left && truthy(evaluate(node.right, scope));
      return left || truthy(evaluate(node.right, scope));
    }
    case 'compare':
      return compare(node.operator, evaluate(node.left, scope), evaluate(node.right, scope));
  }
}

function compare(operator: ComparisonOperator, left: unknown, right: unknown): boolean {
  switch (operator) {
    case '==':
      return sameValue(left, right);
    case '!=':
      return !sameValue(left, right);
    default: {
      // Ordering only between two numbers or two strings; anything else is false.
      if (!((typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string'))) return false;
      if (operator === '<') return left < right;
      if (operator === '<=') return left <= right;
      if (operator === '>') return left > right;
      return left >= right;
    }
  }
}

function sameValue(left: unknown, right: unknown): boolean {
  if (left === undefined) left = null;
  if (right === undefined) right = null;
  if (typeof left === 'object' && left !== null) return JSON.stringify(left) === JSON.stringify(right);
  return left === right;
}

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** The paths an expression reads from the given roots, as dotted text without the root ("player.saltlight"). */
export function pathsRead(node: ConditionNode, roots: readonly ConditionRoot[] = ['state', 'dependencies']): string[] {
  switch (node.kind) {
    case 'path':
      return roots.includes(node.root) ? [node.segments.join('.')] : [];
    case 'not':
      return pathsRead(node.operand, roots);
    case 'logical':
    case 'compare':
      return [...pathsRead(node.left, roots), ...pathsRead(node.right, roots)];
    default:
      return [];
  }
}
