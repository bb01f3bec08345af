/**
 * A pilot's private upload address is the shared upload address with a sub-address:
 * `roster-upload@fly.example` -> `roster-upload+<token>@fly.example`. Mail systems deliver
 * plus-addresses to the base mailbox, so the airline's MX needs no change per pilot.
 */
export function privateAddress(uploadAddress: string, token: string): string {
  const at = uploadAddress.lastIndexOf('@');
  return `${uploadAddress.slice(0, at)}+${token}@${uploadAddress.slice(at + 1)}`;
}

/** The token of a recipient that is a private address of one of `uploadAddresses`, if it is one. */
export function tokenOf(recipient: string, uploadAddresses: string[]): string | undefined {
  const address = recipient.trim().toLowerCase();
  const match = /^([^@+]+)\+([a-z0-9]+)@(.+)$/.exec(address);
  if (!match) return undefined;
  const [, local, token, domain] = match;
  return uploadAddresses.some((upload) => upload.trim().toLowerCase() === `${local}@${domain}`) ? token : undefined;
}
