import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { londonToday } from '@crewswap/proto/browser';
import { formatDay } from '../../shared/format';
import { barPlacement, dayColumnWidth, daysOf, monthLabel, rowLabelWidth, scrollToToday, visibleDays, type DayRange } from './layout';
import { useScreenWidth } from './useScreenWidth';

export type BarTone = 'own' | 'offered' | 'kept' | 'training' | 'standby' | 'other' | 'crossover';

export interface CalendarBar {
  key: string;
  startDate: string;
  endDate: string;
  text: string;
  /** The full description, for the tooltip and screen readers. */
  title: string;
  tone: BarTone;
  onClick?: () => void;
}

export interface CalendarRow {
  key: string;
  label: ReactNode;
  /** A second, smaller line under the label. */
  sub?: ReactNode;
  own?: boolean;
  bars: CalendarBar[];
}

interface Props {
  range: DayRange;
  rows: CalendarRow[];
  /** Accessible name of the grid. */
  label: string;
}

const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'narrow', timeZone: 'UTC' });

/**
 * A calendar of rows against days: row labels stick to the left, the day header to the top, and
 * the month label above follows the scroll. It opens scrolled so that today is a third of the way in.
 */
export function CalendarGrid({ range, rows, label }: Props) {
  const screen = useScreenWidth();
  const column = dayColumnWidth(screen);
  const labelWidth = rowLabelWidth(screen);
  const days = useMemo(() => daysOf(range), [range]);
  const today = londonToday();
  const scroller = useRef<HTMLDivElement>(null);
  const [month, setMonth] = useState(() => monthLabel(days.slice(0, 7)));

  const updateMonth = () => {
    const element = scroller.current;
    if (!element) return;
    setMonth(monthLabel(visibleDays(days, element.scrollLeft, element.clientWidth - labelWidth, column)));
  };

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    element.scrollLeft = scrollToToday(days, today, element.clientWidth - labelWidth, column);
    updateMonth();
    // Only when the days or the column sizes change: later scrolling is the pilot's.
  }, [days, column, labelWidth]);

  const trackWidth = days.length * column;
  const todayIndex = days.indexOf(today);
  return (
    <div className="cal" style={{ ['--cal-col' as string]: `${column}px`, ['--cal-label' as string]: `${labelWidth}px` }}>
      <div className="cal-month" aria-live="polite">
        {month}
      </div>
      <div className="cal-scroll" ref={scroller} onScroll={updateMonth} role="grid" aria-label={label} tabIndex={0}>
        <div className="cal-row cal-head" role="row">
          <div className="cal-label" role="columnheader" />
          <div className="cal-track" style={{ width: trackWidth }}>
            {days.map((day, index) => (
              <div
                key={day}
                role="columnheader"
                aria-label={formatDay(day)}
                className={['cal-day', day === today ? 'today' : '', day.endsWith('-01') ? 'first' : ''].join(' ').trim()}
                style={{ left: index * column }}
              >
                <span className="cal-weekday">{weekday.format(new Date(`${day}T00:00:00Z`))}</span>
                <span className="cal-date">{Number(day.slice(8))}</span>
              </div>
            ))}
          </div>
        </div>
        {rows.map((row) => (
          <div key={row.key} className={['cal-row', row.own ? 'own' : ''].join(' ').trim()} role="row">
            <div className="cal-label" role="rowheader">
              <span className="cal-label-main">{row.label}</span>
              {row.sub && <span className="cal-label-sub">{row.sub}</span>}
            </div>
            <div className="cal-track" style={{ width: trackWidth }}>
              {todayIndex >= 0 && <div className="cal-today-line" style={{ left: todayIndex * column }} aria-hidden="true" />}
              {row.bars.map((bar) => {
                const place = barPlacement(range, bar);
                if (!place) return null;
                const style = { left: place.start * column + 1, width: place.span * column - 2 };
                const className = `cal-bar tone-${bar.tone}`;
                return bar.onClick ? (
                  <button key={bar.key} type="button" role="gridcell" className={className} style={style} title={bar.title} aria-label={bar.title} onClick={bar.onClick}>
                    {bar.text}
                  </button>
                ) : (
                  <div key={bar.key} role="gridcell" className={className} style={style} title={bar.title} aria-label={bar.title}>
                    {bar.text}
                  </div>
                );
              })}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
