/**
 * The zod-free part of proto, for the browser bundle: shaping helpers, dates and plain constants.
 * Types still come from `@crewswap/proto` (type imports cost nothing at run time).
 */
export * from './constants';
export * from './swap-facts';
export * from './admin-constants';
export * from './shaping';
export * from './dates';
export * from './roster-files';
export * from './crew-link-rules';
export * from './pwa';
export * from './crew-rules';
export * from './proposal-words';
export * from './trip-times';
