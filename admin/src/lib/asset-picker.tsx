/**
 * A field that names one of the race's assets (issue 33 §1): the site's editors use it wherever the document
 * takes an image or a file (a carousel slide, an ad, a partner's logo, an image in rich text). Its value is the
 * asset's path on the file host (`assets/<raceId>/<name>`) or an address the organiser typed.
 *
 * FIRST VERSION (placeholder for helper a, to be replaced by the asset library's picker: the list of the race's
 * assets with thumbnails, upload in place, and the slot's required size checked). The props stay as they are.
 */
import { Input } from 'antd';

export interface AssetPickerProps {
  raceId: string;
  /** The asset's path (assets/<raceId>/<name>) or an address; '' when none is chosen. */
  value: string;
  onChange: (value: string) => void;
  /** Images only (the default), or any file (documents to download). */
  kind?: 'image' | 'file';
  /** The slot's exact size where the site needs one (contract/rules ImageSize): other images are refused. */
  size?: { width: number; height: number };
  /** The field's accessible name (the label it sits under). */
  'aria-label'?: string;
  id?: string;
}

export function AssetPicker({ value, onChange, id, 'aria-label': ariaLabel }: AssetPickerProps) {
  return <Input id={id} aria-label={ariaLabel} value={value} onChange={(event) => onChange(event.target.value)} />;
}
