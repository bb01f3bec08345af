import { CLEANUP_RETENTION } from '@crewswap/proto/browser';

/** Retention 1 to 30 days, in the words the server uses too. */
export const RETENTION_RULES = [
  {
    validator: (_: unknown, value: number | null | undefined) => {
      if (value === null || value === undefined || value < CLEANUP_RETENTION.min) return Promise.reject(new Error('Retention must be at least 1 day'));
      if (value > CLEANUP_RETENTION.max) return Promise.reject(new Error('Retention cannot exceed 30 days'));
      return Promise.resolve();
    },
  },
];
