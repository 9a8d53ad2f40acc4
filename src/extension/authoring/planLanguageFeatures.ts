// Thin VS Code providers over the runtime's plan authoring queries: completion, hover, definition, references, rename, outline, links.
import * as vscode from 'vscode';
import { completePlan, type PlanCompletionItem } from '../../runtime/authoring/planCompletion.js';
import { hoverPlan } from '../../runtime/authoring/planHover.js';
import { planLinks } from '../../runtime/authoring/planLinks.js';
import { definitionAt, prepareRenameAt, referencesAt, renameAt, type PlanLocation } from '../../runtime/authoring/planNavigation.js';
import { planOutline, type PlanSymbol, type PlanSymbolKind } from '../../runtime/authoring/planOutline.js';
import { rangeOfSource, rangeOfSpan, toCompletionItem, workspaceEditOf } from './planConvert.js';
import { PlanCodeActionProvider } from './planCodeActions.js';
import { PLAN_DOCUMENT_SELECTOR, type PlanWorkspace } from './planWorkspace.js';

const completionKinds: Record<PlanCompletionItem['kind'], vscode.CompletionItemKind> = {
  script: vscode.CompletionItemKind.File,
  toolId: vscode.CompletionItemKind.Reference,
  property: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.Value,
  snippet: vscode.CompletionItemKind.Snippet,
};

const symbolKinds: Record<PlanSymbolKind, vscode.SymbolKind> = {
  plan: vscode.SymbolKind.Array,
  tool: vscode.SymbolKind.Function,
  dependencies: vscode.SymbolKind.Array,
  dependency: vscode.SymbolKind.Event,
  input: vscode.SymbolKind.Object,
  property: vscode.SymbolKind.Property,
};

/** Registers every provider for `*.plan.json` documents; the disposables unregister them. */
export function registerPlanLanguageFeatures(plans: PlanWorkspace): vscode.Disposable[] {
  const selector = PLAN_DOCUMENT_SELECTOR;
  return [
    vscode.languages.registerCompletionItemProvider(selector, completionProvider(plans), '"', ':', '/', ',', '[', '{'),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: async (document, position) => {
        const { current } = plans.model(document);
        const hover = hoverPlan(current, document.offsetAt(position), await plans.catalogFor(plans.rootOf(document)));
        if (!hover) return undefined;
        const markdown = new vscode.MarkdownString(hover.markdown);
        markdown.supportThemeIcons = true;
        return new vscode.Hover(markdown, rangeOfSpan(document, hover.span));
      },
    }),
    vscode.languages.registerDefinitionProvider(selector, {
      provideDefinition: async (document, position) => {
        const { current } = plans.model(document);
        const root = plans.rootOf(document);
        const locations = definitionAt(current, document.offsetAt(position), await plans.catalogFor(root), { root });
        return locations.map((location) => toLocation(document, location));
      },
    }),
    vscode.languages.registerReferenceProvider(selector, {
      provideReferences: (document, position, context) => {
        const { current } = plans.model(document);
        return referencesAt(current, document.offsetAt(position), { includeDeclaration: context.includeDeclaration }).map(
          (span) => new vscode.Location(document.uri, rangeOfSpan(document, span)),
        );
      },
    }),
    vscode.languages.registerRenameProvider(selector, {
      prepareRename: (document, position) => {
        const prepared = prepareRenameAt(plans.model(document).current, document.offsetAt(position));
        if ('error' in prepared) throw new Error(prepared.error);
        return { range: rangeOfSpan(document, prepared.span), placeholder: prepared.placeholder };
      },
      provideRenameEdits: (document, position, newName) => {
        const result = renameAt(plans.model(document).current, document.offsetAt(position), newName);
        if (!result.ok) throw new Error(result.reason);
        return workspaceEditOf(document, result.edits);
      },
    }),
    vscode.languages.registerDocumentSymbolProvider(
      selector,
      { provideDocumentSymbols: (document) => planOutline(plans.model(document).current).map((symbol) => toDocumentSymbol(document, symbol)) },
      { label: 'Narratoria plan' },
    ),
    vscode.languages.registerDocumentLinkProvider(selector, {
      provideDocumentLinks: async (document) => {
        const root = plans.rootOf(document);
        return planLinks(plans.model(document).current, await plans.catalogFor(root), root).map((link) => {
          const documentLink = new vscode.DocumentLink(rangeOfSpan(document, link.span), vscode.Uri.file(link.target));
          documentLink.tooltip = link.tooltip;
          return documentLink;
        });
      },
    }),
    vscode.languages.registerCodeActionsProvider(selector, new PlanCodeActionProvider(plans), { providedCodeActionKinds: PlanCodeActionProvider.kinds }),
  ];
}

function completionProvider(plans: PlanWorkspace): vscode.CompletionItemProvider {
  return {
    provideCompletionItems: async (document, position) => {
      const { current, lastWellFormed } = plans.model(document);
      const catalog = await plans.catalogFor(plans.rootOf(document));
      const items = completePlan(current, document.offsetAt(position), catalog, { lastWellFormed });
      return items.map((item) => toCompletionItem(document, item, completionKinds[item.kind]));
    },
  };
}

function toLocation(document: vscode.TextDocument, location: PlanLocation): vscode.Location {
  if (location.file === undefined) return new vscode.Location(document.uri, rangeOfSpan(document, location.span));
  return new vscode.Location(vscode.Uri.file(location.file), location.range ? rangeOfSource(location.range) : new vscode.Position(0, 0));
}

function toDocumentSymbol(document: vscode.TextDocument, symbol: PlanSymbol): vscode.DocumentSymbol {
  const result = new vscode.DocumentSymbol(
    symbol.name,
    symbol.detail,
    symbolKinds[symbol.kind],
    rangeOfSpan(document, symbol.span),
    rangeOfSpan(document, symbol.selectionSpan),
  );
  result.children = symbol.children.map((child) => toDocumentSymbol(document, child));
  return result;
}
