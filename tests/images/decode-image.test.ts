import sharp from 'sharp';
import { decodeImage, IMAGE_LIMITS } from '../../src/domain/images/decode-image';
import { HTML_NAMED_PNG, noisePng, pngDeclaring, solidJpeg, solidPng, SVG } from './fixtures';

describe('the image decoder', () => {
  test('a large PNG is scaled down to fit, and named by the hash of what is stored', async () => {
    const image = await decodeImage(await solidPng(3200, 1600));
    expect(image).toMatchObject({ format: 'png', mediaType: 'image/png', width: 1600, height: 800 });
    expect((await sharp(image.bytes).metadata()).width).toBe(1600);
    expect(image.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await decodeImage(await solidPng(3200, 1600))).hash).toBe(image.hash);
  });

  test("a JPEG's metadata is stripped", async () => {
    const sent = await solidJpeg(120, 80);
    expect((await sharp(sent).metadata()).exif).toBeDefined();
    const image = await decodeImage(sent);
    expect(image).toMatchObject({ format: 'jpeg', width: 120, height: 80 });
    const stored = await sharp(image.bytes).metadata();
    expect(stored.exif).toBeUndefined();
    expect(image.bytes.includes(Buffer.from('Private Person'))).toBe(false);
  });

  test('WebP and GIF are taken; an animated GIF is flattened to its first frame', async () => {
    const webp = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } })
      .webp()
      .toBuffer();
    expect(await decodeImage(webp)).toMatchObject({ format: 'webp', width: 40, height: 30 });
    const frame = (colour: string) =>
      sharp({ create: { width: 20, height: 20, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const gif = await sharp(await Promise.all(['#f0f', '#0ff', '#ff0'].map(frame)), {
      join: { animated: true },
    })
      .gif()
      .toBuffer();
    const read = await sharp(gif).metadata();
    expect(read.pages).toBe(3);
    const image = await decodeImage(gif);
    expect(image).toMatchObject({ format: 'gif', width: 20, height: 20 });
    expect((await sharp(image.bytes).metadata()).pages ?? 1).toBe(1);
  });

  test.each([
    ['an HTML file named .png', HTML_NAMED_PNG, /not a PNG, JPEG, WebP or GIF/],
    ['an SVG', SVG, /SVG is not taken/],
  ])('%s is refused by its content', async (_name, bytes, message) => {
    await expect(decodeImage(bytes)).rejects.toThrow(message);
  });

  test('a tiny PNG declaring 50,000 × 50,000 pixels is refused before it is decoded', async () => {
    const bomb = await pngDeclaring(50_000, 50_000);
    expect(bomb.length).toBeLessThan(200);
    await expect(decodeImage(bomb)).rejects.toThrow(/50000 × 50000 pixels: at most 40 million/);
  });

  test('a picture over 2 MB is refused', async () => {
    const heavy = await noisePng(1000);
    expect(heavy.length).toBeGreaterThan(IMAGE_LIMITS.maxBytes);
    await expect(decodeImage(heavy)).rejects.toThrow(/at most 2\.0 MB/);
  });
});
