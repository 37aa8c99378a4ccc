/**
 * An upload field (spec §5 "Upload", §4, §9): a picture wall of 148 px cards, one per file, and a card to
 * choose more. A chosen file is checked in this order, each refusal a toast in the visitor's language:
 * - the count: the files already there and those chosen together at most `maxCount` ('文件超出N个限制'; the
 *   whole choice is refused, nothing of it uploads); 0 is no limit;
 * - its type: the extension, case-insensitive, on the kind's list ('文件格式不正确');
 * - its size: at most `maxSize` ('Please upload a file smaller than N unit'); a size of 0 is no limit;
 * - for an image with `imageSize`: exactly that width and height, read from the file itself (the message
 *   names the required and the actual px). A picture of another size, or over `maxSize`, is not only refused
 *   (issue 28, a phone's photo): when the browser can read it, the crop dialog (crop-photo-dialog.tsx) opens,
 *   and the photo cropped there at exactly that size is checked and uploaded like a chosen file; its Cancel
 *   shows the refusal. A phone's HEIC picture is cropped into a JPEG where the browser reads HEIC (Safari),
 *   else refused with a message saying how to send a JPEG;
 * then, with `confirmAuthenticity`, the question '您上传的文件是否保证真实有效？' shows 100 ms after the
 * choice and stays until answered (no cancels that file); then the file uploads at once (images to the
 * user-centre image upload, other files to /api/base/uploadFile), its card showing the progress. A refused
 * upload shows the server's message and leaves a red card to remove. Removing a card asks
 * '此操作将删除该文件, 是否继续?' first.
 *
 * The value (spec §3) is the comma-separated list of the URLs the server answered (data.url) of the files
 * that finished uploading; images are previewed through the file host rules (lib/url.ts). A runner's upload
 * is private (issue 27: the server serves it to its owner's token only, never cached), so its card shows a
 * blob URL: of the chosen file itself, or of its bytes fetched with the token header. In a Form.Item
 * it puts the item's id and aria-describedby on its choose button, so the label names the button and the
 * message is read with it.
 */
import { ConfigProvider, Modal, Upload, type UploadFile, type UploadProps } from 'antd';
import type { RcFile } from 'antd/es/upload';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imageDimensions } from '#contract/image-dimensions';
import type { Refusal } from '#contract/messages';
import {
  checkImageSize,
  checkUploadCount,
  checkUploadExtension,
  checkUploadSize,
  FILE_EXTENSIONS,
  IMAGE_EXTENSIONS,
  type ImageSize,
  type SizeLimit,
} from '#contract/rules';
import { isPrivateUploadUrl, joinUploadValue, splitUploadValue } from '#contract/upload-value';
import { fetchBinary } from '@/lib/api-client';
import { formatFileSize } from '@/lib/file-size';
import { refusalText } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { uploadFile, type UploadKind } from '@/lib/upload-file';
import { resolveFileUrl, resolveImageUrl } from '@/lib/url';
import type { CropRect } from './crop-geometry';
import { CropPhotoDialog } from './crop-photo-dialog';
import { croppedName, decodePicture, renderCrop, type Picture } from './crop-render';
import './upload-field.css';

/** Spec §9: the authenticity question shows this long after the choice. */
export const AUTHENTICITY_DELAY_MS = 100;
/** Spec §9: the default preview card. */
export const PREVIEW_CARD_PX = 148;

const NO_LIMIT: SizeLimit = { size: 0, unit: 'MB' };
const CARD_THEME = { components: { Upload: { pictureCardSize: PREVIEW_CARD_PX } } };

export interface UploadFieldProps {
  /** The comma-separated URLs (spec §3). */
  value?: string;
  onChange?: (value: string) => void;
  kind: UploadKind;
  /** Largest file; a size of 0 is no limit. */
  maxSize?: SizeLimit;
  /** Most files; 0 is no limit. */
  maxCount?: number;
  /** For images: the exact width and height in px. */
  imageSize?: ImageSize;
  /** Ask '您上传的文件是否保证真实有效？' before each upload. */
  confirmAuthenticity?: boolean;
  disabled?: boolean;
  /**
   * From Form.Item: the choose button's id (the label's htmlFor) and the message it is described by. (A
   * button has no aria-invalid or aria-required: the message itself says what is wrong.)
   */
  id?: string;
  'aria-describedby'?: string;
  'aria-labelledby'?: string;
}

interface Question {
  title: string;
  text: string;
  ok: string;
  cancel: string;
  answer: (yes: boolean) => void;
}

type Item = UploadFile<{ url: string }>;

/** A picture waiting in the crop dialog: decoded, shown from its object URL, and why it was not taken. */
interface CropJob {
  file: File;
  picture: Picture;
  url: string;
  problem: string;
  type: 'image/jpeg' | 'image/png';
}

/** A phone's HEIC / HEIF picture (iPhone), by its name. */
const isHeic = (name: string) => /\.hei[cf]$/i.test(name);

/** The name shown for a file known only by its URL: the last path segment. */
const nameOf = (url: string) => decodeURIComponent(url.split(/[?#]/)[0]!.split('/').pop() || url);

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function bytesOf(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return new Uint8Array(await file.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file);
  });
}

export function UploadField({
  value,
  onChange,
  kind,
  maxSize = NO_LIMIT,
  maxCount = 0,
  imageSize,
  confirmAuthenticity = false,
  disabled,
  id,
  'aria-describedby': describedBy,
  'aria-labelledby': labelledBy,
}: UploadFieldProps) {
  const { t } = useTranslation();
  const resolve = kind === 'image' ? resolveImageUrl : resolveFileUrl;
  const allowed: readonly string[] = kind === 'image' ? IMAGE_EXTENSIONS : FILE_EXTENSIONS;

  const itemOf = useCallback(
    (url: string): Item => ({
      uid: `url:${url}`,
      name: nameOf(url),
      status: 'done',
      // A private upload is shown once its bytes are here (`shown`).
      url: isPrivateUploadUrl(url) ? undefined : resolve(url),
      response: { url },
    }),
    [resolve],
  );

  const [items, setItems] = useState<Item[]>(() => splitUploadValue(value).map(itemOf));
  /** The cards as last set (the checks of a choice read them before React renders again). */
  const itemsRef = useRef(items);
  const updateItems = (next: Item[]) => {
    itemsRef.current = next;
    setItems(next);
  };
  /** The value this field last reported, so a value coming back from the form is not read as a new one. */
  const reported = useRef(joinUploadValue(splitUploadValue(value)));
  /** Files chosen and still being checked or asked about (not yet cards). */
  const checking = useRef(0);
  const objectUrls = useRef(new Set<string>());

  // A value set from outside (initial values, a reset): the cards follow it.
  useEffect(() => {
    const urls = splitUploadValue(value);
    const joined = joinUploadValue(urls);
    if (joined === reported.current) return;
    reported.current = joined;
    const known = new Map(itemsRef.current.flatMap((item) => (item.response ? [[item.response.url, item]] : [])));
    const next = urls.map((url) => known.get(url) ?? itemOf(url));
    itemsRef.current = next;
    setItems(next);
  }, [value, itemOf]);

  useEffect(() => {
    const urls = objectUrls.current;
    return () => urls.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  /** Private uploads by their URL: the blob URL their card shows (the chosen file, or the bytes fetched). */
  const [shown, setShown] = useState<ReadonlyMap<string, string>>(() => new Map());
  const loading = useRef(new Set<string>());
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') return;
    for (const item of items) {
      const url = item.response?.url;
      if (item.status !== 'done' || !url || !isPrivateUploadUrl(url) || shown.has(url) || loading.current.has(url))
        continue;
      loading.current.add(url);
      const bytes: Promise<Blob> = item.originFileObj
        ? Promise.resolve(item.originFileObj)
        : fetchBinary({ method: 'GET', url: resolve(url), silent: true }).then((answer) => answer.data);
      bytes
        .then(
          (blob) => {
            const blobUrl = URL.createObjectURL(blob);
            objectUrls.current.add(blobUrl);
            setShown((map) => new Map(map).set(url, blobUrl));
          },
          // Not shown (gone, or the login expired): the card keeps its name.
          () => undefined,
        )
        .finally(() => loading.current.delete(url));
    }
  }, [items, resolve, shown]);

  /** The cards as shown: a private upload with its blob URL once there. */
  const shownItems = useMemo(
    () =>
      items.map((item): Item => {
        const url = item.response?.url;
        const blobUrl = url && isPrivateUploadUrl(url) ? shown.get(url) : undefined;
        return blobUrl ? { ...item, url: blobUrl, thumbUrl: blobUrl } : item;
      }),
    [items, shown],
  );

  const report = (next: Item[]) => {
    const joined = joinUploadValue(
      next.flatMap((item) => (item.status === 'done' && item.response ? [item.response.url] : [])),
    );
    if (joined === reported.current) return;
    reported.current = joined;
    onChange?.(joined);
  };

  // ---- Questions (authenticity, delete), one at a time, each staying until answered.
  const [questions, setQuestions] = useState<Question[]>([]);
  const ask = (question: Omit<Question, 'answer'>) =>
    new Promise<boolean>((answer) => setQuestions((queue) => [...queue, { ...question, answer }]));
  const answer = (yes: boolean) => {
    const [first] = questions;
    if (!first) return;
    setQuestions((queue) => queue.slice(1));
    first.answer(yes);
  };

  const refuse = (refusal: Refusal) => {
    notify.error(refusalText(refusal));
    return Upload.LIST_IGNORE;
  };

  /** The count verdict of each choice (rc-upload hands every file of one choice the same array). */
  const countVerdicts = useRef(new WeakMap<readonly File[], Refusal | null>());

  // ---- The crop dialog (issue 28): one picture at a time, the others of a choice waiting their turn.
  const [crops, setCrops] = useState<CropJob[]>([]);
  const crop = crops[0];
  const endCrop = (job: CropJob) => {
    URL.revokeObjectURL(job.url);
    job.picture.bitmap.close();
    setCrops((queue) => queue.filter((other) => other !== job));
  };

  /**
   * Offers the crop for a picture that is not the required size (`problem` says why): true when the browser
   * read it and the dialog will show it; false when it cannot read it (the caller refuses the file).
   */
  const offerCrop = async (file: File, problem: Refusal | null): Promise<boolean> => {
    if (!imageSize || typeof URL.createObjectURL !== 'function') return false;
    const picture = await decodePicture(file);
    if (!picture) return false;
    const why = problem ?? checkImageSize(picture, imageSize) ?? { code: 'badFileType' as const };
    const job: CropJob = {
      file,
      picture,
      url: URL.createObjectURL(file),
      problem: refusalText(why),
      type: /\.png$/i.test(file.name) ? 'image/png' : 'image/jpeg',
    };
    setCrops((queue) => [...queue, job]);
    return true;
  };

  /** The checks of a chosen file, in the spec's order: true to upload it, LIST_IGNORE when refused. */
  const check = async (file: File, batch: readonly File[]): Promise<boolean | string> => {
    const chosenAt = Date.now();
    // The count is of the whole choice, decided once: the cards there, the files still being checked, and
    // every file chosen now. Over the limit, nothing of the choice uploads (one message).
    let count = countVerdicts.current.get(batch);
    if (count === undefined) {
      const occupied = itemsRef.current.filter((item) => item.status !== 'error').length + checking.current;
      count = checkUploadCount(occupied + batch.length, maxCount);
      countVerdicts.current.set(batch, count);
      if (count) refuse(count);
    }
    if (count) return Upload.LIST_IGNORE;
    checking.current += 1;
    try {
      if (kind === 'image' && isHeic(file.name)) {
        // Not on the list, but where the browser reads it, the crop turns it into a JPEG of the right size.
        if (await offerCrop(file, null)) return Upload.LIST_IGNORE;
        notify.error(t('form.upload.heic'), 8);
        return Upload.LIST_IGNORE;
      }
      const extension = checkUploadExtension(file.name, allowed);
      if (extension) return refuse(extension);
      const size = checkUploadSize(file.size, maxSize);
      if (kind === 'image' && imageSize) {
        const actual = imageDimensions(await bytesOf(file));
        if (!actual) return refuse({ code: 'badFileType' });
        // Too large or not the required px: cropped at exactly that size, where the browser can.
        const problem = size ?? checkImageSize(actual, imageSize);
        if (problem) return (await offerCrop(file, problem)) ? Upload.LIST_IGNORE : refuse(problem);
      } else if (size) return refuse(size);
      if (confirmAuthenticity) {
        await wait(chosenAt + AUTHENTICITY_DELAY_MS - Date.now());
        const yes = await ask({
          title: t('form.upload.authenticityTitle'),
          text: t('form.upload.authenticity'),
          ok: t('form.upload.yes'),
          cancel: t('form.upload.no'),
        });
        if (!yes) return Upload.LIST_IGNORE;
      }
      return true;
    } finally {
      checking.current -= 1;
    }
  };

  const beforeUpload = (file: File, batch: File[]) => check(file, batch);

  /** Uploads a file, reporting its progress; the same call for a chosen file and a cropped photo. */
  const send = (
    file: File,
    on: { progress: (percent: number) => void; success: (answer: { url: string }) => void; error: (e: Error) => void },
  ) => {
    const controller = new AbortController();
    uploadFile(file, kind, { signal: controller.signal, onProgress: on.progress }).then(on.success, (error: unknown) =>
      on.error(error instanceof Error ? error : new Error(String(error))),
    );
    return controller;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onProgress, onSuccess, onError }) => {
    const controller = send(file as File, {
      progress: (percent) => onProgress?.({ percent }),
      success: (answer) => onSuccess?.(answer),
      error: (error) => onError?.(error),
    });
    return { abort: () => controller.abort() };
  };

  /** A card as it shows once its upload is done: a public file by its URL (a private one by `shown`). */
  const settled = (item: Item): Item => {
    if (item.status !== 'done' || !item.response?.url || item.url) return item;
    // A private upload keeps its local preview until `shown` has its blob URL.
    if (isPrivateUploadUrl(item.response.url)) return item;
    if (item.thumbUrl?.startsWith('blob:')) {
      URL.revokeObjectURL(item.thumbUrl);
      objectUrls.current.delete(item.thumbUrl);
    }
    const url = resolve(item.response.url);
    return { ...item, url, thumbUrl: url };
  };

  const croppedCount = useRef(0);
  /** The cropped photo: the same checks as a chosen file (a choice of one), then a card of its own, uploading. */
  const takeCropped = async (file: File) => {
    if ((await check(file, [file])) !== true) return;
    croppedCount.current += 1;
    const uid = `crop-${Date.now()}-${croppedCount.current}`;
    const origin = Object.assign(file, { uid }) as RcFile;
    const patch = (change: Partial<Item>, finished = false) => {
      const next = itemsRef.current.map((item) => (item.uid === uid ? settled({ ...item, ...change }) : item));
      if (!next.some((item) => item.uid === uid)) return; // removed meanwhile
      updateItems(next);
      if (finished) report(next);
    };
    updateItems([
      ...itemsRef.current,
      {
        uid,
        name: file.name,
        size: file.size,
        type: file.type,
        status: 'uploading',
        percent: 0,
        originFileObj: origin,
      },
    ]);
    send(file, {
      progress: (percent) => patch({ percent }),
      success: (answer) => patch({ status: 'done', percent: 100, response: answer }, true),
      error: (error) => patch({ status: 'error', error }),
    });
  };

  const applyCrop = async (job: CropJob, rect: CropRect) => {
    if (!imageSize) return;
    let cropped: File;
    try {
      const blob = await renderCrop(job.picture, rect, imageSize, job.type);
      cropped = new File([blob], croppedName(job.file.name, imageSize, job.type), { type: job.type });
    } catch {
      notify.error(t('form.upload.crop.failed'));
      return;
    }
    endCrop(job);
    await takeCropped(cropped);
  };

  const cancelCrop = (job: CropJob) => {
    endCrop(job);
    notify.error(job.problem);
  };

  const previewFile = async (file: File | Blob) => {
    if (typeof URL.createObjectURL !== 'function') return '';
    const url = URL.createObjectURL(file);
    objectUrls.current.add(url);
    return url;
  };

  const onUploadChange: UploadProps<{ url: string }>['onChange'] = ({ file, fileList }) => {
    const next = fileList.map(settled);
    updateItems(next);
    if (file.status === 'done' || file.status === 'removed') report(next);
  };

  const onRemove = () =>
    ask({
      title: t('form.upload.deleteTitle'),
      text: t('form.upload.deleteConfirm'),
      ok: t('form.upload.deleteOk'),
      cancel: t('form.upload.deleteCancel'),
    });

  const wrapper = useRef<HTMLDivElement>(null);
  const openChooser = () => wrapper.current?.querySelector<HTMLInputElement>('input[type="file"]')?.click();

  const limitsId = id ? `${id}_limits` : undefined;
  // Named by the field's label and its own visible text (WCAG 2.5.3: the name contains what is seen).
  const textId = id ? `${id}_text` : undefined;
  const limits = useMemo(
    () =>
      [
        t('form.upload.limitTypes', { types: allowed.join(', ') }),
        maxSize.size > 0 && t('form.upload.limitSize', { size: maxSize.size, unit: maxSize.unit }),
        maxCount > 0 && t('form.upload.limitCount', { count: maxCount }),
        kind === 'image' &&
          imageSize &&
          t('form.upload.limitImageSize', { width: imageSize.width, height: imageSize.height }),
      ].filter(Boolean) as string[],
    [t, allowed, maxSize, maxCount, kind, imageSize],
  );

  const itemRender: UploadProps<{ url: string }>['itemRender'] = (node, file) =>
    file.size ? (
      <div className="upload-field__item">
        {node}
        <span className="upload-field__size">{formatFileSize(file.size)}</span>
      </div>
    ) : (
      node
    );

  const question = questions[0];
  const label = t(kind === 'image' ? 'form.upload.chooseImage' : 'form.upload.chooseFile');
  return (
    <div className="upload-field" ref={wrapper}>
      <ConfigProvider theme={CARD_THEME}>
        <Upload<{ url: string }>
          listType="picture-card"
          fileList={shownItems}
          multiple={maxCount !== 1}
          disabled={disabled}
          openFileDialogOnClick={false}
          beforeUpload={beforeUpload}
          customRequest={customRequest}
          previewFile={previewFile}
          onChange={onUploadChange}
          onRemove={onRemove}
          itemRender={itemRender}
        >
          <button
            type="button"
            id={id}
            className="upload-field__choose"
            disabled={disabled}
            onClick={openChooser}
            aria-describedby={[describedBy, limitsId].filter(Boolean).join(' ') || undefined}
            aria-labelledby={labelledBy && textId ? `${labelledBy} ${textId}` : labelledBy}
          >
            <span className="upload-field__plus" aria-hidden="true">
              +
            </span>
            <span id={textId}>{label}</span>
          </button>
        </Upload>
      </ConfigProvider>
      <p className="upload-field__limits" id={limitsId}>
        {limits.join(t('form.upload.limitSeparator'))}
      </p>
      <Modal
        open={question !== undefined}
        title={question?.title}
        okText={question?.ok}
        cancelText={question?.cancel}
        onOk={() => answer(true)}
        onCancel={() => answer(false)}
        closable={false}
        mask={{ closable: false }}
        centered
        rootClassName="upload-field__question"
      >
        <p>{question?.text}</p>
      </Modal>
      {imageSize ? (
        <CropPhotoDialog
          picture={crop ? { url: crop.url, size: crop.picture, name: crop.file.name } : null}
          target={imageSize}
          problem={crop?.problem ?? ''}
          onUse={(rect) => (crop ? applyCrop(crop, rect) : Promise.resolve())}
          onCancel={() => crop && cancelCrop(crop)}
        />
      ) : null}
    </div>
  );
}
