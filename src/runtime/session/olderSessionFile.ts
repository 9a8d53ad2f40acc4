// The single session file of earlier versions (<root>/.narratoria/session.json): offered once as a play-through, and taken into the session store by a copy, never moved or changed.
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { narratoriaDirectory } from '../skills/skillDataScope.js';
import { readSessionFile, sessionFile, sessionIdProblem } from './sessionStore.js';

/** Where earlier versions kept the story's one play-through. */
export function olderSessionFile(root: string): string {
  return path.join(narratoriaDirectory(root), 'session.json');
}

/** The older session file as a play-through to continue: readable (with its turns) or not (with its problem). */
export type OlderSessionOffer =
  | { readonly file: string; readonly id: string; readonly turns: number; readonly updatedAt: string; readonly lastInput?: string }
  | { readonly file: string; readonly problem: string };

/**
 * The older session file, when there is one that the store does not hold yet. Its id is its own session id: its
 * skills' data is already under `.narratoria/sessions/<that id>/data`, so the copy finds its memory where it was.
 */
export async function olderSessionOffer(root: string): Promise<OlderSessionOffer | undefined> {
  const file = olderSessionFile(root);
  const read = await readSessionFile(file);
  if (read === undefined) return undefined;
  if ('problem' in read) return { file, problem: read.problem };
  const id = read.session.sessionId;
  if (sessionIdProblem(id)) return { file, problem: `has the session id "${id}", which cannot name a play-through` };
  // Already taken in: the store's copy is the play-through now.
  if ((await readSessionFile(sessionFile(root, id))) !== undefined) return undefined;
  const last = read.session.turns.at(-1);
  return { file, id, turns: read.session.turns.length, updatedAt: read.session.updatedAt, ...(last ? { lastInput: last.input } : {}) };
}

/** Copies the older session file into the store as `.narratoria/sessions/<its id>/session.json`; returns that id. The older file stays as it is. */
export async function adoptOlderSession(root: string): Promise<string> {
  const offer = await olderSessionOffer(root);
  if (offer === undefined) throw new Error(`there is no older session file to continue at ${olderSessionFile(root)}`);
  if ('problem' in offer) throw new Error(`the older session file ${offer.file} ${offer.problem}`);
  const target = sessionFile(root, offer.id);
  await fs.mkdir(path.dirname(target), { recursive: true });
  // COPYFILE_EXCL: a session of the store is never overwritten.
  await fs.copyFile(offer.file, target, constants.COPYFILE_EXCL);
  return offer.id;
}
