import { DatePicker } from 'antd';
import dayjs from 'dayjs';

/**
 * Admin spec section 9, 'Date defaults: week starts on Sunday, English (US), format MM/dd/yyyy'.
 * dayjs's 'en' is English (US), whose week starts on Sunday; set here, once for the whole app,
 * since every date picker is this one (antd's pickers ask dayjs for the first day of the week).
 */
dayjs.locale('en');
export const DATE_INPUT_FORMAT = 'MM/DD/YYYY';

interface Props {
  id: string;
  /** A calendar day, 'YYYY-MM-DD', or '' for none. */
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  disabled?: boolean;
}

const day = (iso: string | undefined) => (iso ? dayjs(iso) : undefined);

/**
 * A date picker that holds the day as the API writes it ('YYYY-MM-DD') and shows it as the spec
 * writes dates in numbers (MM/DD/YYYY), with a calendar whose weeks start on Sunday. A date can
 * also be typed in that form.
 */
export function DateField({ id, value, onChange, min, max, disabled }: Props) {
  return (
    <DatePicker
      id={id}
      className="date-field"
      value={day(value) ?? null}
      format={DATE_INPUT_FORMAT}
      placeholder={DATE_INPUT_FORMAT}
      minDate={day(min)}
      maxDate={day(max)}
      disabled={disabled}
      onChange={(date) => onChange(date ? date.format('YYYY-MM-DD') : '')}
    />
  );
}
