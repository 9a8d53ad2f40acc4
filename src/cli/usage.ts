// The one-line usage of every `narratoria` command, kept apart from the commands so `--help` loads none of them.

export const validateUsage =
  'narratoria validate <plan.json>... [--root DIR] [--format text|json] [--allow-outside-skills]';
export const runUsage =
  'narratoria run <plan.json> [--root DIR] [--format text|json] [--concurrency N] [--tool-timeout MS] [--plan-timeout MS] [--state FILE] [--rollback] [--allow-outside-skills] [--no-save]';
export const inspectUsage =
  'narratoria inspect <script> [--input JSON | --input-file FILE] [--root DIR] [--timeout MS] [--format text|json] [--record FILE.ndjson]\n  narratoria inspect --replay FILE.ndjson [--format text|json]';
export const runsUsage =
  'narratoria runs list|show <id>|resume <id>|cancel <id> [--root DIR] [--format text|json]';
export const playUsage =
  'narratoria play [--root DIR] [--narrator auto|pattern|llm] [--model FILE] [--session FILE] [--once TEXT] [--format text|json] [--tool-timeout MS] [--plan-timeout MS] [--no-bundled-skills] [--explain] [--threads N] [--budget-ms MS]';
export const testUsage =
  'narratoria test [FILE|DIR]... [--root DIR] [--narrator pattern|llm|auto] [--format text|json|junit] [--out FILE] [--jobs N] [--filter TEXT] [--update] [--coverage]';
export const exploreUsage =
  'narratoria explore [--root DIR] [--runs N] [--turns N] [--seed S] [--narrator pattern|llm|auto] [--jobs N] [--format text|json] [--out DIR] [--coverage]';
export const skillsUsage =
  'narratoria skills [--root DIR] [--format text|json] [--no-bundled-skills]';
export const modelUsage =
  'narratoria model pull|status|path [--dir DIR] [--base-url URL] [--format text|json]';
export const graphUsage =
  'narratoria graph <plan.json | run record | ExecutionResult JSON> [--root DIR] [--format json|svg|dot|mermaid] [--out FILE]';
export const debugAdapterUsage =
  'narratoria debug-adapter [--port N]   (Debug Adapter Protocol over stdio, or on 127.0.0.1:N; 0 picks a free port)';
