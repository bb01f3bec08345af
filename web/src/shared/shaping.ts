import { shapeName } from '@crewswap/proto/browser';

/**
 * Names as they are typed: letters, spaces and hyphens, title-cased. Unlike shapeName it keeps a
 * trailing space or hyphen so 'Mary Ann' can be typed; shapeName tidies up when the field is left.
 */
export function shapeNameTyping(raw: string): string {
  return raw
    .replace(/[^\p{L} -]/gu, '')
    .replace(/\s+/g, ' ')
    .replace(/^\s+/, '')
    .toLowerCase()
    .replace(/(^|[ -])(\p{L})/gu, (_match, sep: string, letter: string) => sep + letter.toUpperCase());
}

export { shapeName };
