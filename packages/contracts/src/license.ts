// The instance license (docs/product.md, Shell §3, §4).
import { z } from 'zod';

export const LicenseState = z
  .enum(['LICENSED', 'UNLICENSED', 'EXPIRED'])
  .meta({ id: 'LicenseState' });
export type LicenseState = z.infer<typeof LicenseState>;

export const License = z
  .object({
    state: LicenseState,
    key: z.string().describe('The license key as submitted; empty when none'),
    expiration_ts: z.number().describe('Seconds since the epoch; 0 when there is no key'),
    company_name: z.string().optional(),
    license_id: z.string().optional(),
    evaluation: z
      .boolean()
      .optional()
      .describe('True for a 30-day evaluation license (`npm run license -- evaluate`)'),
  })
  .meta({ id: 'License' });
export type License = z.infer<typeof License>;

export const LicenseSubmitRequest = z
  .object({ key: z.string().trim().min(1, 'License key is required.').max(10_000) })
  .meta({ id: 'LicenseSubmitRequest' });
export type LicenseSubmitRequest = z.input<typeof LicenseSubmitRequest>;

/** What a license key carries, signed with the issuer's Ed25519 key. */
export const LicensePayload = z.object({
  license_id: z.string().min(1),
  company_name: z.string(),
  expiration_ts: z.number().int().positive(),
  /** Set on evaluation keys only; older keys lack it and verify as before. */
  evaluation: z.boolean().optional(),
});
export type LicensePayload = z.infer<typeof LicensePayload>;
