import type { RuleObject } from 'antd/es/form';

/** The IATA form's rules, in the spec's words (section 5); every code is uppercased as typed. */
export const IATA_RULES = {
  iataCode: [
    { required: true, message: 'IATA code is required' },
    { pattern: /^[A-Za-z]{3}$/, message: 'IATA code must be exactly 3 letters' },
  ] satisfies RuleObject[],
  icaoCode: [{ max: 4, message: 'ICAO code must be at most 4 characters' }] satisfies RuleObject[],
  continent: [{ pattern: /^([A-Za-z]{2})?$/, message: 'Continent must be 2 characters' }] satisfies RuleObject[],
  isoCountry: [{ pattern: /^([A-Za-z]{2})?$/, message: 'Country code must be 2 characters' }] satisfies RuleObject[],
};

export const upper = (raw: string) => raw.toUpperCase();

export const EXCLUDED_CODE_MESSAGE = 'IATA code must be exactly 3 characters';
