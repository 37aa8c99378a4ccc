import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'antd';
import i18n from 'i18next';
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { imageDimensions } from '#contract/image-dimensions';
import { initI18n } from '@/app/i18n';
import { AntdScope } from '@/components/ui/antd-scope';
import { api } from '@/testing/mocks/base-url';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { fetchedUploads, receivedUploads } from '@/testing/mocks/handlers/uploads';
import { server } from '@/testing/mocks/server';
import { useAppStore, type Language } from '@/stores/app-store';
import { pngOf } from '../../../server/test/png';
import { AUTHENTICITY_DELAY_MS, UploadField, type UploadFieldProps } from './upload-field';

/** Real tiny images (server/test/fixtures/images): each name starts with its width x height. */
const IMAGES = path.resolve(import.meta.dirname, '../../../server/test/fixtures/images');
const image = (fixture: string, name = fixture) =>
  new File([readFileSync(path.join(IMAGES, fixture))], name, {
    type: name.toLowerCase().endsWith('.png') ? 'image/png' : 'image/jpeg',
  });
const bytes = (name: string, size: number, type = 'application/pdf') =>
  new File([new Uint8Array(size)], name, { type });

/** What a visitor reads, per language. */
const TEXT = {
  zh: {
    badFileType: '文件格式不正确',
    fileTooBig: '请上传小于 1 KB 的文件',
    tooManyFiles: '文件超出2个限制',
    imageSize: '图片尺寸不符合标准：要求 3 × 2 px，当前为 5 × 4 px',
    authenticity: '您上传的文件是否保证真实有效？',
    yes: '是',
    no: '否',
    deleteConfirm: '此操作将删除该文件, 是否继续?',
    ok: '确定',
    cancel: '取消',
    quota: '今日上传已达上限，请明天再试',
    chooseImage: '上传图片',
    chooseFile: '上传文件',
    cropTitle: '裁剪照片',
    cropHint: '拖动和缩放，使照片符合 358 × 441 像素',
    cropProblem: '图片尺寸不符合标准：要求 358 × 441 px，当前为 1200 × 900 px',
    cropUse: '使用此照片',
    zoomIn: '放大',
    zoomOut: '缩小',
    zoom: '缩放',
    heic: '无法读取 HEIC 格式的照片',
    limits: '格式：jpg, jpeg, png, gif, bmp, webp；单个文件不超过 2 MB；最多 3 个文件；图片尺寸 3 × 2 px',
    oneFile: '最多 1 个文件',
  },
  en: {
    badFileType: 'The file format is incorrect',
    fileTooBig: 'Please upload a file smaller than 1 KB',
    tooManyFiles: 'The files exceed the limit of 2',
    imageSize: 'The image size does not meet the standard: 3 × 2 px required, 5 × 4 px given',
    authenticity: 'Do you guarantee that the uploaded file is genuine and valid?',
    yes: 'Yes',
    no: 'No',
    deleteConfirm: 'This will delete the file. Continue?',
    ok: 'OK',
    cancel: 'Cancel',
    quota: 'Daily upload limit reached, please try again tomorrow',
    chooseImage: 'Upload image',
    chooseFile: 'Upload file',
    cropTitle: 'Crop photo',
    cropHint: 'Drag and zoom to fit 358 × 441 px',
    cropProblem: 'The image size does not meet the standard: 358 × 441 px required, 1200 × 900 px given',
    cropUse: 'Use this photo',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    zoom: 'Zoom',
    heic: 'HEIC photos cannot be read here',
    limits: 'Formats: jpg, jpeg, png, gif, bmp, webp; Each file up to 2 MB; Up to 3 files; Image size 3 × 2 px',
    oneFile: 'One file only',
  },
} as const;

/** The field in a Form (label, id and aria wiring of Form.Item), in a language, as the demo runner. */
async function renderField(
  language: Language,
  props: Partial<UploadFieldProps> = {},
  options: { initial?: string; user?: Parameters<typeof userEvent.setup>[0] } = {},
) {
  await initI18n(language);
  await i18n.changeLanguage(language);
  useAppStore.getState().setLanguageState(language);
  useAppStore.setState({ token: VALID_TOKEN });
  const changes: string[] = [];
  const submitted: Record<string, unknown>[] = [];
  const view = render(
    <AntdScope>
      <Form
        name="probe"
        layout="vertical"
        initialValues={{ photos: options.initial }}
        onFinish={(values: Record<string, unknown>) => submitted.push(values)}
      >
        <Form.Item name="photos" label="Photos">
          <UploadField kind="file" onChange={(value) => changes.push(value)} {...props} />
        </Form.Item>
        <button type="submit">go</button>
      </Form>
    </AntdScope>,
  );
  const input = () => view.container.querySelector<HTMLInputElement>('input[type="file"]')!;
  const user = userEvent.setup(options.user);
  return { user, changes, submitted, input, view };
}

/** The cards of the picture wall (not the choose card). */
/** A button by its text; antd writes two Chinese characters with a space between them ('取 消'). */
const byText = (label: string) => ({ name: (name: string) => name.replace(/\s/g, '') === label.replace(/\s/g, '') });

const cards = () => [...document.querySelectorAll('.ant-upload-list-item')] as HTMLElement[];

/** jsdom has no object URLs: numbered stand-ins. */
const realCreateObjectURL = URL.createObjectURL;
const realRevokeObjectURL = URL.revokeObjectURL;
beforeEach(() => {
  receivedUploads.length = 0;
  fetchedUploads.length = 0;
  let made = 0;
  URL.createObjectURL = () => `blob:local-${++made}`;
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  vi.useRealTimers();
  delete (window as { createImageBitmap?: unknown }).createImageBitmap;
  useAppStore.setState({ token: null });
  URL.createObjectURL = realCreateObjectURL;
  URL.revokeObjectURL = realRevokeObjectURL;
});

/**
 * jsdom decodes no image: createImageBitmap as a browser answers it, from the picture's own header (a picture it
 * cannot read, e.g. HEIC in Chrome, rejects as Chrome does).
 */
function decodeLikeABrowser() {
  window.createImageBitmap = (async (blob: Blob) => {
    const data = await new Promise<ArrayBuffer>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.readAsArrayBuffer(blob);
    });
    const size = imageDimensions(new Uint8Array(data));
    if (!size) throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
    return { ...size, close: () => undefined };
  }) as unknown as typeof createImageBitmap;
}

/** A 1200 × 900 picture, as a phone takes it (the ID photo wants 358 × 441). */
const landscape = () => new File([new Uint8Array(pngOf(1200, 900))], 'IMG_2027.png', { type: 'image/png' });
const cropOf = () => screen.getByRole('application').getAttribute('data-crop')!.split(',').map(Number);

describe.each(['zh', 'en'] as const)('the upload field in %s', (language) => {
  const text = TEXT[language];

  it('offers a picture of another size the crop: move and zoom by keys and buttons; Cancel shows the size message', async () => {
    decodeLikeABrowser();
    const { user, input, changes } = await renderField(language, {
      kind: 'image',
      maxCount: 1,
      maxSize: { size: 2, unit: 'MB' },
      imageSize: { width: 358, height: 441 },
    });
    await user.upload(input(), landscape());
    const dialog = await screen.findByRole('dialog', { name: text.cropTitle });
    expect(within(dialog).getByText(text.cropProblem)).toBeInTheDocument();
    expect(within(dialog).getByText(text.cropHint)).toBeInTheDocument();
    // The largest frame of 358:441 in the middle of the picture.
    expect(cropOf()).toEqual([235, 0, 731, 900]);
    expect(within(dialog).getByRole('button', { name: text.zoomOut })).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: text.zoomIn }));
    const zoomed = cropOf();
    expect(zoomed[2]).toBe(584); // 730.6 / 1.25, around the same centre
    expect(zoomed[0]! + zoomed[2]! / 2).toBeCloseTo(600, -1);
    // The arrow keys move the picture: right moves it right, so the frame takes more of its left.
    const stage = within(dialog).getByRole('application');
    stage.focus();
    await user.keyboard('{ArrowRight}');
    expect(cropOf()[0]).toBeLessThan(zoomed[0]!);
    await user.keyboard('{ArrowUp}');
    expect(cropOf()[1]).toBeGreaterThan(zoomed[1]!);
    await user.keyboard('-');
    expect(cropOf()[2]).toBe(731);
    // The zoom slider, by its keys (it reads keyCode, which user-event leaves out).
    const slider = within(dialog).getByRole('slider', { name: text.zoom });
    fireEvent.keyDown(slider, { key: 'ArrowRight', keyCode: 39, which: 39 });
    expect(cropOf()[2]).toBeLessThan(731);

    await user.click(within(dialog).getByRole('button', byText(text.cancel)));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByText(text.cropProblem)).toBeInTheDocument());
    expect(cards()).toHaveLength(0);
    expect(receivedUploads).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('a picture of the right size needs no crop; a HEIC picture the browser cannot read is refused clearly', async () => {
    decodeLikeABrowser();
    const { user, input, changes } = await renderField(language, {
      kind: 'image',
      imageSize: { width: 3, height: 2 },
    });
    await user.upload(input(), new File([new Uint8Array(64)], 'IMG_0001.HEIC', { type: 'image/heic' }));
    await waitFor(() => expect(screen.getByText(new RegExp(text.heic))).toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.upload(input(), image('3x2.png'));
    await waitFor(() => expect(changes).toEqual(['uploads/file-1']));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('labels its choose button with the field label and lists the limits beside it', async () => {
    await renderField(language, {
      kind: 'image',
      maxSize: { size: 2, unit: 'MB' },
      maxCount: 3,
      imageSize: { width: 3, height: 2 },
    });
    const button = screen.getByRole('button', { name: 'Photos' });
    expect(button).toHaveAttribute('id', 'probe_photos');
    expect(button).toHaveTextContent(text.chooseImage);
    const limits = document.getElementById(button.getAttribute('aria-describedby')!.split(' ').pop()!);
    expect(limits).toHaveTextContent(text.limits);
  });

  it('says a limit of one file in the singular', async () => {
    await renderField(language, { kind: 'image', maxCount: 1 });
    const button = screen.getByRole('button', { name: 'Photos' });
    const limits = document.getElementById(button.getAttribute('aria-describedby')!.split(' ').pop()!);
    expect(limits).toHaveTextContent(text.oneFile);
    expect(limits).not.toHaveTextContent('1 files');
  });

  it("refuses a file whose extension is not on the list ('文件格式不正确'), case-insensitively", async () => {
    const { user, input, changes } = await renderField(language);
    await user.upload(input(), bytes('notes.txt', 10, 'text/plain'));
    await waitFor(() => expect(screen.getByText(text.badFileType)).toBeInTheDocument());
    expect(cards()).toHaveLength(0);
    // An image extension in capitals is no image field's and no file field's problem.
    await user.upload(input(), bytes('REPORT.PDF', 10));
    await waitFor(() => expect(changes).toEqual(['uploads/file-1']));
    expect(receivedUploads).toEqual([{ path: API_PATHS.uploadFile, size: 10, type: 'application/pdf' }]);
  });

  it('an image field takes only the image types, and uploads to the user-centre image upload', async () => {
    const { user, input, changes } = await renderField(language, { kind: 'image' });
    await user.upload(input(), bytes('scan.pdf', 10));
    await waitFor(() => expect(screen.getByText(text.badFileType)).toBeInTheDocument());
    await user.upload(input(), image('3x2.png', 'PHOTO.PNG'));
    await waitFor(() => expect(changes).toEqual(['uploads/file-1']));
    expect(receivedUploads.map((upload) => upload.path)).toEqual([API_PATHS.uploadImageUserCentre]);
    // A runner's upload is private (issue 27): the card shows the chosen file itself, never its server URL.
    await waitFor(() => expect(cards()[0]!.querySelector('img')?.getAttribute('src')).toMatch(/^blob:local-\d+$/));
    expect(fetchedUploads).toEqual([]);
  });

  it('shows an upload it did not choose from its bytes, fetched with the token (private, issue 27)', async () => {
    await renderField(language, { kind: 'image' }, { initial: 'uploads/kept.png' });
    await waitFor(() => expect(cards()[0]!.querySelector('img')).toHaveAttribute('src', 'blob:local-1'));
    expect(fetchedUploads).toEqual([{ path: 'uploads/kept.png', token: VALID_TOKEN }]);
    expect(document.querySelector('img[src*="/files/"]')).toBeNull();
  });

  it('refuses a file over the size limit, and 0 is no limit', async () => {
    const { user, input, changes } = await renderField(language, { maxSize: { size: 1, unit: 'KB' } });
    await user.upload(input(), bytes('big.pdf', 1025));
    await waitFor(() => expect(screen.getByText(text.fileTooBig)).toBeInTheDocument());
    await user.upload(input(), bytes('exact.pdf', 1024));
    await waitFor(() => expect(changes).toEqual(['uploads/file-1']));
  });

  it('takes any size when the limit is 0', async () => {
    const { user, input, changes } = await renderField(language, { maxSize: { size: 0, unit: 'KB' } });
    await user.upload(input(), bytes('big.pdf', 5000));
    await waitFor(() => expect(changes).toEqual(['uploads/file-1']));
  });

  it("refuses a choice that would go over the count ('文件超出N个限制'), uploading none of it", async () => {
    const { user, input, changes } = await renderField(language, { maxCount: 2 }, { initial: 'uploads/old.pdf' });
    expect(cards()).toHaveLength(1);
    await user.upload(input(), [bytes('a.pdf', 10), bytes('b.pdf', 10)]);
    await waitFor(() => expect(screen.getByText(text.tooManyFiles)).toBeInTheDocument());
    expect(receivedUploads).toEqual([]);
    expect(cards()).toHaveLength(1);
    await user.upload(input(), bytes('c.pdf', 10));
    await waitFor(() => expect(changes).toEqual(['uploads/old.pdf,uploads/file-1']));
    // Full: one more is over the limit.
    await user.upload(input(), bytes('d.pdf', 10));
    await waitFor(() => expect(screen.getAllByText(text.tooManyFiles).length).toBeGreaterThan(0));
    expect(receivedUploads).toHaveLength(1);
  });

  it('takes any count when the limit is 0, several files at once', async () => {
    const { user, input, changes } = await renderField(language, { maxCount: 0 });
    await user.upload(input(), [bytes('a.pdf', 10), bytes('b.pdf', 10), bytes('c.pdf', 10)]);
    await waitFor(() =>
      expect(changes.at(-1)?.split(',').sort()).toEqual(['uploads/file-1', 'uploads/file-2', 'uploads/file-3']),
    );
    // In the order the files were chosen, whatever order the answers came in.
    expect(cards().map((card) => card.textContent)).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
  });

  it('reads an image before uploading it: exactly the required px, else the required and actual px', async () => {
    const { user, input, changes } = await renderField(language, {
      kind: 'image',
      imageSize: { width: 3, height: 2 },
    });
    await user.upload(input(), image('5x4.jpg'));
    await waitFor(() => expect(screen.getByText(text.imageSize)).toBeInTheDocument());
    expect(receivedUploads).toEqual([]);
    // Bytes that are no image, under an image name.
    await user.upload(input(), bytes('fake.png', 40, 'image/png'));
    await waitFor(() => expect(screen.getByText(text.badFileType)).toBeInTheDocument());
    await user.upload(input(), image('3x2.png'));
    await waitFor(() => expect(changes).toEqual(['uploads/file-1']));
  });

  it('asks whether the file is genuine 100 ms after the choice, keeps asking until answered, and no cancels it', async () => {
    const { user, input, changes } = await renderField(language, { confirmAuthenticity: true });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    // The choice (user-event's own pauses would wait on the stopped clock).
    act(() => void fireEvent.change(input(), { target: { files: [bytes('a.pdf', 10)] } }));
    await act(() => vi.advanceTimersByTimeAsync(AUTHENTICITY_DELAY_MS - 1));
    expect(screen.queryByText(text.authenticity)).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByText(text.authenticity)).toBeInTheDocument();
    // It stays: no time-out, no close button, a click beside it changes nothing.
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    vi.useRealTimers();
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(text.authenticity)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /close|关闭/i })).not.toBeInTheDocument();
    await user.click(document.querySelector('.ant-modal-wrap')!);
    expect(screen.getByText(text.authenticity)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', byText(text.no)));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(receivedUploads).toEqual([]);
    expect(cards()).toHaveLength(0);

    await user.upload(input(), bytes('b.pdf', 10));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', byText(text.yes)));
    await waitFor(() => expect(changes).toEqual(['uploads/file-1']));
  });

  it('asks before deleting a file, and a deletion changes the value', async () => {
    const { user, changes, submitted } = await renderField(
      language,
      {},
      { initial: 'uploads/first.pdf,uploads/second.pdf' },
    );
    expect(cards()).toHaveLength(2);
    const removeFirst = () => within(cards()[0]!).getByRole('button', { name: /remove|删除/i });
    await user.click(removeFirst());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(text.deleteConfirm)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', byText(text.cancel)));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cards()).toHaveLength(2);
    expect(changes).toEqual([]);

    await user.click(removeFirst());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', byText(text.ok)));
    await waitFor(() => expect(changes).toEqual(['uploads/second.pdf']));
    expect(cards()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ photos: 'uploads/second.pdf' }]));
  });

  it('shows the progress while uploading and the size of the file in 1024 steps', async () => {
    // The upload is answered only once the test has seen it in progress: no race with a timer on a busy machine.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.post(api(API_PATHS.uploadFile), async () => {
        await answered;
        return HttpResponse.json({ code: 0, msg: 'success', success: true, data: { url: 'uploads/slow.pdf' } });
      }),
    );
    const { user, input, changes } = await renderField(language);
    await user.upload(input(), bytes('slow.pdf', 1536));
    await waitFor(() => expect(screen.getByRole('progressbar')).toBeInTheDocument());
    expect(cards()[0]).toHaveClass('ant-upload-list-item-uploading');
    expect(screen.getByText('1.50 KB')).toBeInTheDocument();
    answer();
    await waitFor(() => expect(changes).toEqual(['uploads/slow.pdf']));
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
  });

  it("shows the server's refusal in the visitor's language and keeps it out of the value", async () => {
    server.use(
      http.post(api(API_PATHS.uploadFile), () =>
        HttpResponse.json(
          { code: 429, msg: 'Daily upload limit reached, please try again tomorrow', data: null, success: false },
          { status: 429 },
        ),
      ),
    );
    const { user, input, changes, submitted } = await renderField(language, {}, { initial: 'uploads/kept.pdf' });
    await user.upload(input(), bytes('late.pdf', 10));
    await waitFor(() => expect(screen.getByText(text.quota)).toBeInTheDocument());
    await waitFor(() => expect(cards()[1]).toHaveClass('ant-upload-list-item-error'));
    expect(changes).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ photos: 'uploads/kept.pdf' }]));
  });

  it('disabled: shows the files, but neither chooses nor removes', async () => {
    await renderField(language, { disabled: true }, { initial: 'uploads/a.pdf' });
    expect(screen.getByRole('button', { name: 'Photos' })).toBeDisabled();
    expect(cards()).toHaveLength(1);
    expect(within(cards()[0]!).queryByRole('button', { name: /remove|删除/i })).not.toBeInTheDocument();
  });

  it('follows a value set from outside (a form reset)', async () => {
    const { view } = await renderField(language, {}, { initial: 'uploads/a.pdf, uploads/b.pdf' });
    expect(cards().map((card) => card.textContent)).toEqual(['a.pdf', 'b.pdf']);
    view.unmount();
    await renderField(language, {}, { initial: '' });
    expect(cards()).toHaveLength(0);
  });
});
