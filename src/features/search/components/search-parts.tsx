import { useTranslation } from 'react-i18next';
import type { Refusal } from '#contract/messages';
import { checkBib } from '#contract/rules';
import { refusalText } from '@/lib/form-rules';
import { FormField } from './form-field';

/** The submit button of a search form ('Search' / 'Searching…'), with any further actions after it. */
export function SearchSubmit({ loading, children }: { loading: boolean; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="search-actions">
      <button type="submit" className="search-btn" disabled={loading}>
        {loading ? t('search.searching') : t('search.submit')}
      </button>
      {children}
    </div>
  );
}

/** Why a lookup found nothing, announced to assistive technology. */
export function SearchFailure({ failure }: { failure: string | null }) {
  return failure ? (
    <p className="search-empty" role="alert" data-testid="search-failure">
      {failure}
    </p>
  ) : null;
}

/** The bib number field: label, placeholder, its rule's message; checked on leaving it. */
export function BibField({
  value,
  onChange,
  error,
  onError,
}: {
  value: string;
  onChange: (value: string) => void;
  error: Refusal | null;
  onError: (error: Refusal | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <FormField label={t('search.fields.bib')} error={error ? refusalText(error) : null}>
      {(p) => (
        <input
          {...p}
          className="search-input"
          placeholder={t('search.fields.bibPlaceholder')}
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
            // The message goes when the value changes, not under the pointer on the way to the button.
            if (error) onError(null);
          }}
          onBlur={() => onError(checkBib(value))}
        />
      )}
    </FormField>
  );
}
