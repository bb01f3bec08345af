import { localTime, type QuietHours } from '@crewswap/proto';

/** Whether `at` falls in the pilot's quiet hours: from start (included) to end (not), across midnight when start is later. */
export function inQuietHours(at: Date, quiet: QuietHours | null): boolean {
  if (!quiet) return false;
  const now = localTime(at, quiet.timeZone);
  return quiet.start < quiet.end ? now >= quiet.start && now < quiet.end : now >= quiet.start || now < quiet.end;
}

/** The one push a pilot's held alerts become when their quiet hours end. */
export function foldedPush(held: { kind: string; title: string; body: string; url: string }[]): { title: string; body: string; url: string } {
  if (held.length === 1) return { title: held[0]!.title, body: held[0]!.body, url: held[0]!.url };
  const offers = held.every((push) => push.kind === 'swap_offer');
  return {
    title: offers ? `${held.length} new swap offers` : `${held.length} new alerts`,
    body: held.map((push) => push.title).join('\n'),
    url: '/',
  };
}
