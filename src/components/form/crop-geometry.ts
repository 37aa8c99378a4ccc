/**
 * The geometry of the photo crop (crop-photo-dialog.tsx), pure so it is tested without a canvas: which part of
 * a picture, in the picture's own px, becomes the photo of the exact size an image field asks for (spec §5
 * "Image size: exact required width and height").
 *
 * The crop frame keeps the required aspect ratio. At zoom 1 it is the largest such rectangle inside the picture;
 * zooming in shrinks it around its centre; moving the picture under the frame moves that centre. The rectangle
 * always stays inside the picture (never a blank edge in the photo), and zooming stops where the photo would be
 * blown up more than MAX_UPSCALE times.
 */
import type { ImageSize } from '#contract/rules';

/** Where the frame is: its zoom (1 = the largest frame that fits) and its centre, in the picture's px. */
export interface CropView {
  zoom: number;
  centerX: number;
  centerY: number;
}

/** A rectangle in the picture's px. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The most the crop may blow the picture up (a frame narrower than half the required width is not offered). */
export const MAX_UPSCALE = 2;
/** However large the picture, zooming stops here (a face still recognisable in a group picture). */
export const MAX_ZOOM = 8;

/** The largest rectangle of the target's aspect ratio inside the picture (the frame at zoom 1). */
export function fullFrame(image: ImageSize, target: ImageSize): { width: number; height: number } {
  const aspect = target.width / target.height;
  return image.width / image.height > aspect
    ? { width: image.height * aspect, height: image.height }
    : { width: image.width, height: image.width / aspect };
}

/** The largest zoom: the frame no narrower than the target's width / MAX_UPSCALE, and at most MAX_ZOOM. */
export function maxZoom(image: ImageSize, target: ImageSize): number {
  const full = fullFrame(image, target).width;
  return Math.min(MAX_ZOOM, Math.max(1, (full * MAX_UPSCALE) / target.width));
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The view made valid: the zoom within [1, maxZoom], the centre where the frame stays inside the picture. */
export function clampView(view: CropView, image: ImageSize, target: ImageSize): CropView {
  const zoom = clamp(Number.isFinite(view.zoom) ? view.zoom : 1, 1, maxZoom(image, target));
  const full = fullFrame(image, target);
  const halfWidth = full.width / zoom / 2;
  const halfHeight = full.height / zoom / 2;
  return {
    zoom,
    centerX: clamp(view.centerX, halfWidth, image.width - halfWidth),
    centerY: clamp(view.centerY, halfHeight, image.height - halfHeight),
  };
}

/** The first view: the largest frame, in the middle of the picture. */
export function initialView(image: ImageSize, target: ImageSize): CropView {
  return clampView({ zoom: 1, centerX: image.width / 2, centerY: image.height / 2 }, image, target);
}

/** The part of the picture the view crops, in the picture's px (inside the picture, the target's aspect). */
export function cropRect(view: CropView, image: ImageSize, target: ImageSize): CropRect {
  const valid = clampView(view, image, target);
  const full = fullFrame(image, target);
  const width = full.width / valid.zoom;
  const height = full.height / valid.zoom;
  return { x: valid.centerX - width / 2, y: valid.centerY - height / 2, width, height };
}

/**
 * The picture dragged by (dx, dy) screen px under a frame shown `frameWidth` px wide: the picture follows the
 * finger, so the frame's centre moves the other way, by as many picture px as those screen px show.
 */
export function panView(
  view: CropView,
  dx: number,
  dy: number,
  frameWidth: number,
  image: ImageSize,
  target: ImageSize,
): CropView {
  if (frameWidth <= 0) return clampView(view, image, target);
  const perScreenPx = cropRect(view, image, target).width / frameWidth;
  return clampView(
    { zoom: view.zoom, centerX: view.centerX - dx * perScreenPx, centerY: view.centerY - dy * perScreenPx },
    image,
    target,
  );
}

/** The view at another zoom, around the same centre (then kept inside the picture). */
export function zoomView(view: CropView, zoom: number, image: ImageSize, target: ImageSize): CropView {
  return clampView({ ...view, zoom }, image, target);
}

/**
 * How the picture is drawn under a frame shown `frameWidth` px wide: its scale (screen px per picture px) and
 * the offset of its top-left corner from the frame's top-left corner, in screen px.
 */
export function pictureLayout(
  view: CropView,
  frameWidth: number,
  image: ImageSize,
  target: ImageSize,
): { scale: number; left: number; top: number } {
  const rect = cropRect(view, image, target);
  const scale = frameWidth / rect.width;
  return { scale, left: -rect.x * scale, top: -rect.y * scale };
}

/**
 * The sizes to draw a `from`-wide crop through on its way to `to` px wide: halving while more than twice the
 * target, so a 4000 px picture is not squeezed to 358 px in one step (which drops detail and shimmers). The last
 * entry is always `to`.
 */
export function downscaleSteps(from: number, to: number): number[] {
  const steps: number[] = [];
  let width = from;
  while (width / 2 > to * 1.0001 && steps.length < 16) {
    width /= 2;
    steps.push(width);
  }
  steps.push(to);
  return steps;
}
