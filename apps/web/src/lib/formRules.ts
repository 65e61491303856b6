// The shared validation helpers of docs/product.md, Shell §5 as antd Form rules; messages come from the
// contracts so the server and the forms say the same thing.
import {
  COMPANY_NAME_PATTERN,
  EMAIL_PATTERN,
  PERSON_NAME_PATTERN,
  messages,
} from '@loupe/contracts';
import type { FormRule } from 'antd';

export function required(field: string, message = messages.required(field)): FormRule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'string'
        ? value.trim()
          ? ok()
          : fail(message)
        : value
          ? ok()
          : fail(message),
  };
}

export function minLength(
  field: string,
  length: number,
  message = messages.minLength(field, length),
): FormRule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && value.length > 0 && value.length < length ? fail(message) : ok(),
  };
}

export function email(message: string = messages.email): FormRule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && value.trim() && !EMAIL_PATTERN.test(value.trim())
        ? fail(message)
        : ok(),
  };
}

export function personName(): FormRule {
  return pattern(PERSON_NAME_PATTERN, messages.name);
}

export function companyName(): FormRule {
  return pattern(COMPANY_NAME_PATTERN, messages.companyName);
}

/** The value must equal another field's value. */
export function matches(
  otherField: string,
  message: string = messages.passwordsDontMatch,
): FormRule {
  return ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      value && value !== getFieldValue(otherField) ? fail(message) : ok(),
  });
}

/** The value must not be one of the given ones (compared trimmed and case-insensitively). */
export function blocked(values: readonly string[], message: string): FormRule {
  const lower = new Set(values.map((value) => value.trim().toLowerCase()));
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && lower.has(value.trim().toLowerCase()) ? fail(message) : ok(),
  };
}

function pattern(regex: RegExp, message: string): FormRule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && value.trim() && !regex.test(value.trim()) ? fail(message) : ok(),
  };
}

function ok(): Promise<void> {
  return Promise.resolve();
}

function fail(message: string): Promise<never> {
  return Promise.reject(new Error(message));
}
