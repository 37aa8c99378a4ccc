import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import zhCommon from '@/locales/zh/common.json';
import enCommon from '@/locales/en/common.json';
import { isMessageCode, MESSAGES, messageParamNames, type MessageCode } from '#contract/messages';

const codes = Object.keys(MESSAGES) as MessageCode[];
const ROOT = path.resolve(import.meta.dirname, '..');

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
    expect([...sent].filter((code) => !isMessageCode(code))).toEqual([]);
  });
});
