/**
 * The site page's form editors, in tab order. Each editor lives in its own file in this folder and is added to
 * the list below with one line (see ../editor-types.ts).
 */
import type { SiteEditor } from '../editor-types';
import { adsEditor } from './ads';
import { basicsEditor } from './basics';
import { carouselEditor } from './carousel';
import { documentsEditor } from './documents';
import { footerEditor } from './footer';
import { menuEditor } from './menu';
import { partnersEditor } from './partners';
import { searchEditor } from './search';

const editors: SiteEditor[] = [
  basicsEditor,
  documentsEditor,
  carouselEditor,
  adsEditor,
  searchEditor,
  partnersEditor,
  footerEditor,
  menuEditor,
];

export const SITE_EDITORS: readonly SiteEditor[] = editors.sort((a, b) => a.order - b.order);
