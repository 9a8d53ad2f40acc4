// Preview Lore Chunks: decorations in a lore file's editor per chunk (every other one tinted, a "#3 · 214 tokens" label, a hover), a warning bar on chunks over the limit or cut from a paragraph.
import * as vscode from 'vscode';
import { loreChunkMarks, type LoreChunkMark } from '../../runtime/campaign/view/loreView.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import type { LoreChunker } from './loreLens.js';

/** Margin: how long the text must rest before the preview follows it. */
const FOLLOW_DELAY_MS = 200;

/** The context key listing the files whose chunks are shown (the editor title's Hide button). */
const PREVIEW_CONTEXT = 'narratoria.loreChunkPreviews';

export class LoreChunkPreview implements vscode.Disposable {
  private readonly shown = new Set<string>();
  private readonly disposables = new DisposableStore();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Every other chunk tinted, so two chunks of one line (a paragraph cut at a sentence end) still show apart; exact ranges, as wrapped. */
  private readonly alternate = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    // High contrast themes have no tints: their range border instead (transparent in the others).
    border: '1px solid',
    borderColor: new vscode.ThemeColor('editor.rangeHighlightBorder'),
  });
  private readonly label = vscode.window.createTextEditorDecorationType({
    before: {
      color: new vscode.ThemeColor('editorInlayHint.foreground'),
      backgroundColor: new vscode.ThemeColor('editorInlayHint.background'),
      margin: '0 6px 0 0',
      fontStyle: 'normal',
    },
  });
  private readonly flaggedLabel = vscode.window.createTextEditorDecorationType({
    before: {
      color: new vscode.ThemeColor('editorWarning.foreground'),
      backgroundColor: new vscode.ThemeColor('editorInlayHint.background'),
      margin: '0 6px 0 0',
      fontWeight: 'bold',
    },
  });
  /** The whole chunk: only its hover. */
  private readonly chunk = vscode.window.createTextEditorDecorationType({});
  /** A flagged chunk: a warning bar along its lines (a box around each wrapped line would be noise), a mark in the overview ruler, its hover. */
  private readonly flagged = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderWidth: '0 0 0 3px',
    borderStyle: 'solid',
    borderColor: new vscode.ThemeColor('editorWarning.foreground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.warningForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });

  constructor(private readonly chunker: LoreChunker) {
    this.disposables.addAll(
      this.alternate,
      this.label,
      this.flaggedLabel,
      this.chunk,
      this.flagged,
      { dispose: () => this.timers.forEach((timer) => clearTimeout(timer)) },
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        for (const editor of editors) if (this.shown.has(editor.document.uri.toString())) void this.decorate(editor);
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0 && this.shown.has(event.document.uri.toString())) this.schedule(event.document);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (this.shown.delete(document.uri.toString())) void this.updateContext();
      }),
    );
  }

  /** Shows the chunks of `uri` (the active editor's file when undefined), or hides them when shown. */
  async toggle(uri?: vscode.Uri): Promise<void> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (target && this.shown.has(target.toString())) return this.hide(target);
    return this.show(target);
  }

  async show(uri: vscode.Uri | undefined): Promise<void> {
    const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!document || this.chunker.loreFileOf(document) === undefined) {
      void vscode.window.showInformationMessage('Preview Lore Chunks works on a lore file of a campaign: a Markdown or text file under its lore/ folder.');
      return;
    }
    this.shown.add(document.uri.toString());
    await this.updateContext();
    const editor = vscode.window.visibleTextEditors.find((candidate) => candidate.document === document) ?? (await vscode.window.showTextDocument(document));
    await this.decorate(editor);
  }

  async hide(uri?: vscode.Uri): Promise<void> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target || !this.shown.delete(target.toString())) return;
    await this.updateContext();
    for (const editor of vscode.window.visibleTextEditors)
      if (editor.document.uri.toString() === target.toString()) for (const type of this.types()) editor.setDecorations(type, []);
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private types(): vscode.TextEditorDecorationType[] {
    return [this.alternate, this.label, this.flaggedLabel, this.chunk, this.flagged];
  }

  private schedule(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const previous = this.timers.get(key);
    if (previous) clearTimeout(previous);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        for (const editor of vscode.window.visibleTextEditors) if (editor.document === document) void this.decorate(editor);
      }, FOLLOW_DELAY_MS),
    );
  }

  private async decorate(editor: vscode.TextEditor): Promise<void> {
    const result = await this.chunker.chunk(editor.document);
    if (!result || !this.shown.has(editor.document.uri.toString())) return;
    const marks = loreChunkMarks(result.chunked.chunks);
    const start = (mark: LoreChunkMark) => new vscode.Position(mark.line - 1, mark.column - 1);
    const whole = (mark: LoreChunkMark) => new vscode.Range(start(mark), new vscode.Position(mark.endLine - 1, mark.endColumn - 1));
    const hover = (mark: LoreChunkMark) => new vscode.MarkdownString().appendText(mark.hover);
    const labelOf = (mark: LoreChunkMark): vscode.DecorationOptions => ({
      range: new vscode.Range(start(mark), start(mark)),
      renderOptions: { before: { contentText: ` ${mark.warnings.length > 0 ? '! ' : ''}${mark.label} ` } },
    });
    editor.setDecorations(this.alternate, marks.filter((mark) => mark.index % 2 === 1).map(whole));
    editor.setDecorations(this.label, marks.filter((mark) => mark.warnings.length === 0).map(labelOf));
    editor.setDecorations(this.flaggedLabel, marks.filter((mark) => mark.warnings.length > 0).map(labelOf));
    editor.setDecorations(
      this.chunk,
      marks.filter((mark) => mark.warnings.length === 0).map((mark) => ({ range: whole(mark), hoverMessage: hover(mark) })),
    );
    editor.setDecorations(
      this.flagged,
      marks.filter((mark) => mark.warnings.length > 0).map((mark) => ({ range: whole(mark), hoverMessage: hover(mark) })),
    );
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand(
      'setContext',
      PREVIEW_CONTEXT,
      [...this.shown].map((key) => vscode.Uri.parse(key).fsPath),
    );
  }
}
