import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import zhCommon from '@/locales/zh/common.json';
import enCommon from '@/locales/en/common.json';
import { CONSOLE_MESSAGES, isConsoleMessageCode } from '#contract/console-messages';
import { isMessageCode, MESSAGES, messageParamNames, type MessageCode } from '#contract/messages';

const codes = Object.keys(MESSAGES) as MessageCode[];
const ROOT = path.resolve(import.meta.dirname, '..');

function sourceFilesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFilesOf(file);
    return /\.(ts|tsx)$/.test(file) ? [file] : [];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

describe('message codes', () => {
  it.each([
    ['zh', zhCommon.messages],
    ['en', enCommon.messages],
  ] as const)('has every code of the contract in %s, with the same parameters', (_lang, table) => {
    const texts = table as Record<string, string>;
    expect(Object.keys(texts).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      expect(texts[code]?.trim(), code).toBeTruthy();
      expect(messageParamNames(texts[code]!).sort(), code).toEqual(messageParamNames(MESSAGES[code]).sort());
    }
  });

  it('finds every message code the server sends in the contract', () => {
    // fail(status, 'code' …), reject(status, 'code' …), new HttpError(status, 'code' …) and refusal objects.
    const sent = new Set<string>();
    const patterns = [
      /\b(?:fail|reject|refuse|HttpError)\(\s*\d{3},\s*(?:[^,()]*\?\s*)?'(\w+)'(?:\s*:\s*'(\w+)')?/g,
      /\{ code: '(\w+)'(?: as const)?(?:, params: [^}]*\})? \}/g,
      /\bmsgCode: '(\w+)'/g,
    ];
    for (const file of sourceFiles(path.join(ROOT, 'server/src'))) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of patterns) {
        for (const match of text.matchAll(pattern)) {
          for (const code of match.slice(1)) if (code) sent.add(code);
        }
      }
    }
    expect(sent.size).toBeGreaterThan(20);
    expect([...sent].filter((code) => !isMessageCode(code) && !isConsoleMessageCode(code))).toEqual([]);
  });
});

describe('console message codes', () => {
  it('have a Chinese and an English text each, with the same parameters, and none is a public code too', () => {
    for (const [code, text] of Object.entries(CONSOLE_MESSAGES)) {
      expect(text.zh.trim(), code).toBeTruthy();
      expect(text.en.trim(), code).toBeTruthy();
      expect(messageParamNames(text.zh).sort(), code).toEqual(messageParamNames(text.en).sort());
      expect(isMessageCode(code), code).toBe(false);
    }
  });

  it('stay out of the public SPA: nothing under src/ imports them', () => {
    const importers = sourceFilesOf(path.join(ROOT, 'src')).filter((file) =>
      readFileSync(file, 'utf8').includes('console-messages'),
    );
    expect(importers).toEqual([]);
  });
});
