import {
  clampView,
  cropRect,
  downscaleSteps,
  fullFrame,
  initialView,
  maxZoom,
  panView,
  pictureLayout,
  zoomView,
} from './crop-geometry';
import { croppedName } from './crop-render';

const PHOTO = { width: 358, height: 441 };
/** A landscape picture (a phone held sideways, or a camera's 4:3). */
const WIDE = { width: 1200, height: 900 };
/** A tall one (a phone held upright). */
const TALL = { width: 3000, height: 4000 };

const aspect = (r: { width: number; height: number }) => r.width / r.height;
const inside = (r: { x: number; y: number; width: number; height: number }, image: typeof WIDE) =>
  r.x >= -1e-9 && r.y >= -1e-9 && r.x + r.width <= image.width + 1e-9 && r.y + r.height <= image.height + 1e-9;

describe('the crop geometry', () => {
  it('starts with the largest frame of the required aspect ratio, in the middle of the picture', () => {
    const rect = cropRect(initialView(WIDE, PHOTO), WIDE, PHOTO);
    expect(rect.height).toBe(900);
    expect(rect.width).toBeCloseTo((900 * 358) / 441, 9);
    expect(rect.x).toBeCloseTo((1200 - rect.width) / 2, 9);
    expect(rect.y).toBe(0);
    expect(aspect(rect)).toBeCloseTo(aspect(PHOTO), 12);
    // Upright: the frame takes the whole width.
    const tall = cropRect(initialView(TALL, PHOTO), TALL, PHOTO);
    expect(tall.width).toBe(3000);
    expect(tall.y).toBeCloseTo((4000 - tall.height) / 2, 9);
    expect(fullFrame(PHOTO, PHOTO)).toEqual(PHOTO);
  });

  it('moves the frame against the drag, by the picture px the screen px show, and never past an edge', () => {
    const start = initialView(WIDE, PHOTO);
    const before = cropRect(start, WIDE, PHOTO);
    // The frame is shown 200 px wide: one screen px is before.width / 200 picture px.
    const dragged = panView(start, 20, 0, 200, WIDE, PHOTO);
    const after = cropRect(dragged, WIDE, PHOTO);
    expect(after.x).toBeCloseTo(before.x - (20 * before.width) / 200, 9);
    expect(after.width).toBeCloseTo(before.width, 9);
    // Dragged far to the right: the frame stops at the picture's left edge; up or down it cannot move at zoom 1.
    const far = cropRect(panView(start, 5000, 300, 200, WIDE, PHOTO), WIDE, PHOTO);
    expect(far.x).toBe(0);
    expect(far.y).toBe(0);
    const other = cropRect(panView(start, -5000, -300, 200, WIDE, PHOTO), WIDE, PHOTO);
    expect(other.x + other.width).toBeCloseTo(1200, 9);
  });

  it('zooms around the centre, shrinking the frame, up to where the photo would be blown up twice', () => {
    const start = initialView(WIDE, PHOTO);
    const zoomed = zoomView(start, 2, WIDE, PHOTO);
    const rect = cropRect(zoomed, WIDE, PHOTO);
    expect(rect.width).toBeCloseTo(cropRect(start, WIDE, PHOTO).width / 2, 9);
    expect(rect.x + rect.width / 2).toBeCloseTo(600, 9);
    expect(rect.y + rect.height / 2).toBeCloseTo(450, 9);
    // The most: the frame 179 px wide (half of 358).
    expect(maxZoom(WIDE, PHOTO)).toBeCloseTo((900 * 358) / 441 / 179, 9);
    const most = cropRect(zoomView(start, 100, WIDE, PHOTO), WIDE, PHOTO);
    expect(most.width).toBeCloseTo(179, 9);
    // Never below 1, and a picture smaller than the photo cannot zoom at all.
    expect(zoomView(start, 0.2, WIDE, PHOTO).zoom).toBe(1);
    expect(maxZoom({ width: 150, height: 150 }, PHOTO)).toBe(1);
    // A huge picture stops at MAX_ZOOM.
    expect(maxZoom({ width: 40_000, height: 30_000 }, PHOTO)).toBe(8);
  });

  it('keeps the frame inside the picture when zooming out near an edge, and whatever the view asks', () => {
    const start = initialView(WIDE, PHOTO);
    const corner = panView(zoomView(start, 3, WIDE, PHOTO), 10_000, 10_000, 200, WIDE, PHOTO);
    expect(cropRect(corner, WIDE, PHOTO)).toMatchObject({ x: 0, y: 0 });
    const out = cropRect(zoomView(corner, 1, WIDE, PHOTO), WIDE, PHOTO);
    expect(inside(out, WIDE)).toBe(true);
    for (const view of [
      { zoom: Number.NaN, centerX: -50, centerY: 99_999 },
      { zoom: 50, centerX: 1e9, centerY: -1e9 },
      { zoom: 1.37, centerX: 3, centerY: 4 },
    ]) {
      const rect = cropRect(view, WIDE, PHOTO);
      expect(inside(rect, WIDE)).toBe(true);
      expect(aspect(rect)).toBeCloseTo(aspect(PHOTO), 9);
      expect(clampView(clampView(view, WIDE, PHOTO), WIDE, PHOTO)).toEqual(clampView(view, WIDE, PHOTO));
    }
  });

  it('draws the picture so that the framed part fills the frame exactly', () => {
    const view = panView(zoomView(initialView(WIDE, PHOTO), 1.5, WIDE, PHOTO), -30, 12, 240, WIDE, PHOTO);
    const rect = cropRect(view, WIDE, PHOTO);
    const { scale, left, top } = pictureLayout(view, 240, WIDE, PHOTO);
    expect(rect.width * scale).toBeCloseTo(240, 9);
    expect(left + rect.x * scale).toBeCloseTo(0, 9);
    expect(top + rect.y * scale).toBeCloseTo(0, 9);
  });

  it('reduces a large crop in halving steps down to exactly the required width', () => {
    expect(downscaleSteps(2436, 358)).toEqual([1218, 609, 358]);
    expect(downscaleSteps(700, 358)).toEqual([358]);
    expect(downscaleSteps(179, 358)).toEqual([358]);
    expect(downscaleSteps(716, 358)).toEqual([358]);
  });

  it('names the cropped photo after the picture, its size and its type', () => {
    expect(croppedName('IMG_1234.HEIC', PHOTO, 'image/jpeg')).toBe('IMG_1234-358x441.jpg');
    expect(croppedName('me.png', PHOTO, 'image/png')).toBe('me-358x441.png');
    expect(croppedName('.jpg', PHOTO, 'image/jpeg')).toBe('photo-358x441.jpg');
  });
});
