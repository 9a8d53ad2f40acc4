// The usage of every `narratoria` command (synopsis, each flag, exit codes), kept apart from the commands so `--help` loads none of them.

/** One command's help: what `narratoria <command> --help` prints. */
export interface CommandUsage {
  /** The synopsis lines, each starting with `narratoria <command>`. */
  readonly synopsis: readonly string[];
  /** What the command does, in a sentence or two. */
  readonly summary: string;
  /** Each flag (or action) with a short description, one per line. */
  readonly options: readonly (readonly [flag: string, description: string])[];
  /** What each exit code means for this command. */
  readonly exitCodes: readonly (readonly [code: 0 | 1 | 2 | 130, meaning: string])[];
}

const root: readonly [string, string] = [
  '--root DIR',
  'the story folder: skills in DIR/skills, relative toolPaths resolve against it (default: the current folder; it must exist)',
];
const bundled: readonly [string, string] = ['--no-bundled-skills', "use only the story's own skills, not the sample skills bundled with narratoria"];
const narrator: readonly [string, string] = ['--narrator pattern|llm|auto', "who writes the plans (default: each playtest's own, else pattern)"];
const help: readonly [string, string] = ['-h, --help', 'print this help'];
const missingRoot = 'usage error, or the --root folder does not exist';

/** Every command, in the order the overview lists them. */
export const COMMAND_USAGES = {
  init: {
    synopsis: ['narratoria init [DIR] [--force] [--campaign minimal|complete]'],
    summary:
      'Creates a story folder: the sample skills in skills/, an example plan in plans/, an example playtest in playtests/ and a README; ' +
      'with --campaign, the folder is also a campaign.',
    options: [
      ['DIR', 'the folder to create or fill (default: the current folder); it must be empty unless --force'],
      ['--force', 'write into a folder that is not empty; deletes nothing, but replaces files of the same name (each one is listed)'],
      [
        '--campaign minimal|complete',
        'also write a starter campaign: minimal (manifest, setting, premise) or complete (NPCs, beats, endings, lore, art, music)',
      ],
      help,
    ],
    exitCodes: [
      [0, 'the story was created'],
      [1, 'a file could not be written (the files written so far are listed)'],
      [2, 'usage error, DIR is not empty (without --force), or DIR or a path in it is in the way'],
    ],
  },
  validate: {
    synopsis: ['narratoria validate <plan.json | campaign>... [--root DIR] [--format text|json] [--allow-tool-root DIR]... [--allow-outside-skills]'],
    summary:
      "Checks plan files (schema, dependencies, tool paths, inputs against the story's skills) and campaigns " +
      '(a folder with manifest.json, or that manifest.json: every file, beat links, NPCs, paths, provenance).',
    options: [
      root,
      ['--format text|json', 'text: file:line:column lines; json: contracts/validate-report.schema.json'],
      ['--allow-tool-root DIR', 'also run scripts from DIR (relative to the current folder), a folder outside skills/; repeatable'],
      ['--allow-outside-skills', "accept toolPaths outside the story's skills/ folder"],
      help,
    ],
    exitCodes: [
      [0, 'every file and campaign is valid'],
      [1, 'some file or campaign has an error'],
      [2, `${missingRoot}, a file cannot be read, or a folder is no campaign`],
    ],
  },
  run: {
    synopsis: [
      'narratoria run <plan.json> [--root DIR] [--format text|json] [--concurrency N] [--tool-timeout MS] [--plan-timeout MS] ' +
        '[--state FILE] [--rollback] [--allow-tool-root DIR]... [--allow-outside-skills] [--no-save] [--max-events N]',
    ],
    summary: 'Validates a plan and runs it, with live progress; the run is recorded in DIR/.narratoria/runs.',
    options: [
      root,
      ['--format text|json', 'text: progress and a summary; json: only the ExecutionResult (contracts/execution-result.schema.json)'],
      ['--concurrency N', 'async tools at once (default: the CPU cores)'],
      ['--tool-timeout MS', "timeout of every tool attempt, over the plan's and the skill's own"],
      ['--plan-timeout MS', 'timeout of the whole run'],
      ['--state FILE', 'the session state to start from (missing: empty); the new state is written back'],
      ['--rollback', "when the plan fails, run each completed tool's rollback, newest first"],
      ['--allow-tool-root DIR', 'also run scripts from DIR (relative to the current folder), a folder outside skills/; repeatable'],
      ['--allow-outside-skills', "accept toolPaths outside the story's skills/ folder"],
      ['--no-save', 'do not record the run'],
      ['--max-events N', 'protocol events kept per tool attempt (later ones are counted and dropped)'],
      help,
    ],
    exitCodes: [
      [0, 'the plan succeeded'],
      [1, 'the plan ran and failed, or was cancelled'],
      [2, `${missingRoot}, a file cannot be read, or the plan is invalid (nothing ran)`],
    ],
  },
  inspect: {
    synopsis: [
      'narratoria inspect <script> [--input JSON | --input-file FILE] [--root DIR] [--timeout MS] [--format text|json] [--record FILE.ndjson]',
      'narratoria inspect --replay FILE.ndjson [--format text|json]',
    ],
    summary: "Runs one skill script and explains each line it prints, its stderr, its exit and the runtime's verdict.",
    options: [
      ['--input JSON', "the script's input, a JSON object (default: {})"],
      ['--input-file FILE', "a file holding the script's input"],
      root,
      ['--timeout MS', 'stop the script after MS milliseconds'],
      ['--format text|json', 'text: each line as it comes; json: contracts/inspect-report.schema.json'],
      ['--record FILE.ndjson', 'also save the run (FILE.ndjson and FILE.ndjson.meta.json)'],
      ['--replay FILE.ndjson', 'report a saved recording instead; nothing runs'],
      help,
    ],
    exitCodes: [
      [0, 'the script followed the protocol and reported success'],
      [1, 'it did not (the verdict says why)'],
      [2, `${missingRoot}, the script cannot be started, or the recording cannot be read`],
    ],
  },
  runs: {
    synopsis: ['narratoria runs [list] [--root DIR] [--format text|json]', 'narratoria runs show|resume|cancel <id> [--root DIR] [--format text|json]'],
    summary: 'The runs recorded in DIR/.narratoria/runs.',
    options: [
      ['list', 'list the recorded runs (the default action)'],
      ['show <id>', "print a run's record as JSON"],
      ['resume <id>', 'run again the tools of a run that did not succeed'],
      ['cancel <id>', "stop a run in progress and kill its tools' processes"],
      root,
      ['--format text|json', 'text or JSON output'],
      help,
    ],
    exitCodes: [
      [0, 'done (resume: the plan succeeded)'],
      [1, 'cancel: the run is not running; resume: it is still running, or the plan failed again'],
      [2, `${missingRoot}, or there is no such run`],
    ],
  },
  sessions: {
    synopsis: ['narratoria sessions [list] [--root DIR] [--format text|json]', 'narratoria sessions show|delete <name> [--root DIR] [--format text|json]'],
    summary: "The saved play-throughs of the story: each in DIR/.narratoria/sessions/<name>/, with its skills' data.",
    options: [
      ['list', 'list the saved sessions, the last played first (the default action)'],
      ['show <name>', "print a session's turns (JSON: its session file)"],
      ['delete <name>', "delete a session and its skills' data"],
      root,
      ['--format text|json', 'text or JSON output'],
      help,
    ],
    exitCodes: [
      [0, 'done'],
      [1, 'show: the session file is damaged or of another version'],
      [2, `${missingRoot}, or there is no such session`],
    ],
  },
  play: {
    synopsis: [
      'narratoria play [--root DIR] [--narrator auto|pattern|llm] [--model FILE] [--session NAME|FILE] [--new] [--once TEXT] [--format text|json] [--tool-timeout MS] ' +
        '[--plan-timeout MS] [--no-bundled-skills] [--explain] [--threads N] [--budget-ms MS] [--concurrency N] [--turn-budget MS]',
    ],
    summary: 'Plays the story in the terminal: type what you do, pick numbered choices; /help lists the commands. --once plays one turn.',
    options: [
      root,
      ['--narrator auto|pattern|llm', 'who writes the plans (default auto: the local model when it is there, else pattern)'],
      ['--model FILE', 'a GGUF model file for the llm narrator (default: the downloaded one)'],
      [
        '--session NAME|FILE',
        'start or continue the play-through NAME (DIR/.narratoria/sessions/NAME); a path (with a slash or ending in .json) is a session file, as before (default: the session played last)',
      ],
      ['--new', 'start a new play-through (named by --session NAME, else by the date and time)'],
      ['--once TEXT', 'play one turn and exit (without --session or --new it starts from an empty state and saves no session)'],
      ['--format text|json', 'json (with --once): the TurnResult (contracts/turn-result.schema.json)'],
      ['--tool-timeout MS', 'timeout of every tool attempt'],
      ['--plan-timeout MS', "timeout of each plan's run"],
      bundled,
      ['--explain', 'show why each skill was chosen or left out'],
      ['--threads N', "the local model's CPU threads (default: from the cores and the model's size)"],
      ['--budget-ms MS', "how long the local model may take to choose a turn's skills (default 5000)"],
      ['--concurrency N', 'async tools at once (default: the CPU cores)'],
      ['--turn-budget MS', 'time one turn may take in all, every plan of its replan loop (default 120000: two plan timeouts)'],
      help,
    ],
    exitCodes: [
      [0, 'a narration was produced (template fallback included), or the session ended (/quit, Ctrl+D)'],
      [1, 'the turn was cancelled (--once)'],
      [2, `${missingRoot}, or the session is damaged or of another version (it is left as it is)`],
      [130, 'the interactive session was quit with Ctrl+C (at an empty prompt, or twice within 2 s)'],
    ],
  },
  test: {
    synopsis: [
      'narratoria test [FILE|DIR]... [--root DIR] [--narrator pattern|llm|auto] [--format text|json|junit] [--out FILE] ' +
        '[--jobs N] [--filter TEXT] [--update] [--coverage] [--keep] [--no-bundled-skills]',
    ],
    summary: 'Plays playtests (*.playtest.json; default: every one under the root) and reports each turn.',
    options: [
      ['FILE|DIR', 'playtest files, or folders to search for them (default: the root)'],
      root,
      narrator,
      ['--format text|json|junit', 'text, JSON (contracts/playtest-report.schema.json) or JUnit XML'],
      ['--out FILE', 'write the report to FILE and print only a summary'],
      ['--jobs N', 'playtests at once (default: the CPU cores)'],
      ['--filter TEXT', 'play only the playtests whose name or path holds TEXT'],
      ['--update', 'write what happened into the skills and outcome expectations that failed'],
      ['--coverage', "measure the skill scripts' coverage (DIR/coverage/, a summary on stderr)"],
      bundled,
      ['--keep', "keep each playtest's session and its skills' data in DIR/.narratoria/sessions (playtest-NAME-TIME) instead of deleting it"],
      help,
    ],
    exitCodes: [
      [0, 'every playtest passed'],
      [1, 'some playtest failed, could not be played, or the run was cancelled'],
      [2, `${missingRoot}, or a playtest file has problems (nothing ran)`],
    ],
  },
  explore: {
    synopsis: [
      'narratoria explore [--root DIR] [--runs N] [--turns N] [--seed S] [--narrator pattern|llm|auto] [--jobs N] [--format text|json] [--out DIR] [--coverage] [--keep] [--no-bundled-skills]',
    ],
    summary: 'Simulated players play seeded sessions; reports what went wrong and what was never reached.',
    options: [
      root,
      ['--runs N', 'sessions to play (default 20)'],
      ['--turns N', 'turns per session at most (default 10)'],
      ['--seed S', "the first session's seed, 0 to 4294967295 (default 1); the same seed plays the same sessions"],
      ['--narrator pattern|llm|auto', 'who writes the plans (default pattern)'],
      ['--jobs N', 'sessions at once (default: the CPU cores)'],
      ['--format text|json', 'text or JSON (contracts/explore-report.schema.json)'],
      ['--out DIR', 'save each session that found a problem as a playtest in DIR'],
      ['--coverage', "measure the skill scripts' coverage (DIR/coverage/)"],
      bundled,
      ['--keep', "keep each session and its skills' data in DIR/.narratoria/sessions (explore-SEED) instead of deleting it"],
      help,
    ],
    exitCodes: [
      [0, 'no problem found'],
      [1, 'problems found, or the run was cancelled'],
      [2, missingRoot],
    ],
  },
  skills: {
    synopsis: ['narratoria skills [--root DIR] [--format text|json] [--no-bundled-skills]'],
    summary: "Lists the story's skills (and the bundled ones) with their scripts, problems, health and manifest hints.",
    options: [root, ['--format text|json', 'text or JSON output'], bundled, help],
    exitCodes: [
      [0, 'always (problems are listed)'],
      [2, missingRoot],
    ],
  },
  model: {
    synopsis: [
      'narratoria model pull|status|path [--dir DIR] [--base-url URL] [--format text|json]',
      'narratoria model status --probe [--model FILE] [--root DIR] [--threads N] [--format text|json]',
    ],
    summary: "Downloads and locates the local narrator's model (Phi-3.5-mini); with --probe, loads it and reports its memory.",
    options: [
      ['pull', 'download the model (resumable) and verify it'],
      ['status', 'say whether the model is there and verified'],
      ['path', 'print where the model goes'],
      ['--dir DIR', 'the model folder (default: NARRATORIA_MODEL_DIR, else the cache folder)'],
      ['--base-url URL', 'a Hugging Face compatible mirror to download from'],
      [
        '--probe',
        "with status: load the model in its worker as play does, prepare the story's fixed prompt, decide one turn, and report the worker's memory (peak, anonymous and file-backed RSS)",
      ],
      ['--model FILE', 'with --probe: this GGUF file instead of the downloaded model'],
      ['--root DIR', 'with --probe: the story whose skills make the fixed prompt (default: the current folder), with the bundled ones'],
      ['--threads N', "with --probe: the model's CPU threads (default: from the cores and the model's size, fewer while other processes keep cores busy)"],
      ['--format text|json', 'text or JSON output'],
      help,
    ],
    exitCodes: [
      [0, 'pull: downloaded and verified; status: present and verified (with --probe: loaded and measured); path: always'],
      [1, 'pull: the download failed or was cancelled; status: absent, partial or not verified (with --probe: not loaded)'],
      [2, 'usage error'],
    ],
  },
  graph: {
    synopsis: ['narratoria graph <plan.json | run record | ExecutionResult JSON> [--root DIR] [--format json|svg|dot|mermaid] [--out FILE]'],
    summary: 'Lays out a plan (or a recorded run) as a graph.',
    options: [
      ['--root DIR', 'the story folder whose run records hold the plan of an ExecutionResult (default: the current folder; it must exist)'],
      ['--format json|svg|dot|mermaid', 'json (contracts/plan-graph.schema.json, the default), SVG, Graphviz dot or Mermaid'],
      ['--out FILE', 'write the graph to FILE instead of stdout'],
      help,
    ],
    exitCodes: [
      [0, 'drawn'],
      [1, 'drawn, but the plan has errors (cycles, unknown dependencies, duplicate toolIds)'],
      [2, `${missingRoot}, or the file cannot be read or is not JSON`],
    ],
  },
  lore: {
    synopsis: ['narratoria lore [DIR] [--format text|json] [--query TEXT] [--limit N]', 'narratoria lore [DIR] --queries FILE [--format text|json]'],
    summary:
      "Chunks a campaign's lore (every .md, .markdown and .txt file under DIR/lore) by paragraph, at most 512 cl100k_base tokens each, shows the chunks a query retrieves, or measures a query set.",
    options: [
      ['DIR', 'the campaign folder, with its manifest.json (default: the current folder; it must exist)'],
      [
        '--format text|json',
        'text: each chunk on a line; json: contracts/campaign/lore-chunks.schema.json (with --queries: contracts/lore-precision-report.schema.json)',
      ],
      ['--query TEXT', 'rank the chunks for TEXT by BM25 over word stems and show the best, with their scores'],
      ['--limit N', 'with --query: how many chunks to show (default 5)'],
      ['--queries FILE', 'a lore.queries.json: retrieve lore for each query as play does and report the precision (SC-004: queries that got relevant context)'],
      help,
    ],
    exitCodes: [
      [0, 'the lore was chunked (files that are not lore text are listed as skipped), or there is none; with --queries, the precision reached the target'],
      [1, 'a lore file or folder could not be read (it is listed); with --queries, the precision is below the target or an expected chunk does not exist'],
      [2, 'usage error, or DIR does not exist or is not a folder'],
    ],
  },
  'debug-adapter': {
    synopsis: ['narratoria debug-adapter [--port N]'],
    summary: 'The plan debugger as a Debug Adapter Protocol server for other editors, until its client disconnects.',
    options: [['--port N', 'serve on 127.0.0.1:N instead of stdio (0 picks a free port)'], help],
    exitCodes: [
      [0, 'the client disconnected, or the server was stopped'],
      [2, 'usage error'],
    ],
  },
} as const satisfies Readonly<Record<string, CommandUsage>>;

export type CommandName = keyof typeof COMMAND_USAGES;

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMAND_USAGES, name);
}

/** Whether the command reads a story folder through `--root`. */
export function takesRoot(name: CommandName): boolean {
  return (COMMAND_USAGES[name] as CommandUsage).options.some(([flag]) => flag.startsWith('--root '));
}

/** `narratoria <name> --help`: the synopsis, what it does, each flag on a line, and the exit codes. */
export function commandHelp(name: CommandName): string {
  const usage: CommandUsage = COMMAND_USAGES[name];
  const width = Math.max(...usage.options.map(([flag]) => flag.length));
  const lines = [
    'Usage:',
    ...usage.synopsis.map((line) => `  ${line}`),
    '',
    usage.summary,
    '',
    'Options:',
    ...usage.options.map(([flag, description]) => `  ${flag.padEnd(width)}  ${description}`),
    '',
    'Exit codes:',
    ...usage.exitCodes.map(([code, meaning]) => `  ${code}  ${meaning}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** What a usage error of the command ends with: its synopsis and where its help is. */
export function usageHint(name: CommandName): string {
  const usage: CommandUsage = COMMAND_USAGES[name];
  return `Usage:\n${usage.synopsis.map((line) => `  ${line}`).join('\n')}\n"narratoria ${name} --help" lists its flags and exit codes.\n`;
}

/** `narratoria --help`: every command's synopsis. */
export function overviewHelp(): string {
  const synopses = Object.values(COMMAND_USAGES).flatMap((usage: CommandUsage) => usage.synopsis);
  return `Usage:
${synopses.map((line) => `  ${line}`).join('\n')}
  narratoria --help | --version

Start with "narratoria init my-story", then "narratoria play --root my-story".
"narratoria <command> --help" lists a command's flags and exit codes.
Exit codes: 0 success, 1 failure (validate: a plan has errors; run: the plan failed; test: a playtest failed;
explore: problems found; graph: drawn but the plan has errors), 2 usage error (a missing --root folder, an
unreadable file, an invalid plan for run or an invalid playtest file for test).
`;
}
