// Copies an example plan shipped with the product (contracts/examples) into a story, never over a file that is there.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';

/** The example a new author starts from: a dice roll, then the narration of its outcome. */
export const STARTER_EXAMPLE_PLAN = 'pick-the-lock.plan.json';
/** Where in a story the example goes. */
export const EXAMPLE_PLAN_FOLDER = 'plans';

export interface AddedExamplePlan {
  /** The plan in the story. */
  readonly file: string;
  /** False when the file was already there (it is left as it was). */
  readonly created: boolean;
}

/**
 * Copies `examplesDirectory/name` to `<storyRoot>/plans/name`. The example's `$schema` points into the product's own
 * folder, so the copy drops it (editors find the schema by the `*.plan.json` name). An existing file is never touched.
 */
export async function addExamplePlan(examplesDirectory: string, storyRoot: string, name: string = STARTER_EXAMPLE_PLAN): Promise<AddedExamplePlan> {
  if (path.basename(name) !== name || !name.endsWith('.plan.json')) throw new Error(`not an example plan name: ${name}`);
  const file = path.join(storyRoot, EXAMPLE_PLAN_FOLDER, name);
  const text = await examplePlanText(examplesDirectory, name);
  await mkdir(path.dirname(file), { recursive: true });
  try {
    // 'wx' fails with EEXIST instead of replacing a plan the author already has.
    await writeFile(file, text, { flag: 'wx' });
    return { file, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { file, created: false };
    throw error;
  }
}

/** The text of `examplesDirectory/name` as a story's copy holds it: without the `$schema` that points into the product. */
export async function examplePlanText(examplesDirectory: string, name: string = STARTER_EXAMPLE_PLAN): Promise<string> {
  return withoutSchema(await readFile(path.join(examplesDirectory, name), 'utf8'));
}

function withoutSchema(text: string): string {
  return applyEdits(text, modify(text, ['$schema'], undefined, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
}
