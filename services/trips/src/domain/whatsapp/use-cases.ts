import { createClaimWhatsappGroup } from './claim-group';
import { createCreateWhatsappGroup } from './create-group';
import { createDeleteWhatsappGroup } from './delete-group';
import { createGetWhatsappGroup } from './get-group';
import { createSetWhatsappGroupLink } from './set-group-link';
import type { GroupUseCaseDeps } from './state';

/** Everything a crew can do with its WhatsApp group; the routes take their type from here. */
export function createWhatsappGroupUseCases(deps: GroupUseCaseDeps) {
  return {
    get: createGetWhatsappGroup(deps),
    create: createCreateWhatsappGroup(deps),
    setLink: createSetWhatsappGroupLink(deps),
    remove: createDeleteWhatsappGroup(deps),
    claim: createClaimWhatsappGroup(deps),
  };
}
export type WhatsappGroupUseCases = ReturnType<typeof createWhatsappGroupUseCases>;
