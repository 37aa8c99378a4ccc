/**
 * The AssetPicker (issue 33 §1): the field shows the chosen image; "Choose" lists the race's assets (images only
 * for kind 'image'; a filter); with a slot's exact size, an image of another size is marked with the reason and
 * cannot be chosen, and an upload of another size is refused before anything is sent; an upload that fits is
 * chosen at once; a typed address stays possible. The console's API is answered by msw, as the site's tests do.
 */
import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { App } from 'antd';
import type { AssetListing } from '#contract/assets';
import type { SetupServerApi } from 'msw/node';
import { startI18n } from '../i18n';
import { useConsole } from '../store';
import { AssetPicker, type AssetPickerProps } from './asset-picker';

const RACE = 'r-2027';
const asset = (name: string, size: { width: number; height: number } | null, type = name.split('.').pop()!) => ({
  name,
  path: `assets/${RACE}/${name}`,
  url: `/files/assets/${RACE}/${name}`,
  bytes: 2048,
  type,
  size,
  sha256: 'a'.repeat(64),
  usedBy: [],
  uploaded: null,
});
const LISTING: AssetListing = {
  assets: [
    asset('logo.png', { width: 3, height: 2 }),
    asset('slide.png', { width: 750, height: 420 }),
    asset('guide.pdf', null),
  ],
};

/** The first bytes of a PNG of `width` × `height` (what the size check reads). */
function pngHead(width: number, height: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 0);
  bytes.set([0x49, 0x48, 0x44, 0x52], 12);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

/** jsdom's origin: the console's relative calls resolve against it. */
const api = (path: string) => `http://localhost:3000${path}`;

/*
 * The web test project's one msw server, started by its setup file (src/testing/setup-tests.ts). Imported by
 * a path in a variable: the console's type check does not reach into the public site's test code (its '@/'
 * paths are the site's), and the console never imports the site's code otherwise.
 */
const SITE_TEST_SERVER = '../../../src/testing/mocks/server';
let server: SetupServerApi;

let posted: unknown[] = [];
beforeAll(async () => {
  ({ server } = (await import(/* @vite-ignore */ SITE_TEST_SERVER)) as { server: SetupServerApi });
  useConsole.getState().setLanguage('en');
  await startI18n('en');
});
beforeEach(() => {
  posted = [];
  server.use(
    http.get(api(`/api/admin/races/${RACE}/assets`), () =>
      HttpResponse.json({ code: 0, msg: 'success', data: LISTING }),
    ),
    http.post(api(`/api/admin/races/${RACE}/assets`), async ({ request }) => {
      const body = (await request.json()) as { name: string };
      posted.push(body);
      return HttpResponse.json({ code: 0, msg: 'success', data: asset(body.name, { width: 750, height: 420 }) });
    }),
  );
});

function Harness(props: Partial<AssetPickerProps> & { changes: string[] }) {
  const { changes, ...rest } = props;
  const [value, setValue] = useState(props.value ?? '');
  return (
    <App>
      <AssetPicker
        raceId={RACE}
        aria-label="Slide"
        {...rest}
        value={value}
        onChange={(next) => {
          changes.push(next);
          setValue(next);
        }}
      />
    </App>
  );
}

describe('AssetPicker', () => {
  it('refuses an image of another size with the reason and chooses one of the slot size', async () => {
    const user = userEvent.setup();
    const changes: string[] = [];
    render(<Harness changes={changes} size={{ width: 750, height: 420 }} />);
    expect(screen.getByText('This place needs an image of exactly 750 × 420 px')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose: Slide' }));
    const list = await screen.findByRole('list', { name: 'Assets to choose from' });
    // Images only: the PDF is not offered.
    expect(within(list).queryByText('guide.pdf')).not.toBeInTheDocument();
    const logo = within(list).getByRole('button', { name: /logo\.png/ });
    expect(logo).toHaveAttribute('aria-disabled', 'true');
    expect(logo).toHaveTextContent('Another size: 3 × 2 px, 750 × 420 px needed');
    await user.click(logo);
    expect(changes).toEqual([]);
    expect(await screen.findByRole('alert')).toHaveTextContent('logo.png: Another size');

    await user.click(within(list).getByRole('button', { name: /slide\.png/ }));
    expect(changes).toEqual([`assets/${RACE}/slide.png`]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'Slide' })).toHaveValue(`assets/${RACE}/slide.png`);
  });

  it('uploads in place: another size is refused before sending, the slot size is added and chosen', async () => {
    const user = userEvent.setup();
    const changes: string[] = [];
    render(<Harness changes={changes} size={{ width: 750, height: 420 }} />);
    await user.click(screen.getByRole('button', { name: 'Choose: Slide' }));
    await screen.findByRole('list', { name: 'Assets to choose from' });
    const input = screen.getByLabelText('Upload a new file', { selector: 'input' });
    await user.upload(input, new File([pngHead(800, 600)], 'Big Slide.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The image size does not meet the standard: 750 × 420 px required, 800 × 600 px given',
    );
    expect(posted).toEqual([]);
    await user.upload(input, new File([pngHead(750, 420)], 'New Slide.png', { type: 'image/png' }));
    await waitFor(() => expect(changes).toEqual([`assets/${RACE}/new-slide.png`]));
    expect(posted).toMatchObject([{ name: 'new-slide.png', fileName: 'New Slide.png' }]);
  });

  it('offers documents for kind file, filters by name, and keeps a typed address', async () => {
    const user = userEvent.setup();
    const changes: string[] = [];
    render(<Harness changes={changes} kind="file" />);
    await user.click(screen.getByRole('button', { name: 'Choose: Slide' }));
    const list = await screen.findByRole('list', { name: 'Assets to choose from' });
    expect(within(list).getAllByRole('button')).toHaveLength(3);
    await user.type(screen.getByRole('searchbox', { name: 'Filter by name' }), 'gui');
    expect(within(list).getAllByRole('button')).toHaveLength(1);
    await user.click(within(list).getByRole('button', { name: /guide\.pdf/ }));
    expect(changes).toEqual([`assets/${RACE}/guide.pdf`]);
    await user.clear(screen.getByRole('textbox', { name: 'Slide' }));
    await user.type(screen.getByRole('textbox', { name: 'Slide' }), 'https://x.org/a.pdf');
    expect(changes.at(-1)).toBe('https://x.org/a.pdf');
  });
});
