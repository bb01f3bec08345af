import type { InputProps } from 'antd';
// Input alone: the 'antd' Input carries TextArea, Search and OTP into the login screen's code.
import Input from 'antd/es/input/Input';
import type { ChangeEvent, FocusEvent, ReactNode } from 'react';

export interface ShapedInputProps extends Omit<InputProps, 'onChange' | 'value'> {
  value?: string;
  onChange?: (value: string) => void;
  /** Applied to every keystroke. */
  shape: (raw: string) => string;
  /** Applied when the field is left (e.g. zero padding, trimming). */
  shapeOnBlur?: (value: string) => string;
}

/** An input whose value is reshaped as the pilot types (names, phone, flight numbers, routes). */
export function ShapedInput({ value, onChange, shape, shapeOnBlur, onBlur, ...rest }: ShapedInputProps) {
  return (
    <Input
      {...rest}
      value={value ?? ''}
      onChange={(event: ChangeEvent<HTMLInputElement>) => onChange?.(shape(event.target.value))}
      onBlur={(event: FocusEvent<HTMLInputElement>) => {
        if (shapeOnBlur) {
          const next = shapeOnBlur(event.target.value);
          if (next !== event.target.value) onChange?.(next);
        }
        onBlur?.(event);
      }}
    />
  );
}

/** A labelled control of the app's own forms (outside antd's Form): the label names it by `id`. */
export function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}
