#!/usr/bin/env node
// character-portraits/portrait: draws a stylised SVG bust of a character from the keywords of a description (hair, eyes, skin, beard, headwear, scars, ears…) into the skill's data directory and announces it as an asset, as Narratoria protocol v0 NDJSON.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { cleanText, emit, fail, log, readConfig, runTool, sharedDirectory, stableHash, writeFileAtomic } = require('../lib/narratoria-skill-sdk.js');

const MAX_NAME = 100;
const MAX_DESCRIPTION = 2000;
const PALETTES = ['natural', 'vivid', 'muted', 'noir', 'sepia'];

/** "Sir Aldric the Bold" -> "sir-aldric-the-bold"; names without Latin letters get a hash-based slug. */
function slugify(name) {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || `character-${stableHash(name).toString(16)}`;
}

function escapeXml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

// ---- colours -------------------------------------------------------------------------------------

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function rgbToHex([r, g, b]) {
  const clamp = (v) => Math.max(0, Math.min(255, Math.round(v)));
  return `#${((1 << 24) | (clamp(r) << 16) | (clamp(g) << 8) | clamp(b)).toString(16).slice(1)}`;
}

function rgbToHsl([r, g, b]) {
  r /= 255;
  g /= 255;
  b /= 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [h / 6, s, l];
}

function hslToRgb([h, s, l]) {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const hue = (p, q, t) => {
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  return [hue(p, q, h + 1 / 3) * 255, hue(p, q, h) * 255, hue(p, q, h - 1 / 3) * 255];
}

/** Lightens (amount > 0) or darkens (amount < 0) a colour. */
function shade(hex, amount) {
  const [h, s, l] = rgbToHsl(hexToRgb(hex));
  return rgbToHex(hslToRgb([h, s, Math.max(0, Math.min(1, l + amount))]));
}

/** The palette's transform, applied to every colour of the portrait. */
function paletteFilter(palette) {
  switch (palette) {
    case 'vivid':
      return (hex) => {
        const [h, s, l] = rgbToHsl(hexToRgb(hex));
        return rgbToHex(hslToRgb([h, Math.min(1, s * 1.35), l]));
      };
    case 'muted':
      return (hex) => {
        const [h, s, l] = rgbToHsl(hexToRgb(hex));
        return rgbToHex(hslToRgb([h, s * 0.5, Math.min(1, l * 0.9 + 0.08)]));
      };
    case 'noir':
      return (hex) => {
        const [r, g, b] = hexToRgb(hex);
        const y = 0.299 * r + 0.587 * g + 0.114 * b;
        return rgbToHex([y, y, y]);
      };
    case 'sepia':
      return (hex) => {
        const [r, g, b] = hexToRgb(hex);
        return rgbToHex([0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b]);
      };
    default:
      return (hex) => hex;
  }
}

// ---- reading the description ---------------------------------------------------------------------

const HAIR_COLORS = {
  black: '#1d1a1a', raven: '#141218', jet: '#121212', dark: '#2e221b', brown: '#5a3a22', chestnut: '#6b3a1f',
  brunette: '#4a2f1d', auburn: '#8a3b1e', red: '#a3361d', ginger: '#b5541e', copper: '#b4622d', fiery: '#c0401e',
  blond: '#d9b25f', blonde: '#d9b25f', golden: '#d4a73c', gold: '#d4a73c', fair: '#dcc08a', flaxen: '#e0c98f',
  sandy: '#c9a66b', white: '#ecebe7', snowy: '#f2f2f2', silver: '#c8ccd2', grey: '#9b9b9b', gray: '#9b9b9b',
  blue: '#3a5fcd', green: '#3c8d4f', purple: '#7a3fa0', violet: '#7a3fa0', pink: '#e27aa8', teal: '#2a8c8c',
};
const EYE_COLORS = {
  blue: '#3d7cc9', green: '#3f9b4f', brown: '#6b4226', dark: '#3a2a1e', hazel: '#8e7a3a', grey: '#8a96a0',
  gray: '#8a96a0', amber: '#d08a1e', golden: '#d4a017', gold: '#d4a017', yellow: '#d6c21e', violet: '#7d4bb3',
  purple: '#7d4bb3', red: '#c0392b', crimson: '#b0202e', black: '#222222', silver: '#b8c2cc', icy: '#a9d6f5',
  white: '#e8e8e8', pale: '#c9d6e0', emerald: '#1f9e5a', sapphire: '#2a52be',
};
const SKIN_TONES = {
  pale: '#f4dccb', porcelain: '#f7e3d6', fair: '#f1cfb4', light: '#eac3a2', rosy: '#f0c2a8', ruddy: '#d99b85',
  tan: '#c98f62', tanned: '#c98f62', weathered: '#bb865d', olive: '#b98a5e', bronze: '#a86b3c', golden: '#d7a56f',
  brown: '#8d5a3b', dusky: '#7a4b31', swarthy: '#8a5a3a', dark: '#5f3b27', ebony: '#3f2619', black: '#3b2418',
  ashen: '#a7a9a6', grey: '#9aa0a0', gray: '#9aa0a0', green: '#7a9a5a', blue: '#6f8fbf', red: '#b5513f',
  purple: '#8a6a9e',
};
const CLOTHING_COLORS = {
  red: '#9b2c2c', crimson: '#8b1a2b', scarlet: '#b0242c', blue: '#2f4f8f', navy: '#1f2f57', azure: '#2f6fb0',
  green: '#2f6b3f', emerald: '#1f7a4f', forest: '#2d4a2b', black: '#1f1f24', white: '#e6e2d8', grey: '#6b6e73',
  gray: '#6b6e73', brown: '#5b3b24', purple: '#5b2d7a', violet: '#6a3d9a', gold: '#b8902d', golden: '#b8902d',
  yellow: '#c9a227', orange: '#c2601f', teal: '#1f6f6f', silver: '#a5abb3', leather: '#6e4a2d',
};
const HAIR_STYLES = { long: 'long', flowing: 'long', short: 'short', cropped: 'short', curly: 'curly', curls: 'curly', wild: 'curly', braided: 'braided', braid: 'braided', braids: 'braided', ponytail: 'braided', bald: 'bald', shaved: 'bald', shorn: 'bald' };
const GARMENTS = 'cloak cloaks robe robes tunic coat dress jerkin shirt doublet gown cape vest jacket uniform garb attire clothes armor armour mail';

const hasWord = (text, pattern) => new RegExp(`\\b(?:${pattern})\\b`).test(text);

/** Colour words among the (up to) `span` words right before each `nouns` word, nearest first. */
function wordsBefore(words, nouns, span) {
  const found = [];
  words.forEach((word, index) => {
    if (!nouns.includes(word)) return;
    for (let back = index - 1; back >= Math.max(0, index - span); back -= 1) found.push(words[back]);
  });
  return found;
}

function pick(list, seed, salt) {
  return list[stableHash(`${seed}|${salt}`) % list.length];
}

/**
 * Features of the portrait: what the description names, and deterministic choices (from the name and
 * description) for the rest. `recognized` lists the features taken from the description.
 */
function readFeatures(description, seed) {
  const text = description
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/-/g, ' ');
  const words = text.match(/[a-z]+/g) || [];
  const recognized = [];
  const note = (feature) => {
    if (!recognized.includes(feature)) recognized.push(feature);
  };
  const f = {};

  // Peoples set several defaults at once; explicit words below win over them.
  const orc = hasWord(text, 'orc|orcs|orcish|half orc');
  const goblin = hasWord(text, 'goblin|goblins|kobold');
  const drow = hasWord(text, 'drow|dark elf');
  const elf = drow || hasWord(text, 'elf|elves|elven|elfin|elvish|half elf|eladrin|fae|fey');
  const dwarf = hasWord(text, 'dwarf|dwarves|dwarven|dwarvish');
  const tiefling = hasWord(text, 'tiefling|demon|demonic|devil|devilish|infernal');
  const old = hasWord(text, 'old|elderly|aged|ancient|wizened|venerable|grizzled|grandmother|grandfather|crone|greybeard');
  const young = !old && hasWord(text, 'young|youthful|boy|girl|child|kid|teen|teenage|lad|lass|youth');
  f.age = old ? 'old' : young ? 'young' : 'adult';
  if (old || young) note('age');

  // Hair.
  const hairNouns = ['hair', 'haired', 'locks', 'curls', 'mane', 'braid', 'braids', 'ponytail', 'tresses', 'beard', 'bearded'];
  const nearHair = wordsBefore(words, hairNouns.filter((noun) => noun !== 'beard' && noun !== 'bearded'), 3);
  let hairWord = nearHair.find((word) => HAIR_COLORS[word]);
  if (!hairWord && hasWord(text, 'redhead|red head')) hairWord = 'red';
  if (!hairWord) hairWord = words.find((word) => word === 'blond' || word === 'blonde' || word === 'brunette');
  if (hairWord) note('hairColor');
  else if (old) hairWord = 'grey';
  else if (drow) hairWord = 'white';
  else hairWord = pick(['black', 'brown', 'chestnut', 'auburn', 'blond', 'dark', 'red'], seed, 'hair');
  f.hairColor = hairWord;

  let style = [...nearHair, ...words.filter((word) => word === 'bald' || word === 'ponytail' || word === 'braids' || word === 'braided' || word === 'shaved')]
    .map((word) => HAIR_STYLES[word])
    .find(Boolean);
  if (style) note('hairStyle');
  else style = pick(['short', 'long', 'curly', 'short'], seed, 'style');
  f.hairStyle = style;

  // Eyes.
  const nearEyes = wordsBefore(words, ['eyes', 'eyed', 'eye', 'gaze', 'stare'], 2);
  let eyeWord = nearEyes.find((word) => EYE_COLORS[word]);
  if (eyeWord) note('eyeColor');
  else eyeWord = drow ? 'red' : pick(['brown', 'blue', 'green', 'hazel', 'grey', 'dark'], seed, 'eyes');
  f.eyeColor = eyeWord;

  // Skin.
  const nearSkin = wordsBefore(words, ['skin', 'skinned', 'complexion', 'flesh'], 2);
  let skinWord = nearSkin.find((word) => SKIN_TONES[word]);
  if (!skinWord) skinWord = words.find((word) => ['pale', 'tanned', 'swarthy', 'dusky', 'ruddy', 'ashen', 'porcelain', 'weathered'].includes(word));
  if (skinWord) note('skinTone');
  else if (orc || goblin) skinWord = 'green';
  else if (drow) skinWord = 'purple';
  else if (tiefling) skinWord = 'red';
  else skinWord = pick(['pale', 'fair', 'light', 'tan', 'olive', 'brown', 'dark'], seed, 'skin');
  f.skinTone = skinWord;

  // Face and head.
  if (hasWord(text, 'clean shaven|beardless|smooth faced')) f.facialHair = 'none';
  else if (hasWord(text, 'beard|beards|bearded|greybeard')) f.facialHair = 'beard';
  else if (hasWord(text, 'moustache|mustache|moustached|mustached')) f.facialHair = 'moustache';
  else if (hasWord(text, 'stubble|unshaven|stubbled')) f.facialHair = 'stubble';
  else f.facialHair = dwarf ? 'beard' : 'none';
  if (f.facialHair !== 'none' || hasWord(text, 'clean shaven|beardless|smooth faced')) note('facialHair');
  const nearBeard = wordsBefore(words, ['beard', 'bearded', 'moustache', 'mustache', 'stubble'], 2);
  const beardWord = nearBeard.find((word) => HAIR_COLORS[word]);
  f.beardColor = beardWord || f.hairColor;

  if (hasWord(text, 'wizard hat|pointed hat|pointy hat|witch hat|wizards hat|witchs hat')) f.headwear = 'wizard-hat';
  else if (hasWord(text, 'hood|hooded|cowl|cowled')) f.headwear = 'hood';
  else if (hasWord(text, 'helmet|helm|helmed|helmeted')) f.headwear = 'helmet';
  else if (hasWord(text, 'crown|crowned')) f.headwear = 'crown';
  else if (hasWord(text, 'circlet|tiara|diadem')) f.headwear = 'circlet';
  else if (hasWord(text, 'hat|hats|tricorn|tricorne|cap|bonnet|fedora')) f.headwear = 'hat';
  else f.headwear = 'none';
  if (f.headwear !== 'none') note('headwear');

  f.ears = elf || goblin || hasWord(text, 'pointed ears|pointy ears|long ears') ? 'pointed' : 'round';
  if (f.ears === 'pointed') note('ears');
  f.scar = hasWord(text, 'scar|scars|scarred|scarface');
  f.eyepatch = hasWord(text, 'eyepatch|eye patch|one eyed|patch over');
  f.glasses = hasWord(text, 'glasses|spectacles|monocle|goggles|bespectacled');
  f.freckles = hasWord(text, 'freckles|freckled|freckle');
  f.horns = tiefling || hasWord(text, 'horn|horns|horned');
  f.tusks = orc || hasWord(text, 'tusk|tusks|tusked');
  f.earring = hasWord(text, 'earring|earrings|pierced');
  for (const key of ['scar', 'eyepatch', 'glasses', 'freckles', 'horns', 'tusks', 'earring']) if (f[key]) note(key);

  if (hasWord(text, 'smile|smiling|smiles|cheerful|jolly|grin|grinning|laughing|merry|kind|friendly|warm')) f.expression = 'smile';
  else if (hasWord(text, 'stern|grim|scowl|scowling|angry|frown|frowning|serious|cold|brooding|fierce|menacing|sour')) f.expression = 'stern';
  else f.expression = 'neutral';
  if (f.expression !== 'neutral') note('expression');

  // Clothing.
  f.armor = hasWord(text, 'armor|armour|armored|armoured|plate|chainmail|mail|knight|paladin|soldier');
  const nearGarment = wordsBefore(words, GARMENTS.split(' '), 3);
  let clothingWord = nearGarment.find((word) => CLOTHING_COLORS[word]);
  if (clothingWord) note('clothing');
  else clothingWord = f.armor ? 'silver' : pick(['crimson', 'navy', 'forest', 'brown', 'grey', 'purple', 'teal', 'leather'], seed, 'clothes');
  f.clothing = clothingWord;
  f.garment = f.armor ? 'armor' : hasWord(text, 'robe|robes|mage|wizard|priest|priestess|monk|cleric|sorcerer|sorceress|witch') ? 'robe' : hasWord(text, 'cloak|cloaks|cape|ranger|rogue|thief') ? 'cloak' : 'tunic';
  if (f.armor || f.garment !== 'tunic') note('garment');

  return { features: f, recognized };
}

// ---- drawing -------------------------------------------------------------------------------------

/** The SVG markup of a portrait with `features`; `paint` maps every colour through the palette. */
function drawPortrait(name, description, features, { palette, size, showName, seed }) {
  const paint = paletteFilter(palette);
  const c = (hex) => paint(hex);
  const f = features;
  const skin = SKIN_TONES[f.skinTone] || SKIN_TONES.fair;
  const skinShadow = shade(skin, -0.12);
  const hair = HAIR_COLORS[f.hairColor] || HAIR_COLORS.brown;
  const beard = HAIR_COLORS[f.beardColor] || hair;
  const eye = EYE_COLORS[f.eyeColor] || EYE_COLORS.brown;
  const cloth = CLOTHING_COLORS[f.clothing] || CLOTHING_COLORS.brown;
  const backgrounds = ['#2b3a55', '#3b2f4a', '#28463e', '#4a3a2a', '#3a4450', '#4b2e35', '#2f3f3a'];
  const background = pick(backgrounds, seed, 'background');
  const metal = '#a5abb3';
  const out = [];
  const add = (markup) => out.push(`  ${markup}`);

  add(`<rect width="256" height="256" fill="${c(background)}"/>`);
  add(`<circle cx="128" cy="112" r="108" fill="${c(shade(background, 0.12))}"/>`);

  // Hood (back), behind everything else of the figure.
  if (f.headwear === 'hood') add(`<path d="M58 150 C50 36 206 36 198 150 L214 214 L42 214 Z" fill="${c(shade(cloth, -0.08))}"/>`);

  // Bust.
  add(`<path d="M26 256 C30 206 74 186 128 186 C182 186 226 206 230 256 Z" fill="${c(f.armor ? metal : cloth)}"/>`);
  if (f.garment === 'armor') {
    add(`<ellipse cx="62" cy="222" rx="36" ry="20" fill="${c(shade(metal, -0.12))}" stroke="${c(shade(metal, -0.3))}" stroke-width="2"/>`);
    add(`<ellipse cx="194" cy="222" rx="36" ry="20" fill="${c(shade(metal, -0.12))}" stroke="${c(shade(metal, -0.3))}" stroke-width="2"/>`);
    add(`<path d="M128 196 L128 256 M100 214 L156 214" stroke="${c(shade(metal, -0.3))}" stroke-width="2" fill="none"/>`);
  } else if (f.garment === 'robe') {
    add(`<path d="M104 188 L128 232 L152 188" fill="none" stroke="${c(shade(cloth, 0.2))}" stroke-width="5"/>`);
  } else if (f.garment === 'cloak') {
    add(`<path d="M70 198 C96 214 160 214 186 198" fill="none" stroke="${c(shade(cloth, -0.18))}" stroke-width="6"/>`);
    add(`<circle cx="128" cy="210" r="7" fill="${c('#c9a43b')}" stroke="${c('#7a5c16')}" stroke-width="1.5"/>`);
  } else {
    add(`<path d="M110 188 Q128 204 146 188" fill="none" stroke="${c(shade(cloth, -0.2))}" stroke-width="4"/>`);
  }

  // Long hair falls behind the head and over the shoulders.
  const hidesHair = f.headwear === 'hood' || f.headwear === 'helmet';
  if (!hidesHair && (f.hairStyle === 'long' || f.hairStyle === 'curly')) {
    add(`<path d="M74 112 C66 44 190 44 182 112 L192 206 C168 216 88 216 64 206 Z" fill="${c(shade(hair, -0.06))}"/>`);
  }

  // Neck, ears, head.
  add(`<rect x="110" y="156" width="36" height="40" rx="8" fill="${c(skinShadow)}"/>`);
  if (f.ears === 'pointed') {
    add(`<path d="M86 110 L50 80 L82 140 Z" fill="${c(skin)}" stroke="${c(skinShadow)}" stroke-width="2"/>`);
    add(`<path d="M170 110 L206 80 L174 140 Z" fill="${c(skin)}" stroke="${c(skinShadow)}" stroke-width="2"/>`);
  } else {
    add(`<ellipse cx="82" cy="124" rx="8" ry="13" fill="${c(skin)}" stroke="${c(skinShadow)}" stroke-width="2"/>`);
    add(`<ellipse cx="174" cy="124" rx="8" ry="13" fill="${c(skin)}" stroke="${c(skinShadow)}" stroke-width="2"/>`);
  }
  if (f.earring) {
    const [lx, rx, y] = f.ears === 'pointed' ? [80, 176, 140] : [80, 176, 138];
    add(`<circle cx="${lx}" cy="${y}" r="3.5" fill="none" stroke="${c('#d4af37')}" stroke-width="2"/>`);
    add(`<circle cx="${rx}" cy="${y}" r="3.5" fill="none" stroke="${c('#d4af37')}" stroke-width="2"/>`);
  }
  add(`<ellipse cx="128" cy="118" rx="46" ry="56" fill="${c(skin)}"/>`);

  // Horns rise from the brow.
  if (f.horns) {
    add(`<path d="M98 78 C86 52 70 46 60 54 C74 56 84 66 90 86 Z" fill="${c('#5a4636')}"/>`);
    add(`<path d="M158 78 C170 52 186 46 196 54 C182 56 172 66 166 86 Z" fill="${c('#5a4636')}"/>`);
  }

  // Age and freckles.
  if (f.age === 'old') {
    add(`<path d="M108 84 Q128 80 148 84 M112 92 Q128 88 144 92 M92 122 L86 126 M164 122 L170 126" fill="none" stroke="${c(skinShadow)}" stroke-width="1.5"/>`);
  }
  if (f.age === 'young') {
    add(`<circle cx="102" cy="138" r="7" fill="${c('#e58a8a')}" opacity="0.35"/>`);
    add(`<circle cx="154" cy="138" r="7" fill="${c('#e58a8a')}" opacity="0.35"/>`);
  }
  if (f.freckles) {
    const dots = [[98, 134], [104, 138], [100, 142], [108, 134], [158, 134], [152, 138], [156, 142], [148, 134]];
    for (const [x, y] of dots) add(`<circle cx="${x}" cy="${y}" r="1.4" fill="${c(shade(skin, -0.3))}"/>`);
  }

  // Eyes and brows.
  for (const x of [108, 148]) {
    if (f.eyepatch && x === 148) continue;
    add(`<ellipse cx="${x}" cy="118" rx="9" ry="5.5" fill="${c('#fbfbf8')}"/>`);
    add(`<circle cx="${x}" cy="118" r="4.2" fill="${c(eye)}"/>`);
    add(`<circle cx="${x}" cy="118" r="2" fill="${c('#111111')}"/>`);
    add(`<circle cx="${x + 1.5}" cy="116.5" r="0.9" fill="${c('#ffffff')}"/>`);
  }
  const brow = c(f.age === 'old' ? HAIR_COLORS.grey : shade(hair, -0.05));
  if (f.expression === 'stern') {
    add(`<path d="M97 103 L119 109 M159 103 L137 109" fill="none" stroke="${brow}" stroke-width="3.5" stroke-linecap="round"/>`);
  } else {
    add(`<path d="M97 107 Q108 100 119 105 M159 107 Q148 100 137 105" fill="none" stroke="${brow}" stroke-width="3.5" stroke-linecap="round"/>`);
  }
  if (f.eyepatch) {
    add(`<path d="M84 100 L140 112 M156 112 L174 106" stroke="${c('#1b1b1b')}" stroke-width="2.5" fill="none"/>`);
    add(`<ellipse cx="148" cy="119" rx="12" ry="9" fill="${c('#1b1b1b')}"/>`);
  }
  if (f.glasses) {
    add(`<circle cx="108" cy="118" r="12" fill="${c('#cfe3f0')}" fill-opacity="0.18" stroke="${c('#3a3a3a')}" stroke-width="2"/>`);
    if (!f.eyepatch) add(`<circle cx="148" cy="118" r="12" fill="${c('#cfe3f0')}" fill-opacity="0.18" stroke="${c('#3a3a3a')}" stroke-width="2"/>`);
    add(`<path d="M120 117 Q128 113 136 117 M96 116 L84 112 M160 116 L172 112" fill="none" stroke="${c('#3a3a3a')}" stroke-width="2"/>`);
  }

  // Nose.
  add(`<path d="M128 120 Q123 138 127 143 Q131 145 135 141" fill="none" stroke="${c(shade(skin, -0.22))}" stroke-width="2" stroke-linecap="round"/>`);

  // Facial hair, then the mouth over it.
  if (f.facialHair === 'beard') {
    add(`<path d="M82 126 C82 182 104 206 128 208 C152 206 174 182 174 126 C168 156 150 166 128 166 C106 166 88 156 82 126 Z" fill="${c(beard)}"/>`);
  } else if (f.facialHair === 'stubble') {
    add(`<path d="M84 128 C84 180 104 200 128 202 C152 200 172 180 172 128 C166 156 150 164 128 164 C106 164 90 156 84 128 Z" fill="${c(beard)}" opacity="0.28"/>`);
  }
  if (f.facialHair === 'beard' || f.facialHair === 'moustache') {
    add(`<path d="M108 152 Q128 140 148 152 Q128 150 108 152 Z" fill="${c(shade(beard, -0.05))}" stroke="${c(shade(beard, -0.15))}" stroke-width="2"/>`);
  }
  const lips = c(shade(skin, -0.3));
  if (f.expression === 'smile') add(`<path d="M113 156 Q128 168 143 156" fill="none" stroke="${lips}" stroke-width="2.5" stroke-linecap="round"/>`);
  else if (f.expression === 'stern') add(`<path d="M115 160 Q128 153 141 160" fill="none" stroke="${lips}" stroke-width="2.5" stroke-linecap="round"/>`);
  else add(`<path d="M115 157 Q128 160 141 157" fill="none" stroke="${lips}" stroke-width="2.5" stroke-linecap="round"/>`);
  if (f.tusks) {
    add(`<path d="M114 160 L110 144 L120 158 Z M142 160 L146 144 L136 158 Z" fill="${c('#f1ead2')}" stroke="${c('#b9ae8c')}" stroke-width="1"/>`);
  }

  // Scar across the left cheek (viewer's right).
  if (f.scar) {
    add(`<path d="M138 98 L160 140" stroke="${c('#9b4a4a')}" stroke-width="2.5" stroke-linecap="round" fill="none"/>`);
    add(`<path d="M142 108 L150 104 M147 118 L155 114 M152 128 L160 124" stroke="${c('#9b4a4a')}" stroke-width="1.5" fill="none"/>`);
  }

  // Hair on top of the head.
  if (!hidesHair && f.hairStyle !== 'bald') {
    if (f.hairStyle === 'curly') {
      for (let i = 0; i <= 10; i += 1) {
        const angle = Math.PI * (1.05 + (0.9 * i) / 10);
        const x = (128 + 50 * Math.cos(angle)).toFixed(1);
        const y = (104 + 46 * Math.sin(angle)).toFixed(1);
        add(`<circle cx="${x}" cy="${y}" r="13" fill="${c(hair)}"/>`);
      }
    } else {
      add(`<path d="M80 116 C72 46 184 46 176 116 C170 92 156 80 128 82 C100 80 86 92 80 116 Z" fill="${c(hair)}"/>`);
    }
    if (f.hairStyle === 'braided') {
      for (let i = 0; i < 6; i += 1) add(`<ellipse cx="${176 + i * 2}" cy="${150 + i * 14}" rx="8" ry="9" fill="${c(shade(hair, i % 2 ? -0.08 : 0))}"/>`);
    }
  } else if (f.hairStyle === 'bald' && !hidesHair) {
    add(`<ellipse cx="112" cy="80" rx="12" ry="6" fill="#ffffff" opacity="0.25"/>`);
  }

  // Headwear.
  const hatColor = f.headwear === 'hat' || f.headwear === 'wizard-hat' ? shade(cloth, -0.05) : cloth;
  if (f.headwear === 'hood') {
    add(`<path d="M72 150 C64 50 192 50 184 150 C178 100 158 76 128 76 C98 76 78 100 72 150 Z" fill="${c(cloth)}"/>`);
  } else if (f.headwear === 'helmet') {
    add(`<path d="M72 118 C68 42 188 42 184 118 L172 118 L172 100 C150 90 106 90 84 100 L84 118 Z" fill="${c(metal)}" stroke="${c(shade(metal, -0.3))}" stroke-width="2"/>`);
    add(`<rect x="124" y="94" width="8" height="34" rx="3" fill="${c(shade(metal, -0.1))}"/>`);
  } else if (f.headwear === 'hat') {
    add(`<path d="M92 74 L98 30 C112 22 144 22 158 30 L164 74 Z" fill="${c(hatColor)}"/>`);
    add(`<rect x="95" y="60" width="66" height="9" fill="${c(shade(hatColor, -0.15))}"/>`);
    add(`<ellipse cx="128" cy="74" rx="78" ry="12" fill="${c(shade(hatColor, 0.05))}"/>`);
  } else if (f.headwear === 'wizard-hat') {
    add(`<path d="M84 74 L136 2 L150 22 L172 74 Z" fill="${c(hatColor)}"/>`);
    add(`<path d="M120 40 L123 47 L130 47 L124 51 L127 58 L120 54 L113 58 L116 51 L110 47 L117 47 Z" fill="${c('#f2d16b')}"/>`);
    add(`<ellipse cx="128" cy="74" rx="72" ry="12" fill="${c(shade(hatColor, 0.05))}"/>`);
  } else if (f.headwear === 'crown') {
    add(`<path d="M88 78 L94 42 L110 62 L128 34 L146 62 L162 42 L168 78 Z" fill="${c('#d4af37')}" stroke="${c('#8a6d16')}" stroke-width="2"/>`);
    add(`<circle cx="128" cy="64" r="5" fill="${c('#b0202e')}"/>`);
  } else if (f.headwear === 'circlet') {
    add(`<path d="M80 94 Q128 80 176 94" fill="none" stroke="${c('#d4af37')}" stroke-width="4"/>`);
    add(`<circle cx="128" cy="86" r="5" fill="${c('#2a8fd4')}" stroke="${c('#d4af37')}" stroke-width="2"/>`);
  }

  // Name plate.
  if (showName) {
    const shown = name.length > 28 ? `${name.slice(0, 27)}…` : name;
    add(`<rect x="28" y="226" width="200" height="24" rx="6" fill="#000000" fill-opacity="0.55"/>`);
    add(`<text x="128" y="243" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif" font-size="14" fill="#ffffff">${escapeXml(shown)}</text>`);
  }

  return svgDocument(name, description, size, out);
}

/** A grey silhouette with a question mark: the portrait when there is nothing (or nothing usable) to draw from. */
function drawPlaceholder(name, description, { size, showName }) {
  const out = [
    '  <rect width="256" height="256" fill="#3b3f45"/>',
    '  <circle cx="128" cy="112" r="108" fill="#474c53"/>',
    '  <path d="M26 256 C30 206 74 186 128 186 C182 186 226 206 230 256 Z" fill="#22252a"/>',
    '  <rect x="110" y="150" width="36" height="44" rx="8" fill="#22252a"/>',
    '  <ellipse cx="128" cy="112" rx="46" ry="56" fill="#22252a"/>',
    '  <text x="128" y="132" text-anchor="middle" font-family="Georgia, serif" font-size="56" fill="#6b717a">?</text>',
  ];
  if (showName) {
    const shown = name.length > 28 ? `${name.slice(0, 27)}…` : name;
    out.push('  <rect x="28" y="226" width="200" height="24" rx="6" fill="#000000" fill-opacity="0.55"/>');
    out.push(`  <text x="128" y="243" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif" font-size="14" fill="#ffffff">${escapeXml(shown)}</text>`);
  }
  return svgDocument(name, description, size, out);
}

function svgDocument(name, description, size, body) {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 256 256" role="img" aria-labelledby="title">`,
    `  <title id="title">Portrait of ${escapeXml(name)}</title>`,
    ...(description ? [`  <desc>${escapeXml(description)}</desc>`] : []),
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

async function main({ request, input }) {
  const name = typeof input.name === 'string' ? cleanText(input.name, MAX_NAME) : '';
  if (name === '') {
    fail('INVALID_INPUT', 'input.name is required: the character\'s name, e.g. {"name":"Mira","description":"red hair, green eyes"}');
    return;
  }

  const config = readConfig({ palette: 'natural', size: 256, showName: true });
  let palette = config.palette;
  if (!PALETTES.includes(palette)) {
    log('warn', `Unknown palette ${JSON.stringify(palette)} in the config; using natural`);
    palette = 'natural';
  }
  if (input.palette !== undefined && input.palette !== null) {
    const wanted = typeof input.palette === 'string' ? input.palette.trim().toLowerCase() : input.palette;
    if (PALETTES.includes(wanted)) palette = wanted;
    else log('warn', `Unknown palette ${JSON.stringify(input.palette)}; using ${palette}. Palettes: ${PALETTES.join(', ')}`);
  }
  let size = config.size;
  if (!Number.isInteger(size) || size < 64 || size > 2048) {
    log('warn', `Invalid size ${JSON.stringify(size)} in the config; using 256`);
    size = 256;
  }
  const showName = config.showName !== false;

  let description = '';
  let placeholderReason;
  if (input.description === undefined || input.description === null) {
    placeholderReason = 'no description';
  } else if (typeof input.description !== 'string') {
    log('warn', `input.description should be a string (got ${Array.isArray(input.description) ? 'an array' : typeof input.description}); drawing a placeholder`);
    placeholderReason = 'unusable description';
  } else {
    description = cleanText(input.description, MAX_DESCRIPTION);
    if (input.description.length > MAX_DESCRIPTION) log('warn', `The description was cut to ${MAX_DESCRIPTION} characters`);
    if (description === '') placeholderReason = 'empty description';
  }

  const slug = slugify(name);
  const seed = `${name}|${description}`;
  let svg;
  let features = {};
  let recognized = [];
  if (placeholderReason === undefined) {
    try {
      ({ features, recognized } = readFeatures(description, seed));
      svg = drawPortrait(name, description, features, { palette, size, showName, seed });
    } catch (error) {
      process.stderr.write(`character-portraits: drawing failed: ${(error && error.stack) || error}\n`);
      log('warn', `Could not draw the portrait (${(error && error.message) || error}); using a placeholder silhouette`);
      placeholderReason = 'generation failed';
      features = {};
      recognized = [];
    }
  }
  const placeholder = placeholderReason !== undefined;
  if (placeholder) svg = drawPlaceholder(name, description, { size, showName });

  // A portrait library is shared by every session (NARRATORIA_SKILL_SHARED): a new play-through draws the same faces.
  const directory = path.join(sharedDirectory(false), 'portraits');
  const file = path.join(directory, `portrait-${slug}.svg`);
  try {
    fs.mkdirSync(directory, { recursive: true });
    writeFileAtomic(file, svg);
  } catch (error) {
    fail('ASSET_WRITE_FAILED', `Could not write the portrait to ${file}: ${(error && error.message) || error}`, { path: file });
    return;
  }

  const assetId = `portrait-${slug}`;
  const metadata = {
    name,
    features,
    placeholder,
    palette,
    ...(placeholder ? { reason: placeholderReason } : { recognized }),
    ...(description ? { description } : {}),
  };
  log('info', placeholder ? `Drew a placeholder portrait of ${name} (${placeholderReason})` : `Drew a portrait of ${name}`, {
    assetId,
    path: file,
    ...(placeholder ? {} : { recognized }),
  });
  emit({ type: 'asset', assetId, kind: 'image', mediaType: 'image/svg+xml', path: file, metadata });
  emit({ type: 'state_patch', patch: { portraits: { [slug]: file } } });
  emit({
    type: 'done',
    ok: true,
    summary: placeholder ? `Placeholder portrait of ${name}` : `Portrait of ${name}`,
    output: { assetId, path: file, name, slug, placeholder, palette, features },
  });
}

runTool({ name: 'character-portraits', example: '{"input":{"name":"Mira","description":"red hair, green eyes"}}', inputExample: '{"name":"Mira","description":"red hair, green eyes"}' }, main);
