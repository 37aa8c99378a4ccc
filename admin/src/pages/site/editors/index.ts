/**
 * The site page's form editors, in tab order. Each editor lives in its own file in this folder and is added to
 * the list below with one line (see ../editor-types.ts).
 */
import type { SiteEditor } from '../editor-types';
import { documentsEditor } from './documents';

const editors: SiteEditor[] = [documentsEditor];

export const SITE_EDITORS: readonly SiteEditor[] = editors.sort((a, b) => a.order - b.order);
