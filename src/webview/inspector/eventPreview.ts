// The Inspector's preview of an asset or ui_event line, drawn by the play panel's own renderers (an image, a player or the placeholder card saying why; a dice card or an event chip).
import type { InspectorRowView } from '../../protocol/inspectorMessages.js';
import type { AssetView, UiEventView } from '../../protocol/playPanelMessages.js';
import { renderAsset } from '../common/assetCard.js';
import { renderUiEventCard } from '../common/uiEventCard.js';

/** The tool id the Inspector runs a script under (inspectScript's environment), shown in the cards' tooltips. */
const INSPECT_TOOL_ID = 'inspect';

/** The preview of an asset or ui_event row; undefined for any other row. */
export function eventPreview(row: InspectorRowView): HTMLElement | undefined {
  const event = row.event;
  if (event?.type === 'asset') {
    const asset: AssetView = {
      assetId: event.assetId,
      kind: event.kind,
      mediaType: event.mediaType,
      path: event.path,
      toolId: INSPECT_TOOL_ID,
      ...(row.assetUri !== undefined ? { uri: row.assetUri } : {}),
      ...(row.assetUnavailable !== undefined ? { unavailableReason: row.assetUnavailable } : {}),
    };
    return renderAsset(asset);
  }
  if (event?.type === 'ui_event') {
    const view: UiEventView = { toolId: INSPECT_TOOL_ID, event: event.event, ...(event.payload ? { payload: event.payload } : {}) };
    return renderUiEventCard(view);
  }
  return undefined;
}
