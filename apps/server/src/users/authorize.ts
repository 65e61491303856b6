// Permission checks that read like the rules of docs/product.md, Shell §6.
import { isAdmin } from '@loupe/contracts';
import { Forbidden } from '../http/errors.js';
import type { UserRow } from './users.repository.js';

export const denied = {
  invite: 'You do not have permission to invite users',
  edit: 'You do not have permission to edit users',
  resetPassword: "You do not have permission to reset users' passwords",
  submitLicense:
    'You do not have permission to submit a license key. Please contact your administrator.',
} as const;

export function rowIsAdmin(user: UserRow): boolean {
  return isAdmin({ role: user.role, enabled: user.enabled === 1 });
}

/** Throws 403 with `message` unless the actor is an enabled admin. */
export function requireAdmin(actor: UserRow, message: string): void {
  if (!rowIsAdmin(actor)) throw new Forbidden(message);
}
