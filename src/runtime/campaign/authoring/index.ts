// Public API of campaign authoring in an editor: finding campaigns, which diagnostics the editor shows, completion, hover, navigation and rename.
export { CAMPAIGN_DEPTH, CONTENT_FOLDERS_GLOB, MANIFEST_GLOB, campaignFolderOf, campaignRelative, looksLikeCampaign } from './campaignDiscovery.js';
export { EDITOR_SCHEMA_FILES, editorSchemaOf, shownByEditor, type EditorState } from './campaignEditorDiagnostics.js';
export { completeCampaign, type CampaignCompletionItem } from './campaignCompletion.js';
export { hoverCampaign, type CampaignHover } from './campaignHover.js';
export { definitionAt, referencesAt, type CampaignDefinition, type CampaignTarget } from './campaignNavigation.js';
export {
  BEAT_ID_PATTERN,
  prepareRenameAt,
  renameAt,
  type CampaignFileRename,
  type CampaignPrepareRename,
  type CampaignRename,
  type CampaignTextEdit,
} from './campaignRename.js';
