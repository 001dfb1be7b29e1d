import { useId } from 'react';

export interface AdminModeSwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

/** The 'Admin Mode' switch: a real checkbox with role="switch", labelled, keyboard operable (Space). */
export function AdminModeSwitch({ checked, onChange, disabled = false }: AdminModeSwitchProps) {
  const id = useId();
  return (
    <div className="switch-row">
      <label className="switch-row__label" htmlFor={id}>
        Admin Mode
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        aria-checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}
