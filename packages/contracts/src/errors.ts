// The error body every failing API call answers with (docs/api.md, docs/product.md, Shell §8).
import { z } from 'zod';

export const ErrorBody = z
  .object({
    description: z.string().describe('What went wrong, naming the field or entity'),
    retriable: z.boolean().describe('Whether sending the same request again may succeed'),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Ok = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });
export type Ok = z.infer<typeof Ok>;
