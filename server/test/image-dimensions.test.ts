import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageDimensions } from '#contract/image-dimensions';
import { FIXTURES } from './helpers.ts';

/**
 * Real images: PNG, JPEG and WEBP encoded by Chromium's canvas (WEBP as written, with an ICC profile in a
 * VP8X file, and reduced to a bare VP8 / VP8L file), GIF and BMP written by hand, JPEGs with an EXIF block
 * before the frame header. Each file's name starts with the size Chromium shows it at (checked when they were made).
 */
const IMAGES = path.join(FIXTURES, 'images');
const read = (name: string) => new Uint8Array(readFileSync(path.join(IMAGES, name)));

describe('imageDimensions', () => {
  it.each(readdirSync(IMAGES))('reads %s at the size a browser shows it', (name) => {
    const [, width, height] = /^(\d+)x(\d+)/.exec(name)!;
    expect(imageDimensions(read(name))).toEqual({ width: Number(width), height: Number(height) });
  });

  it('turns a JPEG a quarter when its EXIF orientation says so (big- and little-endian EXIF)', () => {
    expect(imageDimensions(read('5x4.jpg'))).toEqual({ width: 5, height: 4 });
    expect(imageDimensions(read('4x5-exif-rotated.jpg'))).toEqual({ width: 4, height: 5 });
    expect(imageDimensions(read('4x5-exif-rotated-le.jpg'))).toEqual({ width: 4, height: 5 });
  });

  it('answers null for bytes that are not one of the image types, or are cut short', () => {
    expect(imageDimensions(new Uint8Array())).toBeNull();
    expect(imageDimensions(new TextEncoder().encode('%PDF-1.7 not an image'))).toBeNull();
    expect(imageDimensions(new TextEncoder().encode('<svg width="3" height="2"/>'))).toBeNull();
    for (const name of ['3x2.png', '5x4.jpg', '4x3.gif', '5x2.bmp', '7x3-simple.webp', '9x2-alpha.webp']) {
      expect(imageDimensions(read(name).subarray(0, 9)), name).toBeNull();
    }
    // A JPEG whose scan starts before any frame header.
    expect(imageDimensions(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]))).toBeNull();
  });
});
