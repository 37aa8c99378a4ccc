import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { SiteDraft } from '../editor-types';
import { BasicsEditor } from './basics';
import { renderEditor, startTexts } from './editor-testing';

const draft: SiteDraft = {
  version: '1',
  websiteTitle: '白鹭湖半程马拉松',
  logo: '',
  futureKey: { kept: true },
  carouselList: [{ surfacePlotUrl: 'a.png' }],
};

beforeEach(() => startTexts('en'));
afterEach(cleanup);

describe('the basics editor', () => {
  it('gives the document with the title, the logo and the route map changed, every other key kept', () => {
    const { onChange } = renderEditor(BasicsEditor, draft);
    const identity = screen.getByTestId('site-basics-identity');
    fireEvent.change(within(identity).getByLabelText('Site name (English)'), {
      target: { value: 'Egret Lake Half Marathon' },
    });
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, websiteTitleEn: 'Egret Lake Half Marathon' });
    fireEvent.change(within(identity).getByLabelText('Logo (desktop)'), {
      target: { value: 'assets/qc-2027/logo.png' },
    });
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, logo: 'assets/qc-2027/logo.png' });
    fireEvent.change(within(screen.getByTestId('site-basics-route')).getByLabelText('Title (Chinese)'), {
      target: { value: '环湖赛道' },
    });
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, routeMap: { title: '环湖赛道' } });
  });

  it('leaves the route map out once its last field is emptied, and keeps the logo key when emptied', () => {
    const withRoute = { ...draft, logo: 'x.png', routeMap: { title: '环湖赛道' } };
    const { onChange } = renderEditor(BasicsEditor, withRoute);
    fireEvent.change(within(screen.getByTestId('site-basics-route')).getByLabelText('Title (Chinese)'), {
      target: { value: '' },
    });
    const { routeMap: _gone, ...withoutRoute } = withRoute;
    expect(onChange).toHaveBeenLastCalledWith(withoutRoute);
    fireEvent.change(within(screen.getByTestId('site-basics-identity')).getByLabelText('Logo (desktop)'), {
      target: { value: '' },
    });
    expect(onChange).toHaveBeenLastCalledWith({ ...withRoute, logo: '' });
  });

  it('shows a problem beside the field its path names', () => {
    renderEditor(BasicsEditor, draft, {
      problems: [{ path: '$.logo', message: 'must be a link', severity: 'error' }],
    });
    const field = document.querySelector('[data-path="$.logo"]');
    expect(field).not.toBeNull();
    expect(within(field as HTMLElement).getByText(/must be a link/)).toBeInTheDocument();
  });
});
