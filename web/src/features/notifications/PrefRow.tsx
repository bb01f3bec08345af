import type { ReactNode } from 'react';
import '../../shared/dialogRows.css';

/** One setting of the bell's dialog: its title (which labels `control` as `${id}-label`) and text, anything more below them, the control beside. */
export function PrefRow({ id, title, text, control, children }: { id: string; title: string; text: string; control: ReactNode; children?: ReactNode }) {
  return (
    <div className="dialog-row pref-row">
      <div>
        <div id={`${id}-label`} className="pref-title">
          {title}
        </div>
        <div className="dialog-note">{text}</div>
        {children}
      </div>
      {control}
    </div>
  );
}
