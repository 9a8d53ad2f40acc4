// The local model's reflection on a turn (docs/plan-json-and-protocol.md#reflection): the rule-based findings as a short summary and at most three suggestions, under a bounded grammar.
import type { Reflection } from '../executor/reflection.js';
import type { ReflectionRequest } from './index.js';
import type { ModelWorkerClient } from './modelWorkerClient.js';

/** The grammar of a model-written reflection: bounded so greedy decoding always ends. */
const REFLECTION_SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string', maxLength: 240 },
    suggestions: { type: 'array', items: { type: 'string', maxLength: 160 }, maxItems: 3 },
  },
  required: ['summary', 'suggestions'],
} as const;

const REFLECTION_SYSTEM_PROMPT = 'You review how an interactive-story turn was executed and advise the story author in plain words.';

/** Writes the reflection with the loaded model, within `signal`; undefined when the output is not one. Rejects on a worker failure. */
export async function reflectWithModel(
  client: ModelWorkerClient,
  request: ReflectionRequest,
  seed: number,
  temperature: number,
  signal: AbortSignal,
): Promise<Reflection | undefined> {
  const findings =
    request.reflection.findings
      .slice(0, 8)
      .map((finding) => `- ${finding.kind}: ${finding.message}`)
      .join('\n') || '- everything succeeded';
  const prompt =
    `Player input: ${request.input.slice(0, 300)}\nRun: ${request.reflection.summary}\nFindings:\n${findings}\n` +
    'Write a one-sentence summary and up to three short suggestions.';
  const generated = await client.generate(
    { systemPrompt: REFLECTION_SYSTEM_PROMPT, prompt, grammarSchema: REFLECTION_SCHEMA, maxTokens: 200, seed, temperature },
    signal,
  );
  const value = generated.value as { summary?: unknown; suggestions?: unknown };
  if (typeof value.summary !== 'string' || !Array.isArray(value.suggestions)) return undefined;
  const suggestions = value.suggestions.filter((entry): entry is string => typeof entry === 'string' && entry.trim().length > 0);
  return { source: 'llm', summary: value.summary.trim() || request.reflection.summary, findings: request.reflection.findings, suggestions };
}
