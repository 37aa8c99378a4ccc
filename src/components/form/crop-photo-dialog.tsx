/**
 * The photo crop (issue 28): when an image field asks for an exact size (spec §5) and the chosen picture is
 * another, the upload field (upload-field.tsx) opens this dialog instead of only refusing it. The picture lies
 * under a frame of the required aspect ratio; the person moves it (mouse or finger drag, the arrow keys) and
 * zooms it (the slider, its − and + buttons, two fingers, the mouse wheel, the + and − keys) until the frame
 * holds the photo they want. "Use this photo" draws the framed part at exactly the required px (crop-render.ts)
 * and hands the file back, to be checked and uploaded like a chosen file; "Cancel" hands back nothing.
 *
 * The frame's rectangle in the picture's px is the pure geometry of crop-geometry.ts; the stage shows it on its
 * `data-crop` attribute ('x,y,width,height', rounded).
 */
import ZoomInOutlined from '@ant-design/icons/ZoomInOutlined';
import ZoomOutOutlined from '@ant-design/icons/ZoomOutOutlined';
import { Button, Modal, Slider } from 'antd';
import { useEffect, useEffectEvent, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageSize } from '#contract/rules';
import {
  cropRect,
  initialView,
  maxZoom,
  panView,
  pictureLayout,
  zoomView,
  type CropRect,
  type CropView,
} from './crop-geometry';
import './crop-photo-dialog.css';

/** Screen px an arrow key moves the picture (with Shift: four times as far). */
export const KEY_STEP_PX = 10;
/** How much one press of + / − (key or button) zooms. */
export const ZOOM_STEP = 1.25;
/** The free margin around the frame on the stage, in px. */
const STAGE_MARGIN = 24;
/** The stage's size before it is measured (jsdom, the first render). */
const FALLBACK_STAGE = { width: 320, height: 360 };

export interface CropPhotoDialogProps {
  /** The picture to crop: shown from `url` (an object URL of the chosen file), `size` its px the right way up. */
  picture: { url: string; size: ImageSize; name: string } | null;
  /** The required size. */
  target: ImageSize;
  /** Why the picture cannot be taken as it is (the size message), shown above the stage. */
  problem: string;
  /** Draws the framed part; resolves when the cropped file has been handed on. */
  onUse: (rect: CropRect) => Promise<void>;
  onCancel: () => void;
}

export function CropPhotoDialog({ picture, target, problem, onUse, onCancel }: CropPhotoDialogProps) {
  const { t } = useTranslation();
  const image = picture?.size ?? target;
  const [busy, setBusy] = useState(false);
  const hintId = useId();
  const keysId = useId();

  // A new picture starts with the largest frame in its middle (the view is kept with the picture it is of).
  const pictureKey = `${picture?.url ?? ''}|${image.width}x${image.height}|${target.width}x${target.height}`;
  const [held, setHeld] = useState(() => ({ key: pictureKey, view: initialView(image, target) }));
  const view = held.key === pictureKey ? held.view : initialView(image, target);
  const setView = (next: (current: CropView) => CropView) =>
    setHeld((h) => ({ key: pictureKey, view: next(h.key === pictureKey ? h.view : initialView(image, target)) }));

  // ---- The stage: measured, so the frame is as large as the screen allows (360 px phones too).
  // (A node in state: the dialog's content mounts after it opens, in its own portal.)
  const [stageNode, setStageNode] = useState<HTMLDivElement | null>(null);
  const [stage, setStage] = useState(FALLBACK_STAGE);
  useLayoutEffect(() => {
    const node = stageNode;
    if (!node) return;
    const measure = () => {
      const box = node.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) setStage({ width: box.width, height: box.height });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [stageNode]);

  const frame = useMemo(() => {
    const aspect = target.width / target.height;
    let height = Math.max(40, stage.height - 2 * STAGE_MARGIN);
    let width = height * aspect;
    if (width > stage.width - 2 * STAGE_MARGIN) {
      width = Math.max(40, stage.width - 2 * STAGE_MARGIN);
      height = width / aspect;
    }
    return { width, height, left: (stage.width - width) / 2, top: (stage.height - height) / 2 };
  }, [stage, target.width, target.height]);

  const rect = cropRect(view, image, target);
  const layout = pictureLayout(view, frame.width, image, target);
  const highest = maxZoom(image, target);

  const pan = (dx: number, dy: number) => setView((v) => panView(v, dx, dy, frame.width, image, target));
  const zoomTo = (zoom: number) => setView((v) => zoomView(v, zoom, image, target));
  const zoomBy = (factor: number) => setView((v) => zoomView(v, v.zoom * factor, image, target));

  // ---- Dragging: one pointer moves the picture, two pinch it.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const before = pointers.current.get(event.pointerId);
    if (!before) return;
    event.preventDefault();
    const now = { x: event.clientX, y: event.clientY };
    const others = [...pointers.current.entries()].filter(([id]) => id !== event.pointerId);
    pointers.current.set(event.pointerId, now);
    if (others.length === 0) {
      pan(now.x - before.x, now.y - before.y);
      return;
    }
    const other = others[0]![1];
    const apart = Math.hypot(before.x - other.x, before.y - other.y);
    const after = Math.hypot(now.x - other.x, now.y - other.y);
    if (apart > 0 && after > 0) zoomBy(after / apart);
    pan((now.x - before.x) / 2, (now.y - before.y) / 2);
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
  };

  // The wheel zooms (a listener of its own: React's is passive, and the page must not scroll meanwhile).
  const onWheel = useEffectEvent((event: WheelEvent) => {
    event.preventDefault();
    zoomBy(Math.exp(-event.deltaY / 400));
  });
  useEffect(() => {
    if (!stageNode) return;
    const listener = (event: WheelEvent) => onWheel(event);
    stageNode.addEventListener('wheel', listener, { passive: false });
    return () => stageNode.removeEventListener('wheel', listener);
  }, [stageNode]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? KEY_STEP_PX * 4 : KEY_STEP_PX;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (move) pan(move[0], move[1]);
    else if (event.key === '+' || event.key === '=') zoomBy(ZOOM_STEP);
    else if (event.key === '-' || event.key === '_') zoomBy(1 / ZOOM_STEP);
    else return;
    event.preventDefault();
  };

  const use = async () => {
    setBusy(true);
    try {
      await onUse(rect);
    } finally {
      setBusy(false);
    }
  };

  const sizeText = { width: target.width, height: target.height };
  return (
    <Modal
      open={picture !== null}
      title={t('form.upload.crop.title')}
      okText={t('form.upload.crop.use')}
      cancelText={t('form.upload.crop.cancel')}
      onOk={() => void use()}
      onCancel={onCancel}
      okButtonProps={{ loading: busy }}
      cancelButtonProps={{ disabled: busy }}
      mask={{ closable: false }}
      keyboard={!busy}
      centered
      width={560}
      rootClassName="crop-photo"
      destroyOnHidden
    >
      <p className="crop-photo__problem" role="status">
        {problem}
      </p>
      <p className="crop-photo__hint" id={hintId}>
        {t('form.upload.crop.hint', sizeText)}
      </p>
      {/* A 2-D control of its own (role application): dragged, or moved and zoomed by its keys. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={setStageNode}
        className="crop-photo__stage"
        role="application"
        aria-roledescription={t('form.upload.crop.stageRole')}
        aria-label={t('form.upload.crop.stage', sizeText)}
        aria-describedby={`${hintId} ${keysId}`}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the role application is a control
        tabIndex={0}
        data-testid="crop-stage"
        data-crop={[rect.x, rect.y, rect.width, rect.height].map((n) => Math.round(n)).join(',')}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onKeyDown={onKeyDown}
      >
        {picture ? (
          <img
            className="crop-photo__picture"
            src={picture.url}
            alt=""
            draggable={false}
            style={{
              width: image.width * layout.scale,
              height: image.height * layout.scale,
              transform: `translate(${frame.left + layout.left}px, ${frame.top + layout.top}px)`,
            }}
          />
        ) : null}
        <div
          className="crop-photo__frame"
          aria-hidden="true"
          style={{ width: frame.width, height: frame.height, left: frame.left, top: frame.top }}
        >
          <span className="crop-photo__size">{t('form.upload.crop.frameSize', sizeText)}</span>
        </div>
      </div>
      <p className="crop-photo__keys" id={keysId}>
        {t('form.upload.crop.keys')}
      </p>
      <div className="crop-photo__zoom">
        <Button
          type="text"
          shape="circle"
          icon={<ZoomOutOutlined aria-hidden="true" />}
          aria-label={t('form.upload.crop.zoomOut')}
          disabled={view.zoom <= 1}
          onClick={() => zoomBy(1 / ZOOM_STEP)}
        />
        <Slider
          className="crop-photo__slider"
          min={1}
          max={highest}
          step={0.05}
          value={view.zoom}
          onChange={(value: number) => zoomTo(value)}
          tooltip={{ open: false }}
          disabled={highest <= 1}
          ariaLabelForHandle={t('form.upload.crop.zoom')}
          ariaValueTextFormatterForHandle={(value) => `${Math.round((value ?? 1) * 100)}%`}
        />
        <Button
          type="text"
          shape="circle"
          icon={<ZoomInOutlined aria-hidden="true" />}
          aria-label={t('form.upload.crop.zoomIn')}
          disabled={view.zoom >= highest}
          onClick={() => zoomBy(ZOOM_STEP)}
        />
      </div>
    </Modal>
  );
}
