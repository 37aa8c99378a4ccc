import { fireEvent, screen, within } from '@testing-library/react';
import type { SiteDraft } from '../editor-types';
import { choose, renderEditor, startTexts } from './editor-testing';
import { SearchEditor } from './search';

const signUp = {
  id: 1,
  moduleType: 1,
  title: '立即报名',
  jumpType: 2,
  jumpUrl: '/direct',
  openStatus: 0,
  dialogText: '报名尚未开始',
  signUpStartTime: '2027-01-10 10:00:00',
};
const scores = { id: 3, moduleType: 3, title: '成绩查询', jumpType: 2, jumpUrl: '/score-search', openStatus: 1, x: 1 };
const draft: SiteDraft = {
  version: '1',
  websiteTitle: 'Race',
  logo: 'demo/logo.svg',
  menuGroups: [],
  searchConfigList: [signUp, scores],
  scoreSearch: { openStatus: 1, jumpType: 2, jumpUrl: '/score-search', useMultipleSearch: true },
  pictureSearch: { openStatus: 0, dialogText: '暂未开放，敬请期待' },
};

beforeEach(() => startTexts('en'));

describe('the search modules editor', () => {
  it('says what each module and choice does in words', () => {
    renderEditor(SearchEditor, draft);
    const module = screen.getByTestId('site-search-modules-0');
    expect(module).toHaveTextContent('Sign up');
    expect(module).toHaveTextContent('Closed: the button shows the message below');
    expect(module).toHaveTextContent('A page of this site');
    expect(module).toHaveTextContent('Sign-up opens');
    expect(screen.getByTestId('site-search-modules-1')).not.toHaveTextContent('Sign-up opens');
    expect(screen.getByTestId('site-search-registrationSearch')).toHaveTextContent('Open (no setting)');
  });

  it('changes a module kind, its usual route following; opens a module', () => {
    const { onChange } = renderEditor(SearchEditor, draft);
    const module = screen.getByTestId('site-search-modules-1');
    choose('Kind of module', 'Photo search', module);
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      searchConfigList: [signUp, { ...scores, moduleType: 4, jumpUrl: '/image-search' }],
    });
    choose('State', 'Open: the button goes to its link', screen.getByTestId('site-search-modules-0'));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, searchConfigList: [{ ...signUp, openStatus: 1 }, scores] });
  });

  it('closes a search page with a message, and opens another by removing its setting', () => {
    const { onChange } = renderEditor(SearchEditor, draft);
    choose('Page', 'Closed, with a message', screen.getByTestId('site-search-registrationSearch'));
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, registrationSearch: { openStatus: 0 } });
    choose('Page', 'Open (no setting)', screen.getByTestId('site-search-pictureSearch'));
    const { pictureSearch: _gone, ...rest } = draft;
    expect(onChange).toHaveBeenLastCalledWith(rest);
    fireEvent.click(within(screen.getByTestId('site-search-scoreSearch')).getByLabelText('Historical score search'));
    const { useMultipleSearch: _off, ...single } = draft.scoreSearch as object as Record<string, unknown>;
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, scoreSearch: single });
  });

  it('adds a module of a kind not yet on the page, with a free id', () => {
    const { onChange } = renderEditor(SearchEditor, draft);
    fireEvent.click(screen.getByRole('button', { name: 'Add a module' }));
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      searchConfigList: [
        signUp,
        scores,
        { id: 4, moduleType: 2, title: '', jumpType: 2, jumpUrl: '/registration-search', openStatus: 1 },
      ],
    });
  });

  it('shows a problem at its field', () => {
    renderEditor(SearchEditor, draft, {
      problems: [
        {
          path: '$.searchConfigList[0].signUpStartTime',
          message: 'not a race time: "soon"',
          severity: 'error',
        },
      ],
    });
    const field = screen
      .getByTestId('site-search-modules-0')
      .querySelector<HTMLElement>('[data-path="$.searchConfigList[0].signUpStartTime"]')!;
    expect(field).toHaveTextContent('not a race time');
    expect(within(field).getByLabelText('Sign-up opens')).toHaveAttribute('aria-invalid', 'true');
  });
});
