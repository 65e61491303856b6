// Permission checks that read like the rules of docs/product.md, Shell §6.
import { Forbidden } from '../platform/errors.js';
import { actorIsAdmin, type Actor } from './actor.js';

export const denied = {
  invite: 'You do not have permission to invite users',
  edit: 'You do not have permission to edit users',
  resetPassword: "You do not have permission to reset users' passwords",
  submitLicense:
    'You do not have permission to submit a license key. Please contact your administrator.',
} as const;

/** Throws 403 with `message` unless the actor is an enabled admin. */
export function requireAdmin(actor: Actor, message: string): void {
  if (!actorIsAdmin(actor)) throw new Forbidden(message);
}
