/**
 * The console's rich-text editor (issue 33 §2): document content and news, written as a race director writes a
 * notice, without HTML. A contenteditable area under a toolbar (WAI-ARIA toolbar: one tab stop, arrow keys move
 * between the buttons), an "HTML source" view for what the toolbar cannot do, and pasting from Word or a web page
 * cleaned on the way in.
 *
 * What it gives back is always sanitizeRichText(html) (contract/rich-text.ts), the sanitiser the public site
 * renders with: what is stored is what the site shows, and a script, an event handler or a javascript: link never
 * reaches the document, whatever was typed, pasted or written in the source view.
 *
 * The commands are the browser's editing commands (document.execCommand): they keep the browser's own undo stack,
 * which the undo and redo buttons (and Ctrl+Z / Ctrl+Y) use.
 */
import BoldOutlined from '@ant-design/icons/BoldOutlined';
import ClearOutlined from '@ant-design/icons/ClearOutlined';
import CodeOutlined from '@ant-design/icons/CodeOutlined';
import ItalicOutlined from '@ant-design/icons/ItalicOutlined';
import LinkOutlined from '@ant-design/icons/LinkOutlined';
import MinusOutlined from '@ant-design/icons/MinusOutlined';
import OrderedListOutlined from '@ant-design/icons/OrderedListOutlined';
import PictureOutlined from '@ant-design/icons/PictureOutlined';
import RedoOutlined from '@ant-design/icons/RedoOutlined';
import UnderlineOutlined from '@ant-design/icons/UnderlineOutlined';
import UndoOutlined from '@ant-design/icons/UndoOutlined';
import UnorderedListOutlined from '@ant-design/icons/UnorderedListOutlined';
import { Button, Form, Input, Modal, Typography } from 'antd';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { inspectLink } from '#contract/link-safety';
import { isBlankHtml, sanitizeRichText } from '#contract/rich-text';
import { AssetPicker } from './asset-picker';
import './rich-text-editor.css';

export interface RichTextEditorProps {
  raceId: string;
  /** The HTML (it is shown sanitised). */
  value: string;
  /** Always sanitizeRichText of what the editor holds; '' when it shows nothing. */
  onChange: (html: string) => void;
  /** The editing area's accessible name (the label it sits under). */
  'aria-label': string;
  id?: string;
}

/** The file host the public site reads relative paths from (VITE_FILE_HOST of every build: /files/). */
const FILE_HOST = '/files/';

/** An asset path (assets/<race>/<name>) as an image address in rich text, where nothing prefixes it. */
export function richTextImageSrc(path: string): string {
  const value = path.trim();
  if (/^(https?:)?\/\//i.test(value) || value.startsWith('/')) return value;
  return `${FILE_HOST}${value}`;
}

/** The problem of a link address (an i18n key under richText.errors), or undefined when it may be used. */
export function linkAddressProblem(address: string): string | undefined {
  const value = address.trim();
  const found = inspectLink(value);
  if (found.kind === 'empty') return 'addressRequired';
  if (found.kind === 'blocked') return 'addressBlocked';
  if (found.problem) return 'addressBackslash';
  if (found.kind === 'other' && !/^(mailto|tel):/i.test(value)) return 'addressOther';
  return undefined;
}

/** What the editor gives back for the HTML it holds. */
function output(html: string): string {
  const clean = sanitizeRichText(html);
  return isBlankHtml(clean) ? '' : clean;
}

/** Attributes pasted content keeps (the rest is Word's and web pages' styling: classes, ids, languages …). */
const PASTE_ATTRIBUTES = new Set(['href', 'src', 'alt', 'title', 'colspan', 'rowspan', 'width', 'height']);
/** Elements whose tags pasted content loses (their text stays). */
const PASTE_UNWRAP = new Set(['SPAN', 'FONT', 'DIV', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'MAIN', 'ASIDE']);

/** HTML from the clipboard (Word, a web page), sanitised and stripped of its styling. */
export function cleanPastedHtml(html: string): string {
  const doc = new DOMParser().parseFromString(sanitizeRichText(html), 'text/html');
  for (const element of [...doc.body.querySelectorAll('*')].reverse()) {
    for (const { name } of [...element.attributes]) {
      if (!PASTE_ATTRIBUTES.has(name)) element.removeAttribute(name);
    }
    if (PASTE_UNWRAP.has(element.tagName) || element.tagName.includes(':')) {
      // A div of a web page is a paragraph when it holds only text and inline elements.
      if (element.tagName === 'DIV' && !element.querySelector('p, h1, h2, h3, h4, h5, h6, ul, ol, table, blockquote')) {
        const paragraph = doc.createElement('p');
        paragraph.append(...element.childNodes);
        element.replaceWith(paragraph);
      } else {
        element.replaceWith(...element.childNodes);
      }
    }
  }
  // Word's empty paragraphs (<p><o:p>&nbsp;</o:p></p>) become nothing.
  for (const paragraph of doc.body.querySelectorAll('p')) {
    if (isBlankHtml(paragraph.innerHTML)) paragraph.remove();
  }
  return output(doc.body.innerHTML);
}

type Block = 'p' | 'h2' | 'h3' | 'blockquote' | '';
interface Active {
  block: Block;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  ul: boolean;
  ol: boolean;
  link: boolean;
}
const NOTHING_ACTIVE: Active = {
  block: '',
  bold: false,
  italic: false,
  underline: false,
  ul: false,
  ol: false,
  link: false,
};

function command(name: string, value?: string) {
  // The browser's editing commands: deprecated in name only, the one way to edit that keeps the native undo stack.
  document.execCommand(name, false, value);
}

function queryState(name: string): boolean {
  try {
    return document.queryCommandState(name);
  } catch {
    return false;
  }
}

function currentBlock(): Block {
  let value = '';
  try {
    value = document.queryCommandValue('formatBlock').toLowerCase();
  } catch {
    value = '';
  }
  return (['p', 'h2', 'h3', 'blockquote'] as const).find((block) => block === value) ?? '';
}

interface ToolButton {
  key: string;
  label: string;
  icon: ReactNode;
  /** undefined: not a toggle (no aria-pressed). */
  pressed?: boolean;
}

export function RichTextEditor({ raceId, value, onChange, id, 'aria-label': label }: RichTextEditorProps) {
  const { t } = useTranslation();
  const fallbackId = useId();
  const editorId = id ?? fallbackId;
  const area = useRef<HTMLDivElement>(null);
  /** What the editor last gave back: the same value coming back from the parent is not written again. */
  const emitted = useRef<string | null>(null);
  const saved = useRef<Range | null>(null);
  const [active, setActive] = useState<Active>(NOTHING_ACTIVE);
  const [source, setSource] = useState<string | null>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  /** The link dialog, while open: the address of the link the selection is in, and whether text must be typed. */
  const [linkState, setLinkState] = useState<{ address: string; needsText: boolean } | null>(null);
  const [imageOpen, setImageOpen] = useState(false);
  const toolbar = useRef<HTMLDivElement>(null);

  // The document's value, shown sanitised, whenever it is not the one the editor just gave back.
  useEffect(() => {
    const element = area.current;
    if (!element || value === emitted.current) return;
    element.innerHTML = sanitizeRichText(value);
    emitted.current = value;
  }, [value]);

  const emit = useCallback(() => {
    const element = area.current;
    if (!element) return;
    const next = output(element.innerHTML);
    if (next === emitted.current) return;
    emitted.current = next;
    onChange(next);
  }, [onChange]);

  const refresh = useCallback(() => {
    const selection = document.getSelection();
    const element = area.current;
    if (!selection || selection.rangeCount === 0 || !element) return;
    const range = selection.getRangeAt(0);
    if (!element.contains(range.commonAncestorContainer)) return;
    saved.current = range.cloneRange();
    const node = range.startContainer;
    const at = node instanceof Element ? node : node.parentElement;
    setActive({
      block: currentBlock(),
      bold: queryState('bold'),
      italic: queryState('italic'),
      underline: queryState('underline'),
      ul: queryState('insertUnorderedList'),
      ol: queryState('insertOrderedList'),
      link: Boolean(at?.closest('a') && element.contains(at.closest('a'))),
    });
  }, []);

  useEffect(() => {
    document.addEventListener('selectionchange', refresh);
    return () => document.removeEventListener('selectionchange', refresh);
  }, [refresh]);

  /** Focus the area and put back the selection the toolbar's focus took away. */
  const restore = useCallback(() => {
    const element = area.current;
    if (!element) return;
    const selection = document.getSelection();
    const inside =
      document.activeElement === element &&
      selection !== null &&
      selection.rangeCount > 0 &&
      element.contains(selection.getRangeAt(0).commonAncestorContainer);
    // A mouse click on the toolbar leaves the text focused and its selection as it was (with the browser's
    // pending bold or italic for the next letters, which setting the selection again would drop).
    if (inside) return;
    element.focus();
    if (saved.current && selection && element.contains(saved.current.commonAncestorContainer)) {
      selection.removeAllRanges();
      selection.addRange(saved.current);
    }
  }, []);

  /** An empty area gets a paragraph to type in, so the first line is a <p> like the others. */
  const startParagraph = useCallback(() => {
    try {
      command('defaultParagraphSeparator', 'p');
    } catch {
      // Not every engine knows it; a new line is then a div, which the site shows the same.
    }
    const element = area.current;
    if (!element || element.innerHTML.trim() !== '') return;
    const paragraph = document.createElement('p');
    paragraph.append(document.createElement('br'));
    element.append(paragraph);
    const range = document.createRange();
    range.setStart(paragraph, 0);
    range.collapse(true);
    const selection = document.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }, []);

  const run = useCallback(
    (name: string, argument?: string) => {
      restore();
      command(name, argument);
      emit();
      refresh();
    },
    [emit, refresh, restore],
  );

  /**
   * Inserts HTML at the caret. The browser copies the surrounding look into what it inserts (style="…" on a
   * link, a span): the sanitiser drops it from the value anyway, and it is taken out here so the text shows what
   * will be stored.
   */
  const insertHtml = (html: string) => {
    run('insertHTML', html);
    for (const styled of area.current?.querySelectorAll('[style], [class]') ?? []) {
      styled.removeAttribute('style');
      styled.removeAttribute('class');
    }
    for (const span of area.current?.querySelectorAll('span') ?? []) span.replaceWith(...span.childNodes);
  };

  /** Writes `text` at the caret and makes it a link (the browser's own commands: one undo step each). */
  const insertLink = (address: string, text: string) => {
    run('insertText', text);
    const selection = document.getSelection();
    const node = selection?.focusNode;
    const offset = selection?.focusOffset ?? 0;
    if (selection && node?.nodeType === Node.TEXT_NODE && offset >= text.length) {
      selection.setBaseAndExtent(node, offset - text.length, node, offset);
      saved.current = selection.getRangeAt(0).cloneRange();
      run('createLink', address);
      selection.collapseToEnd();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const html = event.clipboardData.getData('text/html');
    const text = event.clipboardData.getData('text/plain');
    event.preventDefault();
    if (html) insertHtml(cleanPastedHtml(html));
    else if (text) run('insertText', text);
  };

  const openLink = useCallback(
    () =>
      setLinkState({
        address: currentLinkAddress(saved.current),
        needsText: (saved.current?.collapsed ?? true) && !active.link,
      }),
    [active.link],
  );

  /** What each toolbar button does. */
  const perform = useCallback(
    (key: string) => {
      const block = (wanted: Exclude<Block, ''>) => run('formatBlock', active.block === wanted ? 'p' : wanted);
      const commands: Record<string, () => void> = {
        paragraph: () => run('formatBlock', 'p'),
        heading2: () => block('h2'),
        heading3: () => block('h3'),
        bold: () => run('bold'),
        italic: () => run('italic'),
        underline: () => run('underline'),
        bulletList: () => run('insertUnorderedList'),
        numberedList: () => run('insertOrderedList'),
        quote: () => block('blockquote'),
        link: openLink,
        image: () => setImageOpen(true),
        rule: () => run('insertHorizontalRule'),
        clear: () => {
          run('removeFormat');
          if (active.block === 'h2' || active.block === 'h3' || active.block === 'blockquote') run('formatBlock', 'p');
        },
        undo: () => run('undo'),
        redo: () => run('redo'),
      };
      commands[key]?.();
    },
    [active.block, openLink, run],
  );

  const tools: ToolButton[] = [
    {
      key: 'paragraph',
      label: t('richText.paragraph'),
      icon: <Glyph text="¶" />,
      pressed: active.block === 'p',
    },
    {
      key: 'heading2',
      label: t('richText.heading2'),
      icon: <Glyph text="H2" />,
      pressed: active.block === 'h2',
    },
    {
      key: 'heading3',
      label: t('richText.heading3'),
      icon: <Glyph text="H3" />,
      pressed: active.block === 'h3',
    },
    { key: 'bold', label: t('richText.bold'), icon: <BoldOutlined aria-hidden />, pressed: active.bold },
    {
      key: 'italic',
      label: t('richText.italic'),
      icon: <ItalicOutlined aria-hidden />,
      pressed: active.italic,
    },
    {
      key: 'underline',
      label: t('richText.underline'),
      icon: <UnderlineOutlined aria-hidden />,
      pressed: active.underline,
    },
    {
      key: 'bulletList',
      label: t('richText.bulletList'),
      icon: <UnorderedListOutlined aria-hidden />,
      pressed: active.ul,
    },
    {
      key: 'numberedList',
      label: t('richText.numberedList'),
      icon: <OrderedListOutlined aria-hidden />,
      pressed: active.ol,
    },
    {
      key: 'quote',
      label: t('richText.quote'),
      icon: <Glyph text="❝" />,
      pressed: active.block === 'blockquote',
    },
    {
      key: 'link',
      label: t('richText.link'),
      icon: <LinkOutlined aria-hidden />,
      pressed: active.link,
    },
    { key: 'image', label: t('richText.image'), icon: <PictureOutlined aria-hidden /> },
    { key: 'rule', label: t('richText.rule'), icon: <MinusOutlined aria-hidden /> },
    {
      key: 'clear',
      label: t('richText.clear'),
      icon: <ClearOutlined aria-hidden />,
    },
    { key: 'undo', label: t('richText.undo'), icon: <UndoOutlined aria-hidden /> },
    { key: 'redo', label: t('richText.redo'), icon: <RedoOutlined aria-hidden /> },
  ];
  const sourceIndex = tools.length;

  const toggleSource = useCallback(() => {
    const element = area.current;
    if (source === null) {
      setSource(emitted.current ?? output(element?.innerHTML ?? ''));
      return;
    }
    const next = output(source);
    if (element) element.innerHTML = next;
    emitted.current = next;
    setSource(null);
    onChange(next);
    requestAnimationFrame(() => element?.focus());
  }, [onChange, source]);

  /** WAI-ARIA toolbar: arrow keys, Home and End move between the buttons; Tab leaves the toolbar. */
  const onToolbarKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(toolbar.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    let next = at;
    if (event.key === 'ArrowRight') next = (at + 1) % buttons.length;
    else if (event.key === 'ArrowLeft') next = (at - 1 + buttons.length) % buttons.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = buttons.length - 1;
    else return;
    event.preventDefault();
    buttons[next]?.focus();
  };

  return (
    <div className="rich-text-editor">
      <div
        ref={toolbar}
        role="toolbar"
        aria-label={`${label}: ${t('richText.toolbar')}`}
        aria-controls={editorId}
        className="rich-text-toolbar"
        onKeyDown={onToolbarKey}
      >
        {tools.map((tool, index) => (
          <ToolbarButton
            key={tool.key}
            tool={tool}
            tabbable={index === focusIndex}
            disabled={source !== null}
            onFocus={() => setFocusIndex(index)}
            onRun={() => perform(tool.key)}
          />
        ))}
        <span className="rich-text-toolbar-gap" />
        <ToolbarButton
          tool={{
            key: 'source',
            label: t('richText.source'),
            icon: <CodeOutlined aria-hidden />,
            pressed: source !== null,
          }}
          onRun={toggleSource}
          tabbable={sourceIndex === focusIndex}
          disabled={false}
          onFocus={() => setFocusIndex(sourceIndex)}
        />
      </div>
      <div
        ref={area}
        id={editorId}
        className="rich-text-area safe-html"
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        tabIndex={0}
        contentEditable
        suppressContentEditableWarning
        hidden={source !== null}
        onInput={emit}
        onBlur={emit}
        onFocus={startParagraph}
        onPaste={onPaste}
        onKeyUp={refresh}
        onMouseUp={refresh}
      />
      {source !== null ? (
        <div className="rich-text-source">
          <Input.TextArea
            aria-label={t('richText.sourceLabel', { label })}
            value={source}
            autoSize={{ minRows: 10, maxRows: 30 }}
            spellCheck={false}
            onChange={(event) => {
              setSource(event.target.value);
              const next = output(event.target.value);
              emitted.current = next;
              onChange(next);
            }}
          />
          <Typography.Text type="secondary">{t('richText.sourceHint')}</Typography.Text>
        </div>
      ) : null}
      <LinkDialog
        open={linkState !== null}
        inLink={active.link}
        initialAddress={linkState?.address ?? ''}
        needsText={linkState?.needsText ?? false}
        onCancel={() => {
          setLinkState(null);
          restore();
        }}
        onRemove={() => {
          setLinkState(null);
          selectLink(saved.current);
          run('unlink');
        }}
        onOk={(address, text) => {
          setLinkState(null);
          if (active.link) selectLink(saved.current);
          if (text) insertLink(address.trim(), text);
          else run('createLink', address.trim());
        }}
      />
      <ImageDialog
        open={imageOpen}
        raceId={raceId}
        onCancel={() => {
          setImageOpen(false);
          restore();
        }}
        onOk={(path, alt) => {
          setImageOpen(false);
          const image = document.createElement('img');
          image.setAttribute('src', richTextImageSrc(path));
          image.setAttribute('alt', alt.trim());
          insertHtml(image.outerHTML);
        }}
      />
    </div>
  );
}

/**
 * A button's letters (H2, ¶), drawn by CSS like an icon: the button's name is its label ("Heading 2"), which the
 * letters only abbreviate (as text they would have to be part of the name).
 */
function Glyph({ text }: { text: string }) {
  return <span aria-hidden="true" className="rich-text-glyph" data-glyph={text} />;
}

function ToolbarButton(props: {
  tool: ToolButton;
  tabbable: boolean;
  disabled: boolean;
  onFocus: () => void;
  onRun: () => void;
}) {
  const { tool } = props;
  return (
    <Button
      type={tool.pressed ? 'primary' : 'text'}
      ghost={tool.pressed}
      size="small"
      className="rich-text-tool"
      aria-label={tool.label}
      title={tool.label}
      aria-pressed={tool.pressed}
      tabIndex={props.tabbable ? 0 : -1}
      disabled={props.disabled}
      onFocus={props.onFocus}
      // Keep the selection in the text while the mouse presses a button.
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onRun}
    >
      {tool.icon}
    </Button>
  );
}

/** The address of the link the selection is in, if any. */
function currentLinkAddress(range: Range | null): string {
  const node = range?.startContainer;
  const at = node instanceof Element ? node : node?.parentElement;
  return at?.closest('a')?.getAttribute('href') ?? '';
}

/** Selects the whole link the saved selection is in, so a changed address or unlink covers all of it. */
function selectLink(range: Range | null) {
  const node = range?.startContainer;
  const anchor = (node instanceof Element ? node : node?.parentElement)?.closest('a');
  if (!anchor || !range) return;
  range.selectNodeContents(anchor);
}

function LinkDialog(props: {
  open: boolean;
  inLink: boolean;
  initialAddress: string;
  needsText: boolean;
  onOk: (address: string, text: string) => void;
  onRemove: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ address: string; text: string }>();
  const { open, initialAddress } = props;
  useEffect(() => {
    if (open) form.setFieldsValue({ address: initialAddress, text: '' });
  }, [open, initialAddress, form]);
  return (
    <Modal
      open={props.open}
      title={t('richText.linkDialog.title')}
      onCancel={props.onCancel}
      destroyOnHidden
      footer={[
        props.inLink ? (
          <Button key="remove" danger onClick={props.onRemove}>
            {t('richText.linkDialog.remove')}
          </Button>
        ) : null,
        <Button key="cancel" onClick={props.onCancel}>
          {t('richText.linkDialog.cancel')}
        </Button>,
        <Button key="ok" type="primary" onClick={() => form.submit()}>
          {t('richText.linkDialog.ok')}
        </Button>,
      ]}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => props.onOk(values.address, props.needsText ? values.text.trim() : '')}
      >
        <Form.Item
          name="address"
          label={t('richText.linkDialog.address')}
          extra={t('richText.linkDialog.addressHelp')}
          rules={[
            {
              validator: (_rule, address: string | undefined) => {
                const problem = linkAddressProblem(address ?? '');
                return problem ? Promise.reject(new Error(t(`richText.errors.${problem}`))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input inputMode="url" />
        </Form.Item>
        {props.needsText ? (
          <Form.Item
            name="text"
            label={t('richText.linkDialog.text')}
            rules={[{ required: true, whitespace: true, message: t('richText.errors.textRequired') }]}
          >
            <Input />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

function ImageDialog(props: {
  open: boolean;
  raceId: string;
  onOk: (path: string, alt: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ path: string; alt: string }>();
  const fieldId = useId();
  return (
    <Modal
      open={props.open}
      title={t('richText.imageDialog.title')}
      onCancel={props.onCancel}
      destroyOnHidden
      okText={t('richText.imageDialog.ok')}
      cancelText={t('richText.imageDialog.cancel')}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ path: '', alt: '' }}
        onFinish={(values) => props.onOk(values.path, values.alt)}
      >
        <Form.Item
          name="path"
          label={t('richText.imageDialog.file')}
          htmlFor={`${fieldId}-path`}
          rules={[
            { required: true, whitespace: true, message: t('richText.errors.imageRequired') },
            {
              validator: (_rule, path: string | undefined) =>
                path && inspectLink(path).kind === 'blocked'
                  ? Promise.reject(new Error(t('richText.errors.addressBlocked')))
                  : Promise.resolve(),
            },
          ]}
        >
          <ImagePath raceId={props.raceId} id={`${fieldId}-path`} label={t('richText.imageDialog.file')} />
        </Form.Item>
        <Form.Item
          name="alt"
          label={t('richText.imageDialog.alt')}
          extra={t('richText.imageDialog.altHelp')}
          rules={[{ required: true, whitespace: true, message: t('richText.errors.altRequired') }]}
        >
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** AssetPicker as a form control (Form.Item hands it value and onChange). */
function ImagePath(props: {
  raceId: string;
  id: string;
  label: string;
  value?: string;
  onChange?: (v: string) => void;
}) {
  return (
    <AssetPicker
      raceId={props.raceId}
      id={props.id}
      aria-label={props.label}
      kind="image"
      value={props.value ?? ''}
      onChange={(next) => props.onChange?.(next)}
    />
  );
}
