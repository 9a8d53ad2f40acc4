// The Playtests Test Controller's items: each *.playtest.json of the workspace an item with a child per turn at the turn's range, kept current from the disk and from open editors.
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { parsePlaytest, PLAYTEST_SUFFIX } from '../../runtime/playtest/playtestDocument.js';
import { inSkippedFolder, skippedFoldersGlob } from '../../runtime/playtest/playtestDiscovery.js';
import { problemsText, turnItems } from '../../runtime/playtest/playtestOutcomes.js';
import type { Playtest } from '../../runtime/playtest/playtestTypes.js';
import type { SkillsService } from '../skills/skillsService.js';

/** The items of a test controller's playtest files and turns. */
export class PlaytestItems {
  /** The turn (1-based) each turn's item stands for. */
  private readonly turns = new WeakMap<vscode.TestItem, number>();

  constructor(
    private readonly controller: vscode.TestController,
    private readonly skills: SkillsService,
    private readonly root: string | undefined,
  ) {}

  /** Finds every playtest file of the workspace (node_modules, .narratoria and .git aside). */
  async discover(): Promise<void> {
    const files = await vscode.workspace.findFiles(`**/*${PLAYTEST_SUFFIX}`, skippedFoldersGlob());
    const seen = new Set(files.map((uri) => uri.toString()));
    this.controller.items.forEach((item) => {
      if (!seen.has(item.id)) this.controller.items.delete(item.id);
    });
    await Promise.all(files.map((uri) => this.updateFromDisk(uri)));
  }

  /** The file's item from its editor's text, else from the disk (an unreadable file reads as empty). */
  async updateFromDisk(uri: vscode.Uri): Promise<void> {
    if (inSkippedFolder(uri.fsPath)) return;
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    const text = open ? open.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri).then(undefined, () => new Uint8Array())).toString('utf8');
    this.update(uri, text);
  }

  /** An open playtest file's item, as its editor's text changes. */
  updateFromDocument(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file' || !document.uri.fsPath.endsWith(PLAYTEST_SUFFIX) || inSkippedFolder(document.uri.fsPath)) return;
    this.update(document.uri, document.getText());
  }

  /** The file's playtest as its editor or the disk has it now, its item updated; undefined when the file has problems. */
  async read(item: vscode.TestItem): Promise<Playtest | undefined> {
    const uri = item.uri!;
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
    const text = document ? document.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    return this.update(uri, text);
  }

  /** The turn (1-based) of a turn's item; undefined for a file's. */
  turnOf(item: vscode.TestItem): number | undefined {
    return this.turns.get(item);
  }

  /** The file's item and its turns' children, from its text; a file with problems shows them as the item's error. */
  private update(uri: vscode.Uri, text: string): Playtest | undefined {
    // A campaign's play-through opens with choices: its playtests may play one on their first turn.
    const opening = this.root !== undefined && existsSync(path.join(this.root, 'manifest.json'));
    const parsed = parsePlaytest(uri.fsPath, text, this.skillNames(), this.skills.brokenSkillReasons(), opening);
    const id = uri.toString();
    const item = this.controller.items.get(id) ?? this.controller.createTestItem(id, path.basename(uri.fsPath), uri);
    item.range = new vscode.Range(0, 0, 0, 0);
    if (!parsed.playtest) {
      item.error = problemsText(parsed.problems);
      item.children.replace([]);
      this.controller.items.add(item);
      return undefined;
    }
    const playtest = parsed.playtest;
    item.error = undefined;
    item.label = playtest.name;
    item.description = path.relative(this.root ?? path.dirname(uri.fsPath), uri.fsPath);
    item.children.replace(
      turnItems(id, playtest).map((turn) => {
        const child = this.controller.createTestItem(turn.id, turn.label, uri);
        child.range = new vscode.Range(turn.line - 1, turn.column - 1, turn.line - 1, turn.column - 1);
        this.turns.set(child, turn.turn);
        return child;
      }),
    );
    this.controller.items.add(item);
    return playtest;
  }

  private skillNames(): ReadonlySet<string> | undefined {
    const names = this.skills.skills.map((skill) => skill.name);
    return names.length > 0 ? new Set(names) : undefined;
  }
}
