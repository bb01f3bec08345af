import { londonToday } from '@crewswap/proto';

/** Time as the domain sees it; tests pass a fixed clock instead of the real one. */
export interface Clock {
  now(): Date;
  /** Today's date in Europe/London, YYYY-MM-DD. */
  today(): string;
}

export const systemClock: Clock = {
  now: () => new Date(),
  today: () => londonToday(new Date()),
};

export function fixedClock(at: Date | string): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(at);
  return {
    now: () => new Date(current),
    today: () => londonToday(current),
    set(next) {
      current = new Date(next);
    },
    advance(ms) {
      current = new Date(current.getTime() + ms);
    },
  };
}
