import { fireEvent, screen, within } from '@testing-library/react';
import type { SiteDraft } from '../editor-types';
import { AdsEditor } from './ads';
import { renderEditor, startTexts } from './editor-testing';

const bannerAd = { surfacePlotUrl: 'demo/banner-ad-1.svg', jumpUrl: 'https://bank.example/', title: '报名进行中' };
const topAd = { surfacePlotUrl: 'demo/ad-top.svg', whileSignUpOpen: true, custom: 'kept' };
const draft: SiteDraft = {
  version: '1',
  websiteTitle: 'Race',
  logo: 'demo/logo.svg',
  carouselList: [{ surfacePlotUrl: 'a.png' }],
  unknownTop: 7,
  bannerAdList: [bannerAd],
  adListTop: [topAd],
};

beforeEach(() => startTexts('en'));

describe('the ads editor', () => {
  it('edits the three lists, each giving the whole document with the other keys kept', () => {
    const { onChange } = renderEditor(AdsEditor, draft);
    const banner = screen.getByTestId('site-ads-bannerAdList');
    fireEvent.change(within(banner).getByLabelText('Link (English site)'), {
      target: { value: 'https://bank.example/en/' },
    });
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      bannerAdList: [{ ...bannerAd, jumpUrlEn: 'https://bank.example/en/' }],
    });

    const top = screen.getByTestId('site-ads-adListTop');
    fireEvent.click(within(top).getByLabelText('Only while sign-up is open'));
    const { whileSignUpOpen: _off, ...alwaysShown } = topAd;
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, adListTop: [alwaysShown] });

    const bottom = screen.getByTestId('site-ads-adListBottom');
    expect(bottom).toHaveTextContent('No ads here: this place shows none.');
    fireEvent.click(within(bottom).getByRole('button', { name: 'Add an ad' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, adListBottom: [{ surfacePlotUrl: '' }] });
  });

  it('turns "only while sign-up is open" on', () => {
    const { onChange } = renderEditor(AdsEditor, draft);
    fireEvent.click(within(screen.getByTestId('site-ads-bannerAdList')).getByLabelText('Only while sign-up is open'));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, bannerAdList: [{ ...bannerAd, whileSignUpOpen: true }] });
  });

  it('shows a problem at the field of its list and item', () => {
    renderEditor(AdsEditor, draft, {
      problems: [{ path: '$.adListTop[0].surfacePlotUrl', message: 'required: text', severity: 'error' }],
    });
    const field = screen
      .getByTestId('site-ads-adListTop')
      .querySelector<HTMLElement>('[data-path="$.adListTop[0].surfacePlotUrl"]')!;
    expect(field).toHaveTextContent('required: text');
    expect(within(field).getByLabelText('Image')).toBeInTheDocument();
    expect(screen.getByTestId('site-ads-bannerAdList')).not.toHaveTextContent('required: text');
  });
});
