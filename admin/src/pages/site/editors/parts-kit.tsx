/**
 * The pieces the site's form editors share (carousel, ads, search modules, partners, footer, menu): immutable
 * updates that keep every key they do not touch (unknown keys included), a labelled field with the validator's
 * problems at its JSON path, a bilingual pair, an image field (the asset picker), and a list of cards with add,
 * remove and move up/down (buttons, so the keyboard reorders as well as the mouse).
 */
import ArrowDownOutlined from '@ant-design/icons/ArrowDownOutlined';
import ArrowUpOutlined from '@ant-design/icons/ArrowUpOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { Alert, Button, Card, Col, Empty, Form, Input, Row, Space, Switch, Tag } from 'antd';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { siteSlotSize } from '#contract/assets';
import { formatJsonPath } from '#contract/site-config/document-limits';
import { AssetPicker, type AssetPickerProps } from '../../../lib/asset-picker';
import type { SiteEditorProps } from '../editor-types';
import './parts.css';

export type Problem = SiteEditorProps['problems'][number];
export type Path = readonly (string | number)[];
export type Obj = Record<string, unknown>;

export const isObj = (value: unknown): value is Obj =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A copy of `object` with `key` set to `value`, or without `key` when `value` is undefined; other keys kept. */
export function withKey(object: Obj, key: string, value: unknown): Obj {
  const next = { ...object };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** An optional text: an emptied field leaves the key out (the site then falls back, e.g. English to Chinese). */
export const optional = (value: string): string | undefined => (value === '' ? undefined : value);

export const text = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : String(value);

/** The next free numeric id of a list whose items have `id` (1 for an empty list). */
export function nextId(items: readonly unknown[]): number {
  let max = 0;
  for (const item of items) {
    const id = isObj(item) ? Number(item.id) : NaN;
    if (Number.isFinite(id) && id > max) max = Math.floor(id);
  }
  return max + 1;
}

/** Where an image or file path is served: addresses as they are, paths of the file host under /files/. */
export function assetUrl(value: string): string | undefined {
  const path = value.trim();
  if (!path) return undefined;
  if (/^(https?:)?\/\//i.test(path)) return path;
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return undefined; // data:, javascript: … never shown
  return `/files/${path.replace(/^\/+/, '')}`;
}

const under = (problemPath: string, path: string) =>
  problemPath === path || problemPath.startsWith(`${path}.`) || problemPath.startsWith(`${path}[`);

/** The problems at `path` or inside it. */
export function problemsAt(problems: readonly Problem[], path: Path): Problem[] {
  const at = formatJsonPath(path);
  return problems.filter((problem) => under(problem.path, at));
}

/**
 * The problems inside the object at `path` that no field of the form shows: the object itself (a required key
 * missing is reported at the key, so those are shown by the field) and keys the form has no field for.
 */
export function problemsBeside(problems: readonly Problem[], path: Path, fields: readonly string[]): Problem[] {
  const at = formatJsonPath(path);
  const shown = fields.map((field) => formatJsonPath([...path, field]));
  return problems.filter(
    (problem) => (problem.path === at || under(problem.path, at)) && !shown.some((field) => under(problem.path, field)),
  );
}

/** The problems of a list itself (not a list item's), e.g. "expected a list". */
export function problemsOfList(problems: readonly Problem[], path: Path): Problem[] {
  const at = formatJsonPath(path);
  return problems.filter(
    (problem) => problem.path === at || (under(problem.path, at) && !/^\[\d+\]/.test(problem.path.slice(at.length))),
  );
}

/** Problems as a list of lines, each with its kind and its path. */
export function ProblemList({ problems, id }: { problems: readonly Problem[]; id?: string }) {
  const { t } = useTranslation();
  if (problems.length === 0) return null;
  return (
    <ul className="site-parts-problems" id={id}>
      {problems.map((problem, index) => (
        <li
          key={index}
          className={`site-parts-problem site-parts-problem--${problem.severity}`}
          data-problem-path={problem.path}
        >
          <Tag color={problem.severity === 'error' ? 'red' : 'gold'}>
            {t(problem.severity === 'error' ? 'siteParts.common.error' : 'siteParts.common.warning')}
          </Tag>
          {problem.message}
        </li>
      ))}
    </ul>
  );
}

/** Problems beside a part or an item, not under one field. */
export function PartProblems({ problems }: { problems: readonly Problem[] }) {
  if (problems.length === 0) return null;
  const error = problems.some((problem) => problem.severity === 'error');
  return (
    <Alert
      className="site-parts-alert"
      type={error ? 'error' : 'warning'}
      showIcon
      message={<ProblemList problems={problems} />}
    />
  );
}

interface FieldControl {
  id: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** A labelled field: the label is tied to the control, the problems at `path` are shown under it. */
export function PartField({
  label,
  path,
  problems,
  hint,
  children,
}: {
  label: ReactNode;
  path: Path;
  problems: readonly Problem[];
  hint?: ReactNode;
  children: (control: FieldControl) => ReactNode;
}) {
  const id = useId();
  const mine = problemsAt(problems, path);
  const helpId = `${id}-problems`;
  const hintId = `${id}-hint`;
  const describedBy = [mine.length > 0 ? helpId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      className="site-parts-field"
      data-path={formatJsonPath(path)}
      validateStatus={mine.some((p) => p.severity === 'error') ? 'error' : mine.length > 0 ? 'warning' : undefined}
      help={mine.length > 0 ? <ProblemList problems={mine} id={helpId} /> : undefined}
      extra={hint ? <span id={hintId}>{hint}</span> : undefined}
    >
      {children({
        id,
        'aria-invalid': mine.some((p) => p.severity === 'error') || undefined,
        'aria-describedby': describedBy,
      })}
    </Form.Item>
  );
}

/** A one-line text field. `required` keeps an emptied value as '' (the validator then names it); else the key goes. */
export function TextField({
  label,
  path,
  problems,
  value,
  onChange,
  required,
  placeholder,
  hint,
  multiline,
}: {
  label: ReactNode;
  path: Path;
  problems: readonly Problem[];
  value: unknown;
  onChange: (value: string | undefined) => void;
  required?: boolean;
  placeholder?: string;
  hint?: ReactNode;
  multiline?: boolean;
}) {
  return (
    <PartField label={label} path={path} problems={problems} hint={hint}>
      {(control) =>
        multiline ? (
          <Input.TextArea
            {...control}
            autoSize={{ minRows: 2, maxRows: 6 }}
            value={text(value)}
            placeholder={placeholder}
            onChange={(event) => onChange(required ? event.target.value : optional(event.target.value))}
          />
        ) : (
          <Input
            {...control}
            value={text(value)}
            placeholder={placeholder}
            onChange={(event) => onChange(required ? event.target.value : optional(event.target.value))}
          />
        )
      }
    </PartField>
  );
}

/** A yes/no key of `object` as a switch: on writes `true`, off leaves the key out (the site's default). */
export function FlagField({
  label,
  hint,
  path,
  problems,
  object,
  field,
  onChange,
}: {
  label: ReactNode;
  hint?: ReactNode;
  path: Path;
  problems: readonly Problem[];
  object: Obj;
  field: string;
  onChange: (next: Obj) => void;
}) {
  return (
    <PartField label={label} hint={hint} path={[...path, field]} problems={problems}>
      {(control) => (
        <Switch
          {...control}
          checked={object[field] === true}
          onChange={(on) => onChange(withKey(object, field, on ? true : undefined))}
        />
      )}
    </PartField>
  );
}

/**
 * A Chinese text and its English one (`key`, `keyEn`) side by side: the English one may stay empty (the English
 * site then shows the Chinese).
 */
export function BilingualFields({
  label,
  object,
  path,
  field,
  problems,
  onChange,
  required,
  multiline,
}: {
  label: string;
  object: Obj;
  path: Path;
  field: string;
  problems: readonly Problem[];
  onChange: (next: Obj) => void;
  required?: boolean;
  multiline?: boolean;
}) {
  const { t } = useTranslation();
  const en = `${field}En`;
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <TextField
          label={t('siteParts.common.inZh', { field: label })}
          path={[...path, field]}
          problems={problems}
          value={object[field]}
          required={required}
          multiline={multiline}
          onChange={(value) => onChange(withKey(object, field, value))}
        />
      </Col>
      <Col xs={24} md={12}>
        <TextField
          label={t('siteParts.common.inEn', { field: label })}
          path={[...path, en]}
          problems={problems}
          value={object[en]}
          multiline={multiline}
          placeholder={t('siteParts.common.enFallback')}
          onChange={(value) => onChange(withKey(object, en, value))}
        />
      </Col>
    </Row>
  );
}

/**
 * An image (or file) of the race's assets, through the asset picker; an image slot's exact size, where the site
 * fixes one (contract/assets.ts SITE_IMAGE_SLOTS), goes to the picker, which refuses images of another size.
 */
export function ImageField({
  label,
  path,
  problems,
  raceId,
  value,
  onChange,
  required,
  hint,
  kind,
}: {
  label: string;
  path: Path;
  problems: readonly Problem[];
  raceId: string;
  value: unknown;
  onChange: (value: string | undefined) => void;
  required?: boolean;
  hint?: ReactNode;
  kind?: AssetPickerProps['kind'];
}) {
  const size = kind === 'file' ? undefined : siteSlotSize(formatJsonPath(path).replace(/^\$\.?/, ''));
  return (
    <PartField label={label} path={path} problems={problems} hint={hint}>
      {(control) => (
        <AssetPicker
          id={control.id}
          aria-label={label}
          raceId={raceId}
          value={text(value)}
          size={size}
          kind={kind}
          onChange={(next) => onChange(required ? next : optional(next))}
        />
      )}
    </PartField>
  );
}

/** A small picture of an image path, or a grey box saying there is none. */
export function Thumbnail({ src, alt }: { src: unknown; alt: string }) {
  const { t } = useTranslation();
  const url = assetUrl(text(src));
  return url ? (
    <img className="site-parts-thumb" src={url} alt={alt} />
  ) : (
    <span className="site-parts-thumb site-parts-thumb--none">{t('siteParts.common.noImage')}</span>
  );
}

/** Moves the item at `from` one place up (-1) or down (+1). */
export function moved<T>(items: readonly T[], from: number, step: -1 | 1): T[] {
  const to = from + step;
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

/**
 * A list of cards: each item with its title, move up / move down / remove buttons and its fields; an add
 * button; the empty state explained. After a move the focus follows the moved item, so the keyboard can move
 * it again at once.
 */
export function CardList<T>({
  items,
  onChange,
  path,
  problems,
  itemTitle,
  renderItem,
  newItem,
  addLabel,
  emptyText,
  testId,
  extraActions,
  itemFields,
}: {
  items: readonly T[];
  onChange: (next: T[]) => void;
  path: Path;
  problems: readonly Problem[];
  itemTitle: (item: T, index: number) => ReactNode;
  renderItem: (item: T, index: number, update: (next: T) => void) => ReactNode;
  newItem: () => T;
  addLabel: string;
  emptyText: string;
  testId: string;
  extraActions?: ReactNode;
  /** The keys of an item the form has fields for: problems under other keys are shown at the top of its card. */
  itemFields: readonly string[];
}) {
  const { t } = useTranslation();
  const listId = useId();
  // After a change the page re-renders the list: then the focus goes where the keyboard left off (the moved
  // item's button, the item after a removed one, the first field of an added one).
  const pendingFocus = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    target()?.focus();
  });
  const button = (index: number, action: 'up' | 'down' | 'remove') => {
    const element = document.getElementById(`${listId}-${index}-${action}`) as HTMLButtonElement | null;
    return element && !element.disabled ? element : null;
  };

  const move = (index: number, step: -1 | 1) => {
    const to = index + step;
    const action = step < 0 ? 'up' : 'down';
    pendingFocus.current = () => button(to, action) ?? button(to, action === 'up' ? 'down' : 'up');
    onChange(moved(items, index, step));
  };
  const remove = (index: number) => {
    pendingFocus.current = () =>
      button(index, 'remove') ?? button(index - 1, 'remove') ?? document.getElementById(`${listId}-add`);
    onChange(items.filter((_, i) => i !== index));
  };
  const add = () => {
    const index = items.length;
    pendingFocus.current = () =>
      document
        .querySelector(`[data-testid="${testId}-${index}"]`)
        ?.querySelector<HTMLElement>('.ant-card-body input, .ant-card-body textarea, .ant-card-body button');
    onChange([...items, newItem()]);
  };
  const update = (index: number) => (next: T) => onChange(items.map((item, i) => (i === index ? next : item)));

  return (
    <div className="site-parts-list" data-testid={testId}>
      <PartProblems problems={problemsOfList(problems, path)} />
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} className="site-parts-empty" />
      ) : (
        <Space orientation="vertical" size={12} className="site-parts-cards">
          {items.map((item, index) => {
            const title = itemTitle(item, index);
            const name = t('siteParts.common.itemNumber', { n: index + 1 });
            return (
              <Card
                key={index}
                size="small"
                className="site-parts-card"
                data-testid={`${testId}-${index}`}
                title={
                  <span className="site-parts-card-title">
                    <span className="site-parts-card-number">{index + 1}</span>
                    {title}
                  </span>
                }
                extra={
                  <Space size={4}>
                    <Button
                      id={`${listId}-${index}-up`}
                      size="small"
                      icon={<ArrowUpOutlined aria-hidden />}
                      disabled={index === 0}
                      aria-label={t('siteParts.common.moveUp', { item: name })}
                      title={t('siteParts.common.moveUp', { item: name })}
                      onClick={() => move(index, -1)}
                    />
                    <Button
                      id={`${listId}-${index}-down`}
                      size="small"
                      icon={<ArrowDownOutlined aria-hidden />}
                      disabled={index === items.length - 1}
                      aria-label={t('siteParts.common.moveDown', { item: name })}
                      title={t('siteParts.common.moveDown', { item: name })}
                      onClick={() => move(index, 1)}
                    />
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined aria-hidden />}
                      aria-label={t('siteParts.common.remove', { item: name })}
                      title={t('siteParts.common.remove', { item: name })}
                      id={`${listId}-${index}-remove`}
                      onClick={() => remove(index)}
                    />
                  </Space>
                }
              >
                <PartProblems problems={problemsBeside(problems, [...path, index], itemFields)} />
                {renderItem(item, index, update(index))}
              </Card>
            );
          })}
        </Space>
      )}
      <Space wrap className="site-parts-add">
        <Button id={`${listId}-add`} icon={<PlusOutlined aria-hidden />} onClick={add} data-testid={`${testId}-add`}>
          {addLabel}
        </Button>
        {extraActions}
      </Space>
    </div>
  );
}

/**
 * The list at `key` of `object` as it is (an item that is not an object stays as it is, shown as broken), or
 * `broken` when the value is there but not a list.
 */
export function listPart(object: Obj, key: string): { items: unknown[]; broken: boolean } {
  const value = object[key];
  if (value === undefined) return { items: [], broken: false };
  if (!Array.isArray(value)) return { items: [], broken: true };
  return { items: value, broken: false };
}

/** renderItem for a CardList of objects: an item that is not an object is said to be broken, never overwritten. */
export function objectItems(render: (item: Obj, index: number, update: (next: Obj) => void) => ReactNode) {
  function ObjectItem(item: unknown, index: number, update: (next: unknown) => void) {
    return isObj(item) ? render(item, index, update) : <BrokenItem />;
  }
  return ObjectItem;
}

function BrokenItem() {
  const { t } = useTranslation();
  return <Alert type="warning" showIcon message={t('siteParts.common.brokenItem')} />;
}

/** Said when a part is there but not of its type: the form would lose it, so it is fixed in the JSON editor. */
export function BrokenPart({ name }: { name: string }) {
  const { t } = useTranslation();
  return <Alert type="warning" showIcon message={t('siteParts.common.broken', { part: name })} />;
}

/**
 * A picture item's title in its card (a slide, an ad): the thumbnail of its image and its title, or "<untitled> n".
 * `texts` is the editor's key prefix: its `untitled` ({{n}}) and `thumbnailOf` ({{name}}) texts.
 */
export function ImageItemTitle({ item, index, texts }: { item: unknown; index: number; texts: string }) {
  const { t } = useTranslation();
  const picture = isObj(item) ? item : {};
  const name = text(picture.title) || t(`${texts}.untitled`, { n: index + 1 });
  return (
    <>
      <Thumbnail src={picture.surfacePlotUrl} alt={t(`${texts}.thumbnailOf`, { name })} />
      <span>{name}</span>
    </>
  );
}

/** A titled section of an editor (a card): its heading, an optional hint under it, then its fields. */
export function PartSection({
  title,
  hint,
  testId,
  level = 2,
  small,
  children,
}: {
  title: ReactNode;
  hint?: ReactNode;
  testId?: string;
  /** h2 for an editor's sections, h3 for a section inside one. */
  level?: 2 | 3;
  small?: boolean;
  children: ReactNode;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <Card
      size={small ? 'small' : undefined}
      className="site-parts-section"
      data-testid={testId}
      title={<Heading className="site-parts-section-title">{title}</Heading>}
    >
      {hint !== undefined && <p className="site-parts-section-hint">{hint}</p>}
      {children}
    </Card>
  );
}

/** An editor's frame: its intro, then its sections, in a vertical form. */
export function EditorFrame({ intro, children, testId }: { intro: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Form layout="vertical" component="div" className="site-parts" data-testid={testId}>
      <p className="site-parts-intro">{intro}</p>
      {children}
    </Form>
  );
}
