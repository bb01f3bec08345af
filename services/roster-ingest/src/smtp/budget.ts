/**
 * The memory the receiver may hold of mails in transit, all connections together. A mail is
 * refused for its size only once it has passed the limit, so until then each one is held; this
 * keeps many large mails at once (a flood) from holding maxClients times the limit. When a chunk
 * does not fit, the largest mail still arriving is let go (it is only counted from then on, and
 * answered 552 if it passes the size limit, else 452: try again later): a flood of large mails
 * lets go of its own, and a roster mail of ordinary size arriving meanwhile keeps its place.
 */
export function createMailBudget(budgetBytes: number) {
  /** Bytes held by each mail; `letGo` is absent once a mail is complete (then it is only released). */
  const held = new Map<object, { bytes: number; letGo?: () => void }>();
  let total = 0;

  const release = (mail: object) => {
    total -= held.get(mail)?.bytes ?? 0;
    held.delete(mail);
  };

  return {
    /** Room for `bytes` more of `mail`; false when `mail` itself is the one to let go. */
    take(mail: object, bytes: number, letGo: () => void): boolean {
      const own = held.get(mail) ?? { bytes: 0, letGo };
      while (total + bytes > budgetBytes) {
        let largest: { mail: object; bytes: number; letGo?: () => void } = { mail, bytes: own.bytes + bytes, letGo };
        for (const [other, entry] of held) if (entry.letGo && entry.bytes > largest.bytes) largest = { mail: other, ...entry };
        if (largest.mail === mail) return false;
        release(largest.mail);
        largest.letGo!();
      }
      own.bytes += bytes;
      total += bytes;
      held.set(mail, own);
      return true;
    },
    /** The mail is complete: it is held until answered, and no longer let go. */
    keep(mail: object): void {
      const entry = held.get(mail);
      if (entry) entry.letGo = undefined;
    },
    release,
    heldBytes: () => total,
  };
}
export type MailBudget = ReturnType<typeof createMailBudget>;
