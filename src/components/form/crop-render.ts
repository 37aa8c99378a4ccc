/**
 * The browser's half of the photo crop (crop-photo-dialog.tsx): decoding a chosen picture and drawing the
 * cropped part at exactly the required px. The geometry is in crop-geometry.ts.
 *
 * A phone's picture: its EXIF orientation is applied when it is decoded (createImageBitmap with
 * imageOrientation 'from-image', as an <img> shows it), so the frame the person sees is the photo they get; a
 * 4000 × 3000 picture is reduced in halving steps (crop-geometry downscaleSteps) for a sharp small photo; a
 * picture the browser cannot decode (HEIC outside Safari) is refused by the caller with a clear message.
 */
import { downscaleSteps, type CropRect } from './crop-geometry';
import type { ImageSize } from '#contract/rules';

/** A decoded picture, the right way up. */
export interface Picture {
  bitmap: ImageBitmap;
  width: number;
  height: number;
}

/** Whether this browser can crop at all (decode to a bitmap, draw on a canvas, encode the result). */
export function canCrop(): boolean {
  return typeof createImageBitmap === 'function' && typeof HTMLCanvasElement !== 'undefined';
}

/** The picture decoded the right way up, or null when the browser cannot read it (e.g. HEIC in Chrome). */
export async function decodePicture(file: Blob): Promise<Picture | null> {
  if (!canCrop()) return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch (error) {
    // An older engine that knows only 'none' / 'flipY' (it applies the EXIF orientation by default).
    if (!(error instanceof TypeError)) return null;
    try {
      bitmap = await createImageBitmap(file);
    } catch {
      return null;
    }
  }
  if (bitmap.width <= 0 || bitmap.height <= 0) {
    bitmap.close();
    return null;
  }
  return { bitmap, width: bitmap.width, height: bitmap.height };
}

function canvasOf(width: number, height: number): { canvas: HTMLCanvasElement; context: CanvasRenderingContext2D } {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  return { canvas, context };
}

/**
 * The part `rect` of the picture drawn at exactly `target` px and encoded as `type` (a JPEG on white, as a
 * transparent PNG would turn black in one; a PNG as it is).
 */
export async function renderCrop(
  picture: Picture,
  rect: CropRect,
  target: ImageSize,
  type: 'image/jpeg' | 'image/png',
): Promise<Blob> {
  const steps = downscaleSteps(rect.width, target.width);
  let source: CanvasImageSource = picture.bitmap;
  let from: CropRect = rect;
  for (const [index, width] of steps.entries()) {
    const last = index === steps.length - 1;
    const size = last ? target : { width, height: (width * rect.height) / rect.width };
    const { canvas, context } = canvasOf(size.width, size.height);
    if (last && type === 'image/jpeg') {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
    }
    context.drawImage(source, from.x, from.y, from.width, from.height, 0, 0, canvas.width, canvas.height);
    source = canvas;
    from = { x: 0, y: 0, width: canvas.width, height: canvas.height };
  }
  const canvas = source as HTMLCanvasElement;
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the crop could not be encoded'))),
      type,
      type === 'image/jpeg' ? 0.92 : undefined,
    ),
  );
}

/** The cropped photo's file name: the picture's name with the size and the new type ('IMG_1234-358x441.jpg'). */
export function croppedName(original: string, target: ImageSize, type: 'image/jpeg' | 'image/png'): string {
  const base = original.replace(/\.[^./\\]*$/, '') || 'photo';
  return `${base}-${target.width}x${target.height}.${type === 'image/png' ? 'png' : 'jpg'}`;
}
