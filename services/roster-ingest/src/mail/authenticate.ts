import { unavailable } from '@crewswap/kit';
import { authenticate, type DNSResolver } from 'mailauth';

export type { DNSResolver };

export interface SenderCheck {
  /** The address in the message's From header, lower-cased (what a pilot is looked up by). */
  from: string | null;
  /** How the From domain was proved: a DKIM signature of that domain, or an SPF pass for it; null when neither. */
  method: 'dkim' | 'spf' | null;
}

const domainOf = (address: string | null | undefined) => address?.split('@').pop()?.trim().toLowerCase() || null;

/** Relaxed alignment: the same domain, or one a subdomain of the other (mail.fly.example and fly.example). */
const aligned = (a: string | null, b: string | null) => Boolean(a && b && (a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`)));

/**
 * Whether a received mail really comes from the domain in its From header: a passing DKIM
 * signature aligned with that domain, or an SPF pass for the envelope sender's domain (checked
 * against the connecting address) when that domain is aligned with it. Either one is what the
 * company's own mail servers give every message; a forged From has neither. A DNS failure that
 * leaves the answer open is thrown as a 503, so the mail is tried again later.
 */
export async function checkSender(raw: Buffer, envelope: { ip: string | null; helo: string | null; mailFrom: string | null }, resolver?: DNSResolver): Promise<SenderCheck> {
  const result = await authenticate(raw, {
    ip: envelope.ip ?? undefined,
    helo: envelope.helo ?? undefined,
    sender: envelope.mailFrom ?? undefined,
    mta: 'crewswap-roster-ingest',
    resolver,
    disableArc: true,
    disableBimi: true,
    disableDmarc: true,
  });
  const from = result.dkim.headerFrom?.[0]?.trim().toLowerCase() || null;
  const fromDomain = domainOf(from);
  const dkim = result.dkim.results.some((signature) => signature.status.result === 'pass' && aligned(domainOf(`@${signature.signingDomain ?? ''}`), fromDomain));
  if (dkim) return { from, method: 'dkim' };
  const spf = result.spf && result.spf.status.result === 'pass' && aligned(domainOf(result.spf.domain), fromDomain);
  if (spf) return { from, method: 'spf' };
  const undecided = result.dkim.results.some((signature) => signature.status.result === 'temperror') || (result.spf && result.spf.status.result === 'temperror');
  if (undecided) throw unavailable('DNS could not be asked whether this mail is authentic. It is tried again later.');
  return { from, method: null };
}
