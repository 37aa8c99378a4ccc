import { fireEvent, screen, within } from '@testing-library/react';
import type { SiteDraft } from '../editor-types';
import { choose, renderEditor, startTexts } from './editor-testing';
import { PartnersEditor } from './partners';

const bank = { id: 101, src: 'demo/partners/bank.svg', href: 'https://bank.example/', name: '青川银行' };
const dairy = { id: 102, src: 'demo/partners/dairy.svg', name: '运河乳业', nameEn: 'Canal Dairy' };
const title = { id: 1, label: '冠名赞助商', labelEn: 'Title Sponsor', code: 'titleSponsor', children: [bank] };
const partners = { id: 2, label: '赛事合作伙伴', code: 'eventPartner', children: [dairy], note: 'kept' };
const tourism = { id: 6, label: '旅游平台', code: 'officialTourismCooperationPlatform', children: [] };
const draft: SiteDraft = {
  version: '1',
  websiteTitle: 'Race',
  logo: 'demo/logo.svg',
  contentGroups: { sponsor: { all: [] } },
  cooperativePartnerList: [title, partners, tourism],
};

beforeEach(() => startTexts('en'));

describe('the partners editor', () => {
  it('shows the categories in the order of the spec, the absent ones with an add button', () => {
    renderEditor(PartnersEditor, draft);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual([
      'Title sponsor titleSponsor',
      'Event partners eventPartner',
      'Event sponsors eventSponsor',
      'Event supporters eventSupporter',
      'Event suppliers eventSupplier',
      'Official tourism cooperation platform officialTourismCooperationPlatform',
      'Public welfare partners publicWelfarePartner',
      'Official technical services officialTechnicalServices',
    ]);
    expect(screen.getByTestId('site-partners-eventSponsor')).toHaveTextContent('This category is not on the site.');
  });

  it('adds a category in its place in the order, with its names', () => {
    const { onChange } = renderEditor(PartnersEditor, draft);
    fireEvent.click(screen.getByTestId('site-partners-add-eventSupplier'));
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      cooperativePartnerList: [
        title,
        partners,
        { id: 7, label: '赛事供应商', labelEn: 'Event suppliers', code: 'eventSupplier', children: [] },
        tourism,
      ],
    });
  });

  it('edits a partner and adds one, every other key kept', () => {
    const { onChange } = renderEditor(PartnersEditor, draft);
    const category = screen.getByTestId('site-partners-eventPartner');
    fireEvent.change(within(category).getByLabelText("Partner's website"), {
      target: { value: 'https://dairy.example/' },
    });
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      cooperativePartnerList: [
        title,
        { ...partners, children: [{ ...dairy, href: 'https://dairy.example/' }] },
        tourism,
      ],
    });
    fireEvent.click(within(category).getByRole('button', { name: 'Add a partner' }));
    const added = { id: 103, src: '' };
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      cooperativePartnerList: [title, { ...partners, children: [dairy, added] }, tourism],
    });
  });

  it('moves partners with the keyboard-reachable buttons', () => {
    const twoPartners = { ...title, children: [bank, dairy] };
    const { onChange } = renderEditor(PartnersEditor, { ...draft, cooperativePartnerList: [twoPartners] });
    fireEvent.click(
      within(screen.getByTestId('site-partners-titleSponsor')).getByRole('button', { name: 'Move item 2 up' }),
    );
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      cooperativePartnerList: [{ ...twoPartners, children: [dairy, bank] }],
    });
  });

  it('offers the known categories for one the site does not know', () => {
    const odd = { id: 9, label: '其他', code: 'friends', children: [] };
    const { onChange } = renderEditor(PartnersEditor, { ...draft, cooperativePartnerList: [title, odd] });
    choose('Category', 'Event sponsors', screen.getByTestId('site-partners-category-1'));
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      cooperativePartnerList: [title, { ...odd, code: 'eventSponsor' }],
    });
  });

  it("shows a problem at the partner's field", () => {
    renderEditor(PartnersEditor, draft, {
      problems: [
        {
          path: '$.cooperativePartnerList[0].children[0].href',
          message: 'javascript: links are not allowed',
          severity: 'error',
        },
        { path: '$.cooperativePartnerList[1].note', message: 'unknown key "note" is ignored', severity: 'warning' },
      ],
    });
    const field = screen
      .getByTestId('site-partners-titleSponsor')
      .querySelector<HTMLElement>('[data-path="$.cooperativePartnerList[0].children[0].href"]')!;
    expect(field).toHaveTextContent('javascript: links are not allowed');
    expect(within(field).getByLabelText("Partner's website")).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('site-partners-eventPartner')).toHaveTextContent('unknown key "note" is ignored');
  });
});
