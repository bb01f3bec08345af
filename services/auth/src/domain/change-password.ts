import { badRequest } from '@crewswap/kit';
import { MIN_PASSWORD_LENGTH, type ChangePasswordBody, type MessageResponse } from '@crewswap/proto';
import type { PilotRecord } from '../data/pilots';
import type { AuthDeps } from './deps';

/** A signed-in pilot's own password change, which needs the current password. */
export function createChangePassword(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'passwords'>) {
  return {
    async execute(input: { pilot: PilotRecord; body: ChangePasswordBody }): Promise<MessageResponse> {
      const { pilot, body } = input;
      if (body.newPassword.length < MIN_PASSWORD_LENGTH) {
        throw badRequest('Password must be at least 6 characters long.', { title: 'Password Too Short' });
      }
      if (!(await deps.passwords.verify(body.currentPassword, pilot.passwordHash))) {
        throw badRequest('Your current password is incorrect.', { title: 'Password Change Failed' });
      }
      const passwordHash = await deps.passwords.hash(body.newPassword);
      const now = deps.clock.now();
      await deps.db.transaction((trx) => deps.repos.pilots.setPassword(pilot.id, { passwordHash, forcePasswordChange: false }, trx, now));
      return { message: 'Your password has been changed successfully.' };
    },
  };
}
