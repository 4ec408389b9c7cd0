/**
 * Every uploaded picture is decoded and written again before it is stored: shrunk to what the app shows (a photo
 * fits 512 px, a logo 1024 px; smaller ones keep their size), turned upright by its EXIF orientation, and stripped
 * of its metadata (a phone photo's EXIF carries the GPS position of where it was taken). A file that only starts
 * like an image fails to decode and is refused here, before anything is written. Same format out as in.
 */
import type { ImageKind, PROFILE_IMAGE_FIELDS } from '@harbor/shared';
import sharp, { type Sharp } from 'sharp';
import { invalid } from '../../platform/http/errors.js';

type ImageField = (typeof PROFILE_IMAGE_FIELDS)[number];
interface Picture {
  field: ImageField;
  kind: ImageKind;
  data: Buffer;
}

const BOX: Record<ImageField, number> = { personal_photo: 512, logo: 1024 };
/** Refuses decompression bombs: a small file that would expand to a huge bitmap. */
const MAX_INPUT_PIXELS = 40_000_000;

const encode = (img: Sharp, kind: ImageKind) =>
  ({
    png: () => img.png({ compressionLevel: 9 }),
    jpeg: () => img.jpeg({ quality: 85, mozjpeg: true }),
    gif: () => img.gif(),
    webp: () => img.webp({ quality: 85 }),
  })[kind]();

export async function normalizeImage<T extends Picture>(image: T): Promise<T> {
  const animated = image.kind === 'gif' || image.kind === 'webp';
  const box = BOX[image.field];
  try {
    let img = sharp(image.data, { animated, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    // Orientation lives in EXIF, which only stills carry; rotating a multi-frame image is not supported.
    if (!animated) img = img.rotate();
    img = img.resize({ width: box, height: box, fit: 'inside', withoutEnlargement: true });
    return { ...image, data: await encode(img, image.kind).toBuffer() };
  } catch (err) {
    const tooBig = /pixel limit/i.test((err as Error).message);
    throw invalid(image.field, tooBig ? 'has too many pixels to be a picture' : 'could not be read as an image');
  }
}
