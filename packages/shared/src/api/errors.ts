import { z } from 'zod';

/** Every 4xx answers `{ errors: { <field or user>: [message] } }`; 5xx the same shape with no internals. */
export const ErrorBody = z.object({ errors: z.record(z.string(), z.array(z.string())) });
export type ErrorBody = z.infer<typeof ErrorBody>;
