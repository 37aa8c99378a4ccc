/**
 * Where a JSON path of the validator ($.carouselList[2].jumpUrl, contract/site-config/document-limits.ts
 * formatJsonPath) is in the draft's text, found with lang-json's syntax tree (lezer): the JSON editor underlines
 * a problem there and the problem list jumps there. A path to a key that is not in the text (a required key
 * missing) points at the nearest object that is; a text that does not parse still maps the parts that do.
 * Also the path of a place in the text (the completion's object), the other way round.
 */
import type { syntaxTree } from '@codemirror/language';

/** lang-json's syntax tree and its nodes (lezer's, as @codemirror/language hands them over). */
type Tree = ReturnType<typeof syntaxTree>;
type SyntaxNode = Tree['topNode'];

export type PathSegment = string | number;

/** The segments of a path as formatJsonPath writes it: `$`, `.key`, `[3]`, `["odd key"]`; null if malformed. */
export function parseJsonPath(path: string): PathSegment[] | null {
  if (!path.startsWith('$')) return null;
  const segments: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const rest = path.slice(i);
    const dotted = /^\.([A-Za-z_$][\w$]*)/.exec(rest);
    if (dotted) {
      segments.push(dotted[1]!);
      i += dotted[0].length;
      continue;
    }
    const index = /^\[(\d+)\]/.exec(rest);
    if (index) {
      segments.push(Number(index[1]));
      i += index[0].length;
      continue;
    }
    const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (quoted) {
      try {
        segments.push(JSON.parse(quoted[1]!) as string);
      } catch {
        return null;
      }
      i += quoted[0].length;
      continue;
    }
    return null;
  }
  return segments;
}

/** The children of a node that are JSON values (not punctuation, not error nodes). */
const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
}

/** A property's key as text (its PropertyName, unquoted; the raw text when it is not a complete string). */
function propertyKey(property: SyntaxNode, text: (from: number, to: number) => string): string | undefined {
  const name = property.getChild('PropertyName');
  if (!name) return undefined;
  const raw = text(name.from, name.to);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.replace(/^"|"$/g, '');
  }
}

const valueOf = (property: SyntaxNode) => children(property).find((child) => VALUE_NODES.has(child.name));

/** The root value of a JSON text's tree. */
function rootValue(tree: Tree): SyntaxNode | undefined {
  return children(tree.topNode).find((child) => VALUE_NODES.has(child.name));
}

export interface PathRange {
  from: number;
  to: number;
  /** false: the path itself is not in the text, this is the nearest place that is. */
  exact: boolean;
}

/**
 * The range of a JSON path in the text: a property's key and its value (its key only when the value is an
 * object or a list, so the whole block is not underlined), an item of a list, or the nearest enclosing place.
 */
export function rangeOfPath(tree: Tree, text: (from: number, to: number) => string, path: string): PathRange {
  const root = rootValue(tree);
  const segments = parseJsonPath(path);
  if (!root) return { from: 0, to: Math.min(1, tree.length), exact: segments?.length === 0 };
  const opening = (node: SyntaxNode): PathRange => ({
    from: node.from,
    to: Math.min(node.from + 1, node.to),
    exact: false,
  });
  if (!segments) return opening(root);
  if (segments.length === 0) return { from: root.from, to: Math.min(root.from + 1, root.to), exact: true };
  let node = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (typeof segment === 'string') {
      if (node.name !== 'Object') return opening(node);
      const property = children(node).find(
        (child) => child.name === 'Property' && propertyKey(child, text) === segment,
      );
      if (!property) return opening(node);
      const value = valueOf(property);
      if (last) {
        const name = property.getChild('PropertyName')!;
        const whole = value && value.name !== 'Object' && value.name !== 'Array';
        return { from: name.from, to: whole ? value.to : name.to, exact: true };
      }
      if (!value) return { from: property.from, to: property.to, exact: false };
      node = value;
    } else {
      if (node.name !== 'Array') return opening(node);
      const item = children(node).filter((child) => VALUE_NODES.has(child.name))[segment];
      if (!item) return opening(node);
      if (last) {
        const whole = item.name !== 'Object' && item.name !== 'Array';
        return { from: item.from, to: whole ? item.to : item.from + 1, exact: true };
      }
      node = item;
    }
  }
  return opening(node);
}

/**
 * The path of the innermost object or list around `pos` (its segments from the root), with that node: the
 * completion proposes the keys of the schema at that path.
 */
export function containerAt(
  tree: Tree,
  text: (from: number, to: number) => string,
  pos: number,
): { node: SyntaxNode; path: PathSegment[] } | undefined {
  let node: SyntaxNode | null = tree.resolveInner(pos, -1);
  while (node && node.name !== 'Object' && node.name !== 'Array') node = node.parent;
  if (!node) return undefined;
  const container = node;
  const path: PathSegment[] = [];
  let child: SyntaxNode = container;
  for (let parent = child.parent; parent; child = parent, parent = parent.parent) {
    if (parent.name === 'Property') {
      const key = propertyKey(parent, text);
      if (key === undefined) return undefined;
      path.unshift(key);
    } else if (parent.name === 'Array') {
      const items = children(parent).filter((c) => VALUE_NODES.has(c.name));
      const index = items.findIndex((c) => c.from === child.from && c.to === child.to);
      if (index < 0) return undefined;
      path.unshift(index);
    }
  }
  return { node: container, path };
}
