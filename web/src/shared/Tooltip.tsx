import { Tooltip as AntTooltip, type TooltipProps } from 'antd';
import { useEffect, useRef, useState } from 'react';

/** Admin spec section 9: 'Tooltip open delay 700 ms, skip delay 300 ms'. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// One for the whole app: moving from one tooltip's control to the next opens the next at once.
let lastClosedAt = Number.NEGATIVE_INFINITY;

/**
 * antd's Tooltip with the spec's timing: it opens 700 ms after the pointer arrives, or at once
 * within 300 ms of another tooltip closing. The delay is decided when the pointer arrives, so the
 * tooltip's open state is kept here.
 */
export function Tooltip(props: TooltipProps) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (next: boolean) => {
    clearTimeout(timer.current);
    if (!next) {
      if (open) lastClosedAt = Date.now();
      setOpen(false);
      return;
    }
    if (Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS) setOpen(true);
    else timer.current = setTimeout(() => setOpen(true), TOOLTIP_OPEN_DELAY_MS);
  };

  return <AntTooltip {...props} mouseEnterDelay={0} open={open} onOpenChange={change} />;
}
