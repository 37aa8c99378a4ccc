/**
 * A button that opens the file chooser (a hidden file input beside it): one control for the keyboard and
 * screen readers, where antd's Upload would wrap a button in another focusable element.
 */
import { useRef, type ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';

export function FileButton({
  accept,
  multiple = false,
  onFiles,
  children,
  inputLabel,
  ...button
}: Omit<ButtonProps, 'onClick'> & {
  accept: string;
  multiple?: boolean;
  onFiles: (files: File[]) => void;
  children: ReactNode;
  /** The file input's own name (tests and assistive technology reaching it directly). */
  inputLabel: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button {...button} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        aria-label={inputLabel}
        tabIndex={-1}
        hidden
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
