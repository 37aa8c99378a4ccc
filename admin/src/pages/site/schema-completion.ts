/**
 * The JSON editor's completion from the JSON Schema the project publishes (docs/site-config.schema.json,
 * generated from contract/site-config/schema.ts): the property names of the object the cursor is in (those it
 * does not have yet first), and the allowed values of an enumerated property (moduleType, jumpType…).
 */
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { syntaxTree } from '@codemirror/language';
import siteConfigJsonSchema from '../../../../docs/site-config.schema.json';
import { containerAt, type PathSegment } from './json-paths';

/** The parts of a JSON Schema node the completion reads. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  $defs?: Record<string, SchemaNode>;
}

export const SITE_CONFIG_SCHEMA = siteConfigJsonSchema as SchemaNode;

function deref(node: SchemaNode | undefined, root: SchemaNode): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current?.$ref && hops < 10; hops++) {
    const name = /^#\/\$defs\/(.+)$/.exec(current.$ref)?.[1];
    current = name ? root.$defs?.[name] : undefined;
  }
  return current;
}

/** The alternatives of a node (anyOf / oneOf), or the node itself. */
function alternatives(node: SchemaNode, root: SchemaNode): SchemaNode[] {
  const list = node.anyOf ?? node.oneOf;
  return list ? list.map((n) => deref(n, root)).filter((n): n is SchemaNode => n !== undefined) : [node];
}

/** The schema of the value at `path` (undefined where the schema says nothing). */
export function schemaAt(path: readonly PathSegment[], root: SchemaNode = SITE_CONFIG_SCHEMA): SchemaNode | undefined {
  let node = deref(root, root);
  for (const segment of path) {
    if (!node) return undefined;
    let next: SchemaNode | undefined;
    for (const alt of alternatives(node, root)) {
      if (typeof segment === 'number') next = alt.items;
      else
        next =
          alt.properties?.[segment] ??
          (typeof alt.additionalProperties === 'object' && Object.keys(alt.additionalProperties).length > 0
            ? alt.additionalProperties
            : undefined);
      if (next) break;
    }
    node = deref(next, root);
  }
  return node;
}

/** The property names an object at `path` may have, required first. */
export function propertyNames(path: readonly PathSegment[], root: SchemaNode = SITE_CONFIG_SCHEMA) {
  const node = schemaAt(path, root);
  if (!node) return [];
  const names: { name: string; required: boolean; type: string }[] = [];
  for (const alt of alternatives(node, root)) {
    for (const [name, property] of Object.entries(alt.properties ?? {})) {
      const resolved = deref(property, root);
      const type = Array.isArray(resolved?.type) ? resolved.type.join(' | ') : (resolved?.type ?? '');
      names.push({ name, required: alt.required?.includes(name) ?? false, type });
    }
  }
  return names;
}

/** The allowed values of the value at `path` (enum or const), or none. */
export function allowedValues(path: readonly PathSegment[], root: SchemaNode = SITE_CONFIG_SCHEMA): unknown[] {
  const node = schemaAt(path, root);
  if (!node) return [];
  return alternatives(node, root).flatMap((alt) => alt.enum ?? (alt.const !== undefined ? [alt.const] : []));
}

/** CodeMirror's completion source for the site configuration. */
export function siteConfigCompletion(context: CompletionContext): CompletionResult | null {
  const { state, pos } = context;
  const word = context.matchBefore(/"?[\w$]*/);
  const from = word ? word.from : pos;
  const before = state.sliceDoc(Math.max(0, from - 200), from).trimEnd();
  const text = (a: number, b: number) => state.sliceDoc(a, b);
  const container = containerAt(syntaxTree(state), text, from);
  if (!container) return null;
  const last = before.slice(-1);
  if (container.node.name === 'Object' && (last === '{' || last === ',')) {
    const present = new Set(
      (container.node.getChildren('Property') ?? []).map((p) => {
        const name = p.getChild('PropertyName');
        return name ? state.sliceDoc(name.from, name.to).replace(/^"|"$/g, '') : '';
      }),
    );
    const options: Completion[] = propertyNames(container.path)
      .filter((p) => !present.has(p.name))
      .map((p) => ({
        label: `"${p.name}"`,
        apply: `"${p.name}": `,
        type: 'property',
        detail: p.type,
        boost: p.required ? 1 : 0,
      }));
    if (options.length === 0 || (!word?.text && !context.explicit && last !== '{' && last !== ',')) return null;
    return { from, options, validFor: /^"?[\w$]*$/ };
  }
  if (last === ':' && container.node.name === 'Object') {
    const key = /"((?:[^"\\]|\\.)*)"\s*:$/.exec(before)?.[1];
    if (key === undefined) return null;
    const values = allowedValues([...container.path, key]);
    if (values.length === 0) return null;
    return {
      from,
      options: values.map((value) => ({ label: JSON.stringify(value), type: 'enum' })),
      validFor: /^"?[\w$]*$/,
    };
  }
  if (container.node.name === 'Array' && (last === '[' || last === ',')) {
    const values = allowedValues([...container.path, 0]);
    if (values.length === 0) return null;
    return { from, options: values.map((value) => ({ label: JSON.stringify(value), type: 'enum' })) };
  }
  return null;
}
