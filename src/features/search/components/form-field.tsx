import { useId } from 'react';

/** A labelled input or select with its validation message linked for screen readers. */
export function FormField({
  label,
  error,
  wide = false,
  children,
}: {
  label: string;
  error?: string | null;
  /** A whole row of the form (a race name is longer than a bib or a name). */
  wide?: boolean;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => React.ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div
      className={['search-field', error && 'search-field--error', wide && 'search-field--wide']
        .filter(Boolean)
        .join(' ')}
    >
      <label htmlFor={id} className="search-field__label">
        {label}
      </label>
      {children({ id, 'aria-invalid': !!error, 'aria-describedby': error ? errorId : undefined })}
      {/* The message line keeps its space when empty, so the fields and buttons below never move when a
          message appears or goes on blur (a click on the button right after leaving a field would miss). */}
      <div className="search-field__message">
        {error ? (
          <p id={errorId} className="search-field__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
