/**
 * The draft's problems as the organiser types: the size limit, the JSON syntax, then the validator the server
 * uses (contract/site-config/checks.ts checkSiteConfig, with the SPA's page components), errors and warnings
 * with their JSON paths. The server checks again on save and publish (services/website/site-drafts.ts).
 */
import { ROUTE_COMPONENTS } from '#contract/page-names';
import { checkSiteConfig } from '#contract/site-config/checks';
import { DOCUMENT_LIMITS } from '#contract/site-config/document-limits';
import type { SiteDraft } from './editor-types';

export interface DraftProblem {
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface DraftReport {
  /** The document when the text parses to an object (the form editors need one). */
  parsed: SiteDraft | undefined;
  /** Whether the text is JSON at all (else only its syntax error is listed). */
  syntaxOk: boolean;
  problems: DraftProblem[];
  errors: number;
  warnings: number;
}

const isObject = (value: unknown): value is SiteDraft =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function draftReport(text: string): DraftReport {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > DOCUMENT_LIMITS.maxBytes) {
    const message = `the document is ${bytes} bytes; at most ${DOCUMENT_LIMITS.maxBytes} are allowed`;
    return {
      parsed: undefined,
      syntaxOk: false,
      problems: [{ path: '$', message, severity: 'error' }],
      errors: 1,
      warnings: 0,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      parsed: undefined,
      syntaxOk: false,
      problems: [{ path: '$', message, severity: 'error' }],
      errors: 1,
      warnings: 0,
    };
  }
  const report = checkSiteConfig(value, { pageComponents: ROUTE_COMPONENTS });
  const problems: DraftProblem[] = [
    ...report.errors.map((p) => ({ ...p, severity: 'error' as const })),
    ...report.warnings.map((p) => ({ ...p, severity: 'warning' as const })),
  ];
  return {
    parsed: isObject(value) ? value : undefined,
    syntaxOk: true,
    problems,
    errors: report.errors.length,
    warnings: report.warnings.length,
  };
}

/** The problems under one of the top-level keys `paths` ($.carouselList… for 'carouselList'). */
export function problemsUnder(problems: readonly DraftProblem[], paths: readonly string[]): DraftProblem[] {
  return problems.filter((p) =>
    paths.some((key) => p.path === `$.${key}` || p.path.startsWith(`$.${key}.`) || p.path.startsWith(`$.${key}[`)),
  );
}
