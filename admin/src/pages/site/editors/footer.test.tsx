import { fireEvent, screen, within } from '@testing-library/react';
import type { SiteDraft } from '../editor-types';
import { renderEditor, startTexts } from './editor-testing';
import { FooterEditor } from './footer';

const security = { id: 1, label: '青公网安备 32000000000001号', link: 'https://www.beian.gov.cn/' };
const organizer = { role: '主办单位：', roleEn: 'Hosted by ', names: '青川市人民政府' };
const eventInfo = { slogan: '奔跑运河', organizers: [organizer], hotline: '400-820-2027', later: 'kept' };
const wechat = { id: 1, label: '官方微信', src: 'demo/qr-wechat.svg' };
const draft: SiteDraft = {
  version: '1',
  websiteTitle: 'Race',
  logo: 'demo/logo.svg',
  copyright: 'demo/copyright-zh.svg',
  websiteRegInfo: [security],
  eventInfo,
  qrCodeList: [wechat],
  somethingNew: [1, 2],
};

beforeEach(() => startTexts('en'));

describe('the footer editor', () => {
  it('adds the ICP filing with its filing site, and edits a filing text', () => {
    const { onChange } = renderEditor(FooterEditor, draft);
    fireEvent.click(screen.getByRole('button', { name: 'Add the ICP filing' }));
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      websiteRegInfo: [security, { id: 2, label: '', link: 'https://beian.miit.gov.cn/' }],
    });
    const filing = screen.getByTestId('site-footer-filings-0');
    fireEvent.change(within(filing).getByLabelText('Text (English)'), {
      target: { value: 'Public security filing 32000000000001' },
    });
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      websiteRegInfo: [{ ...security, labelEn: 'Public security filing 32000000000001' }],
    });
  });

  it("edits the event's details and organisers, keeping eventInfo's other keys", () => {
    const { onChange } = renderEditor(FooterEditor, draft);
    fireEvent.change(screen.getByLabelText('Hotline hours (Chinese)'), { target: { value: '工作日 9:00-18:00' } });
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      eventInfo: { ...eventInfo, hotlineHours: '工作日 9:00-18:00' },
    });
    const role = screen.getByTestId('site-footer-organizers-0');
    fireEvent.change(within(role).getByLabelText('Names (English)'), {
      target: { value: "Qingchuan Municipal People's Government" },
    });
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      eventInfo: { ...eventInfo, organizers: [{ ...organizer, namesEn: "Qingchuan Municipal People's Government" }] },
    });
  });

  it('makes eventInfo on the first detail typed, and sets the copyright and app QR images', () => {
    const bare: SiteDraft = { version: '1', websiteTitle: 'Race', logo: 'demo/logo.svg' };
    const { onChange } = renderEditor(FooterEditor, bare);
    expect(screen.getByText(/No filings: the footer shows none/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Contact e-mail'), { target: { value: 'service@race.example' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...bare, eventInfo: { email: 'service@race.example' } });
    fireEvent.change(screen.getByLabelText('Copyright image (English)'), { target: { value: 'assets/r/c-en.png' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...bare, copyrightEn: 'assets/r/c-en.png' });
    fireEvent.change(screen.getByLabelText('App download QR code'), { target: { value: 'assets/r/app.png' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...bare, appQrCode: 'assets/r/app.png' });
  });

  it('adds and removes a QR code', () => {
    const { onChange } = renderEditor(FooterEditor, draft);
    const qr = screen.getByTestId('site-footer-qr');
    fireEvent.click(within(qr).getByRole('button', { name: 'Add a QR code' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, qrCodeList: [wechat, { id: 2, label: '', src: '' }] });
    fireEvent.click(within(qr).getByRole('button', { name: 'Remove item 1' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, qrCodeList: [] });
  });

  it('shows a problem at its field', () => {
    renderEditor(FooterEditor, draft, {
      problems: [
        { path: '$.websiteRegInfo[0].link', message: 'javascript: links are not allowed', severity: 'error' },
        { path: '$.eventInfo.later', message: 'unknown key "later" is ignored', severity: 'warning' },
      ],
    });
    const field = screen
      .getByTestId('site-footer-filings-0')
      .querySelector<HTMLElement>('[data-path="$.websiteRegInfo[0].link"]')!;
    expect(field).toHaveTextContent('javascript: links are not allowed');
    expect(within(field).getByLabelText('Link')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('site-footer-event')).toHaveTextContent('unknown key "later" is ignored');
  });
});
