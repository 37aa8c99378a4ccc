import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldClass } from '@/components/form/field-item';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import type { RaceWithResults } from '../types/search-types';

/**
 * The race a lookup asks about (score and photo search): the organiser's races with results, latest first,
 * named in the page's language. Nothing while there is no list (the page then asks about the bound race).
 * `id` is the select's id and test id.
 */
export function ResultRacePicker({
  id,
  races,
  value,
  onChange,
}: {
  id: string;
  races: RaceWithResults[];
  value: string;
  onChange: (raceId: string) => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  if (!races.length) return null;
  return (
    <Form.Item label={t('search.fields.race')} htmlFor={id} className={fieldClass(true, 'form-field--select')}>
      <select id={id} className="form-select" data-testid={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {races.map((r) => (
          <option key={r.raceId} value={r.raceId}>
            {pickLang(language, r.raceName, r.raceNameEn)}
          </option>
        ))}
      </select>
    </Form.Item>
  );
}
