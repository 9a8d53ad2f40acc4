// Thin VS Code providers over the runtime's campaign authoring queries: completion, hover, definition, references, highlights and rename of beat ids and NPC names.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  campaignRelative,
  completeCampaign,
  definitionAt,
  hoverCampaign,
  prepareRenameAt,
  referencesAt,
  renameAt,
  type CampaignCompletionItem,
  type CampaignTarget,
} from '../../runtime/campaign/authoring/index.js';
import { rangeOfSource, rangeOfSpan, toCompletionItem } from '../authoring/planConvert.js';
import type { CampaignEditingWorkspace } from './campaignEditingWorkspace.js';

/** The campaign files that name beats and NPCs: plot/beats.json, NPC profiles and the player template (with generated stand-ins). */
export const CAMPAIGN_DOCUMENT_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/plot/*.json' },
  { scheme: 'file', pattern: '**/characters/**/*.json' },
];

const completionKinds: Record<CampaignCompletionItem['kind'], vscode.CompletionItemKind> = {
  beat: vscode.CompletionItemKind.Reference,
  npc: vscode.CompletionItemKind.User,
};

/** Registers every provider for campaign files; the disposables unregister them. */
export function registerCampaignLanguageFeatures(campaigns: CampaignEditingWorkspace): vscode.Disposable[] {
  const selector = CAMPAIGN_DOCUMENT_SELECTOR;
  const uriOf = (folder: string, file: string): vscode.Uri => vscode.Uri.file(path.join(folder, ...file.split('/')));
  const location = (folder: string, target: CampaignTarget): vscode.Location => new vscode.Location(uriOf(folder, target.file), rangeOfSource(target.range));
  return [
    vscode.languages.registerCompletionItemProvider(
      selector,
      {
        provideCompletionItems: async (document, position) => {
          const folder = campaigns.campaignOf(document.uri);
          const campaign = folder === undefined ? undefined : await campaigns.campaign(folder);
          if (!campaign || folder === undefined || document.isClosed) return [];
          const file = campaignRelative(folder, document.uri.fsPath);
          return completeCampaign(campaign, file, document.getText(), document.offsetAt(position)).map((item) =>
            toCompletionItem(document, item, completionKinds[item.kind]),
          );
        },
      },
      '"',
    ),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: async (document, position) => {
        const found = await campaigns.documentCampaign(document);
        const hover = found && hoverCampaign(found.campaign, found.file, document.offsetAt(position));
        return hover ? new vscode.Hover(new vscode.MarkdownString(hover.markdown), rangeOfSpan(document, hover.span)) : undefined;
      },
    }),
    vscode.languages.registerDefinitionProvider(selector, {
      provideDefinition: async (document, position) => {
        const found = await campaigns.documentCampaign(document);
        const definition = found && definitionAt(found.campaign, found.file, document.offsetAt(position));
        if (!found || !definition) return undefined;
        return definition.targets.map(
          (target): vscode.LocationLink => ({
            originSelectionRange: rangeOfSpan(document, definition.origin),
            targetUri: uriOf(found.campaign.folder, target.file),
            targetRange: rangeOfSource(target.fullRange ?? target.range),
            targetSelectionRange: rangeOfSource(target.range),
          }),
        );
      },
    }),
    vscode.languages.registerReferenceProvider(selector, {
      provideReferences: async (document, position, context) => {
        const found = await campaigns.documentCampaign(document);
        if (!found) return [];
        const targets = referencesAt(found.campaign, found.file, document.offsetAt(position), { includeDeclaration: context.includeDeclaration });
        return targets.map((target) => location(found.campaign.folder, target));
      },
    }),
    vscode.languages.registerDocumentHighlightProvider(selector, {
      provideDocumentHighlights: async (document, position) => {
        const found = await campaigns.documentCampaign(document);
        if (!found) return [];
        const targets = referencesAt(found.campaign, found.file, document.offsetAt(position), { includeDeclaration: true });
        return targets
          .filter((target) => target.file === found.file)
          .map((target) => new vscode.DocumentHighlight(rangeOfSource(target.range), vscode.DocumentHighlightKind.Read));
      },
    }),
    vscode.languages.registerRenameProvider(selector, {
      prepareRename: async (document, position) => {
        const found = await campaigns.documentCampaign(document);
        if (!found) throw new Error('The campaign is still being read: try again in a moment.');
        const prepared = prepareRenameAt(found.campaign, found.file, document.offsetAt(position));
        if (!prepared.ok) throw new Error(prepared.reason);
        return { range: rangeOfSpan(document, prepared.span), placeholder: prepared.placeholder };
      },
      provideRenameEdits: async (document, position, newName) => {
        const found = await campaigns.documentCampaign(document);
        if (!found) throw new Error('The campaign is still being read: try again in a moment.');
        const result = renameAt(found.campaign, found.file, document.offsetAt(position), newName);
        if (!result.ok) throw new Error(result.reason);
        const edit = new vscode.WorkspaceEdit();
        // The folders move first, and the text edits go to the files where they then are: VS Code keeps this order
        // whichever way the edit travels (a WorkspaceEdit passed back to an extension lists its file operations first).
        for (const rename of result.renames) edit.renameFile(uriOf(found.campaign.folder, rename.from), uriOf(found.campaign.folder, rename.to));
        const moved = (file: string): string => {
          const rename = result.renames.find((candidate) => file.startsWith(`${candidate.from}/`));
          return rename ? `${rename.to}${file.slice(rename.from.length)}` : file;
        };
        for (const change of result.edits) edit.replace(uriOf(found.campaign.folder, moved(change.file)), rangeOfSource(change.range), change.newText);
        return edit;
      },
    }),
  ];
}
