// Validation rules and messages of docs/product.md, Shell §5, shared by the server and the web forms so both
// say exactly the same thing.
import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;

export const messages = {
  required: (field: string) => `${field} is required.`,
  minLength: (field: string, length: number) =>
    `${field} must be at least ${length} characters long.`,
  email: 'Email must be valid.',
  name: 'Name cannot include special characters.',
  companyName:
    'Company name can include only letters, numbers, and the symbols ~!?@#$%^&*()_-,.\'"',
  passwordsDontMatch: "Passwords don't match.",
  currentPasswordRequired: 'Current password is required.',
  newPasswordTooShort: `New password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  invalidUserConfig: 'Invalid user config, setup failed',
} as const;

/** Letters of any script, spaces, commas, periods, apostrophes and hyphens. */
export const PERSON_NAME_PATTERN = /^[\p{L}\p{M} ,.'-]+$/u;
/** Letters, numbers, spaces and ~!?@#$%^&*()_-,.'" (checked after trimming). */
export const COMPANY_NAME_PATTERN = /^[\p{L}\p{M}\p{N} ~!?@#$%^&*()_\-,.'"]+$/u;
// A pragmatic address check: something@something.tld, no spaces.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const Email = z
  .string()
  .trim()
  .min(1, { message: messages.required('Email'), abort: true })
  .max(320)
  .regex(EMAIL_PATTERN, messages.email)
  .transform((email) => email.toLowerCase());
export type Email = z.infer<typeof Email>;

export const PersonName = z
  .string()
  .trim()
  .min(1, { message: messages.required('Name'), abort: true })
  .max(200)
  .regex(PERSON_NAME_PATTERN, messages.name);
export type PersonName = z.infer<typeof PersonName>;

export const CompanyName = z
  .string()
  .trim()
  .min(1, { message: messages.required('Company Name'), abort: true })
  .max(200)
  .regex(COMPANY_NAME_PATTERN, messages.companyName);
export type CompanyName = z.infer<typeof CompanyName>;

export const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, messages.newPasswordTooShort)
  .max(1024, 'New password must be at most 1024 characters long.');
export type NewPassword = z.infer<typeof NewPassword>;
