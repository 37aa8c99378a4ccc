import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { SiteDraft } from '../editor-types';
import { CarouselEditor } from './carousel';
import { renderEditor, startTexts } from './editor-testing';

const first = {
  surfacePlotUrl: 'demo/carousel-1.svg',
  jumpUrl: '/race-information/race-rules',
  title: '起跑',
  extra: 1,
};
const second = { surfacePlotUrl: 'demo/carousel-2.svg', title: '终点' };
const draft: SiteDraft = {
  version: '1',
  websiteTitle: 'Race',
  logo: 'demo/logo.svg',
  futureKey: { kept: true },
  carouselList: [first, second],
};

beforeEach(() => startTexts('en'));

describe('the carousel editor', () => {
  it('gives the document with a slide title changed, every other key kept', () => {
    const { onChange } = renderEditor(CarouselEditor, draft);
    const slide = screen.getByTestId('site-carousel-slides-0');
    fireEvent.change(within(slide).getByLabelText('Title (English)'), { target: { value: 'Start' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, carouselList: [{ ...first, titleEn: 'Start' }, second] });
    // An emptied optional field leaves its key out.
    fireEvent.change(within(slide).getByLabelText('Link when clicked'), { target: { value: '' } });
    const { jumpUrl: _gone, ...withoutLink } = first;
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, carouselList: [withoutLink, second] });
  });

  it('changes the image through the asset picker', () => {
    const { onChange } = renderEditor(CarouselEditor, draft);
    fireEvent.change(within(screen.getByTestId('site-carousel-slides-1')).getByLabelText('Image'), {
      target: { value: 'assets/qc-2027/finish.jpg' },
    });
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      carouselList: [first, { ...second, surfacePlotUrl: 'assets/qc-2027/finish.jpg' }],
    });
  });

  it('moves a slide down, removes one and adds one', () => {
    const { onChange } = renderEditor(CarouselEditor, draft);
    fireEvent.click(screen.getByRole('button', { name: 'Move item 1 down' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, carouselList: [second, first] });
    fireEvent.click(screen.getByRole('button', { name: 'Remove item 2' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, carouselList: [first] });
    fireEvent.click(screen.getByRole('button', { name: 'Add a slide' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, carouselList: [first, second, { surfacePlotUrl: '' }] });
    expect(screen.getByRole('button', { name: 'Move item 1 up' })).toBeDisabled();
  });

  it('keeps the focus on the moved slide, so the keyboard can move it again', () => {
    renderEditor(
      CarouselEditor,
      { ...draft, carouselList: [first, second, { surfacePlotUrl: 'c.png' }] },
      { stateful: true },
    );
    screen.getByRole('button', { name: 'Move item 1 down' }).focus();
    fireEvent.click(document.activeElement!);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move item 2 down' }));
    fireEvent.click(document.activeElement!);
    // Now last: its "down" is disabled, so the focus is on its "up".
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move item 3 up' }));
    expect(screen.getByTestId('site-carousel-slides-2')).toHaveTextContent('起跑');
  });

  it('puts the focus on the next slide after a removal, and in the new slide after an addition', () => {
    renderEditor(CarouselEditor, draft, { stateful: true });
    fireEvent.click(screen.getByRole('button', { name: 'Remove item 1' }));
    expect(screen.getByTestId('site-carousel-slides-0')).toHaveTextContent('终点');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove item 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add a slide' }));
    expect(document.activeElement).toBe(within(screen.getByTestId('site-carousel-slides-1')).getByLabelText('Image'));
  });

  it('shows a thumbnail of each slide', () => {
    renderEditor(CarouselEditor, draft);
    expect(screen.getByRole('img', { name: 'Thumbnail of 起跑' })).toHaveAttribute('src', '/files/demo/carousel-1.svg');
  });

  it('explains the empty state, in Chinese too', async () => {
    renderEditor(CarouselEditor, { version: '1' });
    expect(screen.getByText(/No slides: the home page shows no carousel/)).toBeInTheDocument();
    cleanup();
    await startTexts('zh');
    renderEditor(CarouselEditor, { version: '1' });
    expect(screen.getByText(/暂无轮播图/)).toBeInTheDocument();
  });

  it("shows a problem beside the field its path names, and an unknown key's warning on its slide", () => {
    renderEditor(CarouselEditor, draft, {
      problems: [
        { path: '$.carouselList[1].jumpUrl', message: 'javascript: links are not allowed', severity: 'error' },
        { path: '$.carouselList[0].extra', message: 'unknown key "extra" is ignored', severity: 'warning' },
      ],
    });
    const field = screen
      .getByTestId('site-carousel-slides-1')
      .querySelector<HTMLElement>('[data-path="$.carouselList[1].jumpUrl"]')!;
    expect(field).toHaveTextContent('javascript: links are not allowed');
    expect(within(field).getByLabelText('Link when clicked')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('site-carousel-slides-0')).toHaveTextContent('unknown key "extra" is ignored');
  });

  it('leaves a carousel that is not a list to the JSON editor, untouched', () => {
    const { onChange } = renderEditor(CarouselEditor, { ...draft, carouselList: 'oops' });
    expect(screen.getByText(/is not of the kind this form edits/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a slide' })).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });
});
