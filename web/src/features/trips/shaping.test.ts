import { describe, expect, it } from 'vitest';
import {
  flightDigitsOf,
  padFlightDigits,
  shapeFlightDigits,
  shapePhone,
  shapeRoute,
  shapeVerificationCode,
} from '@crewswap/proto/browser';

describe('flight numbers: fixed VS prefix, digits only, max 3, zero padded on blur', () => {
  it('keeps only digits and at most 3 of them', () => {
    expect(shapeFlightDigits('1a2')).toBe('12');
    expect(shapeFlightDigits('12345')).toBe('123');
    expect(shapeFlightDigits('VS')).toBe('');
  });
  it('pads to 3 digits when the field is left, and leaves an empty field empty', () => {
    expect(padFlightDigits('7')).toBe('007');
    expect(padFlightDigits('45')).toBe('045');
    expect(padFlightDigits('')).toBe('');
  });
  it('reads the digits back from a stored flight number', () => {
    expect(flightDigitsOf('VS025')).toBe('025');
  });
});

describe('route: upper case, letters and hyphens only, a hyphen after every 3 letters, max 7', () => {
  it('typing LAXSFO shows LAX-SFO', () => {
    expect(shapeRoute('laxsfo')).toBe('LAX-SFO');
  });
  it('drops digits and other characters', () => {
    expect(shapeRoute('l1a x/s')).toBe('LAX-S');
  });
  it('keeps a hyphen typed after a full code so the second code can follow', () => {
    expect(shapeRoute('LAX-')).toBe('LAX-');
    expect(shapeRoute('LA-')).toBe('LA');
  });
  it('stops at 7 characters', () => {
    expect(shapeRoute('LAXSFOJFK')).toBe('LAX-SFO');
  });
});

describe('phone: digits and a single leading plus', () => {
  it('keeps one leading plus and the digits', () => {
    expect(shapePhone('+44 (7700) 900-123')).toBe('+447700900123');
    expect(shapePhone('07700+900')).toBe('07700900');
  });
});

describe('VS verification code: spaces stripped, max 20', () => {
  it('strips spaces and stops at 20 characters', () => {
    expect(shapeVerificationCode(' 123 456 ')).toBe('123456');
    expect(shapeVerificationCode('1'.repeat(25))).toHaveLength(20);
  });
});
