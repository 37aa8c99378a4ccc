/**
 * What `site validate` and `site publish` report beyond the schema: route items naming a page component
 * the SPA does not have, dataPaths that point at nothing (errors), and keys the SPA ignores because they
 * are unknown or in the wrong place (warnings). The page components come from the caller (the server
 * passes src/app/routes/page-names.ts), so this feature does not import the app.
 */
import { PARTNER_CATEGORY_ORDER, siteConfigSchema, validateBoundedSiteConfig } from '#contract/site-config/schema';
import { boundDocument, formatJsonPath, type ConfigProblem } from '#contract/site-config/document-limits';

export interface SiteConfigReport {
  /** The document must not be published. */
  errors: ConfigProblem[];
  /** The document works, but part of it is ignored. */
  warnings: ConfigProblem[];
}

interface SchemaDef {
  type: string;
  innerType?: unknown;
  shape?: Record<string, unknown>;
  element?: unknown;
  valueType?: unknown;
}

function defOf(schema: unknown): SchemaDef | undefined {
  let def = (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
  while (def?.type === 'optional') def = (def.innerType as { _zod?: { def?: SchemaDef } })?._zod?.def;
  return def;
}

let keyPlaces: Map<string, string[]> | undefined;

/** Every key of every object of the schema, with where it belongs ("$.menuGroups[].meta"). */
function placesOfKeys(): Map<string, string[]> {
  if (keyPlaces) return keyPlaces;
  const places = new Map<string, string[]>();
  const seen = new Set<unknown>();
  // Breadth first, so each kind of object is named by its shortest path.
  const queue: Array<{ schema: unknown; where: string }> = [{ schema: siteConfigSchema, where: '$' }];
  while (queue.length > 0) {
    const { schema, where } = queue.shift()!;
    const def = defOf(schema);
    if (!def || seen.has(def)) continue;
    seen.add(def);
    if (def.type === 'object') {
      for (const key of Object.keys(def.shape!)) {
        places.set(key, [...(places.get(key) ?? []), where]);
        queue.push({ schema: def.shape![key], where: `${where}.${key}` });
      }
    } else if (def.type === 'array') {
      queue.push({ schema: def.element, where: `${where}[]` });
    } else if (def.type === 'record') {
      queue.push({ schema: def.valueType, where: `${where}.*` });
    }
  }
  keyPlaces = places;
  return places;
}

function unknownKeyMessage(key: string, known: string[]): string {
  const sameLetters = known.find((k) => k.toLowerCase() === key.toLowerCase());
  if (sameLetters) return `unknown key "${key}" is ignored; did you mean "${sameLetters}"?`;
  const elsewhere = placesOfKeys().get(key);
  if (elsewhere) {
    const listed = elsewhere.slice(0, 3).join(', ') + (elsewhere.length > 3 ? ', …' : '');
    return `key "${key}" is in the wrong place and is ignored here; it belongs in ${listed}`;
  }
  return `unknown key "${key}" is ignored`;
}

interface Step {
  value: unknown;
  schema: unknown;
  parent: Step | null;
  key: PropertyKey;
}

function pathOf(step: Step, last: PropertyKey): string {
  const path: PropertyKey[] = [last];
  for (let s: Step | null = step; s?.parent; s = s.parent) path.push(s.key);
  return formatJsonPath(path.reverse());
}

/** Warnings for keys the schema does not know, walking the document beside its schema (no recursion). */
function unknownKeys(doc: unknown): ConfigProblem[] {
  const warnings: ConfigProblem[] = [];
  const stack: Step[] = [{ value: doc, schema: siteConfigSchema, parent: null, key: '' }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value } = step;
    const def = defOf(step.schema);
    if (!def || value === null || typeof value !== 'object') continue;
    if (def.type === 'object' && !Array.isArray(value)) {
      const shape = def.shape!;
      for (const key of Object.keys(value)) {
        if (Object.hasOwn(shape, key)) {
          stack.push({ value: (value as Record<string, unknown>)[key], schema: shape[key], parent: step, key });
        } else {
          warnings.push({ path: pathOf(step, key), message: unknownKeyMessage(key, Object.keys(shape)) });
        }
      }
    } else if (def.type === 'array' && Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, schema: def.element, parent: step, key: i }));
    } else if (def.type === 'record' && !Array.isArray(value)) {
      for (const [key, item] of Object.entries(value))
        stack.push({ value: item, schema: def.valueType, parent: step, key });
    }
  }
  return warnings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function dataPathProblem(dataPath: string, contentGroups: unknown): string | undefined {
  const parts = dataPath.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    return `dataPath "${dataPath}" must name a group and a list of contentGroups, e.g. "raceInformation.raceRules"`;
  }
  const [group, list] = parts;
  const groups = isObject(contentGroups) ? contentGroups : {};
  if (!Object.hasOwn(groups, group) || !isObject(groups[group])) {
    return `dataPath "${dataPath}" points at nothing: contentGroups has no group "${group}"`;
  }
  const lists = groups[group] as Record<string, unknown>;
  if (!Object.hasOwn(lists, list) || !Array.isArray(lists[list])) {
    return `dataPath "${dataPath}" points at nothing: contentGroups.${group} has no list "${list}"`;
  }
  return undefined;
}

/** Errors for route items: unknown page components and dataPaths that point at nothing. */
function routeProblems(doc: Record<string, unknown>, components: readonly string[]): ConfigProblem[] {
  const errors: ConfigProblem[] = [];
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [];
  for (const key of ['menuGroups', 'remoteAsyncRoutes']) {
    const list = doc[key];
    if (Array.isArray(list)) list.forEach((item, i) => stack.push({ value: item, path: [key, i] }));
  }
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (!isObject(value)) continue;
    const { component, meta, children } = value;
    if (typeof component === 'string' && !components.includes(component)) {
      const near = components.find((c) => c.toLowerCase() === component.toLowerCase());
      errors.push({
        path: formatJsonPath([...path, 'component']),
        message: near
          ? `unknown page component "${component}"; did you mean "${near}"?`
          : `unknown page component "${component}"; the known ones are ${components.join(', ')}`,
      });
    }
    if (isObject(meta) && typeof meta.dataPath === 'string') {
      const problem = dataPathProblem(meta.dataPath, doc.contentGroups);
      if (problem) errors.push({ path: formatJsonPath([...path, 'meta', 'dataPath']), message: problem });
    }
    if (Array.isArray(children))
      children.forEach((child, i) => stack.push({ value: child, path: [...path, 'children', i] }));
  }
  return errors.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function partnerWarnings(doc: Record<string, unknown>): ConfigProblem[] {
  const groups = doc.cooperativePartnerList;
  if (!Array.isArray(groups)) return [];
  const known: readonly string[] = PARTNER_CATEGORY_ORDER;
  return groups.flatMap((group, i) =>
    isObject(group) && typeof group.code === 'string' && !known.includes(group.code)
      ? [
          {
            path: formatJsonPath(['cooperativePartnerList', i, 'code']),
            message: `unknown partner category "${group.code}"; the known ones, in their order, are ${known.join(', ')}`,
          },
        ]
      : [],
  );
}

/** At most this many errors and as many warnings are listed; one more line counts the rest. */
export const MAX_LISTED_PROBLEMS = 200;

function capped(problems: ConfigProblem[], kind: string): ConfigProblem[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems;
  const rest = problems.length - MAX_LISTED_PROBLEMS;
  return [...problems.slice(0, MAX_LISTED_PROBLEMS), { path: '$', message: `… and ${rest} more ${kind}` }];
}

/**
 * The full report of a parsed document: the schema's problems and the route errors (both refuse a
 * publication), and the warnings. Never throws, whatever the input.
 */
export function checkSiteConfig(raw: unknown, options: { pageComponents: readonly string[] }): SiteConfigReport {
  const bounded = boundDocument(raw);
  const errors = validateBoundedSiteConfig(bounded);
  const doc = bounded.value;
  if (!isObject(doc)) return { errors: capped(errors, 'errors'), warnings: [] };
  return {
    errors: capped([...errors, ...routeProblems(doc, options.pageComponents)], 'errors'),
    warnings: capped([...unknownKeys(doc), ...partnerWarnings(doc)], 'warnings'),
  };
}
