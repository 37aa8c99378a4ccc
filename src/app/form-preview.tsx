/**
 * The page as the console's preview of a registration-form draft (issue 33 §3; contract/preview.ts
 * `?preview=form`), instead of the site: main.tsx imports this module dynamically, only in that mode, so the
 * home page's first paint never carries it. The language of the address is applied without writing the
 * visitor's language cookie (the staff member's own visits keep theirs); the phone preview is under /m/.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '@/app/i18n';
import { applyLanguage } from '@/lib/language';
import { loadTexts } from '@/lib/locale-bundles';
import { markMobileSite } from '@/lib/mobile-site';
import { readPreview } from '#contract/preview';
import { FormPreview } from '@/features/registration/preview/form-preview';

/** Starts the preview the address asks for (readPreview); false when it names no form preview (the site starts). */
export async function startFormPreview(search: string): Promise<boolean> {
  const request = readPreview(search);
  if (request?.kind !== 'form') return false;
  markMobileSite();
  await initI18n(request.language);
  await applyLanguage(request.language);
  await loadTexts('registration');
  document.title = request.language === 'en' ? 'Registration form preview' : '报名表预览';
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <FormPreview request={request} />
    </StrictMode>,
  );
  return true;
}
