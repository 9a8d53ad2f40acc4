// The complete starter campaign's art and music, drawn and synthesized here (small PNG images, a WAV foghorn) with their .meta.json sidecars.
import { deflateSync } from 'node:zlib';
import type { StarterFile } from './starterCampaigns.js';

type Colour = readonly [red: number, green: number, blue: number];
type Painter = (x: number, y: number) => Colour;

const SIZE = 64;

/** CRC-32 (IEEE) of PNG chunks. */
const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of SIZE x SIZE pixels, each painted by `paint`. */
export function pngImage(paint: Painter): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter method, no interlace
  const rows = Buffer.alloc(SIZE * (1 + SIZE * 3));
  for (let y = 0; y < SIZE; y++) {
    const row = y * (1 + SIZE * 3);
    for (let x = 0; x < SIZE; x++) rows.set(paint(x, y), row + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', new Uint8Array())]);
}

/** A head-and-shoulders silhouette in `figure` over a vertical wash from `top` to `bottom`. */
function portrait(top: Colour, bottom: Colour, figure: Colour): Painter {
  return (x, y) => {
    const head = (x - 32) ** 2 + (y - 24) ** 2 <= 11 ** 2;
    const shoulders = y >= 40 && (x - 32) ** 2 / 24 ** 2 + (y - 64) ** 2 / 22 ** 2 <= 1;
    return head || shoulders ? figure : mix(top, bottom, y / SIZE);
  };
}

/** A white tower with a lit lamp on a rock, against a night sky fading into fog. */
const tower: Painter = (x, y) => {
  if (y < 14 && y > 8 && Math.abs(x - 32) <= 3) return [250, 236, 170];
  if (y >= 14 && y < 52 && Math.abs(x - 32) <= 4 + (y - 14) / 10) return [226, 228, 232];
  if (y >= 52) return [54, 58, 66];
  return mix([12, 20, 44], [120, 132, 150], y / 52);
};

function mix(from: Colour, to: Colour, amount: number): Colour {
  return [0, 1, 2].map((channel) => Math.round(from[channel]! + (to[channel]! - from[channel]!) * amount)) as unknown as Colour;
}

/** A WAV file (8-bit mono, 8 kHz): a low foghorn tone that swells and fades, `seconds` long. */
export function foghornWav(seconds = 1.5): Uint8Array {
  const rate = 8000;
  const count = Math.round(rate * seconds);
  const samples = Buffer.alloc(count);
  for (let index = 0; index < count; index++) {
    const time = index / rate;
    const envelope = Math.sin((Math.PI * index) / count);
    const tone = 0.7 * Math.sin(2 * Math.PI * 98 * time) + 0.3 * Math.sin(2 * Math.PI * 196 * time);
    samples[index] = Math.round(128 + 100 * envelope * tone);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + count, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // bytes per second
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(count, 40);
  return Buffer.concat([header, samples]);
}

const CREDIT = 'Drawn or synthesized by narratoria init for the sample campaign';

function meta(value: Record<string, unknown>): string {
  return `${JSON.stringify({ generated: false, ...value, credit: CREDIT }, null, 2)}\n`;
}

/** The portraits, the tower, the foghorn, and the sidecars saying a person's code made them (no model: no provenance). */
export function mediaFiles(): StarterFile[] {
  return [
    { path: 'art/characters/odile.png', bytes: pngImage(portrait([40, 52, 70], [90, 104, 120], [236, 226, 200])) },
    { path: 'art/characters/tamsin.png', bytes: pngImage(portrait([20, 70, 80], [60, 120, 120], [200, 120, 70])) },
    { path: 'characters/npcs/alder/portrait.png', bytes: pngImage(portrait([30, 30, 40], [70, 60, 80], [150, 150, 160])) },
    { path: 'art/locations/lantern-tower.png', bytes: pngImage(tower) },
    {
      path: 'art/locations/lantern-tower.png.meta.json',
      text: meta({ alt_text: 'A white lighthouse on a dark rock at night, its lamp lit, fog rising below' }),
    },
    { path: 'music/ambient/foghorn.wav', bytes: foghornWav() },
    { path: 'music/ambient/foghorn.wav.meta.json', text: meta({ loop: true }) },
  ];
}
