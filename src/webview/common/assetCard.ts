// Renders an asset event (a play turn's, or the Inspector's selected line): <img>, <audio> or <video> when the extension gave a webview URI, else a placeholder card saying why.
import type { AssetView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from './dom.js';

/** One asset (media players get `controls`; nothing autoplays). */
export function renderAsset(asset: AssetView): HTMLElement {
  const figure = el('figure', {
    className: 'asset',
    testId: PlayPanelTestId.asset,
    data: { assetId: asset.assetId, kind: asset.kind, mediaType: asset.mediaType, toolId: asset.toolId },
  });
  const media = asset.uri !== undefined ? mediaElement(asset, asset.uri) : null;
  if (media === null) {
    figure.classList.add('is-placeholder');
    figure.append(
      ...placeholder(
        asset,
        asset.unavailableReason ??
          (asset.uri === undefined ? 'The extension gave no address for this file.' : `Media type ${asset.mediaType} cannot be shown.`),
      ),
    );
    return figure;
  }
  // A file that fails to load turns into the placeholder instead of a broken-image icon.
  media.addEventListener('error', () => {
    figure.replaceChildren(...placeholder(asset, 'The file could not be loaded.'));
    figure.classList.add('is-placeholder');
  });
  figure.append(media, el('figcaption', { className: 'asset-caption', title: asset.path }, codicon(iconFor(asset)), el('span', {}, asset.path)));
  return figure;
}

function mediaElement(asset: AssetView, uri: string): HTMLImageElement | HTMLAudioElement | HTMLVideoElement | null {
  const type = asset.mediaType.toLowerCase();
  if (type.startsWith('image/')) return el('img', { attrs: { src: uri, alt: `${asset.kind}: ${asset.path}`, loading: 'lazy' } });
  if (type.startsWith('audio/')) {
    const audio = el('audio', { attrs: { src: uri, preload: 'metadata', 'aria-label': asset.path } });
    audio.controls = true;
    return audio;
  }
  if (type.startsWith('video/')) {
    const video = el('video', { attrs: { src: uri, preload: 'metadata', 'aria-label': asset.path } });
    video.controls = true;
    return video;
  }
  return null;
}

function placeholder(asset: AssetView, reason: string): HTMLElement[] {
  return [
    el('span', { className: 'asset-placeholder-icon' }, codicon(iconFor(asset))),
    el(
      'span',
      { className: 'asset-placeholder-body' },
      el('span', { className: 'asset-placeholder-title' }, `${asset.kind} `, el('span', { className: 'asset-media-type' }, asset.mediaType)),
      el('code', { className: 'asset-path', title: asset.path }, asset.path),
      el('span', { className: 'asset-reason' }, reason),
    ),
  ];
}

function iconFor(asset: AssetView): string {
  const type = asset.mediaType.toLowerCase();
  if (type.startsWith('image/')) return 'file-media';
  if (type.startsWith('audio/')) return 'music';
  if (type.startsWith('video/')) return 'device-camera-video';
  return 'file';
}
